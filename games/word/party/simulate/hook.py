"""Word Heist's simulator hook (tables/simulate/hook.py `GameSimulator`): its options on
`manage.py simulate --game word`, its report and the lobby's estimate. The runner and
the report are imported when a run asks for them: the lobby reads only its table."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tables.simulate.common.options import int_list
from tables.simulate.hook import Options, Run

from .lobby import word_party_length_estimate
from .pacing import WordPacing
from .play import Policy

# The pacing model's parameters, each an option of its own (seconds; cv: spread).
MODEL_OPTIONS = ("word", "clues", "halt", "vote", "reveal", "round_end", "gate", "setup", "cv")
POLICY_OPTIONS = ("think_of", "max_tokens", "halt_rate", "quiet")


class WordSimulator:
    def add_arguments(self, group: Options) -> None:
        group.add_argument("--language", help="the dictionary the bots write from: en, es, de (default en)")
        group.add_argument("--think-of", type=int, help="bots: the commonest words a seat chooses from (default 12)")
        group.add_argument("--max-tokens", type=int, help="bots: the most clue tokens a seat drops (default 3)")
        group.add_argument("--halt-rate", type=float, help="bots: how often a seat halts a word that fits (0.9)")
        group.add_argument("--quiet", type=float, help="bots: the share of steps a seat lets the clock run out (0)")
        for name in MODEL_OPTIONS:
            # A step's median is --<step>-s (--word alone would read as a game's name);
            # --gate, --setup, --cv... are shared with the other games' simulators.
            flag = name.replace("_", "-") + ("-s" if name in ("word", "clues", "halt", "vote") else "")
            group.add_argument(f"--{flag}", type=float, dest=name, help=f"pacing model: {name} (seconds; cv: spread)")

    @staticmethod
    def model(options: Mapping[str, Any]) -> WordPacing:
        return WordPacing.from_dict({k: options[k] for k in MODEL_OPTIONS if options.get(k) is not None})

    @staticmethod
    def policy(options: Mapping[str, Any]) -> Policy:
        return Policy(**{k: options[k] for k in POLICY_OPTIONS if options.get(k) is not None})

    def simulate(self, run: Run, options: Mapping[str, Any]) -> dict[str, Any]:
        from .runner import PARTY_GUESTS, simulate_word

        language = options.get("language") or "en"
        if language not in ("en", "es", "de"):
            raise ValueError(f"--language is en, es or de, not {language!r}")
        return simulate_word(
            seed=run.seed,
            games=400 if run.games is None else run.games,
            players=int_list("2-6" if run.players is None else run.players),
            policy=self.policy(options),
            language=language,
            parties=200 if run.parties is None else run.parties,
            party_guests=int_list(run.guests) if run.guests else PARTY_GUESTS,
            model=self.model(options),
            workers=run.workers,
            chunk=run.chunk or 50,
            progress=run.progress,
        )

    def estimates(self, run: Run, options: Mapping[str, Any], *, parties: int, command: str) -> str:
        from .runner import estimates

        return estimates(
            seed=run.seed,
            games=400 if run.games is None else run.games,
            policy=self.policy(options),
            model=self.model(options),
            parties=parties,
            workers=run.workers,
            command=command,
        )

    def write_report(self, report: dict[str, Any], folder: Path, command: str) -> list[Path]:
        from .report import write_report

        return write_report(report, folder, command)

    def lobby_estimate(self, *, guests: int, games: int) -> dict[str, Any] | None:
        return word_party_length_estimate(guests=guests, games=games)

    def summary(self, r: dict[str, Any]) -> str:
        out = [f"Word Heist: {r['games_per_size']:,} games per size, dictionary {r['language']}, seed {r['seed']}"]
        out.append("players  mean score  win score  halts/seat-round  Halt!/seat-round  matched  minutes mean p90")
        for n, s in r["sizes"].items():
            out.append(
                f"{n:>7}  {s['score']['mean']:10.1f}  {s['winning_score']['mean']:9.1f}"
                f"  {s['halts_made_per_seat_round']:16.2f}  {s['halt_moments_per_seat_round']:16.2f}"
                f"  {s['matched_per_seat_round']:7.2f}  {s['minutes']['mean']:12.1f} {s['minutes']['p90']:4.1f}"
            )
        out.append("tables of at most  guests  tables  minutes: mean  p10  p90")
        for cap, rows in r["parties_by_cap"].items():
            for p in rows:
                out.append(
                    f"{cap:>17}  {p['guests']:>6}  {p['tables']:>6}  {p['mean']:13.1f} {p['p10']:4.1f} {p['p90']:4.1f}"
                )
        return "\n".join(out)
