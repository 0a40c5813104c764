"""Word Heist at the rehearsal (bench/party.py; bench/rehearsal/game.py `RehearsalGame`):
what its guests' phones and its host do with what their screens show.

The host creates the party with the game's name (no gifts, no vault), every other party
in Spanish (its tables play with the Spanish dictionary: `SpeaksLanguage`), guests join
with their name only, and the host seats everyone. Each step every seat waited for
(`can_act`) answers at once and in secret, with the version its screen shows, as the
game's phone sends it: a Heist word the table's Tableau makes (one of the dictionary's
commonest the Word Gallery allows, as a person thinks of a common word), 1 to 5 clue
tokens by the exact-count rule, a Halt word that fits another seat's clues (or none),
and the challenge vote (for its own word when the dictionary lacks it). With several
tables each stops at the gate after round 1; once every table is at the gate or over,
the host sends `open_gate`. A fault strikes in round 2 (every table held there, or at
the gate, until it has struck).
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Mapping, Sequence
from itertools import islice
from typing import Any, cast

from bench.rehearsal.game import Copies, RehearsalGame, Room, Screen, plain_private_copies
from bench.rehearsal.hosting import GATE_PHASES, GateKeeper, every_table_held, gates_opened, hold_for_fault
from games.registry import game_named
from games.word.legal import clue_choices, fits_clues
from games.word.lexicon import Lexicon
from games.word.rules import cluable
from games.word.spelling import MIN_LETTERS

Json = dict[str, Any]

NAME = "word"
# A person thinks of one of the few common words a Tableau makes: the bots choose from
# this many of the dictionary's commonest the Gallery allows.
THOUGHT_OF = 12
# A phone without its seat view (asleep, reconnecting) looks again this often, this many times.
VIEW_POLL = 0.5
WAIT_FOR_VIEW = 240


_reading = threading.Lock()  # one read per language, whichever party asks first


def _lexicon(language: str) -> Lexicon:
    definition = game_named(NAME)
    with _reading:
        return cast(Lexicon, definition.lexicon(language))  # type: ignore[attr-defined]


# The languages the rehearsal's parties play in (WordRehearsal.party_fields).
LANGUAGES = ("en", "es")


def open_words(view: Json, lexicon: Lexicon) -> list[str]:
    """The dictionary's words the table's Tableau makes that its Word Gallery allows, the
    commonest first: from the view alone (the Tableau, the Gallery), as a phone knows."""
    tableau = [t["letter"] for t in view["tableau"]]
    gallery = [str(e["word"]) for e in view["gallery"]]
    used, roots = set(gallery), {lexicon.root(w) for w in gallery}
    fresh = (
        w for w in lexicon.playable(tableau) if len(w) >= MIN_LETTERS and w not in used and lexicon.root(w) not in roots
    )
    return list(islice(fresh, 4 * THOUGHT_OF))


def choose(view: Json, rng: random.Random) -> Json | None:
    """The seat's answer to the step its view shows, or None (nothing to send)."""
    me: int = view["you"]
    phase = view["phase"]
    if phase == "word":
        words = [w for w in open_words(view, _lexicon(view["language"])) if cluable(w)][:THOUGHT_OF]
        if not words:  # nothing the dictionary knows: a made-up word, for the table's vote
            a, b = view["tableau"][0]["letter"], view["tableau"][-1]["letter"]
            words = [a + b + a]
        return {"type": "write", "seat": me, "word": rng.choice(words)}
    if phase == "clues":
        word = view["my_word"]
        if word is None:
            return None
        choices = clue_choices(word)
        modest = [c for c in choices if sum(n for _, n in c) <= 3]
        return {"type": "clue", "seat": me, "tokens": dict(rng.choice(modest or choices))}
    if phase == "halt":
        shown = [s["clues"] for s in view["seats"] if s["seat"] != me and s["clues"]]
        candidates = [w for w in open_words(view, _lexicon(view["language"])) if w != view["my_word"]]
        fitting = [w for w in candidates if any(fits_clues(w, t) for t in shown)]
        guess = rng.choice(fitting) if fitting and rng.random() < 0.9 else None
        return {"type": "halt", "seat": me, "word": guess}
    if phase == "vote":
        claim = [me] if view["my_word"] is not None and view["my_clues"] and view["my_known"] is False else []
        return {"type": "vote", "seat": me, "overrule": claim}
    return None


