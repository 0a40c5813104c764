"""bin/serve's embedded settings run with DEBUG off unless asked, and guests who
mistype a URL get plain error pages, never Django's debug page (item 9 of issue 8)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from django.test import Client, RequestFactory
from django.views import defaults

pytestmark = [pytest.mark.django_db]


def _embedded_debug(repo_root, **env) -> str:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings.embedded")
    out = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.DEBUG)"],
        cwd=repo_root,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_the_embedded_box_runs_with_debug_off_unless_asked(repo_root):
    assert _embedded_debug(repo_root) == "False"
    assert _embedded_debug(repo_root, DJANGO_DEBUG="0") == "False"
    assert _embedded_debug(repo_root, DJANGO_DEBUG="1") == "True"
    serve = (repo_root / "bin" / "serve").read_text()
    assert "DJANGO_DEBUG" not in serve or "DJANGO_DEBUG:-0" in serve


def _plain(html: str) -> None:
    assert "Traceback" not in html and "DEBUG = True" not in html and "settings" not in html
    assert 'href="/"' in html, "a way back to the start"


def test_a_mistyped_url_gets_the_plain_404_page():
    page = Client().get("/no/such/page/")
    assert page.status_code == 404
    html = page.content.decode()
    _plain(html)
    assert "Page not found" in html and "<title>" in html


@pytest.mark.parametrize(
    "view, status, words",
    [
        (lambda r: defaults.server_error(r), 500, "Something went wrong"),
        (lambda r: defaults.bad_request(r, Exception("x")), 400, "could not understand"),
        (lambda r: defaults.permission_denied(r, Exception("x")), 403, "not allowed"),
    ],
)
def test_every_error_has_a_plain_page(view, status, words):
    response = view(RequestFactory().get("/x"))
    assert response.status_code == status
    html = response.content.decode()
    _plain(html)
    assert words in html, html
