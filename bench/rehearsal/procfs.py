"""Memory of the server processes, read from /proc."""

from __future__ import annotations

import os


def proc_kb(pid: int, path: str, field: str) -> int:
    try:
        with open(f"/proc/{pid}/{path}") as f:
            for line in f:
                if line.startswith(field):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def rss_kb(pid: int) -> int:
    return proc_kb(pid, "status", "VmRSS:")


def pss_kb(pid: int) -> int:
    return proc_kb(pid, "smaps_rollup", "Pss:")


def postgres_pids(port: int) -> list[int]:
    """The private cluster's postmaster and backends (their command lines name the port
    only on the postmaster: its children are found by parent)."""
    pids, parents = [], {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ")
        except OSError:
            continue
        parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
        if b"postgres" in cmd and f"-p {port}".encode() in cmd:
            pids.append(int(entry))
    return sorted({*pids, *(pid for pid, parent in parents.items() if parent in pids)})
