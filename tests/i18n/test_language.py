"""Which language a page speaks (events/party/language.py, issue 32): the switch's cookie, then
the party's for the room's screens, then the phone's own Accept-Language where we have a
catalogue, then the party's; the big screen always the party's. And the parts around it:
the party's language chosen at creation, the switch on every page, the JavaScript
catalogue per language."""

from __future__ import annotations

import json
import re

import polib
import pytest
from django.test import Client
from django.utils import translation

from events.models import Party
from events.party.language import language_chosen, language_of_scope
from events.party.services import party_create
from tests.i18n.catalogues import REPO, catalogue_dirs, game_folders

pytestmark = [pytest.mark.django_db]


@pytest.mark.parametrize(
    ("cookie", "accept", "party", "follows", "expected"),
    [
        (None, "", "de", False, "de"),  # nothing said: the party's
        (None, "es-MX,es;q=0.9,en;q=0.5", "de", False, "es"),  # a phone in Spanish
        (None, "fr-FR,fr;q=0.9", "de", False, "de"),  # no French catalogue: the party's
        (None, "fr-FR,de;q=0.8,es;q=0.5", "en", False, "de"),  # the first we have, by quality
        (None, "*", "es", False, "es"),
        ("es", "de-DE", "en", False, "es"),  # the switch wins over the phone
        ("es", "de-DE", "de", True, "es"),  # and over a tablet's party language
        (None, "es-ES", "de", True, "de"),  # a tablet follows the party, not its browser
        ("xx", "es", "de", False, "es"),  # a cookie naming no catalogue is no choice
        (None, "", "xx", False, "en"),  # a party language we lost: the default
    ],
)
def test_the_rule(cookie, accept, party, follows, expected):
    assert language_chosen(cookie=cookie, accept=accept, party_language=party, follows_party=follows) == expected


def test_a_socket_applies_the_same_rule_from_its_handshake():
    scope = {"headers": [(b"accept-language", b"es-ES,es;q=0.9"), (b"cookie", b"a=1; heist_language=de")]}
    assert language_of_scope(scope, party_language="en") == "de"
    assert language_of_scope({"headers": [(b"accept-language", b"es-ES")]}, party_language="en") == "es"
    assert language_of_scope({"headers": [(b"cookie", b"=;;garbage")]}, party_language="de") == "de"
    # The big screen: the party's, whatever the browser or its cookie says.
    assert language_of_scope(scope, party_language="en", room=True) == "en"


def _party(language: str = "en") -> Party:
    code = party_create(name="Family swap", language=language).data["code"]
    return Party.objects.get(code=code)


