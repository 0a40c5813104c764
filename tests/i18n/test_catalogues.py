"""The catalogues are complete (issue 32): makemessages over a copy of the tree, as
bin/messages runs it, leaves no marked string of the templates, the Python or the
scripts without its Spanish and German, nor a fuzzy guess; every placeholder survives
translation; and the committed .mo files (what the server reads, so bin/serve needs no
gettext tools) say what the .po files say. A new English string makes this fail until
bin/messages is run and the string is translated.

Each game keeps its texts in its own package (issue 38): games/<name>/locale/ holds
every text of the game's files and nothing else, the host's locale/ only the host's;
a game the tests alone register (the canary) has its own catalogue the same way."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

from tests.i18n.catalogues import REPO, game_folders

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
        _makemessages(tree, tree, domain, ignore)
    # A test-only game's own run, from its folder (bin/messages: the first run ignores tests/).
    for folder in TEST_GAMES:
        for domain in DOMAINS:
            _makemessages(tree, tree / folder, domain, ["--ignore=__pycache__"])
    return tree


def _makemessages(tree: Path, cwd: Path, domain: str, ignore: list[str]) -> None:
    subprocess.run(
        [
            sys.executable,
            str(tree / "manage.py"),
            "makemessages",
            "-d",
            domain,
            "-l",
            "es",
            "-l",
            "de",
            *FLAGS,
            *ignore,
        ],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


# The test-only games (under tests/) and the game packages (every folder under games/
# with a definition: registered or on its way), each with its own catalogue.
TEST_GAMES = [folder.relative_to(REPO) for folder in game_folders() if folder.is_relative_to(REPO / "tests")]
GAME_PACKAGES = sorted(path.parent.relative_to(REPO) for path in (REPO / "games").glob("*/definition.py"))
CATALOGUES = [Path("locale"), *(folder / "locale" for folder in GAME_PACKAGES + TEST_GAMES)]


def _catalogue(root: Path, where: Path, lang: str, domain: str) -> polib.POFile | None:
    path = root / where / lang / "LC_MESSAGES" / f"{domain}.po"
    return polib.pofile(str(path)) if path.exists() else None


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("where", CATALOGUES, ids=str)
def test_every_marked_string_has_its_translation(collected, where, lang, domain):
    po = _catalogue(collected, where, lang, domain)
    if where == Path("locale"):
        assert po is not None, f"no {domain} catalogue for {lang}: run bin/messages"
        assert len(po) > 20, "the strings are marked: a catalogue this small collected nothing"
    if po is None:
        # a game without a text of this domain has no catalogue of it; with one, it must
        assert _catalogue(collected, where, lang, "django" if domain == "djangojs" else "djangojs") is not None, (
            f"{where.parent} has no catalogue at all: run bin/messages"
        )
        return
    missing = _unfinished(po)
    assert not missing, (
        f"{len(missing)} strings of {where} without a {lang} translation (bin/messages, then translate):\n"
        + "\n".join(missing[:40])
    )


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_game_keeps_its_texts_and_the_host_only_the_hosts(collected, domain):
    """A text goes to the catalogue of the package its file is in: the host's catalogue
    names no file of a game, and a game's names only its own (a text both use is in both)."""
    games = [str(folder) + "/" for folder in GAME_PACKAGES + TEST_GAMES]
    host = _catalogue(collected, Path("locale"), "de", domain)
    assert host is not None
    strays = [(e.msgid, path) for e in host for path, _ in e.occurrences if path.startswith(tuple(games))]
    assert strays == [], f"game texts in the host's catalogue (a game without its locale/?): {strays[:10]}"
    found = 0
    for folder in GAME_PACKAGES + TEST_GAMES:
        po = _catalogue(collected, folder / "locale", "de", domain)
        for entry in po or []:
            found += 1
            for path, _ in entry.occurrences:
                # the root run names files from the tree's top, a test-only game's from its folder
                whole = Path(path) if folder in GAME_PACKAGES else folder / path
                assert whole.is_relative_to(folder) and (collected / whole).is_file(), (entry.msgid, path)
    assert found > 100, "the games' texts are in their own catalogues"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("where", CATALOGUES, ids=str)
def test_the_placeholders_survive_and_the_mo_says_what_the_po_says(where, lang, domain):
    po_path = REPO / where / lang / "LC_MESSAGES" / f"{domain}.po"
    if not po_path.exists():
        return  # the test above says whether it must
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
