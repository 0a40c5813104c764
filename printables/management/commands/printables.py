"""python manage.py printables deck --out deck.pdf [--language de]
python manage.py printables royal-rules --out royal-rules.pdf [--paper a4] [--language de]
python manage.py printables party --code ABC123 --out party.pdf [--only labels,tents] [--base-url URL]
"""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from events.party.selectors import party_by_code
from printables.party import KINDS, NotAvailable
from printables.services import deck_pdf_cached, party_printables, royal_rules_pdf_cached
from printables.sheet import PAPERS


class Command(BaseCommand):
    help = (
        "Write the print-and-play deck, Royal Heist's rules card or one party's printables, "
        "as a PDF (US Letter, print at 100 %; the rules card also on A4)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("what", choices=["deck", "royal-rules", "party"])
        parser.add_argument("--out", required=True, help="the PDF file to write")
        parser.add_argument("--code", help="the party's join code (party only)")
        parser.add_argument(
            "--only",
            default=",".join(KINDS),
            help=f"party only: comma-separated kinds among {', '.join(KINDS)} (default: all)",
        )
        parser.add_argument(
            "--paper", choices=list(PAPERS), default="letter", help="royal-rules only: the paper (default: letter)"
        )
        parser.add_argument(
            "--language",
            choices=[code for code, _ in settings.LANGUAGES],
            default="en",
            help="deck and royal-rules only: the language printed (a party's printables speak the party's)",
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
        code: str | None,
        only: str,
        paper: str,
        base_url: str,
        language: str,
        **options: Any,
    ) -> None:
        if what == "deck":
            with translation.override(language):
                data = deck_pdf_cached()
        elif what == "royal-rules":
            with translation.override(language):
                data = royal_rules_pdf_cached(paper)
        else:
            if not code:
                raise CommandError("party printables need --code")
            party = party_by_code(code)
            if party is None:
                raise CommandError(f"no party has the code {code!r}")
            kinds = tuple(k.strip() for k in only.split(",") if k.strip())
            bad = [k for k in kinds if k not in KINDS]
            if bad or not kinds:
                raise CommandError(f"--only takes kinds among {', '.join(KINDS)}; got {only!r}")
            if not base_url.startswith(("http://", "https://")):
                raise CommandError("--base-url must start with http:// or https://")
            try:
                data = party_printables(party=party, base_url=base_url, kinds=kinds)
            except NotAvailable as exc:
                raise CommandError(str(exc)) from None
        path = Path(out)
        path.write_bytes(data)
        self.stdout.write(f"wrote {path} ({len(data)} bytes)")
