"""The run's one JSON object (the last line bench/party.py prints)."""

from __future__ import annotations

import collections
import resource
from typing import TYPE_CHECKING, Any

from bench.disk import summary as disk_summary
from bench.rehearsal.checks import check_lost, check_stale, check_twice
from bench.rehearsal.figures import ack_by_window, broadcast_latencies, load_by_window, percentiles
from bench.rehearsal.game import rehearsal_of, tables_for

if TYPE_CHECKING:
    from bench.rehearsal.rehearsal import Rehearsal


def clock_passes(bench: Rehearsal) -> dict[str, Any]:
    """The steps the server played for quiet guests, by kind, and how many request ids
    were used twice (none: each fires once, whichever daphne's sweep claimed it)."""
    from tables.models import TableAction

    codes = [p.code for p in bench.parties if p.code]
    rows = list(
        TableAction.objects.filter(table__party__code__in=codes, actor="clock").values_list(
            "table_id", "client_id", "action"
        )
    )
    kinds: collections.Counter[str] = collections.Counter()
    for _, _, action in rows:
        kind = action["type"]
        if kind == "timeout_pass":
            kind = "reaction" if "window" in action else "turn_or_trim"
        kinds[kind] += 1
    ids = collections.Counter((t, c) for t, c, _ in rows)
    return {"total": len(rows), "by_kind": dict(kinds), "ids_used_twice": sum(1 for n in ids.values() if n > 1)}


# The host's marks (PartyRun) around the game's own (RehearsalGame.phases), each with its
# span's name (from the mark before).
FIRST_PHASES = {"created": "create", "joined": "join_burst"}
LAST_PHASES = {"result": "result_csv"}


def report(bench: Rehearsal) -> dict[str, Any]:
    from tables.models import Table

    s = bench.stats
    game = bench.args.game
    tables = finished = 0
    lost = stale = screens = twice = unacked = 0
    lost_samples, stale_samples, csv = [], [], []
    phases: dict[str, list[float]] = collections.defaultdict(list)
    rehearsal = rehearsal_of(game)
    assert rehearsal is not None  # the options offer only games with rehearsal bots
    names = {**FIRST_PHASES, **rehearsal.phases, **LAST_PHASES}
    order = ["start", *names]
    for party in bench.parties:
        if party.code is None:
            continue
        rows = list(Table.objects.filter(party__code=party.code).values_list("state", flat=True))
        tables += len(rows) if rows else tables_for(game, bench.args.guests)
        finished += sum(1 for st in rows if st.get("phase") == "over")
        if party.tables:
            n, sample = check_lost(party)
            lost += n
            lost_samples += sample
            n, m = check_twice(party)
            twice += n
            unacked += m
            n, checked, sample = check_stale(party)
            stale += n
            screens += checked
            stale_samples += sample
        csv.append(party.csv_rows)
        marks = party.phase_t
        prev = marks.get("start")
        for key in order[1:]:
            if key in marks and prev is not None:
                phases[names[key]].append(marks[key] - prev)
                prev = marks[key]
    if not tables:
        tables = bench.args.parties * tables_for(game, bench.args.guests)
    acked = [a for party in bench.parties for a in party.acked]
    return {
        **rehearsal.report([t for p in bench.parties for t in p.tables], [p.bots.figures() for p in bench.parties]),
        "tables": tables,
        "tables_finished": finished,
        "actions": sum(1 for a in acked if not a[3]),
        "quiet_guests": bench.args.quiet * len(bench.parties),
        "clock_passes": clock_passes(bench),
        "lost": lost,
        "applied_twice": twice,
        "applied_unacked": unacked,
        "phones_stale": stale,
        "errors_5xx": s.errors_5xx,
        "busy_503": s.busy,
        "refused_by_code": dict(s.refused.most_common()),
        "refused_samples": s.refused_samples,
        "phases_s": {k: round(max(v), 1) for k, v in phases.items()},
        "latency_ms": {
            "ack": percentiles(s.ack_s),
            "ack_over_sleep": percentiles(s.acks_over_sleep),
            "broadcast": percentiles(broadcast_latencies(s)),
            "http": percentiles(s.http_s),
        },
        "ack_by_30s": ack_by_window(s.ack_at, s.ack_s, 30.0),
        # The slowest acks, each with its wall-clock time (beside the daphnes' logs).
        "slowest_acks": [
            {"at": round(at, 3), "ms": round(1000 * lat, 1), "type": kind, "party": party, "screen": screen}
            for at, lat, kind, party, screen in sorted(s.ack_detail, key=lambda a: -a[1])[:40]
        ],
        "load_by_30s": load_by_window(s.ack_at, bench.lag, bench.cpu, 30.0, bench.fsyncs),
        "disk_fsync_ms": disk_summary(bench.fsyncs),
        "harness_gc_pauses_ms": bench.gc_pauses,
        "harness_peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "screens_checked": screens,
        "result_csv_rows": csv,
        "duplicates": s.duplicates,
        "actions_by_type": dict(s.actions_by_type),
        "errors_5xx_by": dict(s.errors_5xx_by),
        "http_status": {str(k): v for k, v in sorted(s.http_status.items())},
        "http_failures": dict(s.http_failures),
        "ws_connects": s.connects,
        "ws_close_codes": {str(k): v for k, v in sorted(s.close_codes.items())},
        "ws_handshake_failures": {str(k): v for k, v in s.handshake_failures.items()},
        "gaps": s.gaps,
        "patch_misses": s.patch_misses,
        "resyncs": s.resyncs,
        "resyncs_by": dict(s.resyncs_by.most_common()),  # why (gap, table, revision) and when
        "drops": s.drops,
        "sleeps": s.sleeps,
        "stalls": len(s.stalls),
        "stall_samples": s.stalls[:5],
        "reloads": s.reloads,
        "faults": s.faults,
        "pg_connections_max": bench.pg_max if bench.db_name else None,
        "memory": {
            **bench.memory,
            "daphne_kb_per_socket": round(
                (bench.memory.get("daphne_peak_mb", 0) - bench.memory.get("daphne_idle_mb", 0))
                * 1024
                / max(1, bench.memory.get("sockets_at_daphne_peak", 0)),
                1,
            ),
        },
        "lost_samples": lost_samples[:5],
        "stale_samples": stale_samples[:5],
        "harness_errors": len(bench.harness_errors),
        "harness_error_samples": bench.harness_errors[:5],
    }
