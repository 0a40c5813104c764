"""Production hygiene (item 8 of issue 8): `check --deploy` clean, no short
SECRET_KEY, no admin, a /healthz that checks PostgreSQL and Redis, the WebSocket
message limit on every daphne command line, HTTPS in the shipped nginx."""

from __future__ import annotations

import os
import re
import secrets
import shlex
import subprocess
import sys

import pytest
from django.db import connections
from django.test import Client
from ruamel.yaml import YAML

from tests import shorthand

SAMPLE_ENV = {
    "DATABASE_URL": "postgres://heist:pw@127.0.0.1:5432/heist",
    "DJANGO_ALLOWED_HOSTS": "party.example.org",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
}


def _manage(repo_root, *args, **env):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "POSTGRES_", "DATABASE_"))}
    clean.update(SAMPLE_ENV, **env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=repo_root, env=clean, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_is_clean_with_the_production_settings(repo_root):
    out = _manage(
        repo_root,
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        "--settings=config.settings.production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues (0 silenced)" in out.stdout, out.stdout


@pytest.mark.parametrize("key", ["x", "short-but-not-fifty-characters-long-0123456789"])
def test_production_refuses_a_short_secret_key(repo_root, key):
    out = _manage(repo_root, "check", "--settings=config.settings.production", DJANGO_SECRET_KEY=key)
    assert out.returncode != 0
    assert "DJANGO_SECRET_KEY" in out.stderr and "50" in out.stderr, out.stderr


@pytest.mark.django_db
def test_the_unused_admin_is_not_served():
    assert Client().get("/admin/").status_code == 404
    assert Client().get("/admin/login/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_healthz_checks_the_database_and_redis(settings):
    ok = Client().get("/healthz")
    assert ok.status_code == 200 and ok.json() == {"ok": True}
    # Redis gone (nothing listens on port 1): 503, saying which
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    down = Client().get("/healthz")
    assert down.status_code == 503 and down.json() == {"ok": False, "failed": ["redis"]}, down.content
    settings.REDIS_URL = SAMPLE_ENV["REDIS_URL"]
    # The database gone: a connection to a port where no PostgreSQL listens. The
    # connection pool was opened on the real port, so it is closed and made anew on
    # the dead one (with a short wait for a connection), then restored.
    conn = connections["default"]
    saved = {key: conn.settings_dict[key] for key in ("PORT", "OPTIONS")}

    def reconnect(**settings_dict):
        conn.close()
        if conn.pool is not None:
            conn.close_pool()
        conn.settings_dict.update(settings_dict)

    pool = saved["OPTIONS"].get("pool")
    dead_options = {**saved["OPTIONS"], "pool": {**pool, "min_size": 0, "timeout": 1}} if pool else saved["OPTIONS"]
    reconnect(PORT="1", OPTIONS=dead_options)
    try:
        down = Client().get("/healthz")
    finally:
        reconnect(**saved)
    assert down.status_code == 503 and down.json() == {"ok": False, "failed": ["database"]}, down.content
    assert Client().get("/healthz").status_code == 200


def _daphne_lines(repo_root) -> dict[str, list[str]]:
    """Every command line that starts daphne, as words."""
    lines = {}
    for line in (repo_root / "bin" / "serve").read_text().splitlines():
        if "daphne" in line and not line.lstrip().startswith("#"):
            lines["bin/serve"] = shlex.split(line)
    cmd = re.search(r"^CMD (\[.*\])$", (repo_root / "Dockerfile").read_text(), re.M).group(1)
    lines["Dockerfile"] = YAML(typ="safe").load(cmd)
    compose = YAML(typ="safe").load((repo_root / "docker-compose.yml").read_text())
    for name in ("web1", "web2"):
        command = compose["services"][name]["command"]
        words = shlex.split(command) if isinstance(command, str) else command
        if words[:2] == ["sh", "-c"]:
            words = shlex.split(words[2])
        lines[f"compose {name}"] = words
    # The test servers (browser, faults, rehearsal) all start through bench/stack.py.
    assert "DAPHNE_ARGS" in (repo_root / "bench" / "stack.py").read_text()
    for path in ("tests/browser/conftest.py", "tests/faults/server.py"):
        assert "DaphneServer" in (repo_root / path).read_text(), path
    from bench.stack import DAPHNE_ARGS

    lines["test servers"] = DAPHNE_ARGS
    return lines


MESSAGE_LIMIT = 262144


def test_every_daphne_command_line_limits_websocket_messages(repo_root):
    lines = _daphne_lines(repo_root)
    assert set(lines) == {"bin/serve", "Dockerfile", "compose web1", "compose web2", "test servers"}
    for where, words in lines.items():
        assert words[words.index("--websocket-max-frame-size") + 1] == "4096", where
        assert words[words.index("--websocket-max-message-size") + 1] == str(MESSAGE_LIMIT), where
        assert "--proxy-headers" not in words, f"{where}: the app decides whom to trust (TRUSTED_PROXIES)"


@pytest.mark.django_db(transaction=True)
def test_the_largest_snapshot_of_a_full_party_fits_the_message_limit():
    """Autobahn's message limit caps what the server sends too (a snapshot over it
    would crash the socket): a 100-guest party's host snapshot, with long names and
    descriptions, seated and at the end, must stay far below it."""
    import json as _json

    from events.models import Party
    from events.party import services
    from events.party.roles import Actor, Role
    from events.party.selectors import snapshot_for

    party, _ = shorthand.party_create(name="N" * 80, vault_size=3)
    for i in range(100):
        shorthand.guest_join(code=party.code, name=f"{i:03d}" + "G" * 37, description=f"{i:03d}" + "D" * 197)
    for i in range(30):
        services.vault_gift_add(party_id=party.pk, contributor=f"{i:02d}" + "C" * 38, description="V" * 200)
    services.party_seat(party_id=party.pk)
    seated = len(_json.dumps(snapshot_for(Actor(Role.HOST, party.pk))).encode())
    Party.objects.filter(pk=party.pk).update(status=Party.Status.OVER)  # with the result
    over = len(_json.dumps(snapshot_for(Actor(Role.HOST, party.pk))).encode())
    print(f"\nhost snapshot, 100 guests: {seated} bytes seated, {over} bytes with the result")
    assert max(seated, over) * 2 < MESSAGE_LIMIT, (seated, over)


def test_nginx_serves_https_only(repo_root):
    conf = (repo_root / "deploy" / "nginx.conf").read_text()
    assert re.search(r"listen 443 ssl", conf)
    assert "ssl_certificate /etc/nginx/certs/" in conf and "ssl_certificate_key /etc/nginx/certs/" in conf
    assert re.search(r'add_header Strict-Transport-Security "max-age=\d{7,}', conf)
    assert re.search(r"return 301 https://\$host\$request_uri;", conf)
    assert "ssl_protocols TLSv1.2 TLSv1.3;" in conf
    compose = YAML(typ="safe").load((repo_root / "docker-compose.yml").read_text())
    proxy = compose["services"]["proxy"]
    assert any(p.endswith(":443") for p in proxy["ports"])
    assert any(v.endswith(":/etc/nginx/certs:ro") for v in proxy["volumes"])
    readme = (repo_root / "README.md").read_text()
    assert "certbot" in readme and "openssl req -x509" in readme
