"""bin/serve's port is an option (and PORT); a bad one is refused before anything starts;
and on party night, what it prints and serves lets a phone join through the LAN."""

import os
import subprocess
import time

import pytest


def serve(repo_root, *args, env=None):
    return subprocess.run(
        [str(repo_root / "bin" / "serve"), *args], capture_output=True, text=True, timeout=30, env=env
    )


def test_help_names_the_port_option_and_the_variable(repo_root):
    done = serve(repo_root, "--help")
    assert done.returncode == 0
    assert "--port N" in done.stdout and "$PORT" in done.stdout


@pytest.mark.parametrize(
    "args, env_port, message",
    [
        (["--port", "abc"], None, "the port must be a number from 1 to 65535, not 'abc'"),
        (["--port=70000"], None, "the port must be a number from 1 to 65535, not '70000'"),
        ([], "0", "the port must be a number from 1 to 65535, not '0'"),
        (["--port"], None, "--port needs a port number"),
        (["8000"], None, "unknown argument: 8000"),
    ],
)
def test_a_bad_port_is_refused_before_anything_starts(repo_root, args, env_port, message):
    env = {k: v for k, v in os.environ.items() if k != "PORT"}
    if env_port is not None:
        env["PORT"] = env_port
    done = serve(repo_root, *args, env=env)
    assert done.returncode == 2
    assert f"bin/serve: {message}" in done.stderr
    assert "serving on" not in done.stderr and "migrat" not in done.stdout


# --- party night: bin/serve as a user starts it, a phone through the LAN address ----------


def _decode_png(png: bytes) -> list[str]:
    import io

    import zxingcpp
    from PIL import Image

    return [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


@pytest.mark.browser
@pytest.mark.slow
def test_a_phone_joins_through_the_lan_address_bin_serve_prints():
    """bin/serve, told its LAN is 127.0.0.2 (a second loopback address: no real
    interface is touched), prints the phones' address and its QR code; the host opens
    http://localhost:PORT/ and creates a party; the join link and QR code on the host
    page, and those bin/serve prints, name 127.0.0.2; a phone-sized page opens that
    link (not localhost, not 127.0.0.1), joins and sees the lobby; the tablet pairing
    QR code names 127.0.0.2 too."""
    import json
    import re
    import urllib.request

    from playwright.sync_api import expect, sync_playwright

    from bench.binserve import BinServe
    from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
    from tests.browser.helpers import SHOTS, new_page
    from tests.test_lan import decode_terminal_qr

    with BinServe(lan="127.0.0.2") as box:
        port = box.port
        lan_home = f"http://127.0.0.2:{port}/"
        assert f"Phones join at {lan_home}" in box.terminal()
        banner_end = box.wait_for_line("Each party's own join link")
        assert decode_terminal_qr("\n".join(box.lines[:banner_end])) == [lan_home]

        errors: list[str] = []
        SHOTS.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            try:
                host = new_page(browser, 1280, 900, errors, "host")
                host.goto(f"http://localhost:{port}/")
                host.get_by_label("Party name").fill("Office heist")
                host.get_by_role("button", name="Host a party").click()
                host.wait_for_url(re.compile(r"/host/[A-Z0-9]{6}/$"))
                code = host.url.rstrip("/").rsplit("/", 1)[1]
                # the host's invitation (?k=) is made with this server's SECRET_KEY
                shape = re.compile(re.escape(f"http://127.0.0.2:{port}/j/{code}/") + r"\?k=[\w-]{22}$")

                # The host page: the link and its QR code, for phones.
                expect(host.locator("#join-link")).to_have_attribute("href", shape)
                join = host.locator("#join-link").get_attribute("href")
                expect(host.locator("#join-link")).to_have_text(join)
                expect(host.locator("#no-lan")).to_have_count(0)
                qr = host.locator("#join-panel img.qr")
                expect(qr).to_be_visible()
                host.wait_for_function("document.querySelector('#join-panel img.qr').naturalWidth > 0")
                assert _decode_png(qr.screenshot()) == [join]
                host.screenshot(path=str(SHOTS / "bin-serve-host.png"))

                # The terminal: the same link, and its QR code.
                start = box.wait_for_line(f"guests join at {join}")
                deadline = time.monotonic() + 5  # the QR code's lines follow the link's
                while decode_terminal_qr("\n".join(box.lines[start:])) != [join]:
                    assert time.monotonic() < deadline, box.terminal()
                    time.sleep(0.1)

                # A phone opens the link through the LAN address, joins, sees the lobby.
                phone = new_page(browser, 390, 844, errors, "phone", is_mobile=True, has_touch=True)
                phone.goto(join)
                phone.get_by_label("Your name", exact=True).fill("Pia")
                phone.get_by_label("Secretly describe the gift you brought").fill("a scarf")
                phone.get_by_role("button", name="Join the party").click()
                phone.wait_for_url(f"http://127.0.0.2:{port}/p/{code}/")
                expect(phone.locator(".write-number")).to_be_visible()
                phone.screenshot(path=str(SHOTS / "bin-serve-phone-lobby.png"))
                expect(host.locator("#roster li.guest")).to_have_count(1)

                # A second guest (over HTTP, through the LAN address), then the deal,
                # then the tablet pairing QR code.
                opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
                body = json.dumps({"name": "Quinn", "description": "a mug"}).encode()
                request = urllib.request.Request(
                    f"http://127.0.0.2:{port}/api/parties/{code}/guests",
                    data=body,
                    headers={"Content-Type": "application/json"},
                )
                with opener.open(request, timeout=10) as response:
                    assert response.status == 201
                expect(host.locator("#roster li.guest")).to_have_count(2)
                host.get_by_role("button", name="Deal the cards (2 players)").click()
                # One table: the dashboard shows it whole, its tablet panel beside it.
                details = host.locator("section.tablets-panel")
                details.get_by_role("button", name="Pair a tablet with table A").click()
                pairing = details.locator(".pairing-code").inner_text()
                expect(details.locator(".pairing-url")).to_have_text(f"http://127.0.0.2:{port}/t/{code}/")
                pairing_qr = details.locator(".pairing img.qr")
                expect(pairing_qr).to_be_visible()
                # Read as the tablet's camera would, once the code has settled on the page:
                # under load an alert (Quinn, who joined over HTTP, goes offline) can push
                # the panel down while the screenshot is taken, and a read of the moving
                # image finds no code.
                wanted = [f"http://127.0.0.2:{port}/t/{code}/#{pairing}"]
                pairing_qr.evaluate("(img) => img.decode()")
                read_until = time.monotonic() + 10
                while (seen := _decode_png(pairing_qr.screenshot())) != wanted and time.monotonic() < read_until:
                    host.wait_for_timeout(250)
                assert seen == wanted
            finally:
                browser.close()
        assert not errors, errors
