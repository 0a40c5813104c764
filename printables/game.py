"""What a game brings to the party's paper: the host's protocol (docs/GAMES.md).

The host prints every party's join poster, its table tents and, for a game with the
party's gifts (`Features.gifts`), the gift labels, each with the game's title. Anything
else on paper is the game's: its package's part `games/<name>/party/printables`, found
by the game's name (`games.registry.part_of(game, "printables")`), exports
`PRINTABLES`, a `GamePrintables`:

- `deck`: the print-and-play deck, or None;
- `rules_card`: a rules card, or None;
- `sheets`: the party printables the game adds to the host's (a scorecard per table,
  slips to draw), in the host's download menu after the host's own;
- `poster_steps`: what a guest does once the poster's QR code is scanned (a msgid).

The deck and the rules card belong to no party: anyone may download them
(`/printables/<game>/deck.pdf`, `/printables/<game>/rules.pdf[?paper=a4]`). A game
without the part gets the host's fallback, `FALLBACK`: no deck, no rules card, no sheets
of its own, and the host's generic poster steps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, cast

from django.utils.translation import gettext_noop
from reportlab.pdfgen.canvas import Canvas

from games.registry import part_of

from .selectors import PartySheets


@dataclass(frozen=True)
class Handout:
    """A printable that belongs to no party (a deck, a rules card): the same for everyone."""

    # PDF bytes on `paper` (a key of printables.sheet.PAPERS), in the active language.
    draw: Callable[[str], bytes]
    # The papers it is drawn for; the first is the default (US Letter, like every printable).
    papers: tuple[str, ...] = ("letter",)


@dataclass(frozen=True)
class PartySheet:
    """One kind of a party's printables that a game adds (a scorecard, slips)."""

    kind: str  # its name in the download's URL and the command's --only: "scorecard"
    label: str  # the host's button (a msgid, translated when the menu is drawn)
    # Draws its pages from the party's data on the party's canvas, each page ended with
    # showPage; in the party's language (the host overrides it).
    draw: Callable[[Canvas, PartySheets], None]
    needs_seating: bool = False  # refused before the party is seated, like the tents


class GamePrintables(Protocol):
    """What a game prints (its package's `party/printables`, `PRINTABLES`)."""

    @property
    def deck(self) -> Handout | None: ...

    @property
    def rules_card(self) -> Handout | None: ...

    @property
    def sheets(self) -> Sequence[PartySheet]: ...

    @property
    def poster_steps(self) -> str: ...  # a msgid


@dataclass(frozen=True)
class Printables:
    """A `GamePrintables` as plain values: what a game's part may export, and the
    host's fallback."""

    poster_steps: str
    deck: Handout | None = None
    rules_card: Handout | None = None
    sheets: Sequence[PartySheet] = ()


FALLBACK: GamePrintables = Printables(
    poster_steps=gettext_noop("Type your name. Your phone shows your table and your seat once the host seats everyone.")
)


def printables_of(game: str) -> GamePrintables:
    """The printables of the game named `game`: its package's, or the host's fallback."""
    part = part_of(game, "printables")
    if part is None:
        return FALLBACK
    return cast(GamePrintables, part.PRINTABLES)


__all__ = ["FALLBACK", "GamePrintables", "Handout", "PartySheet", "Printables", "printables_of"]
