"""1,000 trickling connections against bin/serve, from loopback (issue 29.4).

    .venv/bin/python bench/front_door.py                 # 1,000 connections, defaults
    .venv/bin/python bench/front_door.py --connections 400 --addresses 4

Starts bin/serve as a user would (bench/binserve.py: a free port, its own SQLite, the
LAN named as 127.0.0.2), opens N connections that send a partial request and then one
byte every 0.5 s (Twisted's idle clock restarts at each byte), spread over loopback
source addresses 127.0.0.10 and up, and prints daphne's open descriptors before,
at their peak and after, how long the last one stayed open, and whether a whole
request was still answered meanwhile. Each run is bounded (--limit seconds).
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.binserve import BinServe


def run(*, connections: int, addresses: int, limit: float, env: dict[str, str]) -> dict[str, object]:
    with BinServe(env=env) as box:
        before = box.descriptors()
        socks: list[socket.socket] = []
        opened_at: list[float] = []
        start = time.monotonic()
        for i in range(connections):
            source = f"127.0.0.{10 + i % addresses}"
            try:
                sock = socket.create_connection(("127.0.0.1", box.port), timeout=5, source_address=(source, 0))
                sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Trickle: ")
                sock.setblocking(False)
                socks.append(sock)
                opened_at.append(time.monotonic())
            except OSError:
                pass  # refused: counted as not opened
        opened_in = time.monotonic() - start
        peak = box.descriptors()
        open_ = set(range(len(socks)))
        closed_at: dict[int, float] = {}
        answered = None
        last_trickle = 0.0
        while open_ and time.monotonic() - start < limit:
            now = time.monotonic()
            for i in list(open_):
                try:
                    if socks[i].recv(4096) == b"":
                        raise ConnectionResetError
                except BlockingIOError:
                    if now - last_trickle >= 0.5:
                        try:
                            socks[i].send(b"a")
                        except OSError:
                            open_.discard(i)
                            closed_at[i] = now - opened_at[i]
                except OSError:
                    open_.discard(i)
                    closed_at[i] = now - opened_at[i]
            if now - last_trickle >= 0.5:
                last_trickle = now
                peak = max(peak, box.descriptors())
            if answered is None and now - start > 1:
                answered = json.loads(box.get("/healthz")) == {"ok": True}
            time.sleep(0.05)
        after = box.descriptors()
        for sock in socks:
            sock.close()
        times = sorted(closed_at.values())
        return {
            "connections": connections,
            "source addresses": addresses,
            "opened": len(socks),
            "opened in s": round(opened_in, 2),
            "descriptors before": before,
            "descriptors peak": peak,
            "descriptors after": after,
            "still open at the limit": len(open_),
            # A connection's life, from its open to its close as this side saw it (the
            # loop looks every 50 ms and is itself slow with 1,000 sockets).
            "shortest life s": round(times[0], 2) if times else None,
            "median life s": round(times[len(times) // 2], 2) if times else None,
            "longest life s": round(times[-1], 2) if times else None,
            "all closed by s": round(max(opened_at[i] + closed_at[i] for i in closed_at) - start, 2) if times else None,
            "a whole request answered meanwhile": answered,
        }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--addresses", type=int, default=1, help="loopback source addresses to spread them over")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds before the run gives up")
    parser.add_argument("--request-seconds", type=float, default=None, help="HEIST_REQUEST_SECONDS for bin/serve")
    parser.add_argument("--per-address", type=int, default=None, help="HEIST_OPEN_PER_ADDRESS for bin/serve")
    args = parser.parse_args()
    env = {}
    if args.request_seconds is not None:
        env["HEIST_REQUEST_SECONDS"] = str(args.request_seconds)
    if args.per_address is not None:
        env["HEIST_OPEN_PER_ADDRESS"] = str(args.per_address)
    result = run(connections=args.connections, addresses=args.addresses, limit=args.limit, env=env)
    for key, value in result.items():
        print(f"{key:>36}: {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
