"""Issue 13: the party's story equals what an independent replay of the action log
says, keeps the rules' secrets, and is open only to the party, only at the end."""

import json
from collections import Counter

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory

from events.models import Party
from games.yankee import gift_label
from games.yankee.actions import React, RelayExchange, TimeoutPass, VaultExchange
from games.yankee.party.story.inputs import story_replay
from story.replay import ReplayMismatch, table_replay
from story.selectors import party_story
from tests.story.record import party_lobby, party_play, party_record, table_start, table_steps

pytestmark = pytest.mark.django_db


def independent_replay(table):
    """Replay one table straight through the engine, counting from the state alone
    (no events): card moves per gift, vault/relay exchanges, blocked windows."""
    game = table_start(table)
    moves, blocked, opened = Counter(), Counter(), set(game.open)
    for action, before, game in table_steps(table):
        if isinstance(action, (React, TimeoutPass)):
            window = before.pending.window
            closed = (
                game.pending is None or game.pending.window is None or game.pending.window.version != window.version
            )
            changed = (
                [g for s_, g in enumerate(before.gifts) if game.gifts.index(g) != s_]
                if before.gifts != game.gifts
                else []
            )
            for g in changed:
                moves[g] += 1
            if closed and not changed:  # the window closed and nothing moved: a block
                blocked.update(before.gifts[src] for src, _ in window.move)
        elif not isinstance(action, (VaultExchange, RelayExchange)):
            assert before.gifts == game.gifts  # nothing else moves a gift
        opened |= game.open
    return game, moves, blocked, opened


@pytest.fixture(scope="module")
def recorded(django_db_setup, django_db_blocker):
    """One two-table party with vaults and the relay, played to the end by bots."""
    with django_db_blocker.unblock():
        party = party_record(13, vault_size=2, seed=11)
        yield party
        party.delete()


def test_the_story_equals_an_independent_replay(recorded):
    party = recorded
    assert party.status == Party.Status.OVER
    story = story_replay(party)
    by_label = {g["gift"]: g for g in story["gifts"]}
    all_moves, all_blocked = Counter(), Counter()
    for table in party.tables.all():
        game, moves, blocked, _ = independent_replay(table)
        assert game.to_dict() == table.state  # the log replays to the stored state
        all_moves.update(moves)
        all_blocked.update(blocked)
        for seat, gift in enumerate(game.gifts):
            g = by_label[gift_label(gift)]
            assert (g["home_with"], g["table"], g["seat"], g["returned"]) == (
                table.roster[seat]["name"],
                table.letter,
                seat,
                False,
            )
        for gift in game.vault:
            assert by_label[gift_label(gift)]["returned"] is True
    assert {g["gift"]: g["moves"] for g in story["gifts"]} == {gift_label(k): all_moves[k] for k in map(_id, by_label)}
    assert {g["gift"]: g["blocked"] for g in story["gifts"]} == {
        gift_label(k): all_blocked[k] for k in map(_id, by_label)
    }
    # every gift of the party, once: 13 guest gifts and 2 vault gifts per table
    assert len(story["gifts"]) == 13 + 4
    assert sum(all_moves.values()) > 0 and sum(all_blocked.values()) > 0  # the bots did steal and block
    top = max(all_moves.values())
    assert {g["gift"] for g in story["most_stolen"]} == {gift_label(k) for k, v in all_moves.items() if v == top}


def _id(label: str) -> int:
    return 1000 + int(label[1:]) if label.startswith("V") else int(label)


def test_each_journey_ends_where_the_gift_ends(recorded):
    story = story_replay(recorded)
    for g in story["gifts"]:
        trail = g["journey"]
        assert trail[0]["what"] in ("dealt", "vault")
        # every successful move is in the journey, and the last place it went is home
        card_moves = [j for j in trail if j["what"] not in ("dealt", "vault", "blocked", "relay")]
        assert len(card_moves) == g["moves"]
        placed = [j for j in trail if j["what"] != "blocked"]
        last = placed[-1]["to"]
        if g["returned"]:
            assert last == "the vault"
        else:
            assert last.split(" (table")[0] == g["home_with"]
    # the relay: one gift per table, each arriving at the next table of the ring
    relay = story["relay"]
    assert [(r["from_table"], r["to_table"]) for r in relay] == [("B", "A"), ("A", "B")]
    for r in relay:
        journey = next(g for g in story["gifts"] if g["gift"] == r["gift"])["journey"]
        assert any(j["what"] == "relay" and j["to"] == f"{r['to']} (table {r['to_table']})" for j in journey)


