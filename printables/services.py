"""The printables as bytes, for the command and the host's download.

A party's printables speak the party's language (Party.language); the deck and the
rules card, which belong to no party, the language active when they are asked for
(the request's, LocaleMiddleware; the command's --language)."""

from __future__ import annotations

from functools import lru_cache

from django.utils import translation

from events.models import Party

from .deck import deck_pdf
from .party import KINDS, party_pdf
from .royal_card import royal_rules_pdf
from .selectors import party_sheets


def _language() -> str:
    return translation.get_language() or "en"


@lru_cache(maxsize=4)
def _deck_pdf(language: str) -> bytes:
    with translation.override(language):
        return deck_pdf()


def deck_pdf_cached() -> bytes:
    """The deck never changes while the code doesn't: built once per process and language."""
    return _deck_pdf(_language())


@lru_cache(maxsize=8)
def _royal_rules_pdf(paper: str, language: str) -> bytes:
    with translation.override(language):
        return royal_rules_pdf(paper)


def royal_rules_pdf_cached(paper: str) -> bytes:
    """Royal Heist's rules card on one paper ("letter" or "a4"), built once per process
    and language."""
    return _royal_rules_pdf(paper, _language())


def party_printables(*, party: Party, base_url: str, kinds: tuple[str, ...] = KINDS) -> bytes:
    with translation.override(party.language):
        return party_pdf(party_sheets(party, base_url=base_url), kinds)
