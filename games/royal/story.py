"""A table's play told heist by heist, from the events its replay emitted: what each
heist turned up, who got out with what, who was caught and what they lost, the card
that retired. The party's story (party/story.py, with the host's story/told.py) names
the seats.

Only the public events: a seat's own decision before the reveal (`decision_kept`, sent
to that seat alone) is not part of anyone's story. Each entry names the version of the
action it happened in, so the host can name whoever played the seat then.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.marks import gettext_noop

from .cards import title
from .state import Event

# A diamond room and the side-stack card it drew, as one room (word order by language).
ROOM_WITH_BONUS = gettext_noop("%(card)s and %(bonus)s")


def _room(data: dict[str, Any], say: Callable[[str], str]) -> str:
    card = title(data["card"], say)
    return say(ROOM_WITH_BONUS) % {"card": card, "bonus": title(data["bonus"], say)} if data.get("bonus") else card


def table_story(events: Sequence[Event], say: Callable[[str], str] = str) -> dict[str, Any]:
    """{"games": [{"game", "heists": [...], "seats"}]}: a game's `seats` once it ended,
    each [{seat, bank (this game), total (running), winner (of this game: its banks;
    of the last: the totals)}]; per heist
    its rooms (as a person says the cards), `got_out` [{seat, banked, version}],
    `caught` [{seat, satchel, bank, version}] (`bank`: what a second Joker took of it),
    the card that ended it and retired (None when everybody got out), `rooms_lost`.
    `say`: the translation of a marked text (the server passes gettext): the cards'
    titles in it, English without."""
    games: list[dict[str, Any]] = []
    heist: dict[str, Any] | None = None
    for e in events:
        if e.to is not None:
            continue
        d = e.data
        if e.type == "game_started":
            games.append({"game": d["game"], "heists": [], "seats": []})
        elif e.type == "heist_started":
            heist = {
                "heist": d["heist"],
                "rooms": [],
                "got_out": [],
                "caught": [],
                "card": None,
                "retired": None,
                "ended": None,
                "rooms_lost": 0,
            }
            games[-1]["heists"].append(heist)
        elif heist is None:
            continue
        elif e.type == "room":
            heist["rooms"].append(_room(d, say))
        elif e.type == "got_out":
            heist["got_out"] += [{"seat": s, "banked": d["banked"][str(s)], "version": e.version} for s in d["seats"]]
        elif e.type == "caught":
            heist["card"] = title(d["card"], say)
            heist["caught"] += [{"seat": s, **d["losses"][str(s)], "version": e.version} for s in d["seats"]]
        elif e.type == "retired":
            heist["retired"] = title(d["card"], say)
        elif e.type == "heist_ended":
            heist["ended"], heist["rooms_lost"] = d["ended"], d["rooms_lost"]
        elif e.type in ("game_ended", "game_over"):
            games[-1]["seats"] = [
                {"seat": seat, "bank": bank, "total": total, "winner": seat in d["winners"]}
                for seat, (bank, total) in enumerate(zip(d["banks"], d["totals"], strict=True))
            ]
    return {"games": games}


__all__ = ["table_story"]
