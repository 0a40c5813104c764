"""Template filters that ask the registry about a party's game (no template names one)."""

from __future__ import annotations

from django import template

from games.registry import game_named

register = template.Library()


@register.filter
def game_title(name: str) -> str:
    """The title of the game named `name`, as printed ("" for no such game)."""
    try:
        return game_named(name).title
    except LookupError:
        return ""
