"""The host's gate counts the tables it sees. The last table reaches the gate by a
guest's move over a real socket; the server broadcasts the table's update and the
party's new gate count, and the host's laptop loses the second on the way (the channel
layer is at-most-once). A table's arrival at the gate does not move the party's
revision (a table action never writes the party row), so no pong resyncs the party:
the dashboard must count the gate from the tables' own views, which are
version-checked, to let the host open the relay."""

from __future__ import annotations

import json
import random
import re

import pytest
from playwright.sync_api import expect

from tests import shorthand
from tests.browser.helpers import DbThread, new_page
from tests.browser.party_driver import WsBot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _one_move_from_the_gate(table_id: int, seed: int) -> tuple[int, dict, int]:
    """Play the bot's moves through the services (nothing broadcast) until its next one
    would bring the table to the gate; that move (its seat, its wire action, the
    version it is played on) is returned unplayed. The engine is pure: the move tried is the move played."""
    from events.party.commands import table_act
    from games.yankee import Phase, apply, parse_action
    from tests.live.tables import bot_move

    r = random.Random(seed)
    for _ in range(600):
        g, actor, wire = bot_move(table_id, r)
        seat = actor.seat  # the bot's seat (None: the host's reveal)
        action = parse_action(wire if seat is None else {**wire, "seat": seat})
        if apply(g, action)[0].phase is Phase.GATE:
            return seat, wire, g.version
        table_act(actor=actor, table_id=table_id, action=wire, expected_version=g.version)
    raise AssertionError("the table did not get near the gate")


def test_the_host_can_open_the_relay_after_missing_the_last_gate_broadcast(asgi_server, browser):
    from events.models import Guest
    from games.yankee import Phase
    from tables.models import Table
    from tests.live.tables import _drive

    db = DbThread()
    errors: list[str] = []
    dropped: list[dict] = []
    bot = None
    try:

        def make():
            party, host_token, tokens = shorthand.party_seated(name="Gate test", guests=11)
            a, b = Table.objects.filter(party=party).order_by("letter").values_list("pk", flat=True)
            _drive(a, lambda g: g.phase is Phase.GATE, 1, 600)
            seat, action, version = _one_move_from_the_gate(b, 2)
            guest = Guest.objects.get(table_id=b, seat=seat)
            return party.code, host_token, tokens[guest.pk], action, version

        code, host_token, token, action, version = db(make)
        host = new_page(browser, 1280, 900, errors, "host")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        drop = {"party": False}

        def route(ws):
            server = ws.connect_to_server()

            def from_server(message):
                msg = json.loads(message) if isinstance(message, str) else {}
                if drop["party"] and msg.get("type") == "party":
                    dropped.append(msg)  # lost on the way
                    return
                ws.send(message)

            server.on_message(from_server)
            ws.on_message(lambda message: server.send(message))

        host.route_web_socket(re.compile(r"/ws/"), route)
        host.goto(f"{asgi_server}/host/{code}/")
        expect(host.locator("#party-bar .gate-count")).to_contain_text("Tables at the gate: 1 of 2")
        expect(host.locator("#open-relay")).to_be_disabled()

        drop["party"] = True
        bot = WsBot(asgi_server, code, "last mover")
        bot.hello(token)
        assert bot.act(action, version=version)["type"] == "ok"
        # Table B's own update arrives (its card says so); the party's does not.
        expect(host.locator("#party-bar .gate-waiting")).to_contain_text("Every table finished round 2")
        for _ in range(50):  # the party's broadcast follows the table's update
            if any(m["party"]["gate"]["at_gate"] == 2 for m in dropped):
                break
            host.wait_for_timeout(100)
        assert any(m["party"]["gate"]["at_gate"] == 2 for m in dropped), dropped
        expect(host.locator("#party-bar .gate-count")).to_contain_text("Tables at the gate: 2 of 2")
        expect(host.locator("#open-relay")).to_be_enabled()
        host.locator("#open-relay").click()
        expect(host.locator("#party-bar h2")).to_have_text("The relay")
        assert not errors, errors
    finally:
        if bot is not None:
            bot.close()
        db.close()
