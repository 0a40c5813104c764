"""A TCP proxy that can stall: it keeps every connection open but stops forwarding
bytes either way, as a Wi-Fi that went quiet or a middlebox that lost its state does.
Chromium's offline emulation is no substitute: it leaves open WebSockets open and
delivering. Runs its own asyncio loop in a thread; loopback only."""

from __future__ import annotations

import asyncio
import threading


class StallingProxy:
    def __init__(self, target_port: int):
        self.target_port = target_port
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="stalling-proxy", daemon=True)
        self.thread.start()
        self.flowing: asyncio.Event | None = None
        self.server = None
        self.tasks: set[asyncio.Task] = set()
        self.port = asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(timeout=5)

    async def _start(self) -> int:
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.tasks.add(asyncio.current_task())
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter):
            try:
                while True:
                    data = await src.read(65536)
                    if not data:
                        break
                    await self.flowing.wait()  # stalled: hold the bytes, keep the socket open
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                dst.close()

        try:
            await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))
        finally:
            self.tasks.discard(asyncio.current_task())

    def stall(self) -> None:
        self.loop.call_soon_threadsafe(self.flowing.clear)

    def resume(self) -> None:
        self.loop.call_soon_threadsafe(self.flowing.set)

    def close(self) -> None:
        async def stop():
            self.flowing.set()
            self.server.close()
            for task in list(self.tasks):
                task.cancel()
            await asyncio.sleep(0)

        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(timeout=5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=5)
