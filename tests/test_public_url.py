"""Every link and QR code a phone, a tablet or the big screen is given names an address
phones can open (events/party/public_url.py), whatever address the laptop's browser used."""

import io
import logging

import pytest
import qrcode
import qrcode.image.svg
from django.test import Client

from events.party import public_url, tablets
from events.party.public_url import join_path
from tests import shorthand
from tests.printables.pdfcheck import open_pdf

LAN = ["192.168.1.20", "10.0.0.7"]


@pytest.mark.parametrize(
    "scheme, host, public, lan, expected",
    [
        ("http", "localhost:8000", "", LAN, "http://192.168.1.20:8000"),
        ("http", "127.0.0.1:8000", "", LAN, "http://192.168.1.20:8000"),
        ("http", "[::1]:8000", "", LAN, "http://192.168.1.20:8000"),
        ("http", "localhost", "", LAN, "http://192.168.1.20"),
        ("http", "10.0.0.7:8000", "", LAN, "http://10.0.0.7:8000"),  # already a LAN address: kept
        ("http", "partybox.local:8000", "", LAN, "http://partybox.local:8000"),
        ("http", "127.0.0.2:9000", "", ["127.0.0.2"], "http://127.0.0.2:9000"),  # the tests' LAN
        ("http", "localhost:8000", "https://heist.example.org/", LAN, "https://heist.example.org"),
        ("http", "localhost:8000", "", [], None),
        ("https", "heist.example.org", "", [], "https://heist.example.org"),
    ],
)
def test_the_address_phones_open(scheme, host, public, lan, expected):
    assert public_url.phone_base(scheme, host, public_url=public, lan=lan) == expected


def svg_qr(text: str) -> bytes:
    buf = io.BytesIO()
    qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2).save(buf)
    return buf.getvalue()


@pytest.fixture
def lan_box(settings):
    settings.LAN_ADDRESSES = LAN
    settings.HEIST_PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", *LAN, "partybox.local"]
    return settings


@pytest.mark.django_db
@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "192.168.1.20:8000"])
def test_host_page_big_screen_and_join_qr_name_the_lan_address(lan_box, host):
    party, _ = shorthand.party_create(name="Office")
    join = f"http://192.168.1.20:8000{join_path(party.code)}"  # with the host's invitation
    client = Client(HTTP_HOST=host)
    host_page = client.get(f"/host/{party.code}/").content.decode()
    assert f'<a id="join-link" href="{join}">{join}</a>' in host_page
    assert 'id="no-lan"' not in host_page and "localhost" not in host_page.split('id="join-link"')[1][:200]
    assert f'<p class="join-url">{join}</p>' in client.get(f"/screen/{party.code}/").content.decode()
    assert client.get(f"/qr/{party.code}.svg").content == svg_qr(join)


@pytest.mark.django_db
def test_the_public_url_overrides_every_address(lan_box):
    lan_box.HEIST_PUBLIC_URL = "https://heist.example.org"
    party, _, _ = shorthand.party_seated(name="Office", guests=2)
    join = f"https://heist.example.org{join_path(party.code)}"
    client = Client(HTTP_HOST="192.168.1.20:8000")
    assert f'href="{join}"' in client.get(f"/host/{party.code}/").content.decode()
    assert client.get(f"/qr/{party.code}.svg").content == svg_qr(join)
    pairing = tablets.tablet_pair_start(
        party_id=party.pk, table_id=_a_table(party), origin="http://localhost:8000"
    ).data
    assert pairing["url"] == f"https://heist.example.org/t/{party.code}/"


def _a_table(party):
    return party.tables.first().pk


@pytest.mark.django_db
def test_with_no_lan_address_the_host_page_says_what_to_do(settings):
    settings.LAN_ADDRESSES = []  # bin/serve looked and found none
    settings.HEIST_PUBLIC_URL = ""
    party, _ = shorthand.party_create(name="Office")
    page = Client(HTTP_HOST="localhost:8000").get(f"/host/{party.code}/").content.decode()
    warning = page.split('id="no-lan"')[1].split("</div>")[0]
    assert "Phones cannot open this link" in warning
    assert "Wi-Fi" in warning and "hotspot" in warning and "bin/serve" in warning and "HEIST_PUBLIC_URL" in warning


@pytest.mark.django_db
def test_no_warning_where_nobody_looked_for_a_lan_or_a_name_is_used(settings):
    settings.HEIST_PUBLIC_URL = ""
    party, _ = shorthand.party_create(name="Office")
    settings.LAN_ADDRESSES = None  # production, the tests' servers
    assert 'id="no-lan"' not in Client(HTTP_HOST="localhost").get(f"/host/{party.code}/").content.decode()
    settings.LAN_ADDRESSES = []
    settings.ALLOWED_HOSTS = ["partybox.local"]
    assert 'id="no-lan"' not in Client(HTTP_HOST="partybox.local").get(f"/host/{party.code}/").content.decode()


@pytest.mark.django_db
def test_the_tablet_pairing_link_and_qr_name_the_lan_address(lan_box):
    party, _, _ = shorthand.party_seated(name="Office", guests=2)
    pairing = tablets.tablet_pair_start(
        party_id=party.pk, table_id=_a_table(party), origin="http://localhost:8000"
    ).data
    assert pairing["url"] == f"http://192.168.1.20:8000/t/{party.code}/"
    full = f"http://192.168.1.20:8000/t/{party.code}/#{pairing['pairing']}"
    assert pairing["qr"] == tablets.qr_data_uri(full)


@pytest.mark.django_db
def test_the_printed_poster_names_the_lan_address(lan_box):
    party, host_token = shorthand.party_create(name="Office")
    response = Client(HTTP_HOST="localhost:8000").get(
        f"/api/parties/{party.code}/printables/poster.pdf", HTTP_AUTHORIZATION=f"Bearer {host_token}"
    )
    assert response.status_code == 200, response.content[:300]
    with open_pdf(response.content) as pdf:
        assert f"http://192.168.1.20:8000{join_path(party.code)}" in pdf.pages[0].extract_text()


@pytest.mark.django_db
def test_a_new_party_is_announced_with_its_phone_link(lan_box, caplog):
    caplog.set_level(logging.INFO, logger="heist.party_night")
    response = Client(HTTP_HOST="localhost:8000").post(
        "/api/parties", data={"name": "Office"}, content_type="application/json"
    )
    code = response.json()["code"]
    [record] = [r for r in caplog.records if r.name == "heist.party_night"]
    assert record.join_url == f"http://192.168.1.20:8000{join_path(code)}"
    assert "'Office' created: guests join at http://192.168.1.20:8000/j/" in record.getMessage()


@pytest.mark.parametrize("value, ok", [("partybox.local:8000", False), ("http://partybox.local:8000/", True)])
def test_a_public_url_without_its_scheme_is_refused_at_start(repo_root, tmp_path, value, ok):
    import os
    import subprocess
    import sys

    env = {**os.environ, "HEIST_PUBLIC_URL": value, "HEIST_LAN_ADDRESSES": "", "HEIST_VAR_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", "import config.settings.embedded as s; print(s.HEIST_PUBLIC_URL, s.ALLOWED_HOSTS)"],
        cwd=repo_root,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if ok:
        assert done.returncode == 0, done.stderr
        assert done.stdout.split(" ", 1)[0] == "http://partybox.local:8000" and "'partybox.local'" in done.stdout
    else:
        assert done.returncode != 0 and "HEIST_PUBLIC_URL must start with http:// or https://" in done.stderr
