"""python manage.py printables deck --game NAME --out deck.pdf [--language de]
python manage.py printables rules --game NAME --out rules.pdf [--paper a4] [--language de]
python manage.py printables party --code ABC123 --out party.pdf [--only poster,tents] [--base-url URL]
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from events.party.selectors import party_by_code
from games.registry import DEFAULT_GAME, GAMES
from printables.party import NotAvailable, kinds_of
from printables.services import HANDOUTS, NoSuchHandout, handout_pdf_cached, party_printables
from printables.sheet import PAPERS


class Command(BaseCommand):
    help = (
        "Write a game's print-and-play deck or rules card, or one party's printables, "
        "as a PDF (US Letter, print at 100 %; a rules card may offer A4)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("what", choices=[*HANDOUTS, "party"])
        parser.add_argument("--out", required=True, help="the PDF file to write")
        parser.add_argument(
            "--game", choices=sorted(GAMES), default=DEFAULT_GAME, help=f"deck and rules only (default: {DEFAULT_GAME})"
        )
        parser.add_argument("--code", help="the party's join code (party only)")
        parser.add_argument(
            "--only",
            default="",
            help="party only: comma-separated kinds among those the party's game prints (default: all)",
        )
        parser.add_argument(
            "--paper", choices=list(PAPERS), default=None, help="rules only: the paper (default: letter)"
        )
        parser.add_argument(
            "--language",
            choices=[code for code, _ in settings.LANGUAGES],
            default="en",
            help="deck and rules only: the language printed (a party's printables speak the party's)",
        )
        parser.add_argument(
            "--base-url",
            default="http://localhost:8000",
            help="party only: scheme and host guests' phones reach (for the join QR code)",
        )

    def handle(
        self,
        *args: Any,
        what: str,
        out: str,
        game: str,
        code: str | None,
        only: str,
        paper: str | None,
        base_url: str,
        language: str,
        **options: Any,
    ) -> None:
        if what in HANDOUTS:
            try:
                with translation.override(language):
                    data = handout_pdf_cached(game, what, paper)
            except NoSuchHandout as exc:
                raise CommandError(str(exc)) from None
        else:
            if not code:
                raise CommandError("party printables need --code")
            party = party_by_code(code)
            if party is None:
                raise CommandError(f"no party has the code {code!r}")
            printed = kinds_of(party.game)
            kinds = tuple(k.strip() for k in only.split(",") if k.strip()) or printed
            bad = [k for k in kinds if k not in printed]
            if bad:
                raise CommandError(f"--only takes kinds among {', '.join(printed)}; got {only!r}")
            if not base_url.startswith(("http://", "https://")):
                raise CommandError("--base-url must start with http:// or https://")
            try:
                data = party_printables(party=party, base_url=base_url, kinds=kinds)
            except NotAvailable as exc:
                raise CommandError(str(exc)) from None
        path = Path(out)
        path.write_bytes(data)
        self.stdout.write(f"wrote {path} ({len(data)} bytes)")
