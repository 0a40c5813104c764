"""The relay's walk at the 100-guest browser party (tests/browser/test_big_party_browser.py):
after the host runs the relay, every table waits at the gate for its gifts. A browser
phone that carries sees where to go first and taps "I delivered it"; the tablets wait
for their gift by name and confirm it; the host confirms one table from the dashboard;
the other carriers' bots confirm their own. Every table then plays round 3."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def walk_the_relay(
    *,
    db,
    code: str,
    host: Page,
    screen: Page,
    tablets: dict[str, Page],
    phone_at: dict[str, tuple[Page, int]],
    bots: dict,
    at: dict,
    shot,
) -> None:
    from games.yankee import Game
    from relay.models import Relay
    from tables.models import Table

    result = {e["table"]: e for e in db(lambda: Relay.objects.get(party__code=code).result)}
    assert all(e["arrived_by"] is None for e in result.values())
    ring = sorted(result)
    expect(screen.locator("#party-bar h2")).to_have_text(f"The relay: 0 of {len(ring)} gifts arrived")
    expect(screen.locator(".tile-badge.walk.walking")).to_have_count(len(ring))
    expect(host.locator("#party-bar .walk-list li")).to_have_count(len(ring))

    def incoming(letter: str) -> str:
        e = result[letter]
        return f"Waiting for gift {e['received']} from table {e['received_from']} (carried by {result[e['received_from']]['guest']})"

    # Every screen says what its table waits for; a carrier's phone, where to go first.
    carried: set[str] = set()  # tables whose carrier is a browser phone
    for letter, (page, seat) in phone_at.items():
        prompt = page.locator("#prompt")
        e = result[letter]
        if e["seat"] == seat:
            expect(prompt).to_have_attribute("data-prompt", "carry")
            expect(prompt.locator("h2")).to_have_text(f"Carry gift {e['sent']} to table {e['sent_to']}")
            expect(page.locator("#let-it-happen")).to_have_count(0)
            shot(page, f"phone-carry-{letter}")
            page.locator("#delivered").click()
            expect(prompt.locator("h2")).to_have_text(f"You delivered gift {e['sent']}: back to your seat")
            carried.add(e["sent_to"])
        else:
            expect(prompt).to_have_attribute("data-prompt", "walk")
            expect(prompt.locator("h2")).to_have_text(incoming(letter))
    for letter, tab in tablets.items():
        if letter not in carried:
            expect(tab.locator("#duty h2")).to_have_text(incoming(letter))
    shot(tablets["A"], "tablet-walk")

    # Tablet A confirms its gift: A still waits for its own carrier (a bot, still walking).
    if "A" not in carried:
        tablets["A"].locator("#gift-arrived").click()
        carried.add("A")
    a, b = result["A"], result["B"]
    if b["arrived_by"] is None and "B" not in carried:
        expect(tablets["A"].locator("#duty h2")).to_have_text(
            f"Gift {a['received']} arrived; waiting for {a['guest']} to deliver gift {a['sent']} to table B"
        )
    # The host confirms one table from the dashboard.
    by_host = next(letter for letter in ring if letter not in carried and letter not in tablets)
    host.locator(f'#party-bar [data-key="arrived-{by_host}"]').click()
    expect(host.locator(f'#party-bar .walk-list li[data-table="{by_host}"]')).not_to_have_attribute(
        "data-walk", "walking"
    )
    carried.add(by_host)
    # The other carriers' phones (bots) say they delivered.
    for letter in ring:
        e = result[letter]
        if e["sent_to"] in carried:
            continue
        guest = at[(letter, e["seat"])]
        bot = bots.get(guest.pk) or bots[-ord(letter)]  # a browser phone's guest has its own bot
        reply = bot.request({"type": "party", "command": "confirm_delivery", "table": result[e["sent_to"]]["table_id"]})
        assert reply["type"] == "ok" and reply["duplicate"] is False, reply
        carried.add(e["sent_to"])

    # Every table plays round 3 with the gift the table before it sent.
    expect(host.locator("#party-bar .gate-count")).to_contain_text("The relay has run")
    for tab in tablets.values():
        expect(tab.locator("#duty")).not_to_have_attribute("data-duty", "walk")
    games = db(lambda: {t.letter: Game.from_dict(t.state) for t in Table.objects.filter(party__code=code)})
    for letter, g in games.items():
        e = result[letter]
        assert g.round == 3 and g.relayed and g.gifts[e["seat"]] == e["received_id"], letter
    arrived_by = {e["table"]: e["arrived_by"] for e in db(lambda: Relay.objects.get(party__code=code).result)}
    assert arrived_by[by_host] == "host" and "carrier" in arrived_by.values(), arrived_by
