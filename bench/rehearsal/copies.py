"""What a screen keeps of each table stream to take patches, for either game.

games/yankee/views.py's TableCopy keeps a stream; what differs between games is how a
seat's private part goes with the public view. Yankee Heist merges it into its seats
(the gifts a seat peeked at, in `seats` and `vault`); another game's private part is
plain keys on top of the view (games/patch.py merge_plain_private, as
static/heist/live.js `mergePrivate` takes them).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from games.patch import merge_plain_private
from games.registry import game_named
from games.yankee.views import TableCopies, TableCopy


def _without(private_keys: frozenset[str], view: dict[str, Any]) -> dict[str, Any]:
    """A snapshot's seat view without its private keys: the public view."""
    return {k: v for k, v in view.items() if k not in private_keys}


def table_copies(game: str) -> TableCopies:
    """As live.js: Yankee's merge for Yankee Heist, the plain one for any other game."""
    if game == "yankee":
        return TableCopies()
    unmerge = partial(_without, frozenset(game_named(game).private_keys()))
    return TableCopies(lambda: TableCopy(unmerge=unmerge, merge=merge_plain_private))
