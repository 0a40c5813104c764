"""The rehearsal's Word Heist phones (games/word/party/rehearsal.py `choose`) answer from
the seat view alone, and the engine accepts every answer, in each party language: a bot
that sent a refused word would stall its table at the rehearsal."""

from __future__ import annotations

import random

import pytest

from games.definition import Setup
from games.registry import game_named
from games.word.party.rehearsal import choose


@pytest.mark.parametrize("language", ["en", "es", "de"])
def test_every_answer_a_phone_bot_sends_from_its_view_is_accepted(language: str) -> None:
    word = game_named("word")
    answered = set()
    for seed in range(40):
        r = random.Random(seed)
        g, _ = word.setup(Setup(players=2 + seed % 5, seed=seed, gate=True, options={"language": language}))
        while not word.is_over(g):
            if word.at_gate(g):
                g, _ = word.apply(g, word.gate_opened(g))
                continue
            seat = r.choice(list(word.waiting_for(g)))
            sent = choose(word.seat_view(g, seat), r)
            assert sent is not None
            answered.add(sent["type"])
            g, _ = word.apply(g, word.parse_action(sent))  # IllegalActionError: a stalled table
    assert answered == {"write", "clue", "halt", "vote"}


def test_the_bots_read_their_dictionaries_before_seating_off_the_harness_loop() -> None:
    """Read by the first phone to choose a word, on the loop every bot phone's socket
    shares, the dictionaries froze the harness: its phones missed their pongs and all
    reconnected at once. Now the host's bots read them before seating, in a thread."""
    import asyncio
    import threading

    from games.word.party import dictionary
    from games.word.party.rehearsal import LANGUAGES, WordParty

    dictionary.lexicon.cache_clear()
    readers: set[str] = set()
    lexicon = dictionary.lexicon

    def reading(language: str) -> object:
        readers.add(threading.current_thread().name)
        return lexicon(language)

    word = game_named("word")
    word.take_party_data(reading)  # type: ignore[attr-defined]
    try:

        async def seat() -> str:
            await WordParty(room=None).before_seating(3)  # type: ignore[arg-type]
            return threading.current_thread().name

        loop_thread = asyncio.run(seat())
    finally:
        word.take_party_data(dictionary.DATA)  # type: ignore[attr-defined]
    assert lexicon.cache_info().currsize == len(LANGUAGES)  # read before any phone chooses
    assert readers and loop_thread not in readers  # and not on the loop
