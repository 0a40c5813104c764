"""Issue 42.1: the production image builds and runs what the repository runs, proved
without a Docker daemon. tests/image_tree.py lays out exactly what the Dockerfile puts in
/app (the build context less .dockerignore), installs it into a fresh virtualenv as its
`RUN pip install .` does, and runs its `collectstatic`; then that tree, and only it, is
checked with `manage.py check --deploy` and serves a short party through nginx as
docker-compose.yml runs it (tests/compose_stack.py with the image): pages, joins,
sockets and moves over HTTPS, and a Spanish phone's page in Spanish.

Before the fix the Dockerfile copied eight folders by name and forgot games/ (its
collectstatic failed: `No module named 'games'`) and locale/ (every guest got English)."""

from __future__ import annotations

import asyncio
import fnmatch
import html
import random
import re
import secrets
import subprocess
import tomllib
from pathlib import Path

import polib
import pytest
from django.conf import settings

from games.yankee.actions import action_to_dict
from games.yankee.bots import bot_action
from tests import image_tree
from tests.compose_stack import ComposeStack, write_certificate
from tests.faults.server import LivePhone
from tests.test_compose_stack import HOSTNAME, Proxy, _db, _game

REPO = image_tree.REPO


def runtime_roots() -> list[str]:
    """What the repository runs, from its own declarations: the packages pyproject.toml
    installs, the folders the settings read (LOCALE_PATHS, STATICFILES_DIRS, the
    templates' DIRS), manage.py, and what `pip install .` reads (pyproject.toml, README)."""
    include = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = [
        p.name
        for p in REPO.iterdir()
        if (p / "__init__.py").exists() and any(fnmatch.fnmatch(p.name, pattern) for pattern in include)
    ]
    folders = [*settings.LOCALE_PATHS, *settings.STATICFILES_DIRS]
    folders += [d for t in settings.TEMPLATES for d in t.get("DIRS", [])]
    read = [Path(f).resolve().relative_to(REPO).as_posix() for f in folders]
    return sorted({*packages, *read, "manage.py", "pyproject.toml", "README.md"})


def tracked(root: str) -> list[str]:
    out = subprocess.run(["git", "ls-files", "--", root], cwd=REPO, capture_output=True, text=True, check=True)
    return out.stdout.split()


def missing(image_files: set[str]) -> dict[str, int]:
    """Per runtime root, how many of its tracked files the image lacks."""
    gaps = {root: sum(f not in image_files for f in tracked(root)) for root in runtime_roots()}
    return {root: n for root, n in gaps.items() if n}


def test_the_runtime_is_what_the_repository_declares():
    roots = runtime_roots()
    # the two the old Dockerfile forgot, found from the declarations, not named here
    assert {"games", "locale", "config", "events", "templates", "static", "manage.py"} <= set(roots), roots
    assert all(tracked(root) for root in roots), roots


def test_the_build_context_holds_every_runtime_file_and_no_secret_or_test():
    files = set(image_tree.context_files())
    assert missing(files) == {}
    assert not [f for f in files if f.startswith(("tests/", ".git/", ".venv/", "deploy/", "bench/"))]
    assert ".env" not in files and not [f for f in files if "__pycache__" in f]


@pytest.mark.parametrize("folder", ["games", "locale", "templates", "static", "events"])
def test_a_runtime_folder_left_out_of_the_image_is_caught(folder):
    own = (REPO / ".dockerignore").read_text()
    files = set(image_tree.context_files(dockerignore=own + f"\n{folder}\n"))
    assert folder in missing(files)


def test_dockerignore_patterns_match_as_docker_does():
    patterns = image_tree.ignore_patterns("**/__pycache__\n*.egg-info\ndocs\n!docs/keep.md\n/build\nst?b\n")
    assert image_tree.ignored("__pycache__/x.pyc", patterns)
    assert image_tree.ignored("events/live/__pycache__/a.pyc", patterns)
    assert image_tree.ignored("yankee_heist.egg-info/PKG-INFO", patterns)
    assert not image_tree.ignored("games/x.egg-info/PKG-INFO", patterns)  # `*` stays in its segment
    assert image_tree.ignored("docs/a.md", patterns) and not image_tree.ignored("docs/keep.md", patterns)
    assert image_tree.ignored("build/lib/x.py", patterns) and not image_tree.ignored("events/build.py", patterns)
    assert image_tree.ignored("stub/x", patterns) and not image_tree.ignored("stubs/x", patterns)


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    return image_tree.build(tmp_path_factory.mktemp("image"))


