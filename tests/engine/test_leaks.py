"""Nobody sees what is not theirs.

Many recorded random games (2 to 10 players, with and without a vault, with and without
the party gate), and at every step:

- every seat's `seat_view` and the `public_view`, serialised to JSON, are checked:
  a seat's `hand` is exactly its own hand, other seats show only a card count, and
  every card id the view names elsewhere (playable cards, its own window answer) is
  its own; the description of a still-wrapped gift appears (as a substring of the JSON:
  descriptions are unique "SECRET-<uuid>" strings) only in the views of seats whose
  peeks include it; the public view shows no wrapped description, no window answer,
  no hand, no draw-pile order, no seed or generator state;
- metamorphic checks: scrambling everything a seat may not know (other hands, the draw
  pile's order, others' window answers and peeks, unpeeked wrapped descriptions, the
  seed and generator) leaves that seat's view unchanged; scrambling every hidden thing
  leaves the public view unchanged;
- every event of every apply, as `Event.view(seat)` for every seat and the public
  screen: `drew` card ids only for the drawer, `dealt` and `peeked` only for that seat,
  a `pickpocketed` card only for the two players involved, `reaction_unused` only for
  its owner; no wrapped description reaches a seat that has not peeked it; no card id
  that sits in another player's hand is shown; and each seat can follow its own hand
  (and the public screen every hand's size) from the events it is shown.
"""

from __future__ import annotations

import json
import random
import uuid

import pytest

from games.yankee import (
    Game,
    Gift,
    Phase,
    RelayExchange,
    apply,
    new_game,
    public_view,
    seat_view,
)
from games.yankee.bots import bot_action

DEAL = 3
FORBIDDEN_PUBLIC_KEYS = {"hand", "hands", "answers", "answer", "peeks", "peeked", "descriptions", "rng", "seed"}
FORBIDDEN_SEAT_KEYS = {"hands", "answers", "peeks", "descriptions", "rng", "seed"}
CARD_KEYS = {"card", "cards", "extra"}


def secret(r: random.Random) -> str:
    return f"SECRET-{uuid.UUID(int=r.getrandbits(128))}"


# --- recorded games ---------------------------------------------------------------------


class Recorded:
    """A random game, stepped one action at a time, that remembers every description."""

    def __init__(self, index: int) -> None:
        r = self.r = random.Random(("leaks", index).__repr__())
        n = 2 + index % 9
        self.n = n
        ids = r.sample(range(1, 400), n + 3)
        bringers = list(range(n))
        r.shuffle(bringers)
        self.gifts = [Gift(ids[i], secret(r), bringers[i] if r.random() < 0.8 else None) for i in range(n)]
        self.vault = [Gift(ids[n + i], secret(r)) for i in range(r.randrange(4))]
        self.gate = r.random() < 0.4
        self.seed: int | str = f"SEED-{uuid.UUID(int=r.getrandbits(128))}" if index % 2 else r.getrandbits(62) | 1 << 61
        self.desc = {g.id: g.description for g in [*self.gifts, *self.vault]}
        self.next_relay = 1000
        self.game, self.events = new_game(seed=self.seed, gifts=self.gifts, vault=self.vault, gate=self.gate)

    def step(self) -> bool:
        g = self.game
        a = bot_action(g, self.r)
        if a is None and g.phase is Phase.GATE:
            gift = Gift(self.next_relay, secret(self.r))
            self.next_relay += 1
            self.desc[gift.id] = gift.description
            a = RelayExchange(gift)
        if a is None:
            return False
        self.game, self.events = apply(g, a)
        return True

    def transitions(self):
        """Each action from here to the game's end, stepped as it is yielded: (the game
        before it, the game after it)."""
        while True:
            before = self.game
            if not self.step():
                return
            yield before, self.game


