"""The relay is a walk (issue 28.5), on real screens: three tables at the gate, the relay
run. Table A's carrier sees "Carry gift N to table B" first, on one phone screen, and
nothing else to answer; table B's tablet waits for that gift, naming who carries it.
The carrier taps "I delivered it": the tablet sees the gift in, and waits for its own
carrier; the host's dashboard shows each table's walk and confirms the rest."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import SHOTS, DbThread, new_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = 5


def _three_tables_walking():
    """21 guests at three tables at the gate, the relay opened, drawn and run."""
    from events.models import Guest, Party
    from events.party import services
    from events.party.commands import table_act
    from events.party.roles import Actor, Role
    from events.party.tablets import tablet_pair_start
    from games.yankee import Phase
    from relay.models import Relay
    from relay.services import relay_open, relay_run
    from tables.models import Table
    from tests.live.tables import _drive
    from tests.story.record import carrier_of, party_lobby

    party, host_token, tokens = party_lobby(21, name="Walk night")
    Party.objects.filter(pk=party.pk).update(seed=SEED)  # the same seating and draws every run
    services.party_seat(party_id=party.pk)
    tables = {t.letter: t.pk for t in Table.objects.filter(party=party)}
    for seed, tid in enumerate(tables.values()):
        _drive(tid, lambda g: g.phase is Phase.GATE, seed, 800)
    relay_open(party_id=party.pk)
    for tid in tables.values():
        table_act(actor=Actor(Role.HOST, party.pk), table_id=tid, action={"type": "draw_relay_seat"})
    relay_run(party_id=party.pk)
    result = {e["table"]: e for e in Relay.objects.get(party=party).result}
    carrier = carrier_of(party, "A")
    pairing = tablet_pair_start(party_id=party.pk, table_id=tables["B"]).data["pairing"]
    captain = Guest.objects.get(table_id=tables["C"], is_captain=True)
    assert captain.pk != carrier_of(party, "C").pk, "a seed whose captain at C does not carry"
    captain_seat = {"token": tokens[captain.pk], "gift_number": captain.gift_number}
    return party.code, host_token, tokens[carrier.pk], carrier.gift_number, pairing, result, tables, captain_seat


def test_a_carrier_delivers_on_her_phone_and_the_receiving_tablet_sees_it_arrive(asgi_server, browser):
    db = DbThread()
    errors: list[str] = []
    try:
        code, host_token, token, gift_number, pairing, result, tables, captain_seat = db(_three_tables_walking)
        a, b, c = result["A"], result["B"], result["C"]

        phone = new_page(browser, 390, 844, errors, "carrier", has_touch=True, is_mobile=True)
        seat = {"token": token, "gift_number": gift_number}
        phone.context.add_init_script(f"localStorage.setItem('heist.seat.{code}', {json.dumps(json.dumps(seat))})")
        phone.goto(f"{asgi_server}/p/{code}/")
        tablet = new_page(browser, 1024, 768, errors, "tablet B")
        tablet.goto(f"{asgi_server}/t/{code}/#{pairing}")
        host = new_page(browser, 1280, 900, errors, "host")
        host.context.add_init_script(f"localStorage.setItem('heist.host.{code}', {json.dumps(host_token)})")
        host.goto(f"{asgi_server}/host/{code}/")

        # The carrier: where to take the gift, first, in one screen, and nothing to answer.
        prompt = phone.locator("#prompt")
        expect(prompt).to_have_attribute("data-prompt", "carry")
        expect(prompt.locator("h2")).to_have_text(f"Carry gift {a['sent']} to table B")
        expect(phone.locator("#carry-to")).to_have_text(
            f"Take gift {a['sent']} to table B, seat {b['seat'] + 1} ({b['guest']})."
        )
        first = phone.locator("#phone > section").first
        expect(first).to_have_id("prompt")  # the errand comes before everything else
        button = phone.locator("#delivered")
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, box  # no scrolling to find it
        expect(phone.locator("#let-it-happen")).to_have_count(0)
        assert phone.title().startswith(f"● Carry gift {a['sent']} to table B"), phone.title()  # the tab calls her
        phone.screenshot(path=str(SHOTS / "relay-walk-carrier.png"))

        # Table B's tablet: which gift it waits for, from where, carried by whom.
        duty = tablet.locator("#duty")
        expect(duty.locator("h2")).to_have_text(
            f"Waiting for gift {b['received']} from table A (carried by {a['guest']})"
        )
        expect(tablet.locator("#gift-arrived")).to_have_text(f"Gift {b['received']} has arrived")
        # the table's own line says the walk too, not "waiting at the gate" for other tables
        expect(tablet.locator(".tablet-table .status-line")).to_have_text(
            f"Waiting for gift {b['received']} from table A (carried by {a['guest']})"
        )
        tablet.screenshot(path=str(SHOTS / "relay-walk-tablet.png"))

        # Table C's captain, on her phone: what C waits for, and her own "it arrived".
        captain = new_page(browser, 390, 844, errors, "captain C", has_touch=True, is_mobile=True)
        captain.context.add_init_script(
            f"localStorage.setItem('heist.seat.{code}', {json.dumps(json.dumps(captain_seat))})"
        )
        captain.goto(f"{asgi_server}/p/{code}/")
        expect(captain.locator("#prompt h2")).to_have_text(
            f"Waiting for gift {c['received']} from table B (carried by {b['guest']})"
        )
        expect(captain.locator("#gift-arrived")).to_have_text(f"Gift {c['received']} has arrived")

        # The host: every table's walk, and the overrides.
        walks = host.locator("#party-bar .walk-list li")
        expect(walks).to_have_count(3)
        expect(host.locator("#party-bar .gate-count")).to_contain_text("0 of 3 gifts arrived")
        expect(walks.nth(1)).to_contain_text(f"Waiting for gift {b['received']} from table A (carried by {a['guest']})")

        # She delivers: the tablet sees the gift in, and waits for its own carrier.
        button.click()
        expect(prompt).to_have_attribute("data-prompt", "walk")
        expect(prompt.locator("h2")).to_have_text(f"You delivered gift {a['sent']}: back to your seat")
        expect(prompt).to_contain_text(f"Waiting for gift {a['received']} from table C (carried by {c['guest']})")
        expect(duty.locator("h2")).to_have_text(
            f"Gift {b['received']} arrived; waiting for {b['guest']} to deliver gift {b['sent']} to table C"
        )
        expect(tablet.locator("#gift-arrived")).to_have_count(0)
        expect(walks.nth(1)).to_have_attribute("data-walk", "arrived")
        expect(host.locator("#party-bar .gate-count")).to_contain_text("1 of 3 gifts arrived")
        host.locator("#party-bar").screenshot(path=str(SHOTS / "relay-walk-host.png"))

        # C's captain confirms B's carrier: table B plays round 3 with A's gift.
        captain.locator("#gift-arrived").click()
        expect(captain.locator("#gift-arrived")).to_have_count(0)
        expect(duty).not_to_have_attribute("data-duty", "walk")
        expect(walks.nth(1)).to_have_attribute("data-walk", "playing")
        expect(host.locator(f'article[data-table-id="{tables["B"]}"]')).to_have_attribute("data-round", "3")
        # Table A still waits for C's gift: its carrier is still asked nothing.
        expect(prompt).to_have_attribute("data-prompt", "walk")

        # Everything else at once: the relay is done, her table plays round 3.
        host.locator("#all-arrived").click()
        expect(host.locator("#party-bar .gate-count")).to_contain_text("The relay has run")
        expect(phone.locator("#relay-errand")).to_contain_text(
            f"You carried gift {a['sent']} to table B and received gift {a['received']} from table C."
        )
        expect(prompt).not_to_have_attribute("data-prompt", "walk")
        assert not errors, errors
    finally:
        db.close()