def test_nothing_secret_is_told(recorded):
    story = story_replay(recorded)
    text = json.dumps(story)
    opened = set()
    for table in recorded.tables.all():
        opened |= independent_replay(table)[3]
    descriptions = {
        **{g.gift_number: g.description for g in recorded.guests.all()},
        **{v.gift_id: v.description for v in recorded.vault_gifts.all()},
    }
    for gift, description in descriptions.items():
        if gift in opened:
            assert description in text
        else:  # never unwrapped in front of everyone: still a secret at the end
            assert description not in text
    assert any(g not in opened for g in descriptions), "the recording should leave a vault gift wrapped"
    # no hands, no drawn or stolen cards, no peeks
    for key in ('"hand', '"cards"', '"peek', '"secret"', '"card":'):
        assert key not in text.replace('"card": "', "")


def test_a_tampered_log_is_refused_not_told(recorded):
    table = recorded.tables.get(letter="A")
    rows = list(table.actions.order_by("version"))
    with pytest.raises(ReplayMismatch):
        table_replay(table, rows[:-1])  # an action missing: the replay stops short of the stored state


def test_only_the_party_only_at_the_end(client):
    party, _, _ = party_lobby(4, name="Early birds")
    from events.party import services

    services.party_seat(party_id=party.pk)
    from games.yankee import Phase

    party_play(party, seed=2, until=Phase.REVEAL)
    # Not told yet answers exactly as no such party (issue 29: no code oracle).
    page = client.get(f"/story/{party.code}/")
    unknown = client.get("/story/ZZZZZZ/")
    assert page.status_code == unknown.status_code == 404 and b"secret gift" not in page.content
    assert page.content.replace(party.code.encode(), b"") == unknown.content.replace(b"ZZZZZZ", b"")
    for download in ("story.json", "flow.svg"):
        early, none = client.get(f"/story/{party.code}/{download}"), client.get(f"/story/ZZZZZZ/{download}")
        assert early.status_code == none.status_code == 404 and early.content == none.content
    # One of the party's own (its pass) sees the page wait for the end.
    from events.access.gate import give_pass

    cookie = HttpResponse()
    give_pass(cookie, RequestFactory().get("/"), party.code)
    own = Client()
    own.cookies.update(cookie.cookies)
    page = own.get(f"/story/{party.code}/")
    assert page.status_code == 200 and b"Not over yet" in page.content and b"secret gift" not in page.content

    party_play(party, seed=2)
    party.refresh_from_db()
    assert party.status == Party.Status.OVER
    page = client.get(f"/story/{party.code}/")
    assert page.status_code == 200 and b"Most-stolen gift" in page.content
    data = client.get(f"/story/{party.code}/story.json")
    assert data.status_code == 200 and data["Content-Type"] == "application/json"
    assert data.json() == json.loads(json.dumps(party_story(party)))
    svg = client.get(f"/story/{party.code}/flow.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert svg.content.count(b'class="seat"') == 4 and b"<script" not in svg.content


def test_names_are_escaped_in_the_picture():
    from games.yankee.party.story.svg import story_svg

    story = {
        "party": {"name": "<b>&party</b>"},
        "flows": [
            {
                "table": "A",
                "seats": ["<script>alert(1)</script>", 'Bo "B"'],
                "vault": False,
                "gifts": [{"gift": "1", "first": 0, "last": 1, "moves": 1, "left": False}],
            }
        ],
        "relay": [],
    }
    svg = story_svg(story)
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "&lt;b&gt;&amp;party" in svg and "&quot;B&quot;" in svg


def test_timelines_and_escapes_follow_the_game(recorded):
    story = story_replay(recorded)
    blocked_windows = 0
    for timeline in story["tables"]:
        table = recorded.tables.get(letter=timeline["table"])
        players = len(table.roster)
        turns = [e for e in timeline["entries"] if e["kind"] == "turn"]
        # four rounds, one turn per player per round, in round order
        assert Counter(e["round"] for e in turns) == {r: players for r in (1, 2, 3, 4)}
        assert [e["round"] for e in turns] == sorted(e["round"] for e in turns)
        assert sum(1 for e in timeline["entries"] if e["kind"] == "relay") == 2  # the draw, the exchange
        # one block line per window that closed with nothing moved (independent replay)
        windows = independent_blocked_windows(table)
        assert sum(1 for e in timeline["entries"] if e["kind"] == "block") == windows
        blocked_windows += windows
    assert story["blocked_total"] == blocked_windows > 0
    shown = story["closest_escapes"]
    assert len(shown) == min(5, blocked_windows)
    keys = [(x["round"], x["turn"]) for x in shown]
    assert keys == sorted(keys, reverse=True)  # the latest blocks first


def independent_blocked_windows(table) -> int:
    count = 0
    for action, before, game in table_steps(table):
        if isinstance(action, (React, TimeoutPass)):
            version = before.pending.window.version
            closed = game.pending is None or game.pending.window is None or game.pending.window.version != version
            count += closed and before.gifts == game.gifts
    return count
