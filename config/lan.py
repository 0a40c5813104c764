"""The laptop's LAN addresses, and what `bin/serve` prints for the host on party night.

On a phone "localhost" is the phone: guests reach the laptop only by its address on
the venue's Wi-Fi (or the host's hotspot). `bin/serve` runs `python -m config.lan`
once before daphne starts: it finds the addresses, prints the one phones open (and
its QR code) in the terminal, and hands them to daphne in `HEIST_LAN_ADDRESSES`,
which the embedded settings allow as hosts and `events/party/public_url.py` puts in every
link and QR code a phone or tablet is given.

`HEIST_LAN_ADDRESSES` set by hand (comma-separated, even empty) is taken as it is and
no interface is looked at: the tests name a second loopback address (127.0.0.2) as
the LAN, and never touch the machine's real interfaces.

Which interfaces count is decided by `lan_addresses` from (interface, address) pairs,
so it is tested with made-up interfaces: IPv4 only (phones on a venue Wi-Fi all speak
it), not loopback or link-local (169.254.x.x: no DHCP answered, nobody else can reach
it), and not the virtual networks of containers, virtual machines and VPNs, which no
phone in the room is on. Private addresses (10/8, 172.16/12, 192.168/16) come first.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import sys
from collections.abc import Iterable
from typing import TextIO

import qrcode

ENV = "HEIST_LAN_ADDRESSES"

# Interface-name prefixes of networks no phone in the room is on: containers (docker,
# podman, lxc, kubernetes), virtual machines (libvirt, VirtualBox, VMware, Hyper-V/WSL)
# and VPNs (tun/tap, WireGuard, Tailscale, ZeroTier, macOS's utun), and Apple's
# peer-to-peer links. (macOS's "bridge100" is its Internet Sharing hotspot: kept.)
VIRTUAL_PREFIXES = (
    "lo",
    "docker",
    "br-",
    "veth",
    "virbr",
    "vboxnet",
    "vmnet",
    "vethernet",
    "lxcbr",
    "lxdbr",
    "cni",
    "flannel",
    "podman",
    "kube",
    "tun",
    "tap",
    "utun",
    "wg",
    "tailscale",
    "zt",
    "awdl",
    "llw",
)


# RFC 1918: what a venue's Wi-Fi or a phone's hotspot hands out.
HOME_NETWORKS = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))


def lan_addresses(interfaces: Iterable[tuple[str, str]]) -> list[str]:
    """The addresses phones may reach, best first, from (interface name, address)
    pairs as the machine lists them."""
    private: list[str] = []
    public: list[str] = []
    for name, text in interfaces:
        if name.lower().startswith(VIRTUAL_PREFIXES):
            continue
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if (
            address.version != 4
            or address.is_loopback
            or address.is_link_local
            or address.is_multicast
            or address.is_unspecified
        ):
            continue
        bucket = private if any(address in net for net in HOME_NETWORKS) else public
        if text not in private and text not in public:
            bucket.append(text)
    return private + public


def machine_interfaces() -> list[tuple[str, str]]:
    """(interface name, IPv4 address) for every interface of this machine."""
    import ifaddr  # only where the machine is looked at: never in the tests' servers

    pairs = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if ip.is_IPv4 and isinstance(ip.ip, str):
                # Windows names interfaces by GUID; its readable name says "vEthernet".
                name = adapter.nice_name if adapter.name.startswith("{") else adapter.name
                pairs.append((name, ip.ip))
    return pairs


def addresses_here(environ: dict[str, str] | None = None) -> list[str]:
    """`HEIST_LAN_ADDRESSES` when it is set (even to nothing), else the machine's."""
    given = (os.environ if environ is None else environ).get(ENV)
    if given is not None:
        return [a.strip() for a in given.split(",") if a.strip()]
    try:
        return lan_addresses(machine_interfaces())
    except Exception:  # a machine whose interfaces cannot be read serves loopback only
        return []


# --- the terminal ---------------------------------------------------------------------

# Two modules per character, top and bottom; a full block is a LIGHT module. Printed
# light-on-dark, that is a QR code as a phone expects it (dark modules on a light
# ground) in the dark terminals most people use; on a real terminal the colours are
# also set explicitly, so a light-themed one shows it the right way round too.
HALF_BLOCKS = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
TTY_COLOURS = ("\x1b[38;5;255m\x1b[48;5;232m", "\x1b[0m")


def terminal_qr(text: str, *, tty: bool = False) -> str:
    """`text` as a QR code in half-block characters, one line per two rows."""
    qr = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=2)
    qr.add_data(text)
    qr.make(fit=True)
    dark = qr.get_matrix()  # with its border (quiet zone)
    if len(dark) % 2:
        dark.append([False] * len(dark[0]))
    lines = []
    for top, bottom in zip(dark[::2], dark[1::2], strict=True):
        row = "".join(HALF_BLOCKS[(not t, not b)] for t, b in zip(top, bottom, strict=True))
        lines.append(f"{TTY_COLOURS[0]}{row}{TTY_COLOURS[1]}" if tty else row)
    return "\n".join(lines)


def serve_banner(*, addresses: list[str], port: int, public_url: str = "", tty: bool = False) -> str:
    """What `bin/serve` prints before it starts: where the host opens the dashboard,
    the address phones open and its QR code, or, with no LAN address, what to do."""
    lines = [f"On this laptop, open http://localhost:{port}/ and create the party."]
    phones = public_url.rstrip("/") + "/" if public_url else ""
    if not phones and addresses:
        phones = f"http://{addresses[0]}:{port}/"
    if not phones:
        lines += [
            "",
            "No LAN address found: phones cannot reach this laptop yet.",
            "Join the venue's Wi-Fi (or turn on your phone's hotspot and join that),",
            "then restart bin/serve. Or set HEIST_PUBLIC_URL to the address phones open.",
        ]
        return "\n".join(lines)
    lines += ["", f"Phones join at {phones}  (on the same Wi-Fi as this laptop)"]
    others = [f"http://{a}:{port}/" for a in addresses[1:]] if not public_url else []
    if others:
        lines.append("Also reachable at " + ", ".join(others))
    lines += [terminal_qr(phones, tty=tty), "Each party's own join link and QR code show here when it is created."]
    return "\n".join(lines)


class PartyNightHandler(logging.Handler):
    """Prints a new party's join link and its QR code in bin/serve's terminal (the
    embedded settings attach it to the `heist.party_night` logger; a record carries
    the link as `join_url`)."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__(logging.INFO)
        self.stream = stream

    def emit(self, record: logging.LogRecord) -> None:
        try:
            stream = self.stream or sys.stderr
            text = record.getMessage()
            url = getattr(record, "join_url", "")
            if url:
                text += "\n" + terminal_qr(url, tty=stream.isatty())
            stream.write(text + "\n")
            stream.flush()
        except Exception:
            self.handleError(record)


def main(argv: list[str]) -> int:
    """`python -m config.lan PORT`: the banner on stderr, the addresses on stdout
    (comma-separated, for bin/serve to hand to daphne)."""
    port = int(argv[0])
    addresses = addresses_here()
    public_url = os.environ.get("HEIST_PUBLIC_URL", "").strip()
    banner = serve_banner(addresses=addresses, port=port, public_url=public_url, tty=sys.stderr.isatty())
    sys.stderr.write(banner + "\n")
    sys.stdout.write(",".join(addresses) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
