"""The engines' one translation mark, free of Django.

`gettext_noop` marks a text a screen shows (a card's effect, a card's title,
a rank's name) for translation: xgettext knows the name, so `bin/messages` collects it,
and the engine keeps its English. The text is translated where it is shown, by the `say`
a game's `rules_for_screens` takes (the server passes gettext).
"""

from __future__ import annotations


def gettext_noop(text: str) -> str:
    return text


__all__ = ["gettext_noop"]
