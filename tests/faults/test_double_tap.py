"""A Royal Heist phone 300 ms from the server taps twice: the second tap, made on the
screen of one room, lands after the room has changed, and is refused as stale, never
kept as the guest's choice for a room they had not seen (issue 38: 3 of 17 tries were
stored for the next room, and the phone said "You chose to get out").

The phone reaches the real server (a daphne subprocess) through a TCP proxy that delays
everything it sends by 300 ms and, to place the late tap exactly, can hold it until the
test lets it go; the other phones connect directly.
"""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from asgiref.sync import sync_to_async

from bench.stack import HOST, free_port
from events.party import services
from games.patch import merge_plain_private
from tables.models import Table, TableAction
from tests import shorthand

from .server import DaphneServer, LivePhone

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]

DELAY = 0.3  # the phone's one-way delay to the server, as in the issue


class DelayingProxy:
    """A TCP proxy in front of a daphne: what the phone sends reaches the server `delay`
    seconds later, in order (and not before `release` while held); what the server sends
    comes back at once. Looks like the server to a LivePhone (`ws_url`, `origin`)."""

    def __init__(self, server: DaphneServer, delay: float) -> None:
        self.server = server
        self.delay = delay
        self.port = free_port()
        self.open = asyncio.Event()
        self.open.set()
        self.listener: asyncio.Server | None = None
        self.tasks: set[asyncio.Task] = set()

    @property
    def origin(self) -> str:
        return self.server.origin  # the page the phone loaded came from the server itself

    def ws_url(self, code: str) -> str:
        return f"ws://{HOST}:{self.port}/ws/party/{code}/"

    async def start(self) -> DelayingProxy:
        self.listener = await asyncio.start_server(self._serve, HOST, self.port)
        return self

    async def stop(self) -> None:
        assert self.listener is not None
        self.listener.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    def hold(self) -> None:
        self.open.clear()

    def release(self) -> None:
        self.open.set()

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection(HOST, self.server.port)
        late: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        async def upstream_in() -> None:
            while data := await client_r.read(65536):
                await late.put((loop.time() + self.delay, data))
            await late.put((0.0, b""))

        async def upstream_out() -> None:
            while True:
                due, data = await late.get()
                await asyncio.sleep(max(0.0, due - loop.time()))
                await self.open.wait()
                if not data:
                    server_w.close()
                    return
                server_w.write(data)
                await server_w.drain()

        async def downstream() -> None:
            while data := await server_r.read(65536):
                client_w.write(data)
                await client_w.drain()
            client_w.close()

        tasks = {asyncio.create_task(f()) for f in (upstream_in, upstream_out, downstream)}
        self.tasks |= tasks
        with contextlib.suppress(Exception):
            await asyncio.gather(*tasks)


class RoyalLivePhone(LivePhone):
    """A LivePhone of a Royal Heist table: a seat's update is the public view plus its
    own private part, merged as a screen would (Yankee Heist's merge does not read it)."""

    def _merged(self, msg: dict) -> dict:
        return merge_plain_private(msg)


@sync_to_async
def _royal_party(guests: int) -> tuple[str, str, list[str], int]:
    party, host_token = shorthand.party_create(name="Royal night", game="royal")
    tokens = [shorthand.guest_join(code=party.code, name=f"G{i}", description="-")[1] for i in range(guests)]
    services.party_seat(party_id=party.pk)
    return party.code, host_token, tokens, Table.objects.get(party=party).pk


@sync_to_async
def _game(table_id: int):
    table = Table.objects.get(pk=table_id)
    return table.definition.from_dict(table.state)


@sync_to_async
def _decisions_of(table_id: int, label: str) -> list[tuple[int, dict]]:
    rows = TableAction.objects.filter(table_id=table_id, actor=label).order_by("version")
    return list(rows.values_list("version", "action"))


async def _until(check, timeout: float = 10) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await check():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.02)


async def test_a_second_tap_arriving_after_the_room_changed_is_refused_as_stale(server):
    code, _, tokens, table_id = await _royal_party(3)
    proxy = await DelayingProxy(server, DELAY).start()
    phones = []
    try:
        slow = RoyalLivePhone(proxy, code, "guest", tokens[0])  # type: ignore[arg-type]
        fast = [RoyalLivePhone(server, code, "guest", t) for t in tokens[1:]]
        phones = [slow, *fast]
        for phone in phones:
            hello = await phone.open()
            assert hello["type"] == "snapshot", hello
        seat = slow.snapshot["me"]["seat"]
        label = f"seat:{seat}"
        room = slow.snapshot["table"]["view"]
        seen = room["version"]
        assert room["phase"] == "decide" and room["can_decide"], room

        # The first tap crosses the slow link and is kept; the second, made on the same
        # screen while the update redraws the buttons, is still on its way.
        first = await slow.act({"type": "decide", "press_on": True}, version=seen)
        assert first["type"] == "ok", first
        proxy.hold()
        tap = {"type": "act", "action": {"type": "decide", "press_on": False}, "version": seen, "re": "second-tap"}
        second = asyncio.create_task(slow.request(tap, timeout=30))

        # Everybody else decides: the room is revealed and the next one turned up, with
        # the slow phone's seat inside and deciding again.
        for phone in fast:
            v = (await _game(table_id)).version
            assert (await phone.act({"type": "decide", "press_on": True}, version=v))["type"] == "ok"
        after = await _game(table_id)
        assert seat in after.waiting(), "the next room does not ask the slow seat: nothing to prove"
        assert after.version > seen + 1

        start = len(slow.inbox)
        proxy.release()
        refused = await second
        assert refused["type"] == "error" and refused["code"] == "stale", refused
        # ... and the phone is sent the table as it is now: a snapshot follows the refusal.
        await _until(lambda: _snapshot_since(slow, start, after.version))
        now = await _game(table_id)
        assert seat not in now.decisions and seat in now.waiting(), "the late tap was kept for the next room"
        assert [v for v, _ in await _decisions_of(table_id, label)] == [seen + 1]
        # Leaving the version out is no way around it: a decision is checked, so a frame
        # without the version its screen showed is refused and changes nothing.
        bare = await slow.act({"type": "decide", "press_on": False}, version=None)
        assert bare["type"] == "error" and bare["code"] == "malformed", bare
        assert (await _game(table_id)).version == now.version
        assert [v for v, _ in await _decisions_of(table_id, label)] == [seen + 1]
    finally:
        for phone in phones:
            await phone.close()
        await proxy.stop()


async def _snapshot_since(phone: LivePhone, start: int, version: int) -> bool:
    return any(
        m.get("type") == "snapshot" and (m.get("table") or {}).get("version", 0) >= version for m in phone.inbox[start:]
    )
