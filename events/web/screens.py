"""What a party's page tells its scripts about the party's game, and which games have screens.

A game's screens are its package's client modules (docs/GAMES.md), served as any app's
static files: `games/<name>/static/<name>/phone.js` is `/static/<name>/phone.js`. Each
page of a party embeds the game's facts as `<script id="heist-game"
type="application/json">` (`game_for_page`); the page's host script (static/heist/play.js,
tablet.js, host.js, screen.js) reads it, `import()`s the `module` it names and mounts it.
No page names a game: what differs between games is asked of the definition.
"""

from __future__ import annotations

import functools
from dataclasses import asdict
from typing import Any

from django.contrib.staticfiles import finders
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.templatetags.static import static
from django.utils.translation import gettext

from games.definition import NamesDuties, NamesSteps
from games.registry import game_named

# The modules a game brings, one per screen: a guest's phone, a captain's tablet, the
# host's tile of a table (and what the dashboard asks of the game) and the big screen's.
MODULES: tuple[str, ...] = ("phone", "tablet", "tile", "board")

# Which module each page of a party loads (the join page loads none).
PAGE_MODULES: dict[str, str] = {
    "events/play.html": "phone",
    "events/tablet.html": "tablet",
    "events/host.html": "tile",
    "events/screen.html": "board",
}


def _static_path(name: str, module: str) -> str:
    return f"{name}/{module}.js"


def on_screens(name: str) -> bool:
    """Whether the game's package brings all four screens' modules: the host's form
    offers only such games, so nobody starts a party no phone can play."""
    return all(finders.find(_static_path(name, module)) for module in MODULES)


def game_css(name: str) -> str | None:
    """The static URL of the game's own style sheet (`<name>/<name>.css`), if it has one."""
    path = f"{name}/{name}.css"
    return static(path) if finders.find(path) else None


# The fragments of a party's pages that a game may write itself, by name: the end of a
# finished party on its join page, and where its dashboard hands out a tablet's pairing
# code. A game that writes none gets the host's (templates/events/fragments/).
FRAGMENTS: tuple[str, ...] = ("late_result", "pair_help")


@functools.cache
def game_fragments(name: str) -> dict[str, str]:
    """The templates of the pages' fragments for the game named `name`: its own
    (`games/<name>/templates/<name>/<fragment>.html`) where it has one, the host's where not."""
    out = {}
    for fragment in FRAGMENTS:
        own = f"{name}/{fragment}.html"
        try:
            get_template(own)
        except TemplateDoesNotExist:
            own = f"events/fragments/{fragment}.html"
        out[fragment] = own
    return out


def game_for_page(name: str, template: str | None = None) -> dict[str, Any]:
    """The game's facts for a page's scripts (`heist-game`): its name and title, the parts
    of the party it uses, how many players a table seats at least and at most (the
    lobby's table count is the server's seating rule with these), the keys of a seat's
    private view, the words of its steps' stand-ins (`steps`) and of its duties
    (`duties`), and the static URL of its module for this page (None: the page loads
    none)."""
    definition = game_named(name)
    module = PAGE_MODULES.get(template or "")
    return {
        "name": definition.name,
        "title": definition.title,
        "features": asdict(definition.features),
        "min_players": definition.min_players,
        "table_max": definition.table_max,
        "private_keys": list(definition.private_keys()),
        # the words of the stand-in buttons and alerts per step (NamesSteps), in the page's language
        "steps": {
            step: {key: gettext(text) for key, text in texts.items()}
            for step, texts in (definition.step_texts() if isinstance(definition, NamesSteps) else {}).items()
        },
        # what a quiet guest's stand-ins and the captain's duties are, in the game's words
        # (NamesDuties: the dashboard's step-clock menu and tablets hint), in the page's language
        "duties": {
            key: gettext(text)
            for key, text in (definition.duty_texts() if isinstance(definition, NamesDuties) else {}).items()
        },
        "module": static(_static_path(name, module)) if module else None,
        "css": game_css(name),
    }