def walk(node, path=()):
    """Yield (path, key, value) for every dict entry in a JSON tree."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield path, k, v
            yield from walk(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, (*path, i))


def card_ids(node) -> list[int]:
    """Every card id named under a card/cards/extra key (or a hand entry's id)."""
    out = []
    for _path, k, v in walk(node):
        if k in CARD_KEYS:
            if isinstance(v, int) and not isinstance(v, bool):
                out.append(v)
            elif isinstance(v, list):
                out.extend(x for x in v if isinstance(x, int))
            elif isinstance(v, dict) and isinstance(v.get("id"), int):
                out.append(v["id"])
    return out


# --- views ----------------------------------------------------------------------------------


def check_public(g: Game, rec: Recorded) -> None:
    v = public_view(g)
    text = json.dumps(v)
    for path, k, _val in walk(v):
        assert k not in FORBIDDEN_PUBLIC_KEYS, f"public view has {k!r} at {path}"
    assert isinstance(v["draw_pile"], int) and isinstance(v["discards"], int)
    for entry in v["seats"]:
        assert isinstance(entry["cards"], int) and entry["cards"] == len(g.hands[entry["seat"]])
    if v["window"] is not None:
        assert not {"answers", "answer", "blocks"} & set(v["window"]), "the public window shows answers"
    at_table = set(g.gifts) | set(g.vault)
    for gid, d in rec.desc.items():
        shown = gid in at_table and gid in g.open
        assert (d in text) == shown, f"gift {gid} ({'open' if gid in g.open else 'wrapped'}) description leak"
    assert str(g.rng) not in text and str(g.seed) not in text, "seed or generator state in the public view"


def check_seat(g: Game, seat: int, rec: Recorded) -> None:
    v = seat_view(g, seat)
    text = json.dumps(v)
    for path, k, _val in walk(v):
        assert k not in FORBIDDEN_SEAT_KEYS, f"seat {seat}'s view has {k!r} at {path}"
        if k == "hand":
            assert path == (), f"a second hand in seat {seat}'s view at {path}"
    assert [c["id"] for c in v["hand"]] == list(g.hands[seat]), "the hand is exactly your own hand"
    assert v["you"] == seat and v["gift"] == g.gifts[seat]
    for entry in v["seats"]:
        assert isinstance(entry["cards"], int) and entry["cards"] == len(g.hands[entry["seat"]])
    own = set(g.hands[seat])
    named = [int(c) for c in v["playable"]] + card_ids({"answer": v["answer"]}) + card_ids({"hand": v["hand"]})
    assert set(named) <= own, f"seat {seat}'s view names cards that are not in its hand: {set(named) - own}"
    at_table = set(g.gifts) | set(g.vault)
    for gid, d in rec.desc.items():
        shown = gid in at_table and (gid in g.open or gid in g.peeks[seat])
        assert (d in text) == shown, (
            f"gift {gid}: description {'missing from' if shown else 'leaked into'} seat {seat}'s view"
        )
    assert str(g.rng) not in text and str(g.seed) not in text
    # Seats only expose counts of other hands: no other seat's card ids as hand data.
    for other in range(g.players):
        if other != seat and g.hands[other]:
            assert not any(
                isinstance(e, dict) and e.get("seat") == other and ("hand" in e or isinstance(e.get("cards"), list))
                for e in v["seats"]
            )


def scrambled(g: Game, seat: int | None, r: random.Random, rec: Recorded) -> Game:
    """A copy of `g` in which everything `seat` (None: the public) may not know differs."""
    s = g.clone()
    n = g.players
    hidden = [t for t in range(n) if t != seat]
    # Other hands get other cards (same sizes), drawn from theirs and the draw pile.
    pool = [c for t in hidden for c in g.hands[t]] + list(g.draw_pile)
    r.shuffle(pool)
    hands = list(s.hands)
    for t in hidden:
        k = len(g.hands[t])
        hands[t], pool = tuple(pool[:k]), pool[k:]
    s.hands = hands
    s.draw_pile = pool
    # Others' window answers: same seats have answered, but block or pass differently.
    if s.pending is not None and s.pending.window is not None:
        w = s.pending.window
        for t in list(w.answers):
            if t != seat:
                w.answers[t] = None if (w.answers[t] is not None or not s.hands[t]) else s.hands[t][0]
    # Others' knowledge, and every description `seat` has not seen.
    known = g.open | (g.peeks[seat] if seat is not None else frozenset())
    s.peeks = tuple(
        g.peeks[t] if t == seat else frozenset(r.sample(sorted(g.descriptions), r.randrange(len(g.descriptions) + 1)))
        for t in range(n)
    )
    s.descriptions = {
        gid: (d if gid in known else f"OTHER-{uuid.UUID(int=r.getrandbits(128))}") for gid, d in g.descriptions.items()
    }
    s.rng = r.getrandbits(64)
    s.seed = r.getrandbits(64)
    return s


def check_views(g: Game, rec: Recorded, r: random.Random) -> None:
    check_public(g, rec)
    assert public_view(scrambled(g, None, r, rec)) == public_view(g), "the public view depends on a secret"
    for seat in range(g.players):
        check_seat(g, seat, rec)
        assert seat_view(scrambled(g, seat, r, rec), seat) == seat_view(g, seat), (
            f"seat {seat}'s view depends on something it may not know"
        )


# --- events ---------------------------------------------------------------------------------


class Follower:
    """What one audience can know from the events it is shown: a seat follows its own
    hand card by card; the public screen follows every hand's size."""

    def __init__(self, n: int, seat: int | None) -> None:
        self.seat = seat
        self.hand: list[int] = []
        self.sizes = [DEAL] * n

    def see(self, e: dict) -> None:
        t, me = e["type"], self.seat
        if t == "dealt":
            assert e["seat"] == me
            self.hand = list(e["cards"])
        elif t == "drew":
            self.sizes[e["seat"]] += e["count"]
            if e["seat"] == me:
                assert len(e["cards"]) == e["count"]
                self.hand += e["cards"]
        elif t in ("card_played", "swipe", "regrouped", "vault_exchanged", "blocked", "trimmed"):
            spent = [e["card"]] if t in ("card_played", "blocked") else list(e["cards"])
            if t == "card_played" and e.get("extra") is not None:
                spent.append(e["extra"])
            self.sizes[e["seat"]] -= len(spent)
            if e["seat"] == me:
                for c in spent:
                    self.hand.remove(c)
        elif t == "pickpocketed":
            self.sizes[e["seat"]] += 1
            self.sizes[e["target"]] -= 1
            if me == e["seat"]:
                self.hand.append(e["card"])
            elif me == e["target"]:
                self.hand.remove(e["card"])

    def check(self, g: Game) -> None:
        assert self.sizes == [len(h) for h in g.hands], "hand sizes cannot be followed from the events"
        if self.seat is not None:
            assert sorted(self.hand) == sorted(g.hands[self.seat]), (
                f"seat {self.seat} cannot follow its own hand from its events"
            )


def check_events(events, g: Game, rec: Recorded, followers: dict) -> None:
    n = g.players
    at_table = set(g.gifts) | set(g.vault)
    wrapped = {gid: rec.desc[gid] for gid in at_table if gid not in g.open}
    reshuffled = any(e.type == "reshuffled" for e in events)
    for e in events:
        public = e.view(None)
        for viewer in (None, *range(n)):
            ev = e.view(viewer)
            if e.type in ("dealt", "peeked", "reaction_unused"):
                assert (ev is not None) == (viewer == e.data["seat"]), f"{e.type} shown to {viewer}"
            if e.type == "drew":
                assert ("cards" in ev) == (viewer == e.data["seat"]), f"drawn cards shown to {viewer}"
            if e.type == "pickpocketed":
                assert ("card" in ev) == (viewer in (e.data["seat"], e.data["target"])), (
                    f"pickpocketed card shown to {viewer}"
                )
            if ev is None:
                continue
            if e.to is None and (viewer is None or viewer not in e.owners):
                assert ev == public, f"{e.type}: seat {viewer} sees more than the public"
            text = json.dumps(ev)
            for gid, d in wrapped.items():
                if d in text:
                    assert viewer is not None and gid in g.peeks[viewer], (
                        f"{e.type} shows wrapped gift {gid}'s description to {viewer}"
                    )
            if not reshuffled:
                for c in card_ids(ev):
                    holder = next((t for t in range(n) if c in g.hands[t]), None)
                    if holder is None or holder == viewer:
                        continue
                    legit = e.type == "pickpocketed" and viewer in (e.data["seat"], e.data["target"])
                    assert legit, f"{e.type} shows card {c} (in seat {holder}'s hand) to {viewer}"
            followers[viewer].see(ev)
    for f in followers.values():
        f.check(g)


# --- the tests ------------------------------------------------------------------------------


def play_and_check(index: int, *, views: bool = True) -> int:
    rec = Recorded(index)
    g = rec.game
    r = random.Random(index)
    followers = {viewer: Follower(g.players, viewer) for viewer in (None, *range(g.players))}
    check_events(rec.events, g, rec, followers)
    if views:
        check_views(g, rec, r)
    steps = 0
    while rec.step():
        steps += 1
        check_events(rec.events, rec.game, rec, followers)
        if views:
            check_views(rec.game, rec, r)
    assert rec.game.phase is Phase.OVER
    return steps


@pytest.mark.parametrize("chunk", range(6))
def test_views_and_events_leak_nothing(chunk):
    # 6 x 9 games: each chunk plays every table size 2..10 once (vaults 0..3, gate on
    # and off vary with the index).
    steps = sum(play_and_check(chunk * 9 + i) for i in range(9))
    assert steps > 0


def test_events_leak_nothing_in_many_more_games():
    for index in range(100, 250):
        play_and_check(index, views=False)


def test_sentinels_are_really_searched():
    """The description check is a real check: an unpeeked wrapped description is absent
    from a seat's view, and present once that seat has peeked it."""
    rec = Recorded(5)  # 7 players
    g = rec.game
    seat = 0
    other = next(t for t in range(1, g.players) if g.gifts[t] not in g.peeks[seat])
    d = rec.desc[g.gifts[other]]
    assert d not in json.dumps(seat_view(g, seat))
    assert d in json.dumps(seat_view(g, other)), "you always see the gift you were dealt"
    peeked = g.clone()
    peeked.peeks = tuple(p | {g.gifts[other]} if t == seat else p for t, p in enumerate(g.peeks))
    assert d in json.dumps(seat_view(peeked, seat))
