"""Issue 29, "more faults of a real night", each played by the rehearsal (bench/party.py,
whose bots do what live.js does: reconnect with backoff, resend an unanswered action with
the same `re`, resync on a gap or a pong that shows newer versions) on a party of one
full table at fast pace, the fault striking in round 2:

- PostgreSQL restarted (a fast shutdown, 2 s down, the same port) under the
  production-like stack: a private cluster of the run's own (the machine's PostgreSQL is
  never restarted), two daphnes, a private Redis. The pools reconnect; no action lost or
  applied twice; every screen converges.
- The host's laptop asleep: bin/serve's stack (one daphne, SQLite, the in-memory layer)
  stopped with SIGSTOP, then continued: every screen converges within 10 s.
- bin/serve stopped with Ctrl-C (SIGINT, a graceful shutdown) and started again on the
  same port mid-round: the party resumes where it was.

Every run must finish every table with 0 lost, 0 applied twice, 0 stale screens, 0 5xx
and no stall (the watchdog does not count the fault's own pause)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.stack, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]

# The laptop sleeps longer than every timeout on either side, so that each of them has
# fired by the time it wakes: the phones' (live.js and the bots: a socket silent for 4 s
# is dead, reconnects back off to 5 s, a handshake gives up after 10 s) and the server's
# (a hello within HELLO_TIMEOUT_SECONDS, 10 s; a guest counts online for ONLINE_GRACE,
# 45 s, after its last ping; daphne pings an idle socket after 20 s and closes it 30 s
# later without a pong: 50 s). The two minutes is the rehearsal's default
# (`--sleep 120`); beyond 60 s nothing more expires, and the suite's time is bounded.
SLEEP_S = 60
# One full table: at fast pace a 4-guest game went from round 2 to its end so fast
# that, on a loaded machine, it once ended before the fault struck.
GUESTS = 10


def rehearse(*args: str, timeout: float = 300) -> dict:
    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "party.py"), "--guests", str(GUESTS), "--pace", "fast", *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr[-3000:]
    result = json.loads(lines[-1])
    result["_log"] = proc.stderr[-3000:]
    result["_exit"] = proc.returncode
    return result


def assert_party_whole(result: dict, fault: str) -> dict:
    summary = {
        k: result.get(k)
        for k in (
            "aborted",
            "tables",
            "tables_finished",
            "lost",
            "applied_twice",
            "phones_stale",
            "errors_5xx",
            "stalls",
            "faults",
            "duplicates",
            "stale_samples",
            "stall_samples",
            "refused_by_code",
            "refused_samples",
            "server_log_samples",
            "lost_samples",
            "harness_error_samples",
            "errors_5xx_by",
            "ws_handshake_failures",
            "ws_close_codes",
            "_log",
        )
    }
    summary = json.dumps(summary, indent=1)  # a string: pytest shows it whole
    assert "aborted" not in result, summary
    assert result["tables_finished"] == result["tables"] == 1, summary
    assert result["lost"] == 0 and result["applied_twice"] == 0, summary
    assert result["phones_stale"] == 0 and result["screens_checked"] == GUESTS + 1, summary
    assert result["harness_errors"] == 0, summary
    assert result["errors_5xx"] == 0 and result["stalls"] == 0, summary
    assert len(result["faults"]) == 1, summary
    (entry,) = result["faults"]
    assert entry["fault"] == fault, summary
    # it struck mid-game: the table was playing, not over
    assert entry["tables_at"] and not any(t.endswith("/over") for t in entry["tables_at"]), entry
    assert result["_exit"] == 0, summary
    print(f"\n{fault}: {entry}, duplicates acknowledged {result['duplicates']}")
    return entry


def test_postgres_restarted_mid_party_the_pools_reconnect_and_nothing_is_lost_or_doubled():
    entry = assert_party_whole(rehearse("--fault", "restart-postgres", "--time", "150"), "restart-postgres")
    assert entry["down_s"] >= 2, entry  # really down: stopped, 2 s, started
    assert entry["converge_s"] <= 10, entry


def test_the_laptop_asleep_every_phone_converges_within_10_s_of_waking():
    result = rehearse("--embedded", "--fault", "sleep-laptop", "--sleep", str(SLEEP_S), "--time", "200")
    entry = assert_party_whole(result, "sleep-laptop")
    assert entry["down_s"] >= SLEEP_S, entry
    assert entry["converge_s"] <= 10, entry
    # the phones did notice: their sockets went silent and they dropped them
    assert result["ws_close_codes"].get("1006", 0) >= GUESTS + 1, result["ws_close_codes"]


def test_ctrl_c_and_a_restart_mid_round_the_party_resumes_where_it_was():
    result = rehearse("--embedded", "--fault", "ctrl-c", "--time", "150")
    entry = assert_party_whole(result, "ctrl-c")
    assert entry["exit_status"] == 0, entry  # a graceful stop, as Ctrl-C in the terminal
    assert entry["converge_s"] <= 10, entry
    assert result["ws_connects"] >= 2 * (GUESTS + 1), result["ws_connects"]  # every screen came back
