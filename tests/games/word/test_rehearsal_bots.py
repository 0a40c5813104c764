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
