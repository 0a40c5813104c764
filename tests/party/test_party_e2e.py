"""Issue: the party. 30 bot guests over real WebSockets (Redis channel layer,
PostgreSQL): seating, rounds 1-2 at three tables at different paces, the gate, the
relay, rounds 3-4, the result; gifts conserved at every step."""

import pytest
from asgiref.sync import sync_to_async

from events.models import Guest, Party
from events.party.selectors import party_result
from games.yankee import Game, Phase
from relay.models import Relay
from tests.party.drive import PartyBots, assert_conserved, party_gift_ids, table_game, tables_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack, pytest.mark.slow]


async def test_thirty_guests_three_tables_gate_relay_to_the_end():
    bots = await PartyBots.create(30, vault_size=1, seed=7)
    for i in range(3):
        await bots_host_command(bots, "add_vault_gift", contributor=f"Host friend {i}", description=f"vault #{i}")
    await bots.connect()
    try:
        ok = await bots.host.command("seat")
        assert ok["type"] == "ok", ok
        tables = await tables_of(bots.party.pk)
        assert [t.letter for t in tables] == ["A", "B", "C"]
        assert sorted(len(t.roster) for t in tables) == [10, 10, 10]
        expected = await party_gift_ids(bots.party.pk)
        await assert_conserved(bots.party.pk, expected, 1)

        # Rounds 1-2 at different paces: A takes 3 actions for B's 2 and C's 1.
        pace = {tables[0].pk: 3, tables[1].pk: 2, tables[2].pk: 1}
        arrived: list[str] = []  # tables in the order they reached the gate
        while len(arrived) < 3:
            for t in tables:
                for _ in range(pace[t.pk]):
                    if (await table_game(t.pk)).phase is Phase.GATE:
                        break
                    await bots.step(t)
                if (await table_game(t.pk)).phase is Phase.GATE and t.letter not in arrived:
                    arrived.append(t.letter)
                    # A table at the gate takes no more turns: its phones wait.
                    game = await table_game(t.pk)
                    assert game.round == 2 and game.turn == len(t.roster)
            await assert_conserved(bots.party.pk, expected, 1)
            if len(arrived) < 3:
                # Some table is still playing round 2: the relay cannot open yet.
                early = await bots.host.command("open_relay")
                assert early["type"] == "error" and early["code"] == "gate_closed", early
        assert arrived[0] == "A"

        # Every phone has heard the gate is open (all three tables there).
        phone = next(iter(bots.phones.values()))
        await phone.until(lambda m: m.get("type") == "party" and m["party"]["gate"]["at_gate"] == 3)

        assert (await bots.host.command("open_relay"))["type"] == "ok"
        assert (await bots.host.command("open_relay"))["type"] == "ok"  # idempotent
        before = {t.letter: await table_game(t.pk) for t in tables}
        for t in tables:
            assert (await bots.step(t)) == "draw_relay_seat"
        drawn = {t.letter: (await table_game(t.pk)).relay_seat for t in tables}
        ran = await bots.host.command("run_relay")
        assert ran["type"] == "ok", ran
        again = await bots.host.command("run_relay")
        assert again["type"] == "ok"  # runs once; the second does nothing
        # The relay is a walk: no gift has changed table, no round 3 has begun yet.
        walking = {t.letter: await table_game(t.pk) for t in tables}
        assert all(g.phase is Phase.GATE and g.gifts == before[letter].gifts for letter, g in walking.items())
        await bots.walk()  # each carrier: "I delivered it"
        after = {t.letter: await table_game(t.pk) for t in tables}
        ring = ["A", "B", "C"]
        for i, letter in enumerate(ring):
            prev = ring[i - 1]
            seat = drawn[letter]
            assert after[letter].gifts[seat] == before[prev].gifts[drawn[prev]]
            assert after[letter].round == 3 and after[letter].phase is Phase.ACTION
            # nobody else's gift moved, and nobody drew a comeback card for it
            for s in range(len(before[letter].gifts)):
                if s != seat:
                    assert after[letter].gifts[s] == before[letter].gifts[s]
        await assert_conserved(bots.party.pk, expected, 1)
        relay = await sync_to_async(Relay.objects.get)(party=bots.party)
        assert relay.status == "done" and len(relay.result) == 3

        for t in tables:
            await bots.play_until(t, {Phase.OVER})
            await assert_conserved(bots.party.pk, expected, 1)
        party = await sync_to_async(Party.objects.get)(pk=bots.party.pk)
        assert party.status == Party.Status.OVER
        # The vault exchange ran at the tables' own vaults, and the relay exactly once.
        from tables.models import TableAction

        kinds = await sync_to_async(
            lambda: [a.action["type"] for a in TableAction.objects.filter(table__party=party)]
        )()
        assert kinds.count("vault") >= 1 and kinds.count("relay_exchange") == 3
        result = await sync_to_async(party_result)(party)
        assert len(result["keeps"]) == 30 and len(result["vault_returns"]) == 3
        # each phone's last view says which gift it keeps, and it is the DB's
        guest = await sync_to_async(Guest.objects.select_related("table").first)()
        phone = bots.phones[guest.pk]
        final = await phone.until(lambda m: m.get("type") == "table" and m["view"]["phase"] == "over")
        game = Game.from_dict((await sync_to_async(lambda: guest.table)()).state)
        assert final["view"]["result"] == game.gifts
        # The end is public: every screen is told whom each leftover vault gift goes
        # back to (the big screen names them), as the result says.
        over = await phone.until(lambda m: m.get("type") == "party" and m["party"]["status"] == "over")
        told = sorted((r["table"], r["returns_to"]) for r in over["party"]["vault_returns"])
        assert told == sorted((r["table"], r["returns_to"]) for r in result["vault_returns"]), told
        assert all(r["returns_to"] for r in over["party"]["vault_returns"])
    finally:
        await bots.close()


async def bots_host_command(bots, command, **args):
    from events.party import services

    if command == "add_vault_gift":
        return await sync_to_async(services.vault_gift_add)(party_id=bots.party.pk, **args)
    raise AssertionError(command)
