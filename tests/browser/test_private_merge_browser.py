"""A seat's private part joins its view in the phone's shell as the game declares it
(static/heist/live.js mergePrivate, issue 38): the shell sets the keys heist-game's
`private_keys` names, and calls the phone module's own `mergePrivate`/`unmergePrivate`
when the game has them (Yankee Heist's peeked gifts live in its seats), never a game's
keys of its own.

In Chromium, for every registered game (the test-only canary included) over states of
played games: the public view plus a seat's private part, merged as play.js has live.js
merge it, is the seat's view the definition builds; and that seat view unmerged is the
public view again (what a patch after a snapshot applies to)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.registry import GAMES
from tests.games.conformance.play import players_of, sample_states

from .helpers import new_page

pytestmark = [pytest.mark.browser, pytest.mark.stack, pytest.mark.django_db(transaction=True)]

# What play.js hands live.js (its `privacy`), then live.js's merge and unmerge, per sample.
PROBE = """async ([name, keys, samples]) => {
  const src = document.querySelector('script[type=module][src]').src;
  const live = await import(new URL('./live.js', src).href);
  const game = await import(new URL(`../${name}/phone.js`, src).href);
  const privacy = { keys, merge: game.mergePrivate, unmerge: game.unmergePrivate };
  return samples.map(({ view, private: p }) => {
    const merged = live.mergePrivate({ type: 'table', view, private: p }, privacy);
    return { merged: merged.view, events: merged.events || null, unmerged: live.unmergePrivate(merged.view, privacy) };
  });
}"""


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _samples(name: str) -> list[dict[str, Any]]:
    definition = GAMES[name]
    out = []
    for state in sample_states(definition, every=6, per_size=1)[:40]:
        public = _json(definition.public_view(state))
        for seat in range(players_of(definition, state)):
            out.append(
                {
                    "view": public,
                    "private": _json(definition.seat_private(state, seat)),
                    "seat_view": _json(definition.seat_view(state, seat)),
                }
            )
    return out


def test_the_shell_merges_each_games_private_part_as_its_definition_does(asgi_server, browser):
    errors: list[str] = []
    page = new_page(browser, 800, 900, errors, "merge")
    page.goto(f"{asgi_server}/")
    beyond_keys = 0  # samples whose seat view is more than the keys set (a game's own merge)
    for name, definition in GAMES.items():
        samples = _samples(name)
        assert len(samples) > 20, name
        keys = definition.private_keys()
        beyond_keys += sum(s["seat_view"] != {**s["view"], **{k: s["private"][k] for k in keys}} for s in samples)
        got = page.evaluate(PROBE, [name, list(definition.private_keys()), samples])
        for sample, result in zip(samples, got, strict=True):
            assert result["merged"] == sample["seat_view"], name
            assert result["unmerged"] == sample["view"], name
    assert beyond_keys > 0, "no sample needed a game's own merge (peeked gifts): the check saw none"
    assert not errors, errors
