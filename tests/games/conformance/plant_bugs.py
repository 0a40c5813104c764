"""The conformance suite's planted bugs: each one, applied alone, must fail some test.

Each bug is a one-place change to Yankee Heist's definition or engine (a view that
shows a hand, a replay that drops an action, a refusal that is not typed, a list of
legal actions that misses a form...). The runner applies one, runs tests/games, puts
the file back whatever happens, and prints which tests failed; a bug no test catches
is printed NOT CAUGHT and the run exits 1. Not collected by pytest (it runs pytest).

    .venv/bin/python tests/games/conformance/plant_bugs.py              # every bug
    .venv/bin/python tests/games/conformance/plant_bugs.py "drawn cards public"
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

# (name, file, the text replaced, the bug): each text occurs exactly once in its file.
PLANTS = [
    (
        "setup not seeded",
        "games/yankee/definition.py",
        "            seed=setup.seed,\n",
        '            seed=f"{setup.seed}{random.random()}",\n',
    ),
    (
        "replay drops the last action",
        "games/yankee/definition.py",
        "        for action in actions:\n            game, _ = rules.apply(game, action)\n        return game",
        "        for action in actions[:-1]:\n            game, _ = rules.apply(game, action)\n        return game",
    ),
    (
        "from_dict loses the generator",
        "games/yankee/definition.py",
        "        return Game.from_dict(data)",
        "        g = Game.from_dict(data)\n        g.rng ^= 1\n        return g",
    ),
    (
        "apply changes its input",
        "games/yankee/rules.py",
        "    g = game.clone()\n    g.version += 1",
        "    g = game\n    g.version += 1",
    ),
    (
        "public view shows hands",
        "games/yankee/views.py",
        '                "cards": len(g.hands[s]),',
        '                "cards": list(g.hands[s]),',
    ),
    (
        "seat view shows a neighbour's peeks",
        "games/yankee/views.py",
        "    v = public_view(g)\n    known = g.peeks[seat]",
        "    v = public_view(g)\n    known = g.peeks[seat] | g.peeks[(seat + 1) % g.players]",
    ),
    (
        "drawn cards public",
        "games/yankee/rules.py",
        'log.emit_secret("drew", {"seat": seat, "count": 1, "wanted": 1, "reason": reason}, {"cards": [card]}, (seat,))',
        'log.emit("drew", None, seat=seat, count=1, wanted=1, reason=reason, cards=[card])',
    ),
    (
        "peek event public",
        "games/yankee/rules.py",
        '        log.emit("peeked", (seat,), seat=seat, gift=gift, description=g.descriptions[gift], own=False)',
        '        log.emit("peeked", None, seat=seat, gift=gift, description=g.descriptions[gift], own=False)',
    ),
    (
        "bot swipes itself",
        "games/yankee/bots.py",
        "        return Swipe(seat, cards, target if target < seat else target + 1)",
        "        return Swipe(seat, cards, target)",
    ),
    (
        "react loses its window on the wire",
        "games/yankee/actions.py",
        '    if isinstance(a, React):\n        out = {"type": "react", "seat": a.seat, "card": a.card}\n        if a.window is not None:\n            out["window"] = a.window',
        '    if isinstance(a, React):\n        out = {"type": "react", "seat": a.seat, "card": a.card}',
    ),
    (
        "untyped refusal",
        "games/yankee/rules.py",
        '    _require_turn(g, a.seat, "cash in cards")\n    _other(g, a.seat, a.target)',
        '    _require_turn(g, a.seat, "cash in cards")\n    g.gifts[a.target]',
    ),
    (
        "legal_actions misses a form",
        "games/yankee/definition.py",
        "                yield React(seat, card, None)\n",
        "",
    ),
    (
        "legal_actions lists too much",
        "games/yankee/definition.py",
        "            for target in range(g.players):\n                if target != seat:",
        "            for target in range(g.players):\n                if True:",
    ),
    (
        "clock seconds not the host's",
        "games/yankee/definition.py",
        '    "turn": DEFAULT_STEP_SECONDS,',
        '    "turn": DEFAULT_STEP_SECONDS / 2,',
    ),
    (
        "clock stand-in for the wrong seat",
        "games/yankee/definition.py",
        "        return Clock(step=step, waiting=legal.waiting_for(state), stand_in=stand_in, seconds=limit)",
        "        return Clock(step=step, waiting=tuple(reversed(legal.waiting_for(state))), stand_in=stand_in, seconds=limit)",
    ),
    (
        "standings rank wrong",
        "games/yankee/definition.py",
        "Standing(seat=s, score=0, rank=1, winner=False)",
        "Standing(seat=s, score=0, rank=1 + s, winner=False)",
    ),
    (
        "reshuffle changes nothing",
        "games/yankee/hidden.py",
        "    g = game.clone()\n    n = g.players",
        "    return game.clone()\n    g = game.clone()\n    n = g.players",
    ),
    (
        "reshuffle breaks answers",
        "games/yankee/hidden.py",
        "            w.answers[s] = r.choice(blocks) if blocks and r.random() < 0.5 else None",
        "            w.answers[s] = 53",
    ),
    (
        "waiting_for drops a seat",
        "games/yankee/legal.py",
        "        return tuple(sorted(g.trims))",
        "        return tuple(sorted(g.trims))[1:]",
    ),
    (
        "the wire ignores a field",
        "games/yankee/actions.py",
        '        return Regroup(seat=_int(d, "seat"), cards=_ints(d, "cards", max_len=2))',
        '        return Regroup(seat=_int(d, "seat"), cards=tuple(sorted(_ints(d, "cards", max_len=2))))',
    ),
]


def main(only: list[str]) -> int:
    missed = 0
    for name, rel, old, new in PLANTS:
        if only and name not in only:
            continue
        path = ROOT / rel
        text = path.read_text()
        assert text.count(old) == 1, f"{name}: the text to replace occurs {text.count(old)} times in {rel}"
        path.write_text(text.replace(old, new))
        try:
            run = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "tests/games"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=False,
            )
        finally:
            path.write_text(text)
        failed = sorted(
            {
                line.split("::")[1].split("[")[0]
                for line in run.stdout.splitlines()
                if line.startswith(("FAILED", "ERROR"))
            }
        )
        missed += not failed
        print(f"{name}: {', '.join(failed) or 'NOT CAUGHT'}", flush=True)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
