"""The table's story (games/blinks/story.py): who broke which Blink and who chipped at
it first, the skips, the captain's calls, and a throw taken back leaves no trace."""

from __future__ import annotations

from games.blinks import Overrule, Undo, apply, new_game
from games.blinks.story import table_story
from tests.games.blinks.builders import record, table, throw, throws


def test_who_broke_each_blink_and_who_chipped_at_it_first():
    g = table(3, vault=3, teams=[0, 1, 2])
    g, events = throws(g, 1, 1, 1, 1)  # seats 0, 1, 2 chip Blink 1; seat 0 breaks it
    g, more = throws(g, 2, 2, 2, 2)  # seats 1, 2, 0 chip; seat 1 breaks Blink 2
    told = table_story(events + more)
    assert [(b["blink"], b["seat"], b["team"]) for b in told["blinks"]] == [(1, 0, 0), (2, 1, 1)]
    assert [h["seat"] for h in told["blinks"][0]["hits"]] == [0, 1, 2, 0]
    assert [c["seat"] for c in told["blinks"][0]["chipped"]] == [0, 1, 2]
    assert [c["seat"] for c in told["blinks"][1]["chipped"]] == [1, 2, 0]
    assert told["throws"] == 8 and told["seats"] == []


def test_a_throw_taken_back_is_not_in_the_story():
    g = table(2, vault=3)
    g, events = throws(g, 1, 1, 1)
    g, more = throw(g, 1, touched=True)  # seat 1 breaks Blink 1 and touches...
    events += more
    g, more = apply(g, Undo(g.last.throw))  # ...a mis-tap: the captain takes it back
    events += more
    told = table_story(events)
    assert told["blinks"] == [] and told["skips"] == []
    assert told["throws"] == 3


def test_skips_calls_and_the_end_are_told():
    g, events = new_game(0, 2, vault=3, teams=[2, 3])  # the setup's events name the teams
    g.first = g.turn = 0
    g, more = throw(g, None, touched=True)
    events += more
    g, more = record(g, None)  # seat 1 says a miss; the captain saw a hit on Blink 3
    events += more
    g, more = apply(g, Overrule(g.throws, 3, False))
    events += more
    while g.in_vault():
        g, more = throw(g, g.in_vault()[0])
        events += more
    told = table_story(events)
    assert told["skips"][0]["seat"] == 0 and told["skips"][0]["reason"] == "touched"
    assert [(c["seat"], c["hit"]) for c in told["calls"]] == [(1, 3)]
    claims = g.claims()
    assert [(s["seat"], s["team"], s["claimed"]) for s in told["seats"]] == [(0, 2, claims[0]), (1, 3, claims[1])]
    assert [s["winner"] for s in told["seats"]] == [n == max(claims) for n in claims]
