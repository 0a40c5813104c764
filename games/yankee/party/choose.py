"""A Yankee Heist bot's choice from what a phone holds: the seat view (`hand`,
`playable`, `can_swipe`, `can_use_vault`, the seats and the vault), never the database
or the whole game. The game's phone offers a person the same choices. Shared by its
rehearsal bots (rehearsal.py, for bench/party.py) and the latency bench
(bench/live.py), whose clients decide like a phone, as boardgame.io's bench clients
decide on the state they were sent.
"""

from __future__ import annotations

import random
from typing import Any

Json = dict[str, Any]

TWO_TARGETS = {"SWITCHEROO", "THREE_GIFT_GRIFT", "YANKEE_HEIST"}


def _play(view: Json, r: random.Random, card: int, targets: list[int]) -> Json | None:
    """A play of `card` at random legal targets, or None when it cannot be played."""
    name = next(c["card"] for c in view["hand"] if c["id"] == card)
    two = name in TWO_TARGETS and not (name == "YANKEE_HEIST" and view["players"] == 2)
    if two and len(targets) < 2:
        return None
    action: Json = {"type": "play", "card": card, "targets": r.sample(targets, 2 if two else min(1, len(targets)))}
    if name == "YANKEE_HEIST":
        rest = [c["id"] for c in view["hand"] if c["id"] != card]
        if not rest:
            return None
        action["extra"] = r.choice(rest)
    if name == "THREE_GIFT_GRIFT":
        action["direction"] = r.choice(["clockwise", "counterclockwise"])
    return action


def choose_turn(view: Json, r: random.Random) -> Json:
    """A legal turn from what the seat view shows."""
    hand = [c["id"] for c in view["hand"]]
    playable = {int(k): v for k, v in view["playable"].items()}
    others = [s for s in range(view["players"]) if s != view["you"]]
    roll = r.random()
    if roll < 0.6 and playable:
        for card in r.sample(list(playable), len(playable)):
            action = _play(view, r, card, playable[card])
            if action is not None:
                return action
    if roll < 0.9 and view["can_swipe"]:
        cards = r.sample(hand, 2)
        if view["can_use_vault"] and r.random() < 0.3:
            return {"type": "vault", "cards": cards, "gift": r.choice(view["vault"])["gift"]}
        return {"type": "swipe", "cards": cards, "target": r.choice(others)}
    k = r.randint(0, min(2, len(hand)))
    return {"type": "regroup", "cards": r.sample(hand, k)}


def choose_window_play(view: Json, r: random.Random) -> Json | None:
    """A legal turn that opens a reaction window (a MOVE card, else a SWIPE), or None
    when the seat has neither. Every such move threatens another player's gift, so the
    engine always asks somebody (rules.py, `_next_step`)."""
    moves = {c["id"] for c in view["hand"] if c["kind"] == "MOVE"}
    playable = [(int(k), v) for k, v in view["playable"].items() if int(k) in moves]
    for card, targets in r.sample(playable, len(playable)):
        action = _play(view, r, card, targets)
        if action is not None:
            return action
    if view["can_swipe"]:
        others = [s for s in range(view["players"]) if s != view["you"]]
        return {"type": "swipe", "cards": r.sample([c["id"] for c in view["hand"]], 2), "target": r.choice(others)}
    return None


def carrier_walk(relay: Json | None, letter: str, seat: int) -> int | None:
    """The relay's walk, as the phone's party copy says it (play.js `walkPrompt`): the
    table to deliver to when this seat at table `letter` carries a relay gift not yet
    confirmed there, else None."""
    if not relay or relay.get("status") == "open" or not relay.get("result"):
        return None
    by_letter = {e["table"]: e for e in relay["result"]}
    mine = by_letter.get(letter)
    if mine is None or mine["seat"] != seat:
        return None
    to = by_letter[mine["sent_to"]]
    return None if to.get("arrived_by") is not None else to["table_id"]


def arrival_awaited(relay: Json | None, letter: str) -> int | None:
    """The relay's walk from the receiving end (tablet.js): table `letter`'s id while
    the gift walking to it has not been confirmed, else None. Its captain confirms the
    gift when it is put down at the table, whoever carried it (a carrier whose phone is
    in a pocket still walks)."""
    if not relay or relay.get("status") != "walk" or not relay.get("result"):
        return None
    mine = {e["table"]: e for e in relay["result"]}.get(letter)
    if mine is None or mine.get("arrived_by") is not None:
        return None
    return int(mine["table_id"])
