"""The one-screen summary live.py prints to stderr."""

from __future__ import annotations

from typing import Any


def summary(result: dict[str, Any]) -> str:
    tu = result.get("turns", {})
    wi = result.get("windows", {})
    p = result["params"]

    def pp(s: dict[str, Any] | None) -> str:
        return f"{s.get('p50', '-')} / {s.get('p99', '-')}" if s and s.get("n") else "- / -"

    stack = "embedded (SQLite + in-memory layer)" if p["embedded"] else "PostgreSQL + Redis pub/sub"
    lines = [
        f"Yankee Heist live bench: {p['tables']} tables x {p['players']} seats, think {p['think']} ms, {stack}",
        f"load average before/after: {result['loadavgBefore']} / {result.get('loadavgAfter')}",
        "",
        "| metric | value |",
        "| --- | --- |",
        f"| moves/s (all tables) | {tu.get('movesPerSecondAllTables')} ({tu.get('countedMoves')} counted: {tu.get('countedByKind')}) |",
        f"| per-recipient p50 / p99 ms | {pp(tu.get('perRecipientMs'))} |",
        f"| slowest recipient p50 / p99 ms | {pp(tu.get('slowestRecipientPerMoveMs'))} |",
        f"| mover RTT (ok) p50 / p99 ms | {pp(tu.get('moverRoundTripOkMs'))} |",
        f"| mover RTT (own table update) p50 / p99 ms | {pp(tu.get('moverRoundTripTableMs'))} |",
        f"| window closed p50 / p99 ms | {pp(wi.get('playToWindowClosedMs'))} ({wi.get('countedWindows', 0)} windows, affected p50 {wi.get('affectedPerWindow', {}).get('p50')}, stuck {wi.get('stuckWindows')}) |",
        f"| server CPU (1 core = 100%) | {tu.get('serverProcess', {}).get('cpuPctOfOneCore')}% turns, {wi.get('serverProcess', {}).get('cpuPctOfOneCore')}% windows |",
        f"| server CPU per accepted action | {tu.get('serverProcess', {}).get('cpuMsPerAcceptedAction')} ms turns |",
        f"| bench client CPU | {tu.get('benchProcess', {}).get('cpuPctOfOneCore')}% turns |",
        f"| postgres+redis CPU (all processes) | {tu.get('postgresAndRedisAllProcesses', {}).get('cpuPctOfOneCore')}% turns |",
        f"| leaks (messages checked) | {tu.get('leakCheck', {}).get('secretLeaks')} ({tu.get('leakCheck', {}).get('messagesChecked')}) turns, "
        f"{wi.get('leakCheck', {}).get('secretLeaks')} ({wi.get('leakCheck', {}).get('messagesChecked')}) windows |",
        f"| errors | turns {tu.get('errors')} windows {wi.get('errors')} |",
    ]
    return "\n".join(lines)
