"""The host's party bar (issue 38): the relay's mechanics are the host's, its words the
game's. Three tables, two at the gate, then all three, the relay opened, drawn, run and
walked, on the host's dashboard: once with Yankee Heist's tile module, whose `beforeGate`
and `relayWords` say where a table stands in its rounds and that rounds 3 and 4 follow;
once with the same module stripped of both hooks (the page's request for it answered
with a module that re-exports only `mount` and `waitingFor`), as a game with the relay
that says nothing of its own would be. Without them the bar still counts the gate, lists
the captains' draws (from each table's `relay_draw`, never a game's view), runs the walk
and starts every table, in words that name no round."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Route, expect

from tests.browser.helpers import DbThread, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = 5
TILE = re.compile(r"/static/yankee/tile(\.[0-9a-f]+)?\.js(\?.*)?$")

# What each bar says: Yankee Heist's own words, and the host's for a game without them.
YANKEE = {
    "ready": "Every table finished round 2. Open the relay and announce the order; each captain draws a seat.",
    "walking": "Each table plays round 3 once its gift is in and its own carrier has delivered.",
    "all_arrived": "Every gift has arrived — start round 3 everywhere",
    "playing": ": playing round 3",
    "done": "The relay has run: every table plays rounds 3 and 4.",
}
NEUTRAL = {
    "ready": "Every table is at the gate. Open the relay and announce the order; each captain draws a seat.",
    "walking": "Each table plays on once its gift is in and its own carrier has delivered.",
    "all_arrived": "Every gift has arrived — every table plays on",
    "playing": ": playing on",
    "done": "The relay has run: every table plays on.",
}


def _two_at_the_gate():
    """21 guests at three tables: A and B at the gate, C a few turns into round 1."""
    from events.models import Party
    from events.party import services
    from games.yankee import Phase
    from tables.models import Table
    from tests.live.tables import _drive
    from tests.story.record import party_lobby

    party, host_token, _ = party_lobby(21, name="Bar night")
    Party.objects.filter(pk=party.pk).update(seed=SEED)
    services.party_seat(party_id=party.pk)
    tables = {t.letter: t.pk for t in Table.objects.filter(party=party)}
    assert sorted(tables) == ["A", "B", "C"]
    for seed, letter in enumerate("AB"):
        _drive(tables[letter], lambda g: g.phase is Phase.GATE, seed, 800)
    c = _drive(tables["C"], lambda g: g.phase is Phase.ACTION and g.turn >= 2, 7, 200)
    table = Table.objects.get(pk=tables["C"])
    view = table.definition.public_view(c)
    return party.code, host_token, tables, {k: view[k] for k in ("round", "turn", "players")}


def _last_to_the_gate(table_id: int) -> None:
    from games.yankee import Phase
    from tests.live.tables import _drive

    _drive(table_id, lambda g: g.phase is Phase.GATE, 9, 800)


def _draw_everywhere(code: str, tables: dict[str, int]) -> dict[str, tuple[str, int, str]]:
    """Every captain's draw (as the host); each table's drawn guest, seat and gift label."""
    from events.models import Guest, Party
    from events.party.commands import table_act
    from events.party.roles import Actor, Role
    from games.yankee import Game
    from tables.models import Table

    party = Party.objects.get(code=code)
    drawn = {}
    for letter, tid in tables.items():
        table_act(actor=Actor(Role.HOST, party.pk), table_id=tid, action={"type": "draw_relay_seat"})
        table = Table.objects.get(pk=tid)
        g = Game.from_dict(table.state)
        guest = Guest.objects.get(table_id=tid, seat=g.relay_seat)
        drawn[letter] = (guest.name, g.relay_seat, table.definition.gift_label(g.gifts[g.relay_seat]))
    return drawn


def _relay_result(code: str) -> list[dict]:
    from relay.models import Relay

    return Relay.objects.get(party__code=code).result


def _strip_the_hooks(route: Route) -> None:
    """The tile module as a game without `beforeGate` and `relayWords`: the page's
    request gets a module re-exporting the rest of the real one (fetched as `?whole`)."""
    url = route.request.url
    if url.endswith("?whole"):
        route.continue_()
        return
    body = f'export {{ mount, waitingFor }} from "{url.split("?")[0]}?whole";\n'
    route.fulfill(status=200, content_type="text/javascript", body=body)


@pytest.mark.parametrize("hooks", [True, False], ids=["yankee-words", "no-hooks"])
def test_the_party_bar_runs_the_relay_in_the_games_words_or_the_hosts(asgi_server, browser, hooks):
    words = YANKEE if hooks else NEUTRAL
    db = DbThread()
    errors: list[str] = []
    try:
        code, host_token, tables, c = db(_two_at_the_gate)
        host = new_page(browser, 1280, 900, errors, "host")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        if not hooks:
            host.route(TILE, _strip_the_hooks)
        host.goto(f"{asgi_server}/host/{code}/")
        bar = host.locator("#party-bar")

        # The gate: the count and the button are the host's; where C stands, the game's.
        expect(bar.locator(".gate-count")).to_contain_text("Tables at the gate: 2 of 3")
        expect(host.locator("#open-relay")).to_have_text("Open the relay (waiting for 1 more table)")
        behind = f"C (round {c['round']}, turn {min(c['turn'] + 1, c['players'])} of {c['players']})" if hooks else "C"
        expect(bar.locator(".gate-waiting")).to_have_text(f"Everyone waits for: {behind}")
        # The room's way to the gate: C's turns count with the game's hook, not without it.
        c_way = ((c["round"] - 1) * c["players"] + min(c["turn"], c["players"])) / (2 * c["players"])
        progress = round((2 + (c_way if hooks else 0)) / 3 * 100)
        expect(bar.locator("progress.gate-progress")).to_have_attribute("value", str(progress))

        db(_last_to_the_gate, tables["C"])
        host.reload()
        expect(bar.locator(".gate-count")).to_contain_text("Tables at the gate: 3 of 3")
        expect(bar.locator(".gate-waiting")).to_have_text(words["ready"])
        host.locator("#open-relay").click()
        expect(bar.locator("h2")).to_have_text("The relay")
        expect(host.locator("#run-relay")).to_have_text("Run the relay (3 tables still to draw)")

        # The draws: the table's `relay_draw`, whatever the game's view calls it.
        drawn = db(_draw_everywhere, code, tables)
        host.reload()
        for letter, (name, seat, gift) in drawn.items():
            expect(bar.locator(f'.drawn-seats li[data-table="{letter}"]')).to_have_text(
                f"✓ Table {letter}: drawn seat: {name} (seat {seat + 1}, gift {gift})"
            )
        host.locator("#run-relay").click()

        # The walk: the host's mechanics, the game's words for what follows.
        expect(bar.locator(".gate-count.walking")).to_contain_text("0 of 3 gifts arrived. " + words["walking"])
        expect(host.locator("#all-arrived")).to_have_text(words["all_arrived"])
        first = db(_relay_result, code)[0]
        # Its gift in and its own carrier's gift delivered: that table plays on.
        bar.locator(f'[data-key="arrived-{first["table"]}"]').click()
        bar.locator(f'[data-key="arrived-{first["sent_to"]}"]').click()
        walk = bar.locator(f'.walk-list li[data-table="{first["table"]}"]')
        expect(walk).to_have_attribute("data-walk", "playing")
        expect(walk).to_contain_text(
            f"Gift {first['received']} arrived from table {first['received_from']}{words['playing']}"
        )
        host.locator("#all-arrived").click()
        expect(bar.locator(".gate-count.done")).to_have_text("✓ " + words["done"])
        assert not errors, errors
    finally:
        db.close()
