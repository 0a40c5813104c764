"""Bot guests for the browser party test: real WebSockets to the same daphne the
browsers use, and one deterministic policy that says who does what next at a table.

The policy is a pure function of the game state and a per-table `random.Random`, so
the test can replay rounds 1-2 of a seating in-process (`predict`) and pick a party
seed under which one of the browser phones is drawn for the relay: then the drawn
guest's screen is checked on every run, not on half of them.

Browser seats ("phone") act through their screens with fixed choices the policy
spells out exactly (pass; a vault exchange paying with the first two cards of the
hand for the first vault gift in the round named; let every move happen; trim the
first cards of the hand), so what reaches the server is what `predict` assumed.

Royal Heist's bots (`royal_policy`, tests/browser/test_royal_big_party_browser.py) use
the same sockets: there every seat inside decides at once, so a step is a batch.
"""

from __future__ import annotations

import json
import random
import threading
import uuid

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from games.royal import Decide as RoyalDecide
from games.royal import Game as RoyalGame
from games.royal import bot_action as royal_bot_action
from games.yankee import (
    ConfirmReveal,
    DrawRelaySeat,
    Game,
    Gift,
    Phase,
    React,
    Regroup,
    Trim,
    VaultExchange,
    apply,
    new_game,
)
from games.yankee.bots import bot_action
from games.yankee.legal import can_use_vault


class WsBot:
    """One guest's socket to the running server. A reader thread keeps the socket
    drained and files replies by their `re`; a ping every 15 s keeps the guest marked
    online on the host's dashboard, as live.js does."""

    def __init__(self, base: str, code: str, label: str):
        self.label = label
        # legacy=True: a connection kept open across calls, not a `with` block
        self.ws = connect(f"ws{base.removeprefix('http')}/ws/party/{code}/", origin=base, open_timeout=10, legacy=True)
        self.replies: dict[str, dict] = {}
        self.cond = threading.Condition()
        self.closed = False
        self.reader = threading.Thread(target=self._read, name=f"bot-{label}", daemon=True)
        self.reader.start()

    def _read(self):
        try:
            for raw in self.ws:
                msg = json.loads(raw)
                if msg.get("re") and msg.get("type") in ("ok", "error", "snapshot"):
                    with self.cond:
                        self.replies[msg["re"]] = msg
                        self.cond.notify_all()
        except ConnectionClosed:
            pass
        finally:
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def request(self, frame: dict, timeout: float = 10) -> dict:
        re = uuid.uuid4().hex
        self.ws.send(json.dumps({**frame, "re": re}))
        with self.cond:
            if not self.cond.wait_for(lambda: re in self.replies or self.closed, timeout) or re not in self.replies:
                raise AssertionError(f"{self.label}: no reply to {frame}")
            return self.replies.pop(re)

    def send(self, frame: dict) -> str:
        """Send without waiting: the reply is collected later with `wait` (so bots at
        different tables can act at the same time, as guests do)."""
        re = uuid.uuid4().hex
        self.ws.send(json.dumps({**frame, "re": re}))
        return re

    def wait(self, re: str, timeout: float = 15) -> dict:
        with self.cond:
            if not self.cond.wait_for(lambda: re in self.replies or self.closed, timeout) or re not in self.replies:
                raise AssertionError(f"{self.label}: no reply to {re}")
            return self.replies.pop(re)

    def hello(self, token: str) -> dict:
        reply = self.request({"type": "hello", "role": "guest", "token": token})
        assert reply["type"] == "snapshot", reply
        return reply

    def act(self, action: dict, **extra) -> dict:
        return self.request({"type": "act", "action": action, **extra})

    def ping(self):
        try:
            self.ws.send(json.dumps({"type": "ping"}))
        except ConnectionClosed:
            pass

    def close(self):
        self.ws.close()
        self.reader.join(timeout=5)


class Pinger:
    """Pings every bot in `bots` (a dict, which may change meanwhile) every 15 s."""

    def __init__(self, bots: dict):
        self.bots = bots
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="bot-pinger", daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop.wait(15):
            for bot in list(self.bots.values()):
                bot.ping()

    def close(self):
        self.stop.set()
        self.thread.join(timeout=5)


def policy(g: Game, rand: random.Random, phone_seat: int | None, vault_round: int):
    """Who acts next at this table and how: ("bot" | "phone" | "duty", action), or
    None when the table waits at the gate or is over. Bot seats answer before the
    phone, lowest seat first, so the order is fixed."""
    phase = g.phase
    if phase is Phase.ACTION:
        seat = g.active
        if seat != phone_seat:
            return "bot", bot_action(g, rand)
        if g.round == vault_round and can_use_vault(g, seat):
            return "phone", VaultExchange(seat, tuple(g.hands[seat][:2]), g.vault[0])
        return "phone", Regroup(seat, ())
    if phase is Phase.REACTION:
        bots = [s for s in g.pending.window.waiting() if s != phone_seat]
        if bots:
            return "bot", bot_action(g, rand, seat=min(bots))
        return "phone", React(phone_seat, None)
    if phase is Phase.TRIM:
        bots = sorted(s for s in g.trims if s != phone_seat)
        if bots:
            return "bot", bot_action(g, rand, seat=bots[0])
        return "phone", Trim(phone_seat, tuple(g.hands[phone_seat][: g.trims[phone_seat]]))
    if phase is Phase.REVEAL:
        return "duty", ConfirmReveal()
    return None


def table_rand(letter: str) -> random.Random:
    return random.Random(f"bots at table {letter}")


def predict(
    plan: list[dict], guests: dict[int, dict], vault: dict[int, dict], phones: set[int], vault_round: dict
) -> dict:
    """Replay rounds 1-2 of `plan` (tables.seating.seating_plan) with the policy, as
    events.party.services.party_seat deals it; return each table's drawn relay seat."""
    drawn = {}
    for entry in plan:
        seated = [guests[gid] for gid in entry["guests"]]
        game, _ = new_game(
            seed=entry["seed"],
            gifts=[Gift(g["gift_number"], g["description"], seat) for seat, g in enumerate(seated)],
            vault=[Gift(vault[vid]["gift_id"], vault[vid]["description"]) for vid in entry["vault"]],
            gate=True,
        )
        phone_seat = next((seat for seat, gid in enumerate(entry["guests"]) if gid in phones), None)
        rand = table_rand(entry["letter"])
        for _ in range(2000):
            step = policy(game, rand, phone_seat, vault_round[entry["letter"]])
            if step is None:
                break
            game, _ = apply(game, step[1])
        assert game.phase is Phase.GATE
        game, _ = apply(game, DrawRelaySeat())
        drawn[entry["letter"]] = game.relay_seat
    return drawn


def royal_policy(g: RoyalGame, rand: random.Random, phone_seats: set[int]) -> list[RoyalDecide]:
    """Royal Heist: every seat decides at once, so a bot's step is every seat the table
    waits for, bar the browsers' (they tap in their page), each deciding at random with
    games.royal's bot. Empty when the table waits at the gate, is over, or waits only for
    a browser."""
    out = []
    for seat in g.waiting():
        if seat in phone_seats:
            continue
        action = royal_bot_action(g, rand, seat=seat)
        assert isinstance(action, RoyalDecide), action
        out.append(action)
    return out
