"""WebSocket test clients for the live party: a real ASGI app (config.asgi), the real
channel layer of the test settings (Redis pub/sub) and the real database."""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Literal

from channels.testing import WebsocketCommunicator

from config.asgi import application
from events.broadcast import fanout
from games.yankee.views import TableCopies, merge_table_message

_ids = itertools.count(1)

# How long a wait for what the server will send may take before the test fails: a
# message that comes returns the wait at once, so only a failing test waits this long;
# 5 s was the whole margin on a 2-core machine running two CI workers.
WAIT = 15.0


class ConsumerEnded(Exception):
    """The consumer's task finished; `__cause__` is its exception, if it raised one."""


async def next_output(comm: WebsocketCommunicator, timeout: float) -> dict:
    """The app's next ASGI message. Unlike the communicator's receive_output, a timeout
    here leaves the consumer running (asgiref cancels the application when its
    receive_output times out, which silently killed sockets after a drain)."""
    fut = comm.future
    get = asyncio.ensure_future(comm.output_queue.get())
    done, _ = await asyncio.wait({get, fut}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if get in done:
        return get.result()
    get.cancel()
    if fut in done:
        raise ConsumerEnded() from fut.exception()
    raise TimeoutError()


def fresh_application():
    """A new ASGI app, as a restarted daphne builds it: new router, new consumers.
    Everything a party needs is in PostgreSQL, so this is a process restart as far as
    the server's state goes (flush the channel layer too for its connections)."""
    from channels.routing import ProtocolTypeRouter, URLRouter
    from channels.security.websocket import AllowedHostsOriginValidator

    from config.routing import websocket_urlpatterns

    return ProtocolTypeRouter({"websocket": AllowedHostsOriginValidator(URLRouter(websocket_urlpatterns))})


class Phone:
    """One screen's socket. Keeps the latest snapshot/table view it was sent.

    `table` is the latest payload of this socket's own view: a seat view for a guest,
    the public view for the host or a spectator. A captain's socket also receives its
    table's public view; those go to `public` (and `public_versions`), so `table` and
    `versions` are never mixed up with them."""

    def __init__(self, code: str, *, origin: str = "http://localhost", app=None):
        self.code = code
        self.comm = WebsocketCommunicator(
            app or application,
            f"/ws/party/{code}/",
            headers=[(b"origin", origin.encode()), (b"host", b"localhost")],
        )
        self.inbox: list[dict] = []
        self.raw_tables: list[dict] = []  # "table" messages as sent (before live.js's merge)
        self.patches = False  # said `patches` in its hello: table updates come as patches
        self.copies = TableCopies()  # as live.js: what patches apply to
        self.patch_misses: list[dict] = []  # patches of a version this socket did not hold
        self.snapshot: dict | None = None
        self.table: dict | None = None  # latest "table" payload for this socket's own view
        self.public: dict | None = None  # a captain's latest public payload of its table
        self.versions: list[int] = []  # versions of the own-view "table" messages, in arrival order
        self.public_versions: list[int] = []
        self.shown: dict[int, int] = {}  # table id -> the newest version this screen shows of it
        self.close_code: int | None = None

    async def connect(self):
        connected, _ = await self.comm.connect()
        assert connected
        return self

    async def send(self, frame: dict | str):
        await self.comm.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def _output(self, timeout: float) -> dict:
        if self.comm.future.done():
            self.comm.future.result()  # the consumer crashed: raise its exception
            raise AssertionError("the consumer has ended")
        try:
            return await next_output(self.comm, timeout)
        except ConsumerEnded as ended:
            if ended.__cause__ is not None:
                raise ended.__cause__
            raise AssertionError("the consumer has ended") from None

    async def recv(self, timeout: float = 5) -> dict:
        out = await self._output(timeout)
        if out["type"] == "websocket.close":
            self.close_code = out.get("code", 1000)
            raise AssertionError(f"the server closed the socket ({self.close_code})")
        assert out["type"] == "websocket.send" and "text" in out, out
        msg = self._note_raw(out["text"])
        self._note(msg)
        return msg

    @property
    def role(self) -> str | None:
        return self.snapshot["role"] if self.snapshot else None

    def _note_raw(self, text: str) -> dict:
        raw = json.loads(text)
        if raw.get("type") == "snapshot":
            self.copies.snapshot(raw)
        if raw.get("type") != "table":
            return raw
        self.raw_tables.append(raw)
        if not self.patches:
            return merge_table_message(raw)  # as live.js: public + private
        whole = self.copies.take(raw)
        if whole is None:
            self.patch_misses.append(raw)
            return {**raw, "type": "table_patch_missed"}  # live.js resyncs; tests look
        return whole

    def _show(self, payload: dict | None):
        if payload and isinstance(payload.get("table"), dict) and "version" in payload:
            tid = payload["table"]["id"]
            self.shown[tid] = max(self.shown.get(tid, -1), payload["version"])

    def _note(self, msg: dict):
        self.inbox.append(msg)
        if msg.get("type") == "snapshot":
            for payload in (msg.get("table"), msg.get("public"), *(msg.get("tables") or ())):
                self._show(payload)
            self.snapshot = msg
            if msg.get("table"):
                self.table = msg["table"]
            elif len(msg.get("tables") or ()) == 1:  # a host or spectator of a one-table party
                self.table = msg["tables"][0]
            if msg.get("public"):
                self.public = msg["public"]
        elif msg.get("type") == "table":
            self._show(msg)
            if self.role == "guest" and "you" not in msg["view"]:
                self.public = msg
                self.public_versions.append(msg["version"])
            else:
                self.table = msg
                self.versions.append(msg["version"])

    def tables(self) -> list[dict]:
        """Every "table" message this socket received (own view and public), in order."""
        return [m for m in self.inbox if m.get("type") == "table"]

    async def until(self, pred, timeout: float = WAIT) -> dict:
        """Read messages until one satisfies `pred`; return it."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            left = end - loop.time()
            if left <= 0:
                raise AssertionError(f"timed out; last messages: {self.inbox[-3:]}")
            msg = await self.recv(timeout=left)
            if pred(msg):
                return msg

    async def reply(self, re: str, timeout: float = WAIT) -> dict:
        return await self.until(lambda m: m.get("re") == re and m.get("type") in ("ok", "error", "snapshot"), timeout)

    async def hello(self, role: str, token: str | None = None, *, patches: bool = False) -> dict:
        re = f"h{next(_ids)}"
        self.patches = patches
        frame = {"type": "hello", "role": role, "token": token, "re": re}
        if patches:
            frame["patches"] = True
        await self.send(frame)
        return await self.reply(re)

    def shows(self, table: int | None = None) -> int | None:
        """The version this screen shows of `table` (None: its own table), as a screen
        sends it with an act; None when it shows none."""
        if table is None:
            own = self.snapshot and (self.snapshot.get("table") or self.snapshot.get("public"))
            table = own["table"]["id"] if own else (self.table or {}).get("table", {}).get("id")
        return self.shown.get(table) if table is not None else None

    async def act(
        self,
        action: dict,
        *,
        version: int | Literal["shown"] | None = "shown",
        table: int | None = None,
        re: str | None = None,
    ):
        """Send an act as a screen does: with the version it shows of the table
        (`version=None`: none, a frame the server refuses for a checked action)."""
        re = re or f"a{next(_ids)}"
        frame = {"type": "act", "re": re, "action": action}
        if version == "shown":
            version = self.shows(table)
        if version is not None:
            frame["version"] = version
        if table is not None:
            frame["table"] = table
        await self.send(frame)
        return await self.reply(re)

    async def command(self, command: str, **args) -> dict:
        re = f"c{next(_ids)}"
        await self.send({"type": "party", "re": re, "command": command, **args})
        return await self.reply(re)

    async def at_version(self, version: int, timeout: float = WAIT) -> dict:
        """Read until this socket's own view has reached `version`; return that payload."""
        if self.table is not None and self.table["version"] >= version:
            return self.table
        await self.until(
            lambda m: m.get("type") in ("table", "snapshot") and (self.table or {}).get("version", 0) >= version,
            timeout,
        )
        return self.table

    async def at_public_version(self, version: int, timeout: float = WAIT) -> dict:
        """For a captain: read until the table's public view has reached `version`."""
        if self.public is None or self.public["version"] < version:
            await self.until(lambda m: (self.public or {}).get("version", 0) >= version, timeout)
        return self.public

    async def drain(self, quiet: float = 0.05) -> list[dict]:
        """Read everything already sent; return it."""
        got = []
        while True:
            try:
                got.append(await self.recv(timeout=quiet))
            except TimeoutError:
                return got

    async def closed(self, timeout: float = WAIT) -> int:
        """Read until the server closes this socket; return the close code (frames
        before it are noted as usual)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            out = await self._output(max(0.01, end - loop.time()))
            if out["type"] == "websocket.close":
                self.close_code = out.get("code", 1000)
                return self.close_code
            if out["type"] == "websocket.send" and "text" in out:
                self._note(self._note_raw(out["text"]))

    async def close(self):
        """The browser goes away (tab closed, phone asleep): websocket.disconnect."""
        if self.comm.future.done():
            if not self.comm.future.cancelled():
                self.comm.future.result()
            return
        await self.comm.disconnect()


async def sent_until_now(phones: list[Phone], table_id: int) -> list[list[dict]]:
    """Per socket, everything the server had sent it when this was called, known whole
    without waiting a fixed time for nothing to come (a sleep is a guess: too short on a
    loaded machine, and an absence after it proves nothing). Two barriers:

    - each socket's own requests are answered in order (events/live/socket/queue.py), and
      an act's table update is published after its reply: a malformed act, answered
      once every request before it (and that request's publishing) is done;
    - a table update reaches this process's sockets through the fan-out's `_to`, written
      at once or queued behind a seat check or a snapshot (events/broadcast/fanout.py): a
      marker sent through `_to` to every socket at the table arrives after them all.

    The markers and the malformed acts' replies are left out of what is returned."""
    start = [len(p.inbox) for p in phones]
    answers = set()
    for p in phones:
        re = f"barrier{next(_ids)}"
        await p.send({"type": "act", "re": re, "table": table_id, "action": []})
        answer = await p.reply(re)
        assert answer.get("code") == "illegal.malformed", answer
        answers.add(re)
    fan = fanout.local()
    marker = f"marker{next(_ids)}"
    listeners = {c for members in fan.streams.get(table_id, {}).values() for c in members}
    for consumer in listeners:
        await fan._to(consumer, json.dumps({"type": "marker", "re": marker}))
    for p in phones:
        await p.until(lambda m: m.get("type") == "marker" and m.get("re") == marker)
    return [
        [m for m in p.inbox[n:] if m.get("type") != "marker" and m.get("re") not in answers]
        for p, n in zip(phones, start, strict=True)
    ]
