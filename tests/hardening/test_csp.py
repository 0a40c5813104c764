"""A strict Content-Security-Policy on every response (item 8 of issue 8): scripts,
styles, images and sockets only from the party host itself, no inline script or
style anywhere. tests/browser/ checks that the screens run under it with no
violation."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests import shorthand

pytestmark = [pytest.mark.django_db]


def _policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def test_every_page_sends_a_strict_policy():
    party, _ = shorthand.party_create(name="CSP")
    client = Client()
    for path in (
        "/",
        f"/host/{party.code}/",
        f"/j/{party.code}/",
        f"/p/{party.code}/",
        f"/screen/{party.code}/",
        "/j/ZZZZZZ/",
        "/nowhere/",
        f"/qr/{party.code}.svg",
        "/healthz",
        "/manifest.webmanifest",
    ):
        response = client.get(path)
        policy = _policy(response)
        assert policy["default-src"] == ["'self'"], path
        assert policy["script-src"] == ["'self'"], path
        assert policy["style-src"] == ["'self'"], path
        assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"], path
        assert policy["frame-ancestors"] == ["'none'"], path
        assert not any("unsafe" in w or w == "*" for words in policy.values() for w in words), (path, policy)


def test_no_template_has_inline_script_style_or_handlers(repo_root):
    for path in (repo_root / "templates").rglob("*.html"):
        html = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag, (path, tag)
        assert "<style" not in html, path
        assert not re.search(r"\sstyle=", html), path
        assert not re.search(r"\son[a-z]+=", html), path
        assert "javascript:" not in html, path
