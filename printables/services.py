"""The printables as bytes, for the command and the downloads.

A party's printables speak the party's language (Party.language); a game's deck and
rules card, which belong to no party, the language active when they are asked for
(the request's, LocaleMiddleware; the command's --language)."""

from __future__ import annotations

from functools import lru_cache

from django.utils import translation
from django.utils.text import slugify

from events.models import Party
from games.registry import game_named

from .game import Handout, printables_of
from .party import party_pdf
from .selectors import party_sheets

# A game's printables that belong to no party, by the name of their download.
HANDOUTS = ("deck", "rules")


def file_slug(game: str) -> str:
    """The start of a download's file name: the game's title, slugified."""
    return slugify(game_named(game).title)


class NoSuchHandout(LookupError):
    """The game prints no such thing, or not on that paper."""


def handout_of(game: str, what: str) -> Handout | None:
    """The game's deck ("deck") or rules card ("rules"), None when it has none."""
    printables = printables_of(game)
    return {"deck": printables.deck, "rules": printables.rules_card}.get(what)


@lru_cache(maxsize=16)
def _handout_pdf(game: str, what: str, paper: str, language: str) -> bytes:
    handout = handout_of(game, what)
    assert handout is not None  # handout_pdf_cached checked it
    with translation.override(language):
        return handout.draw(paper)


def handout_pdf_cached(game: str, what: str, paper: str | None = None) -> bytes:
    """The game's deck or rules card on `paper` (None: its first), built once per process,
    paper and language: it never changes while the code doesn't. Raises NoSuchHandout
    (LookupError for an unknown game)."""
    handout = handout_of(game, what)
    if handout is None:
        raise NoSuchHandout(f"{game} prints no {what}")
    paper = paper or handout.papers[0]
    if paper not in handout.papers:
        raise NoSuchHandout(f"{game}'s {what} is printed on {', '.join(handout.papers)}, not {paper!r}")
    return _handout_pdf(game, what, paper, translation.get_language() or "en")


def party_printables(*, party: Party, base_url: str, kinds: tuple[str, ...] | None = None) -> bytes:
    """The party's printables of `kinds` (None: every kind its game prints)."""
    with translation.override(party.language):
        return party_pdf(party_sheets(party, base_url=base_url), kinds)
