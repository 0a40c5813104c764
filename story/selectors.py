"""Reads: a finished party's story, as its game tells it (story/game.py), cached."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.utils.translation import get_language

from events.models import Party

from .game import story_of

CACHE_SECONDS = 600


def party_story(party: Party) -> dict[str, Any]:
    """The story of a party that is over, as its game tells it (LookupError for a game
    that tells none). A finished party never changes again, so the telling runs once per
    party and process (cached), however many phones ask at the end. Its sentences are
    in the active language (the reader's): one cache entry per language."""
    told = story_of(party.game)
    if told is None:
        raise LookupError(f"{party.game} tells no story")
    key = f"story:{party.pk}:{party.ended_at.timestamp() if party.ended_at else 0}:{get_language() or 'en'}"
    story: dict[str, Any] | None = cache.get(key)
    if story is None:
        story = told.tell(party)
        cache.set(key, story, CACHE_SECONDS)
    return story
