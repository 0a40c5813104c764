"""Issue 29.3: the compose health probe asks http://127.0.0.1:8000/healthz from inside
the web container, and production lists only the party's real name in ALLOWED_HOSTS.
The probe must pass whatever that name is; every other request, and /healthz from any
peer that is not on the box, keeps Django's host validation (config/health.py)."""

from __future__ import annotations

import pytest
from django.test import Client

from config.health import is_loopback

pytestmark = pytest.mark.django_db(transaction=True)  # /healthz reads the database


@pytest.fixture
def production_hosts(settings):
    settings.ALLOWED_HOSTS = ["heist.example.org"]
    settings.SECURE_SSL_REDIRECT = True  # as production: /healthz is exempt, pages redirect
    settings.SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    return settings


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost", "web1:8000", "anything.invalid"])
@pytest.mark.parametrize("peer", ["127.0.0.1", "127.0.0.11", "::1"])
def test_the_probe_from_the_box_passes_whatever_its_host(production_hosts, host, peer):
    answer = Client(REMOTE_ADDR=peer).get("/healthz", HTTP_HOST=host)
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"ok": True}
    # the headers of the middleware above it are still there
    assert "Content-Security-Policy" in answer.headers


@pytest.mark.parametrize("peer", ["172.30.57.10", "192.168.1.20", "2001:db8::1"])
def test_healthz_from_any_other_peer_keeps_the_host_check(production_hosts, peer):
    assert Client(REMOTE_ADDR=peer).get("/healthz", HTTP_HOST="127.0.0.1:8000").status_code == 400
    ok = Client(REMOTE_ADDR=peer).get("/healthz", HTTP_HOST="heist.example.org")
    assert ok.status_code == 200 and ok.json() == {"ok": True}


@pytest.mark.parametrize("path", ["/", "/j/ABCDEF/", "/healthz/", "/healthzx"])
def test_every_other_path_from_the_box_keeps_the_host_check(production_hosts, path):
    assert Client(REMOTE_ADDR="127.0.0.1").get(path, HTTP_HOST="127.0.0.1:8000").status_code == 400


def test_is_loopback_takes_only_loopback_addresses():
    assert is_loopback("127.0.0.1") and is_loopback("127.8.9.10") and is_loopback("::1")
    assert not any(is_loopback(a) for a in ("10.0.0.1", "::ffff:10.0.0.1", "", None, "unix", "localhost"))
