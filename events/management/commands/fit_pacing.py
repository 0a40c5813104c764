"""manage.py fit_pacing: fit the party clock's parameters to finished parties."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from events.party.timing import party_clock_fit


class Command(BaseCommand):
    help = "Fit the pacing model (seconds per turn, window, trim, reveal, relay, setup) to finished parties."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--party", type=int, action="append", help="only this party id (repeatable)")
        parser.add_argument("--output", type=Path, help="also write the fit as JSON (read by simulate --model)")

    def handle(self, *args: Any, **opts: Any) -> None:
        try:
            fit = party_clock_fit(party_ids=opts["party"])
        except LookupError as e:
            raise CommandError(str(e)) from None
        text = json.dumps(fit, indent=1, sort_keys=True)
        if opts["output"]:
            opts["output"].write_text(text + "\n")
            self.stderr.write(f"wrote {opts['output']}")
        self.stdout.write(text)
