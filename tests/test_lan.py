"""bin/serve's LAN addresses and terminal (config/lan.py), from made-up interfaces: no
test looks at, or sends anything to, the machine's real interfaces."""

import io
import logging

import numpy as np
import zxingcpp

from config import lan

# A laptop at a venue: Wi-Fi, a dead Ethernet port (link-local), Docker, a VPN, a VM
# network, and loopback, as ifaddr lists them (IPv6 as tuples is filtered before).
LAPTOP = [
    ("lo", "127.0.0.1"),
    ("eth0", "169.254.12.7"),
    ("docker0", "172.17.0.1"),
    ("br-5f2c9e", "172.18.0.1"),
    ("veth1a2b", "172.17.0.5"),
    ("tailscale0", "100.101.102.103"),
    ("utun3", "10.8.0.2"),
    ("virbr0", "192.168.122.1"),
    ("vEthernet (WSL)", "172.25.160.1"),
    ("wlp2s0", "192.168.1.20"),
    ("wlp2s0", "192.168.1.20"),
    ("en0", "fe80::1"),
]


def test_only_the_wifi_address_is_a_lan_address():
    assert lan.lan_addresses(LAPTOP) == ["192.168.1.20"]


def test_private_addresses_come_first_and_order_is_kept_otherwise():
    found = lan.lan_addresses([("eth1", "203.0.113.9"), ("wlan0", "10.0.0.7"), ("bridge100", "192.168.2.1")])
    # macOS's Internet Sharing hotspot (bridge100) is where phones are: kept.
    assert found == ["10.0.0.7", "192.168.2.1", "203.0.113.9"]


def test_nothing_but_loopback_and_virtual_networks_is_no_lan():
    assert lan.lan_addresses([("lo", "127.0.0.1"), ("docker0", "172.17.0.1"), ("eth0", "169.254.1.1")]) == []
    assert lan.lan_addresses([("eth0", "not an address"), ("eth0", "0.0.0.0"), ("eth0", "224.0.0.1")]) == []


def test_the_environment_names_the_lan_and_no_interface_is_read(monkeypatch):
    def never():
        raise AssertionError("the machine's interfaces were read")

    monkeypatch.setattr(lan, "machine_interfaces", never)
    assert lan.addresses_here({lan.ENV: "127.0.0.2, 127.0.0.3"}) == ["127.0.0.2", "127.0.0.3"]
    assert lan.addresses_here({lan.ENV: ""}) == []  # set and empty: no LAN, nothing looked up


def test_without_the_variable_the_interfaces_are_filtered(monkeypatch):
    monkeypatch.setattr(lan, "machine_interfaces", lambda: LAPTOP)
    assert lan.addresses_here({}) == ["192.168.1.20"]


def test_unreadable_interfaces_mean_no_lan_not_a_crash(monkeypatch):
    def broken():
        raise OSError("no getifaddrs here")

    monkeypatch.setattr(lan, "machine_interfaces", broken)
    assert lan.addresses_here({}) == []


def decode_terminal_qr(text: str) -> list[str]:
    """The texts of the QR codes drawn in half blocks in `text` (a full block is light)."""
    rows = [line for line in text.splitlines() if line and set(line) <= set(lan.HALF_BLOCKS.values())]
    top = {ch: key[0] for key, ch in lan.HALF_BLOCKS.items()}
    bottom = {ch: key[1] for key, ch in lan.HALF_BLOCKS.items()}
    light = []
    for row in rows:
        light.append([top[c] for c in row])
        light.append([bottom[c] for c in row])
    pixels = np.kron(np.array(light, dtype=np.uint8) * 255, np.ones((8, 8), dtype=np.uint8))
    return [r.text for r in zxingcpp.read_barcodes(pixels)]


def test_the_terminal_qr_code_scans_to_its_text():
    assert decode_terminal_qr(lan.terminal_qr("http://192.168.1.20:8000/")) == ["http://192.168.1.20:8000/"]


def test_on_a_terminal_the_colours_are_set_so_a_light_theme_shows_it_right():
    drawn = lan.terminal_qr("http://192.168.1.20:8000/", tty=True)
    assert all(line.startswith(lan.TTY_COLOURS[0]) and line.endswith(lan.TTY_COLOURS[1]) for line in drawn.splitlines())


def test_the_banner_names_the_phone_address_and_draws_it():
    banner = lan.serve_banner(addresses=["192.168.1.20", "10.0.0.7"], port=8000)
    assert "open http://localhost:8000/ and create the party" in banner
    assert "Phones join at http://192.168.1.20:8000/" in banner
    assert "Also reachable at http://10.0.0.7:8000/" in banner
    assert decode_terminal_qr(banner) == ["http://192.168.1.20:8000/"]


def test_the_public_url_wins_over_the_lan():
    banner = lan.serve_banner(addresses=["192.168.1.20"], port=8000, public_url="http://partybox.local:8000")
    assert "Phones join at http://partybox.local:8000/" in banner and "192.168.1.20" not in banner
    assert decode_terminal_qr(banner) == ["http://partybox.local:8000/"]


def test_with_no_lan_the_banner_says_what_to_do_and_draws_nothing():
    banner = lan.serve_banner(addresses=[], port=9000)
    assert "No LAN address found: phones cannot reach this laptop yet." in banner
    assert "Wi-Fi" in banner and "restart bin/serve" in banner and "HEIST_PUBLIC_URL" in banner
    assert "█" not in banner


def test_a_new_partys_link_is_printed_with_its_qr_code():
    out = io.StringIO()
    logger = logging.getLogger("test.party_night")
    handler = lan.PartyNightHandler(out)
    logger.addHandler(handler)
    try:
        url = "http://192.168.1.20:8000/j/ABC234/"
        logger.warning("Party 'Office' created: guests join at %s", url, extra={"join_url": url})
    finally:
        logger.removeHandler(handler)
    assert "guests join at http://192.168.1.20:8000/j/ABC234/" in out.getvalue()
    assert decode_terminal_qr(out.getvalue()) == [url]
