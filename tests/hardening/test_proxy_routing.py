"""deploy/nginx.conf, run by a real nginx in front of two stand-in daphnes: a party's
sockets (/ws/party/<code>/) all reach one daphne, picked by the URL, so a table's acts
and updates stay in one process; parties spread over both; when that daphne refuses,
the other takes its sockets; and the proxy headers the app relies on (X-Forwarded-For,
X-Forwarded-Proto, the upgrade) reach both upstreams.

The stand-ins answer every request with their name, so the test sees where nginx sent
it. The conf is the deployed one with only addresses and paths changed, and `http2 on`
dropped: the compose image is nginx 1.27, Debian's is 1.22, which predates that
directive (HTTP/2 has nothing to do with routing)."""

from __future__ import annotations

import http.client
import random
import socket
import ssl
import string
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bench.stack import free_port

NGINX = "/usr/sbin/nginx"  # bin/test installs Debian's nginx-light when it is missing


class StandIn:
    """A daphne's place: answers any GET with its name, keeps the headers it got."""

    def __init__(self, name: str) -> None:
        seen = self.seen = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                seen.append((self.path, dict(self.headers)))
                body = name.encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def _wait_listening(port: int, proc: subprocess.Popen, log) -> None:
    for _ in range(100):
        if proc.poll() is not None:
            raise AssertionError(f"nginx exited {proc.returncode}: {log.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nginx did not listen: {log.read_text()}")


@pytest.fixture
def proxy(tmp_path, repo_root):
    web1, web2 = StandIn("web1"), StandIn("web2")
    https_port, http_port = free_port(), free_port()
    keys = ["-keyout", str(tmp_path / "privkey.pem"), "-out", str(tmp_path / "fullchain.pem")]
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=party.test", *keys],
        check=True,
        capture_output=True,
    )
    conf = (repo_root / "deploy" / "nginx.conf").read_text()
    conf = (
        conf.replace("web1:8000", f"127.0.0.1:{web1.port}")
        .replace("web2:8000", f"127.0.0.1:{web2.port}")
        .replace("listen 443 ssl;", f"listen 127.0.0.1:{https_port} ssl;")
        .replace("listen 80;", f"listen 127.0.0.1:{http_port};")
        .replace("/etc/nginx/certs/", f"{tmp_path}/")
        .replace("http2 on;", "")
    )
    conf = "\n".join(line for line in conf.splitlines() if "listen [::]" not in line)
    temp = " ".join(
        f"{kind}_temp_path {tmp_path}/{kind};" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    (tmp_path / "nginx.conf").write_text(
        f"user root;\nworker_processes 1;\nerror_log {tmp_path}/error.log;\npid {tmp_path}/nginx.pid;\n"
        f"events {{ worker_connections 64; }}\n"
        f"http {{\naccess_log {tmp_path}/access.log;\n{temp}\n{conf}\n}}\n"
    )
    log = tmp_path / "error.log"
    log.touch()
    proc = subprocess.Popen([NGINX, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf"), "-g", "daemon off;"])
    try:
        _wait_listening(https_port, proc, log)

        def get(path: str) -> str:
            ctx = ssl.create_default_context()
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
            conn = http.client.HTTPSConnection("127.0.0.1", https_port, context=ctx, timeout=5)
            try:  # a new connection each time, as each phone has its own
                conn.request(
                    "GET", path, headers={"Host": "party.test", "Upgrade": "websocket", "Connection": "Upgrade"}
                )
                response = conn.getresponse()
                assert response.status == 200, (path, response.status, log.read_text())
                return response.read().decode()
            finally:
                conn.close()

        yield get, {"web1": web1, "web2": web2}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        for s in (web1, web2):
            try:
                s.stop()
            except OSError:
                pass


def _codes(n: int) -> list[str]:
    r = random.Random(11)
    return ["".join(r.choices(string.ascii_uppercase + string.digits, k=6)) for _ in range(n)]


def test_a_partys_sockets_all_reach_one_daphne_and_parties_spread_over_both(proxy):
    get, _ = proxy
    where = {}
    for code in _codes(24):
        answers = {get(f"/ws/party/{code}/") for _ in range(4)}
        assert len(answers) == 1, (code, answers)  # every screen of the party, the same process
        where[code] = answers.pop()
    assert set(where.values()) == {"web1", "web2"}, where  # and the parties use both


def test_when_a_partys_daphne_refuses_the_other_takes_its_sockets(proxy):
    get, upstreams = proxy
    codes = _codes(24)
    on_web1 = [code for code in codes if get(f"/ws/party/{code}/") == "web1"]
    assert on_web1
    upstreams["web1"].stop()
    assert {get(f"/ws/party/{code}/") for code in on_web1} == {"web2"}


def test_both_locations_pass_the_headers_the_app_relies_on(proxy):
    get, upstreams = proxy
    for path in ("/ws/party/ABC123/", "/p/ABC123/", "/"):
        get(path)
    seen = {path: headers for s in upstreams.values() for path, headers in s.seen}
    for path in ("/ws/party/ABC123/", "/p/ABC123/", "/"):
        headers = {k.lower(): v for k, v in seen[path].items()}
        assert headers["x-forwarded-proto"] == "https", (path, headers)
        assert headers["x-forwarded-for"] == "127.0.0.1" and headers["x-real-ip"] == "127.0.0.1", (path, headers)
        assert headers["host"] == "party.test", (path, headers)
        assert headers["upgrade"] == "websocket" and headers["connection"] == "upgrade", (path, headers)
