"""The screens' HTTP: one request at a time over a fresh connection from a phone's own address."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from bench.rehearsal.clock import now
from bench.rehearsal.stats import Stats
from bench.stack import HOST


class Http:
    """Plain HTTP/1.1 over asyncio streams (one connection per request, like a phone
    opening a page), counting statuses."""

    def __init__(self, stats: Stats):
        self.stats = stats

    async def request(
        self,
        port: int,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        source: str = HOST,
    ) -> tuple[int | None, Any]:
        """One request; a 503 "busy" (config/admission.py: it never reached the app) is
        waited out and sent again, as the join page and the browser's Refresh do."""
        for _ in range(10):
            status, parsed, retry_after = await self._request_once(port, method, path, body, headers, source)
            if status != 503 or retry_after is None:
                break
            self.stats.busy += 1
            await asyncio.sleep(retry_after)
        return status, parsed

    async def _request_once(
        self, port: int, method: str, path: str, body: Any, headers: dict[str, str] | None, source: str
    ) -> tuple[int | None, Any, float | None]:
        data = json.dumps(body).encode() if body is not None else b""
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close", "Accept: */*"]
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        for k, v in (headers or {}).items():
            head.append(f"{k}: {v}")
        t0 = now()
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(HOST, port, local_addr=(source, 0)), 10)
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)
            await writer.drain()
            raw = await asyncio.wait_for(reader.read(), 30)
            writer.close()
        except (TimeoutError, OSError) as exc:
            self.stats.http_failures[type(exc).__name__] += 1
            return None, None, None
        self.stats.http_s.append(now() - t0)
        head_raw, _, payload = raw.partition(b"\r\n\r\n")
        try:
            status = int(head_raw.split(b" ", 2)[1])
        except (IndexError, ValueError):
            self.stats.http_failures["bad_response"] += 1
            return None, None, None
        self.stats.http_status[status] += 1
        retry_after = _retry_after(head_raw) if status == 503 else None
        if status >= 500 and retry_after is None:
            self.stats.errors_5xx += 1
            self.stats.errors_5xx_by[f"http {method} {path.split('/')[1] or '/'}"] += 1
        if b"transfer-encoding: chunked" in head_raw.lower():
            payload = _unchunk(payload)
        try:
            parsed = json.loads(payload) if payload[:1] in (b"{", b"[") else payload
        except ValueError:
            parsed = payload
        if status >= 400 and isinstance(parsed, dict) and "error" in parsed and retry_after is None:
            self.stats.refused[f"http.{parsed['error']}"] += 1
        return status, parsed, retry_after


def _retry_after(head_raw: bytes) -> float | None:
    for line in head_raw.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"retry-after":
            try:
                return float(value.strip())
            except ValueError:
                return None
    return None


def _unchunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_raw, _, rest = data.partition(b"\r\n")
        size = int(size_raw.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out += rest[:size]
        data = rest[size + 2 :]
    return out
