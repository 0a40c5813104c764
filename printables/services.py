"""The printables as bytes, for the command and the host's download."""

from __future__ import annotations

from functools import lru_cache

from events.models import Party

from .deck import deck_pdf
from .party import KINDS, party_pdf
from .royal_card import royal_rules_pdf
from .selectors import party_sheets


@lru_cache(maxsize=1)
def deck_pdf_cached() -> bytes:
    """The deck never changes while the code doesn't: build it once per process."""
    return deck_pdf()


@lru_cache(maxsize=2)
def royal_rules_pdf_cached(paper: str) -> bytes:
    """Royal Heist's rules card on one paper ("letter" or "a4"), built once per process."""
    return royal_rules_pdf(paper)


def party_printables(*, party: Party, base_url: str, kinds: tuple[str, ...] = KINDS) -> bytes:
    return party_pdf(party_sheets(party, base_url=base_url), kinds)
