"""The clients: one socket per seat and per host, a table's closed loop, its moves and windows."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import TYPE_CHECKING

from bench.livebench.measures import now
from games.yankee.party.choose import choose_turn, choose_window_play
from games.yankee.views import TableCopies

if TYPE_CHECKING:
    from bench.livebench.run import Bench


def decide_turn(view: dict, r: random.Random, want_window: bool) -> tuple[dict, bool]:
    """The current player's move from its own seat view, as a phone decides (and as
    boardgame.io's bench clients decide on the state they were sent): a move that opens a
    reaction window when one is wanted and the hand has one, else the rehearsal's bot
    choice. Returns (action, opens a window)."""
    if want_window:
        action = choose_window_play(view, r)
        if action is not None:
            return action, True
    return choose_turn(view, r), False


class Sock:
    """One screen: a seat's phone (seat = 0..P-1) or the party's host (seat = None)."""

    def __init__(self, game: GameRun, seat: int | None, token: str):
        self.game, self.seat, self.token = game, seat, token
        self.ws = None
        self.view: dict | None = None
        self.latest = -1  # newest version seen on this socket's own view
        self.trigger_v = -1  # version at which this socket last decided to act
        self.ok_v = -1  # version its last accepted action produced
        self.inflight = False
        self.snapshot = asyncio.Event()
        self.t_connect = 0.0
        self.reader: asyncio.Task | None = None
        self.copies = TableCopies()  # what patches apply to (as live.js)


class GameRun:
    """One party (= one table) and its sockets."""

    def __init__(self, info: dict):
        self.info = info
        self.table_id = info["table_id"]
        self.socks = [Sock(self, s, info["seats"][s]["token"]) for s in range(len(info["seats"]))]
        self.host = Sock(self, None, info["host_token"])
        self.over = False

    def all(self):
        return [*self.socks, self.host]


class Move:
    __slots__ = ("code", "counted", "kind", "mover", "ok", "t0", "t_ok", "tid", "version")

    def __init__(self, tid, mover, kind, t0, counted):
        self.tid, self.mover, self.kind, self.t0, self.counted = tid, mover, kind, t0, counted
        self.t_ok = None
        self.ok = None
        self.version = None
        self.code = None


class Window:
    def __init__(self, t0, mover, v_open, counted, tid, re):
        self.t0, self.mover, self.v_open, self.counted, self.tid, self.re = t0, mover, v_open, counted, tid, re
        self.move = self.affected = None  # from the mover's view of v_open
        self.timer = None


class Table:
    """The driver of one table slot: a closed loop over its games, one after another."""

    def __init__(self, bench: Bench, idx: int, mode: str):
        self.b, self.idx, self.mode = bench, idx, mode
        self.games: list[GameRun] = []
        self.cur = 0
        self.started = False
        self.finished = False
        self.move_no = 0  # phase 1: moves sent; phase 2: windows opened
        self.rng_turn = random.Random(bench.args.seed * 1000 + idx)  # turns
        self.rng = random.Random(bench.args.seed * 1000 + idx + 500)  # answers and trims
        self.window: Window | None = None
        self.windows_closed = 0
        self.creating = False

    @property
    def game(self) -> GameRun:
        return self.games[self.cur]

    def finish(self):
        if not self.finished:
            self.finished = True
            self.b.check_done()

    def kick(self):
        for s in self.game.all():
            self.on_view(s, now())

    def next_game(self):
        self.game.over = True
        self.b.games_over += 1
        if self.cur + 1 < len(self.games):
            self.cur += 1
            self.kick()
        elif not self.creating:
            self.creating = True
            self.b.on_demand_games += 1
            asyncio.get_running_loop().create_task(self._more())

    async def _more(self):
        g = await self.b.new_game(f"{self.mode}-{self.idx}-{len(self.games)}", self)
        self.games.append(g)
        self.creating = False
        self.cur += 1
        self.kick()

    def on_view(self, sock: Sock, t: float):
        """A socket's view changed (or its reply came back): does it have to act?"""
        if not self.started or sock.game is not self.game or sock.view is None:
            return
        view, v = sock.view, sock.latest
        w = self.window
        if w is not None and sock.seat == w.mover and v >= w.v_open:
            cur = view.get("window")
            if w.move is None:
                if v == w.v_open and cur is not None:
                    w.move, w.affected = cur["move"], cur["affected"]
                else:  # the mover never showed the window open: nothing to time
                    self.b.window_dropped(self, w, "window_not_seen_open")
            elif cur is None or cur.get("move") != w.move or cur.get("affected") != w.affected:
                self.b.window_closed(self, w, t)
        if self.finished or sock.inflight or v <= sock.trigger_v or v < sock.ok_v:
            return
        kind = None
        if sock.seat is None:
            if view["phase"] == "reveal":
                kind = "confirm"
            elif view["phase"] == "over" and not sock.game.over:
                self.next_game()
                return
        elif view["phase"] == "action" and view["active"] == sock.seat:
            kind = "turn"
        elif view.get("asked"):
            kind = "react"
        elif view.get("must_trim"):
            kind = "trim"
        if kind is None:
            return
        sock.trigger_v = v
        sock.inflight = True
        asyncio.get_running_loop().create_task(self.act(sock, kind, v))

    async def act(self, sock: Sock, kind: str, v: int):
        b = self.b
        try:
            if kind in ("turn", "confirm") and b.args.think:
                await asyncio.sleep(b.args.think / 1000)
            if self.finished or time.monotonic() > b.phase_deadline:
                sock.inflight = False
                self.finish()
                return
            frame = {"type": "act"}
            window = False
            if kind == "turn":
                want = self.mode == "windows"
                if want and self.move_no >= b.args.windows:
                    if self.window is None:
                        sock.inflight = False
                        self.finish()
                        return
                    want = False
                view = sock.view  # now: the think time may have brought newer versions
                if view["phase"] != "action" or view["active"] != sock.seat:
                    sock.inflight = False  # no longer this seat's turn
                    return
                t = now()
                wire, opens = decide_turn(view, self.rng_turn, want)
                b.decide.append(now() - t)
                v = frame["version"] = sock.latest
                frame["action"] = wire
                window = opens and self.window is None  # one timed window at a time
            elif kind == "react":
                hand = sock.view["hand"]
                blocks = [c["id"] for c in hand if c["kind"] == "REACTION"]
                card = self.rng.choice(blocks) if blocks and self.rng.random() < 0.3 else None
                frame["action"] = {"type": "react", "card": card}
            elif kind == "trim":
                ids = [c["id"] for c in sock.view["hand"]]
                frame["action"] = {"type": "trim", "cards": self.rng.sample(ids, sock.view["must_trim"])}
            else:
                frame["table"] = self.game.table_id
                frame["action"] = {"type": "confirm_reveal"}
            # Every act carries the version its screen shows, as the phones send it.
            frame.setdefault("version", sock.latest)
            if self.mode == "turns":
                if self.move_no >= b.args.moves:
                    sock.inflight = False
                    self.finish()
                    return
                counted = self.move_no >= b.args.warmup
                self.move_no += 1
            else:
                counted = False
            b.seq += 1
            re = f"m{b.seq}"
            frame["re"] = re
            text = json.dumps(frame, separators=(",", ":"))
            t0 = now()
            rec = Move(self.game.table_id, sock.seat, kind, t0, counted)
            b.pending[re] = (rec, sock)
            b.moves.append(rec)
            if window:
                # Its move and affected seats are read off the mover's view of v_open.
                self.window = Window(t0, sock.seat, v + 1, self.move_no >= b.args.warmup, self.game.table_id, re)
                self.move_no += 1
                self.window.timer = asyncio.get_running_loop().call_later(10, b.window_stuck, self, self.window)
            elif kind == "react" and self.window is not None:
                b.react_sends += 1
            await sock.ws.send(text)
        except Exception as exc:  # a bench bug must not hang the loop: count it and stop this table
            b.bench_errors.append(f"{type(exc).__name__}: {exc}"[:300])
            sock.inflight = False
            self.finish()