class WordParty:
    """Word Heist's bots at one party."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.gate = GateKeeper(room)
        self.words = 0
        self.halts = 0

    async def before_seating(self, tables: int) -> None:
        """No gifts, no vault: the bots' dictionaries are read now, off the harness's
        loop. Read by the first phone to choose a word, on the loop every phone's socket
        shares, they froze the harness for seconds on a loaded machine: its phones missed
        their pongs and reconnected all at once (the server saw ~90 sockets close)."""
        for language in LANGUAGES:
            await asyncio.to_thread(_lexicon, language)

    def figures(self) -> Json:
        return {**self.gate.figures(), "words": self.words, "halts": self.halts}

    def look(self, p: Screen) -> None:
        """A seat the step waits for answers it once: the intent is the step (its round
        and phase), so a view updated by another seat's answer starts no second one,
        and a refused answer is tried again (Room.spawn)."""
        room = self.room
        payload = p.seat_view()
        if payload is None or p.quiet:
            return
        v = payload["view"]
        if hold_for_fault(room, p, payload):
            return
        if not v.get("can_act"):
            return
        step = (v["round"], v["phase"])
        room.spawn(p, ("answer", payload["table"]["id"], *step), self._answer(p, step))

    async def _answer(self, p: Screen, step: tuple[int, str]) -> None:
        """Think, then answer the step `step` (round, phase) once, as the phone sends it.
        The intent is done only when the step no longer waits on this seat: a phone that
        lost its view meanwhile (asleep, reconnecting) looks again until it has one, since
        the step's intent is never started twice (Room.spawn)."""
        room = self.room
        await asyncio.sleep(room.pace.think() if step[1] in ("word", "halt") else room.pace.decide())
        for _ in range(WAIT_FOR_VIEW):
            payload = p.seat_view()
            view = None if payload is None else payload["view"]
            if view is None:
                await asyncio.sleep(VIEW_POLL)  # reconnecting: its snapshot comes
                continue
            if (view["round"], view["phase"]) != step or not view.get("can_act"):
                # the clock's stand-in took the step (or the screen went back: logged)
                room.log(p.name, f"no answer to {step}: the screen shows v{view['version']}", view["phase"])
                return
            if room.holding_for_fault(view):
                await room.fault_struck.wait()  # the step is still this one's: answer after
                continue
            action = choose(view, room.r)
            if action is None:
                return
            await p.act(action, version=view["version"])
            if action["type"] == "write":
                self.words += 1
            elif action["type"] == "halt" and action["word"] is not None:
                self.halts += 1
            p.changed.set()
            return
        room.harness_error(f"{p.name}: no seat view for {WAIT_FOR_VIEW * VIEW_POLL:.0f} s at {step}")

    async def host(self) -> None:
        """Each table stops at the gate after round 1; once every table is at the gate or
        over, the host opens it for all. The party ends when every table is over."""
        await self.gate.host()

    async def fault_moment(self) -> None:
        """Every table held in round 2 (or at the gate, or over)."""
        await every_table_held(self.room, "round 2")


class WordRehearsal:
    phases: Mapping[str, str] = GATE_PHASES

    def party_fields(self, index: int) -> Json:
        # Every other party in Spanish: its tables read the Spanish dictionary.
        return {"name": f"Rehearsal {index + 1}", "game": NAME, "language": LANGUAGES[index % 2]}

    def join_fields(self, party: int, guest: int) -> Json:
        return {}

    def table_copies(self) -> Copies:
        return plain_private_copies(game_named(NAME).private_keys())

    def stage(self, view: Json) -> int:
        reached: int = view["round"]
        return reached

    def where(self, view: Json) -> str:
        return f"r{view['round']}/{view['phase']}"

    def holds_for_fault(self, view: Json) -> bool:
        return bool(view["round"] >= 2 or view["phase"] == "gate")

    def bots(self, room: Room) -> WordParty:
        return WordParty(room)

    def report(self, tables: Sequence[int], parties: Sequence[Json]) -> Json:
        """The gate's figures (`gates_opened`); the Heist words written and the guesses
        made from the phones, and the words the tables' logs hold (every write applied
        once)."""
        from tables.models import TableAction

        logged = TableAction.objects.filter(table_id__in=list(tables))
        return {
            "gates_opened": gates_opened(tables, parties),
            "words": {"sent": sum(p["words"] for p in parties), "logged": logged.filter(action__type="write").count()},
            "halts": {
                "sent": sum(p["halts"] for p in parties),
                "logged": logged.filter(action__type="halt").exclude(action__word=None).count(),
            },
        }


REHEARSAL: RehearsalGame = WordRehearsal()