@pytest.mark.stack
@pytest.mark.slow
def test_the_image_builds_passes_check_deploy_and_serves_a_party_in_spanish(image, tmp_path):
    # the Dockerfile's own build steps ran here: the install and its collectstatic
    assert [r for r in image.ran if r.startswith("pip install")] == ["pip install ."], image.ran
    assert any("collectstatic" in r for r in image.ran), image.ran
    files = {p.relative_to(image.app).as_posix() for p in image.app.rglob("*") if p.is_file()}
    assert missing(files) == {}
    assert (image.app / "staticfiles" / "heist" / "live.js").is_file()
    # Word Heist's word lists were made at build, one per party language, for every start
    kept = {p: p.stat().st_mtime_ns for p in (image.app / "cache").glob("word-*.txt")}
    assert sorted(p.name.split("-")[1] for p in kept) == ["de", "en", "es"], kept
    # the image's Python has the project installed, and imports it from /app
    where = image.run(["python", "-c", "import games, events; print(games.__file__, events.__file__)"])
    assert where.returncode == 0, where.stderr
    assert where.stdout.split() == [str(image.app / "games/__init__.py"), str(image.app / "events/__init__.py")]

    certs = tmp_path / "certs"
    cafile = write_certificate(certs, HOSTNAME)
    (tmp_path / "acme").mkdir()
    dotenv = {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "POSTGRES_PASSWORD": secrets.token_urlsafe(16),
        "DJANGO_ALLOWED_HOSTS": HOSTNAME,
        "DJANGO_CSRF_TRUSTED_ORIGINS": f"https://{HOSTNAME}",
        "CERTS_DIR": str(certs),
        "ACME_DIR": str(tmp_path / "acme"),
    }
    stack = ComposeStack(tmp_path, dotenv, image=image)
    try:
        # only the web services and what they need: the Celery services run the same image
        for name in ("worker", "beat"):
            del stack.services[name]
        stack.start(timeout=120)
        for name in ("web1", "web2"):
            assert stack.services[name].env["PYTHONPATH"] == str(image.app)
        # the deploy checks, in web1's own environment (compose's, with the .env)
        checked = subprocess.run(
            ["python", "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
            cwd=image.app,
            env=stack.services["web1"].env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert checked.returncode == 0 and "no issues (0 silenced)" in checked.stdout, checked.stdout + checked.stderr
        proxy = Proxy(stack.services["proxy"].ports[443], cafile)
        asyncio.run(_short_party(stack, proxy))
        for name in ("web1", "web2"):
            assert "Traceback" not in stack.log_text(name), stack.log_tail(stack.services[name], 60)
        # both web processes read the lists back at start: none was made again
        assert {p: p.stat().st_mtime_ns for p in (image.app / "cache").glob("word-*.txt")} == kept
    finally:
        stack.stop()


async def _short_party(stack: ComposeStack, proxy: Proxy) -> None:
    status, created = await asyncio.to_thread(
        proxy.http, "POST", "/api/parties", {"name": "Image night", "budget": "$20", "vault_size": 0}
    )
    assert status == 201, created
    code = created["code"]

    # a Spanish phone's join page is in Spanish: every sentence of the English page the
    # Spanish catalogue translates comes back translated
    status, english = await asyncio.to_thread(proxy.http, "GET", f"/j/{code}/", None, None, {"Accept-Language": "en"})
    assert status == 200
    status, spanish = await asyncio.to_thread(proxy.http, "GET", f"/j/{code}/", None, None, {"Accept-Language": "es"})
    assert status == 200
    english_text, spanish_text = _shown(english), _shown(spanish)
    catalogue = polib.pofile(str(REPO / "locale/es/LC_MESSAGES/django.po"))
    shown = [
        e
        for e in catalogue.translated_entries()
        if len(e.msgid) > 12 and "%" not in e.msgid and "{" not in e.msgid and e.msgid in english_text
    ]
    assert len(shown) >= 3, [e.msgid for e in shown]
    assert [e.msgid for e in shown if e.msgstr not in spanish_text] == []
    assert 'lang="es"' in spanish_text and 'lang="en"' in english_text

    tokens = []
    for i in range(4):
        status, joined = await asyncio.to_thread(
            proxy.http, "POST", f"/api/parties/{code}/guests", {"name": f"Guest {i + 1}", "description": f"gift {i}"}
        )
        assert status == 201, joined
        tokens.append(joined["token"])
    host = LivePhone(proxy, code, "host", created["host_token"])
    phones = [LivePhone(proxy, code, "guest", token) for token in tokens]
    try:
        assert (await host.open())["role"] == "host"
        for phone in phones:
            assert (await phone.open())["type"] == "snapshot"
        assert (await host.command("seat"))["type"] == "ok"
        for phone in phones:
            await _until(lambda p=phone: p.snapshot and p.snapshot.get("table"), "seated")
        # a few moves, each from the phone of the seat that must act (a captain's
        # timeout pass from the captain's), acknowledged and in the stack's database
        with _db(stack) as db:
            (table_id,) = db.execute(
                "SELECT t.id FROM tables_table t JOIN events_party p ON p.id = t.party_id WHERE p.code = %s", (code,)
            ).fetchone()
            guests = dict(db.execute("SELECT id, seat FROM events_guest WHERE table_id = %s", (table_id,)).fetchall())
            (captain,) = db.execute(
                "SELECT seat FROM events_guest WHERE table_id = %s AND is_captain", (table_id,)
            ).fetchone()
            by_seat = {guests[p.snapshot["me"]["id"]]: p for p in phones}
            rand = random.Random(42)
            for _ in range(6):
                game = _game(db, table_id)
                wire = action_to_dict(bot_action(game, rand))
                phone = by_seat[wire.get("seat", captain) if wire["type"] != "timeout_pass" else captain]
                # the version the table is at (as test_compose_stack): the acting phone's
                # own copy may not have had the last move's update yet
                reply = await phone.act(wire, version=game.version)
                assert reply["type"] == "ok", (wire, reply)
            (logged,) = db.execute(
                "SELECT count(*) FROM tables_tableaction WHERE table_id = %s", (table_id,)
            ).fetchone()
            assert logged == 6
        errors = [m for p in [host, *phones] for m in p.inbox if m.get("type") == "error"]
        assert errors == []
    finally:
        await asyncio.gather(*(p.close() for p in [host, *phones]), return_exceptions=True)


def _shown(page: bytes) -> str:
    """A page's text and attributes as a reader gets them (scripts' JSON left out: it
    escapes every accent)."""
    return html.unescape(re.sub(r"<script\b[^>]*>.*?</script>", "", page.decode(), flags=re.S))


async def _until(pred, what: str, timeout: float = 15) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not pred():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)