def _lang(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, html[:200]
    return found.group(1)


def test_the_host_picks_the_partys_language_and_the_api_refuses_others():
    client = Client()
    made = client.post("/api/parties", json.dumps({"name": "Fiesta", "language": "es"}), "application/json")
    assert made.status_code == 201
    assert Party.objects.get().language == "es"
    for bad in ("fr", "", None, 3, "ES"):
        answer = client.post("/api/parties", json.dumps({"name": "X", "language": bad}), "application/json")
        assert answer.status_code == 400, bad
        assert answer.json()["error"] == "invalid"
    assert Party.objects.count() == 1
    # Said nothing: English, as before.
    assert client.post("/api/parties", json.dumps({"name": "Y"}), "application/json").status_code == 201
    assert Party.objects.get(name="Y").language == "en"


def test_the_home_form_offers_the_three_languages():
    page = Client().get("/").content.decode()
    assert re.findall(r'<option value="(\w+)" lang="\w+"', page) == ["en", "es", "de"]


def test_pages_speak_the_rule_and_the_big_screen_the_party():
    party = _party("de")
    phone = Client(headers={"accept-language": "es-ES,es;q=0.9"})
    assert _lang(phone.get(f"/j/{party.code}/").content.decode()) == "es"
    assert _lang(phone.get(f"/screen/{party.code}/").content.decode()) == "de"
    assert _lang(phone.get(f"/t/{party.code}/").content.decode()) == "de"
    english = Client(headers={"accept-language": "en-US,en;q=0.9"})
    assert _lang(english.get(f"/j/{party.code}/").content.decode()) == "en"
    unknown = Client(headers={"accept-language": "fr-FR"})
    assert _lang(unknown.get(f"/j/{party.code}/").content.decode()) == "de"


def test_the_switch_sets_a_cookie_that_every_page_but_the_big_screen_then_speaks():
    party = _party("en")
    # As a browser: CSRF checked. The switch needs no token (nor sets a cookie for one).
    client = Client(enforce_csrf_checks=True, headers={"accept-language": "en-US"})
    answer = client.get(f"/j/{party.code}/")
    assert "csrftoken" not in answer.cookies
    page = answer.content.decode()
    # The switch: a plain form (it works before any script), the current one not pressable.
    assert 'action="/i18n/setlang/"' in page
    assert re.search(r'value="en" lang="en" title="English" aria-current="true" disabled', page)
    answer = client.post("/i18n/setlang/", {"language": "es", "next": f"/j/{party.code}/"})
    assert answer.status_code == 302 and answer["Location"] == f"/j/{party.code}/"
    assert answer.cookies["heist_language"].value == "es"
    assert _lang(client.get(f"/j/{party.code}/").content.decode()) == "es"
    assert _lang(client.get(f"/t/{party.code}/").content.decode()) == "es"
    assert _lang(client.get(f"/screen/{party.code}/").content.decode()) == "en"
    # A language we have no catalogue for changes nothing.
    client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert _lang(client.get(f"/j/{party.code}/").content.decode()) == "es"


def test_each_page_loads_its_languages_catalogue_which_is_cacheable():
    party = _party("de")
    page = Client().get(f"/screen/{party.code}/").content.decode()
    assert '<script src="/jsi18n/de.js"></script>' in page
    catalogue = Client().get("/jsi18n/de.js")
    assert catalogue.status_code == 200
    assert "javascript" in catalogue["Content-Type"]
    assert "max-age=3600" in catalogue["Cache-Control"] and "public" in catalogue["Cache-Control"]
    body = catalogue.content.decode()
    assert "django.gettext = function" in body  # what the pages' scripts call
    # every German sentence of the JavaScript catalogues, the host's and each game's own
    # (issue 38), is in it with its English key (the catalogue is JSON in the script: its
    # strings as json.dumps writes them)
    for where in catalogue_dirs():
        path = where / "de/LC_MESSAGES/djangojs.po"
        if not path.exists():
            continue
        entries = [e for e in polib.pofile(str(path)).translated_entries() if not e.msgid_plural and not e.msgctxt]
        assert len(entries) > 5, path
        assert [
            e.msgid for e in entries if json.dumps(e.msgid) not in body or json.dumps(e.msgstr) not in body
        ] == [], path
    assert Client().get("/jsi18n/fr.js").status_code == 404


@pytest.mark.parametrize("folder", game_folders(), ids=lambda folder: folder.name)
def test_a_games_own_catalogue_is_what_the_server_says(folder):
    """Each game's texts live in its package (games/<name>/locale/, issue 38): Django finds
    them as an installed app's, so the server's gettext says what the game's catalogue
    says (where the host's catalogue, read first, has no other word for the same text)."""
    host = {(e.msgctxt, e.msgid) for e in polib.pofile(str(REPO / "locale/de/LC_MESSAGES/django.po"))}
    entries = [
        e
        for e in polib.pofile(str(folder / "locale/de/LC_MESSAGES/django.po")).translated_entries()
        if not e.msgid_plural and not e.msgctxt and (None, e.msgid) not in host
    ]
    assert entries, "the game has texts of its own"
    with translation.override("de"):
        assert [e.msgid for e in entries if translation.gettext(e.msgid) != e.msgstr] == []
