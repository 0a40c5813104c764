"""manage.py fit_pacing: fit a game's party clock to its finished parties."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from events.party.timing import party_clock_fit
from games.registry import DEFAULT_GAME, GAMES


class Command(BaseCommand):
    help = "Fit a game's pacing model (its simulator's seconds per step) to its finished parties."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--game", default=DEFAULT_GAME, help=f"whose parties and model (default {DEFAULT_GAME})")
        parser.add_argument("--party", type=int, action="append", help="only this party id (repeatable)")
        parser.add_argument("--output", type=Path, help="also write the fit as JSON (read by simulate --model)")

    def handle(self, *args: Any, **opts: Any) -> None:
        if opts["game"] not in GAMES:
            raise CommandError(f"no game named {opts['game']!r}: choose from {', '.join(GAMES)}")
        try:
            fit = party_clock_fit(game=opts["game"], party_ids=opts["party"])
        except LookupError as e:
            raise CommandError(str(e)) from None
        text = json.dumps(fit, indent=1, sort_keys=True)
        if opts["output"]:
            opts["output"].write_text(text + "\n")
            self.stderr.write(f"wrote {opts['output']}")
        self.stdout.write(text)
