"""The catalogues are complete (issue 32): makemessages over a copy of the tree, as
bin/messages runs it, leaves no marked string of the templates, the Python or the
scripts without its Spanish and German, nor a fuzzy guess; every placeholder survives
translation; and the committed .mo files (what the server reads, so bin/serve needs no
gettext tools) say what the .po files say. A new English string makes this fail until
bin/messages is run and the string is translated."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

REPO = Path(__file__).resolve().parents[2]
LANGUAGES = ("es", "de")
DOMAINS = ("django", "djangojs")
SOURCES = ("config", "events", "games", "locale", "printables", "relay", "static", "story", "tables", "templates")
# What bin/messages leaves out (keep the two lists in step).
FLAGS = ("--add-location=file", "--no-obsolete")
IGNORED = (".venv", "tests", "bench", "staticfiles", "stubs", "deploy", "docs", "node_modules")


def _unfinished(po: polib.POFile) -> list[str]:
    return [
        f"{entry.msgid!r} ({', '.join(path for path, _ in entry.occurrences)})"
        for entry in po
        if not entry.obsolete and (not entry.translated() or "fuzzy" in entry.flags)
    ]


@pytest.fixture(scope="module")
def collected(tmp_path_factory) -> Path:
    """A copy of the tree with its catalogues brought up to date by makemessages."""
    tree = tmp_path_factory.mktemp("tree")
    for name in SOURCES:
        shutil.copytree(REPO / name, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "manage.py", tree / "manage.py")
    # The games the test settings alone install (the copy runs under them) come along;
    # --ignore=tests keeps their texts out of the catalogues.
    for package in settings.HEIST_GAME_PACKAGES:
        if package.startswith("tests."):
            folder = Path(*package.split("."))
            shutil.copytree(REPO / folder, tree / folder, ignore=shutil.ignore_patterns("__pycache__"))
    ignore = [f"--ignore={name}" for name in IGNORED]
    for domain in DOMAINS:
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-d", domain, "-l", "es", "-l", "de", *FLAGS, *ignore],
            cwd=tree,
            check=True,
            capture_output=True,
        )
    return tree


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_marked_string_has_its_translation(collected, lang, domain):
    po_path = collected / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
    assert po_path.exists(), f"no {domain} catalogue for {lang}: run bin/messages"
    po = polib.pofile(str(po_path))
    assert len(po) > 20, "the strings are marked: a catalogue this small collected nothing"
    missing = _unfinished(po)
    assert not missing, (
        f"{len(missing)} strings without a {lang} translation (bin/messages, then translate):\n"
        + "\n".join(missing[:40])
    )


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_placeholders_survive_and_the_mo_says_what_the_po_says(lang, domain):
    po_path = REPO / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
    # msgfmt --check: each translation keeps its msgid's %(name)s placeholders (the
    # python-format and javascript-format flags makemessages sets), the header is whole.
    checked = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po_path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    po = {(e.msgctxt, e.msgid): e for e in polib.pofile(str(po_path)) if e.translated() and not e.obsolete}
    mo = {(e.msgctxt, e.msgid): e for e in polib.mofile(str(po_path.with_suffix(".mo")))}
    assert set(po) <= set(mo), f"{po_path.with_suffix('.mo').name} is older than its .po: run bin/messages"
    for key, entry in po.items():
        if entry.msgid_plural:
            assert mo[key].msgstr_plural == entry.msgstr_plural, key
        else:
            assert mo[key].msgstr == entry.msgstr, key
