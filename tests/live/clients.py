"""WebSocket test clients for the live party: a real ASGI app (config.asgi), the real
channel layer of the test settings (Redis pub/sub) and the real database."""

from __future__ import annotations

import asyncio
import itertools
import json

from channels.testing import WebsocketCommunicator

from config.asgi import application

_ids = itertools.count(1)


class Phone:
    """One screen's socket. Keeps the latest snapshot/table view it was sent."""

    def __init__(self, code: str, *, origin: str = "http://localhost"):
        self.code = code
        self.comm = WebsocketCommunicator(
            application, f"/ws/party/{code}/", headers=[(b"origin", origin.encode()), (b"host", b"localhost")]
        )
        self.inbox: list[dict] = []
        self.snapshot: dict | None = None
        self.table: dict | None = None  # latest "table" payload for this socket's own view
        self.versions: list[int] = []

    async def connect(self):
        connected, _ = await self.comm.connect()
        assert connected
        return self

    async def send(self, frame: dict | str):
        await self.comm.send_to(text_data=frame if isinstance(frame, str) else json.dumps(frame))

    async def recv(self, timeout: float = 5) -> dict:
        msg = json.loads(await self.comm.receive_from(timeout=timeout))
        self._note(msg)
        return msg

    def _note(self, msg: dict):
        self.inbox.append(msg)
        if msg.get("type") == "snapshot":
            self.snapshot = msg
            if msg.get("table"):
                self.table = msg["table"]
        elif msg.get("type") == "table":
            self.table = msg
            self.versions.append(msg["version"])

    async def until(self, pred, timeout: float = 5) -> dict:
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

    async def reply(self, re: str, timeout: float = 5) -> dict:
        return await self.until(lambda m: m.get("re") == re and m.get("type") in ("ok", "error", "snapshot"), timeout)

    async def hello(self, role: str, token: str | None = None) -> dict:
        re = f"h{next(_ids)}"
        await self.send({"type": "hello", "role": role, "token": token, "re": re})
        return await self.reply(re)

    async def act(self, action: dict, *, version: int | None = None, table: int | None = None, re: str | None = None):
        re = re or f"a{next(_ids)}"
        frame = {"type": "act", "re": re, "action": action}
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

    async def drain(self, quiet: float = 0.05):
        """Read everything already sent."""
        while True:
            try:
                await self.recv(timeout=quiet)
            except asyncio.TimeoutError:
                return

    async def close(self):
        await self.comm.disconnect()
