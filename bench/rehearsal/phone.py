"""One screen (a guest's phone, or the host's dashboard), as static/heist/live.js behaves:
pings, resync on a version gap, reconnect with jittered backoff, and resend by `re`."""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from typing import TYPE_CHECKING

import orjson
import websockets
from websockets.asyncio.client import connect as ws_connect

from bench.rehearsal.clock import now
from bench.rehearsal.game import Offline, Refused, rehearsal_of
from bench.stack import DaphneServer
from games.registry import DEFAULT_GAME

if TYPE_CHECKING:
    from bench.rehearsal.party_run import PartyRun


# As static/heist/live.js: a ping every 2 s, a socket silent for 4 s is dead, and a
# pong showing a newer table version resyncs if still behind 0.7 s later.
PING_S = 2
DEAD_AFTER_S = 4
PONG_GRACE_S = 0.7
BACKOFF_BASE_S = 0.3
BACKOFF_CAP_S = 5.0


class Phone:
    """One screen (host or guest) with a real socket, doing what static/heist/live.js
    does. `changed` is set on every new view, party message or reconnection."""

    def __init__(self, run: PartyRun, *, role: str, token: str, servers: list[DaphneServer], source: str, name: str):
        self.run = run
        self.stats = run.stats
        self.role = role
        self.token = token
        # Where its socket goes, in order: the first that takes the connection (the
        # proxy's choice, then the next upstream when that one refuses, as nginx does).
        self.servers = servers
        self.source = source
        self.name = name
        self.ws = None
        self.ready = False
        self.quiet = False  # --quiet: never answers once seated
        self.stopped = False
        self.attempt = 0
        self.pending: dict[str, dict] = {}  # re -> {frame, fut, resend, sent_at}
        self.resyncing: asyncio.Future | None = None  # the resync in flight, if any
        self.shown: dict[tuple[str, int], int] = {}  # stream -> newest version shown (arrivals)
        self.views: dict[tuple[str, int], dict] = {}  # ("seat"|"public", table id) -> table message
        bench = getattr(run, "bench", None)  # (a test's stand-in run has none)
        # (a test's stand-in run names no game: the default one)
        game = getattr(getattr(bench, "args", None), "game", None) or DEFAULT_GAME
        rehearsal = rehearsal_of(game)
        assert rehearsal is not None, f"{game} has no rehearsal bots"
        self.copies = rehearsal.table_copies()  # what patches apply to
        self.patches = bench is None or not bench.args.whole  # as live.js, unless --whole
        self.snapshot: dict | None = None
        self.party: dict | None = None
        self.me: dict | None = None
        self.changed = asyncio.Event()
        self.last_frame = now()
        self.last_news = now()  # the last frame that was not a pong (what `_settle` waits out)
        self.frozen: asyncio.Event | None = None  # set while asleep with the socket open
        self.late = False  # this frame waited while the phone slept (not a broadcast delay)
        self.naps = 0  # moves at each fall asleep and each waking: an act's wait that spans one slept
        self.drop_next_send = False
        self.wake = asyncio.Event()
        self.wake.set()
        self.task: asyncio.Task | None = None
        self.ids = 0

    def new_re(self) -> str:
        self.ids += 1
        return f"{uuid.uuid4().hex[:16]}-{self.ids}"

    # --- the socket ----------------------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.create_task(self._connection_loop())

    async def _connect(self):
        for server in self.servers[:-1]:
            try:
                return await self._open(server)
            except ConnectionRefusedError:
                continue  # the next upstream, as nginx's proxy_next_upstream
        return await self._open(self.servers[-1])

    async def _open(self, server: DaphneServer):
        return await ws_connect(
            server.ws_url(self.run.code),
            origin=server.origin,
            proxy=None,
            open_timeout=10,
            close_timeout=1,
            ping_interval=None,
            max_queue=None,
            compression=None,
            local_addr=(self.source, 0),
        )

    async def _connection_loop(self) -> None:
        while not self.stopped:
            await self.wake.wait()
            try:
                ws = await self._connect()
            except websockets.exceptions.InvalidStatus as exc:
                status = exc.response.status_code
                self.stats.handshake_failures[status] += 1
                if status >= 500:
                    self.stats.errors_5xx += 1
                    self.stats.errors_5xx_by["ws handshake"] += 1
                await self._backoff()
                continue
            except (TimeoutError, OSError, websockets.exceptions.WebSocketException) as exc:
                self.stats.handshake_failures[type(exc).__name__] += 1
                await self._backoff()
                continue
            self.stats.connects += 1
            self.ws = ws
            self.last_frame = now()
            hello_re = self.new_re()
            self.hello_re = hello_re
            pinger = asyncio.create_task(self._pinger(ws))
            try:
                hello = {"type": "hello", "role": self.role, "token": self.token, "re": hello_re}
                if self.patches:
                    hello["patches"] = True
                await ws.send(json.dumps(hello))
                async for raw in ws:
                    self.late = self.frozen is not None
                    if self.late:
                        await self.frozen.wait()  # asleep: frames queue up, read on waking
                    self.last_frame = now()
                    # orjson: the stdlib's decoder was a fifth of the harness's time (py-spy),
                    # and the harness's lag is in every ack it times
                    msg = self._whole(orjson.loads(raw))  # as live.js
                    if msg is not None:
                        self._receive(msg, ws)
            except websockets.exceptions.ConnectionClosed:
                pass
            finally:
                pinger.cancel()
            code = ws.close_code if ws.close_code is not None else 1006
            self.stats.close_codes[code] += 1
            self._closed()
            if code in (4401, 4403, 4404, 4410):
                self.stopped = True
                self.run.fatal.append((self.name, code))
                self.changed.set()
                return
            if not self.stopped:
                await self._backoff()

    async def _backoff(self) -> None:
        base = min(BACKOFF_CAP_S, BACKOFF_BASE_S * 2**self.attempt)
        self.attempt += 1
        await asyncio.sleep(base * (0.5 + random.random() * 0.5))

    def _closed(self) -> None:
        self.ready = False
        self.ws = None
        for re, entry in list(self.pending.items()):
            if entry["sent"] and not entry["resend"]:
                del self.pending[re]
                if not entry["fut"].done():
                    entry["fut"].set_exception(Offline())
        self.changed.set()

    async def _pinger(self, ws) -> None:
        while True:
            await asyncio.sleep(PING_S)
            if self.frozen is not None:
                continue
            if now() - self.last_frame > DEAD_AFTER_S:
                self.abort()  # live.js drop(): a silent socket is dead
                return
            try:
                await ws.send('{"type":"ping"}')
            except websockets.exceptions.ConnectionClosed:
                return

    def abort(self) -> None:
        """Cut the socket without a closing handshake (a phone losing its network)."""
        ws = self.ws
        if ws is not None and ws.transport is not None:
            ws.transport.abort()

    async def _transmit(self, re: str) -> None:
        entry = self.pending.get(re)
        ws = self.ws
        if entry is None or ws is None or not self.ready:
            return
        if entry["sent_at"] is None:
            entry["sent_at"] = now()
        try:
            await ws.send(json.dumps(entry["frame"]))
            entry["sent"] = True
        except websockets.exceptions.ConnectionClosed:
            return
        if self.drop_next_send and entry["frame"]["type"] == "act":
            self.drop_next_send = False
            self.stats.drops += 1
            self.abort()

    def request(self, frame: dict, *, resend: bool) -> tuple[str, asyncio.Future]:
        re = self.new_re()
        fut = asyncio.get_running_loop().create_future()
        self.pending[re] = {"frame": {**frame, "re": re}, "fut": fut, "resend": resend, "sent": False, "sent_at": None}
        if self.ready:
            asyncio.ensure_future(self._transmit(re))
        return re, fut

    async def act(self, action: dict, *, table: int | None = None, version: int | None = None) -> dict:
        """A table action, resent with the same `re` after a drop until answered."""
        frame = {"type": "act", "action": action}
        if table is not None:
            frame["table"] = table
        if version is not None:
            frame["version"] = version
        naps = self.naps
        re, fut = self.request(frame, resend=True)
        reply = await fut
        entry_sent = reply.pop("_sent_at")
        t_ok = now()
        if self.naps != naps:  # moved at the waking, before any frame is read again
            self.stats.acks_over_sleep.append(t_ok - entry_sent)
        else:
            self.stats.ack_s.append(t_ok - entry_sent)
            self.stats.ack_at.append(t_ok)
            self.stats.ack_detail.append((time.time(), t_ok - entry_sent, action["type"], self.run.index, self.name))
        tid = table if table is not None else self.my_table()
        self.stats.actions_by_type[action["type"]] += 1
        if reply.get("duplicate"):
            self.stats.duplicates += 1
        else:
            self.stats.sent_at.setdefault((tid, reply["version"]), entry_sent)
        self.run.acked.append((tid, re, reply["version"], bool(reply.get("duplicate")), self.name))
        return reply

    async def command(self, command: str, **args) -> dict:
        return await self.request({"type": "party", "command": command, **args}, resend=False)[1]

    # --- incoming ------------------------------------------------------------------------

    def _whole(self, msg: dict) -> dict | None:
        """As live.js: a `table` message merged (public + private), a patch applied to
        the copy of the version before; None for a patch of a version this screen does
        not hold (it resyncs, unless before its first snapshot or during a resync)."""
        if msg.get("type") != "table":
            return msg
        whole = self.copies.take(msg)
        if whole is None:
            self.stats.patch_misses += 1
            if self.snapshot is not None:
                self.resync("patch")  # one in flight at a time
        return whole

    def _receive(self, msg: dict, ws) -> None:
        kind = msg.get("type")
        if kind != "pong":
            self.last_news = now()
        if kind == "snapshot":
            self._take_snapshot(msg)
            if msg.get("re") == self.hello_re:
                self.ready = True
                self.attempt = 0
                for re in list(self.pending):
                    asyncio.ensure_future(self._transmit(re))
            self.changed.set()
        elif kind == "table":
            self._take_table(msg)
        elif kind == "party":
            # As live.js: of two broadcasts that crossed, the older changes nothing.
            if self.party is None or msg["party"].get("revision", 0) >= self.party.get("revision", 0):
                self.party = msg["party"]
                self.changed.set()
        elif kind == "relay":
            if self.party is not None:
                self.party["relay"] = msg["relay"]
            self.changed.set()
        elif kind == "pong":
            self._take_pong(msg)
        elif kind == "removed":
            self.stopped = True
        re = msg.get("re")
        if re is not None and kind in ("ok", "error", "snapshot"):
            entry = self.pending.pop(re, None)
            if kind == "error":
                self.stats.refused[msg.get("code")] += 1
                if len(self.stats.refused_samples) < 8:
                    sent = entry["frame"] if entry else {}
                    self.stats.refused_samples.append(
                        {
                            "screen": self.name,
                            "code": msg.get("code"),
                            "message": msg.get("message"),
                            "sent": sent.get("action") or sent.get("command") or sent.get("type"),
                        }
                    )
            if entry is not None and not entry["fut"].done():
                if kind == "error":
                    entry["fut"].set_exception(Refused(msg))
                else:
                    msg["_sent_at"] = entry["sent_at"] or now()
                    entry["fut"].set_result(msg)
        elif kind == "error":
            self.stats.refused[msg.get("code")] += 1

    def _take_snapshot(self, snap: dict) -> None:
        self.snapshot = snap
        self.party = snap["party"]
        self.views = {}  # as live.js: a snapshot replaces every stream
        self.copies.snapshot(snap)
        t = now()
        if snap["role"] == "guest":
            self.me = snap["me"]
            for key, payload in (("seat", snap.get("table")), ("public", snap.get("public"))):
                if payload:
                    self.views[(key, payload["table"]["id"])] = payload
                    self._arrived((key, payload["table"]["id"]), payload["version"], t)
        else:
            for payload in snap.get("tables", []):
                self.views[("public", payload["table"]["id"])] = payload

    def _take_table(self, msg: dict) -> None:
        key = ("seat" if "you" in msg["view"] else "public", msg["table"]["id"])
        have = self.views.get(key)
        if have is not None and msg["version"] < have["version"]:
            return
        self.views[key] = msg
        if (key[0] == "seat" or self.role == "host") and not self.late:
            self._arrived(key, msg["version"], now())
        if have is not None and msg["version"] > have["version"] + 1:
            self.stats.gaps += 1
            self.resync("gap")
        self.changed.set()

    def _arrived(self, key: tuple[str, int], version: int, t: float) -> None:
        """A version this screen shows for the first time (a broadcast's latency); the
        same version again (a snapshot, or the server's replay after one) is not."""
        if version > self.shown.get(key, -1):
            self.shown[key] = version
            self.stats.arrivals.append((key[1], version, t))

    def _take_pong(self, msg: dict) -> None:
        # The heartbeat carries the current versions of the tables this screen reads
        # (issue 8's safety net): a screen that missed broadcasts resyncs, as live.js
        # does, if it is still behind a moment later (the broadcast of an action
        # committed just before the pong is usually on its way).
        # Its party's revision too, as live.js: a screen whose seating news (the party's
        # `resubscribe`) was lost would otherwise wait for ever, unseated.
        tables = msg.get("tables")
        if not isinstance(tables, dict):
            tables = {}
        revision = msg.get("revision")
        if self._behind(tables, revision):
            asyncio.get_running_loop().call_later(PONG_GRACE_S, self._recheck_pong, tables, revision)

    def _behind(self, tables: dict, revision=None) -> str:
        """What the pong says this screen lacks: "revision", "table", or "" (nothing)."""
        shown = (self.party or {}).get("revision")
        if isinstance(revision, int) and isinstance(shown, int) and revision > shown:
            return "revision"
        for tid, version in tables.items():
            mine = [v["version"] for kind in ("seat", "public") if (v := self.views.get((kind, int(tid)))) is not None]
            if isinstance(version, int) and (not mine or min(mine) < version):
                return "table"
        return ""

    def _recheck_pong(self, tables: dict, revision=None) -> None:
        if self.ws is not None and (why := self._behind(tables, revision)):
            self.resync(why)

    def resync(self, why: str) -> None:
        # As live.js: one resync in flight at a time; its snapshot answers the rest.
        if self.resyncing is not None and not self.resyncing.done():
            return
        self.stats.resyncs += 1
        self.stats.resyncs_by[f"{why} {self.run.stage()}"] += 1
        _, fut = self.request({"type": "resync"}, resend=True)
        fut.add_done_callback(lambda f: f.exception())
        self.resyncing = fut

    def reload(self) -> None:
        """A person reloading a frozen page: a new socket, a new hello."""
        self.stats.reloads += 1
        self.abort()

    # --- what the screen shows -----------------------------------------------------------

    def my_table(self) -> int | None:
        for kind, tid in self.views:
            if kind == "seat":
                return tid
        return None

    def seat_view(self) -> dict | None:
        tid = self.my_table()
        return self.views[("seat", tid)] if tid is not None else None

    async def stop(self) -> None:
        self.stopped = True
        self.wake.set()
        if self.frozen is not None:
            self.frozen.set()
        ws = self.ws
        if ws is not None:
            try:
                await asyncio.wait_for(ws.close(), 2)
            except Exception:
                ws.transport.abort()
        if self.task is not None:
            try:
                await asyncio.wait_for(self.task, 3)
            except Exception:
                self.task.cancel()
