"""Issue 8: the rehearsal harness, bench/party.py.

- a small rehearsal end to end, as CI runs it: 30 guests at fast pace on the production-like
  stack (PostgreSQL, the Redis layer on a private redis-server, two daphnes), 30 % of the
  phones cutting their socket right after sending an action: every table finishes,
  nothing acknowledged is lost, no screen is stale, no 5xx, no stall. (kill-daphne is
  not used here: a kill between an action's commit and its broadcast leaves the other
  daphne's phones a version behind until the next message, which stalls a table in about
  one run in eight today; see bench/README.md.)
- a small Royal Heist rehearsal (--game royal: 11 guests, two tables, fast pace) on both
  stacks: both tables stop at the gate, the host opens it, both finish, nothing lost,
  applied twice or stale, no 5xx; its screens take Royal's patches as live.js does;
- its bot's turn chooser, which decides from the seat view alone, only makes legal moves;
- its two oracles (lost actions, stale screens) do count what they claim to count.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from bench.disk import DiskProbe
from bench.disk import summary as disk_summary
from bench.party import Phone, Stats, check_lost, check_stale, load_by_window, server_acks_by_window
from events.models import Guest
from events.party.roles import Actor, Role
from events.party.selectors import guest_actor, snapshot_for
from games.yankee import Game, Gift, Phase, apply, new_game, parse_action, seat_view
from games.yankee.party.choose import choose_turn, choose_window_play
from tests.party.drive import PartyBots, tables_of

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.stack
@pytest.mark.slow
def test_thirty_guests_fast_with_phones_dropping_mid_action_lose_nothing():
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "party.py"),
            "--guests",
            "30",
            "--pace",
            "fast",
            "--fault",
            "drop-phones",
            "--time",
            "90",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,
    )
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr[-3000:]
    result = json.loads(lines[-1])
    summary = {
        k: result.get(k)
        for k in (
            "aborted",
            "tables",
            "tables_finished",
            "lost",
            "phones_stale",
            "errors_5xx",
            "stalls",
            "faults",
            "stale_samples",
            "lost_samples",
            "harness_error_samples",
            "stall_samples",
        )
    }
    # A string, so pytest prints it whole (a dict's repr is cut at 240 characters), with
    # the run's own log lines about stalls and drops.
    told = "\n".join(
        [
            json.dumps(summary, default=str),
            *[line for line in proc.stderr.splitlines() if "stall" in line or "drop" in line][-40:],
        ]
    )
    assert "aborted" not in result, (summary, proc.stderr[-3000:])
    assert result["guests"] == 30 and result["tables"] == 3
    assert result["tables_finished"] == result["tables"], summary
    assert result["lost"] == 0, summary
    assert result["phones_stale"] == 0, summary
    assert result["errors_5xx"] == 0, summary
    assert result["stalls"] == 0, told
    assert result["screens_checked"] == 31  # 30 phones and the host
    # The fault really happened: 9 phones (30 %) cut their socket right after sending an
    # action, reconnected and resent it with the same `re`.
    assert [f["fault"] for f in result["faults"]] == ["drop-phones"], summary
    assert result["drops"] == 9, summary
    assert result["ws_close_codes"].get("1006", 0) >= 9, result["ws_close_codes"]
    assert result["actions_by_type"]["draw_relay_seat"] == 3
    # The relay's walk: the three carriers confirmed their deliveries, then rounds 3-4.
    assert "relay_walk" in result["phases_s"], result["phases_s"]
    assert result["actions_by_type"]["confirm_reveal"] == 3
    assert result["result_csv_rows"] == [33]  # 30 keeps + 3 vault returns
    # Beside each ack window, the harness's own loop lag and the CPU in use were sampled.
    load = result["load_by_30s"]
    assert load and load[0]["from_s"] == 0, load
    assert all(row["harness_lag_p50"] is not None and row["daphne_cores"] is not None for row in load), load
    # And the disk under the database, flushed as a commit flushes it, all along.
    assert result["disk_fsync_ms"]["n"] > 100 and result["disk_fsync_ms"]["p50"] > 0, result["disk_fsync_ms"]
    assert all(row["fsync_p99"] is not None for row in load), load
    # The slowest acks, each with its wall-clock time and who sent what.
    slowest = result["slowest_acks"]
    assert len(slowest) == 40 and slowest[0]["ms"] >= slowest[-1]["ms"] > 0, slowest
    assert {"at", "type", "party", "screen"} <= set(slowest[0]), slowest[0]
    assert proc.returncode == 0, summary


@pytest.mark.slow
@pytest.mark.parametrize(
    "stack",
    [
        pytest.param(["--embedded"], id="embedded"),
        pytest.param([], id="postgres+redis", marks=pytest.mark.stack),
    ],
)
def test_a_royal_heist_rehearsal_of_two_tables_meets_at_the_gate_and_finishes(stack):
    """--game royal: 11 guests at two tables (6 and 5) decide from their own views, every
    seat at once; both tables stop at the gate, the host opens it, and both finish."""
    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "party.py"),
            "--game",
            "royal",
            "--guests",
            "11",
            "--pace",
            "fast",
            "--time",
            "60",
            *stack,
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
    )
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr[-3000:]
    result = json.loads(lines[-1])
    keys = ("aborted", "tables", "tables_finished", "gates_opened", "lost", "applied_twice", "phones_stale")
    summary = json.dumps(
        {
            k: result.get(k)
            for k in (
                *keys,
                "errors_5xx",
                "stalls",
                "refused_samples",
                "stale_samples",
                "lost_samples",
                "harness_error_samples",
                "stall_samples",
            )
        },
        default=str,
    )
    assert "aborted" not in result, (summary, proc.stderr[-3000:])
    assert result["game"] == "royal" and result["guests"] == 11 and result["tables"] == 2, summary
    assert result["tables_finished"] == 2, summary
    # The host's one open_gate opened both tables' gates (each table's action log has it).
    assert result["gates_opened"] == {"commands": 1, "tables": 2}, summary
    assert result["lost"] == 0 and result["applied_twice"] == 0 and result["applied_unacked"] == 0, summary
    assert result["phones_stale"] == 0 and result["screens_checked"] == 12, summary
    assert result["errors_5xx"] == 0 and result["stalls"] == 0 and result["harness_errors"] == 0, summary
    # Every act was a seat's decision, and none was refused: a seat decides once per step,
    # from a view whose `can_decide` nobody else can take away.
    assert set(result["actions_by_type"]) == {"decide"} and result["actions"] >= 2 * 11, summary
    assert result["refused_by_code"] == {}, summary
    assert {"first_half", "gate", "second_half"} <= set(result["phases_s"]), result["phases_s"]
    assert result["result_csv_rows"] == [11]  # the host's CSV ranks every guest
    assert proc.returncode == 0, summary


def test_a_royal_screen_takes_patches_to_the_seat_view_the_server_holds():
    """The rehearsal's screens merge Royal Heist's private part as live.js does: from a
    snapshot, each update as a patch of the public view plus the seat's private part
    gives exactly the seat view (what check_stale compares with)."""
    from bench.rehearsal.game import rehearsal_of
    from games.patch import view_patch
    from games.royal import Decide, new_game, public_view, seat_private, seat_view
    from games.royal import apply as royal_apply

    game, _ = new_game(seed=4, players=4, gate=True)
    seat = 2
    rehearsal = rehearsal_of("royal")
    assert rehearsal is not None
    copies = rehearsal.table_copies()
    meta = {"id": 9, "letter": "A", "roster_tag": "t"}
    copies.snapshot({"role": "guest", "table": {"table": meta, "version": game.version, "view": seat_view(game, seat)}})
    r = random.Random(4)
    steps = 0
    while game.phase.value == "decide" and steps < 200:
        waiting = game.waiting()
        before = public_view(game)
        game, _ = royal_apply(game, Decide(r.choice(waiting), r.random() < 0.7))
        msg = {
            "type": "table",
            "table": {"id": 9, "roster_tag": "t"},
            "version": game.version,
            "base": before["version"],
            "patch": view_patch(before, public_view(game)),
            "private": seat_private(game, seat),
        }
        whole = copies.take(msg)
        assert whole is not None and whole["view"] == seat_view(game, seat), steps
        assert whole["table"] == {**meta, "roster_tag": "t"}
        steps += 1
    assert steps > 4 and game.phase.value == "gate"
    # A patch of a version this screen does not hold: None (the screen resyncs).
    assert copies.take({**msg, "base": msg["version"] + 5, "version": msg["version"] + 6}) is None


def test_a_royal_rehearsal_needs_three_guests_and_counts_tables_of_eight():
    from bench.rehearsal.game import tables_for
    from bench.rehearsal.options import parse_args

    with pytest.raises(SystemExit):
        parse_args(["--game", "royal", "--guests", "2"])
    assert parse_args(["--guests", "2"]).game == "yankee"
    assert [tables_for("royal", n) for n in (3, 8, 11, 100)] == [1, 1, 2, 13]
    assert [tables_for("yankee", n) for n in (2, 10, 11, 100)] == [1, 1, 2, 10]


def test_the_royal_bot_presses_on_early_and_gets_out_when_the_danger_grows():
    from games.royal.party.rehearsal import press_on

    def view(satchel: int, dangers: int) -> dict:
        return {"you": 0, "seats": [{"satchel": satchel}], "dangers": ["J", "Q", "K", "A", "X"][:dangers]}

    r = random.Random(1)
    early = sum(press_on(view(0, 0), r) for _ in range(1000))
    late = sum(press_on(view(30, 4), r) for _ in range(1000))
    assert early > 850 and late < 150, (early, late)


def test_load_windows_line_up_with_the_ack_windows():
    ack_at = [100.0, 131.0]  # the first ack opens window 0, as in ack_by_window
    # Before the first ack, or in a window with no ack (the harness settling): left out.
    lag = [(99.0, 9.0), (101.0, 0.001), (102.0, 0.003), (135.0, 0.250), (200.0, 0.9)]
    cpu = [(101.0, 0.5, 1.0), (102.0, 0.7, 1.4), (136.0, 0.1, 0.2), (200.5, 1.0, 1.0)]
    rows = load_by_window(ack_at, lag, cpu, 30.0)
    assert [r["from_s"] for r in rows] == [0, 30]
    assert rows[0]["harness_lag_max"] == 3.0 and rows[0]["harness_cores"] == 0.6 and rows[0]["daphne_cores"] == 1.2
    assert rows[1]["harness_lag_p99"] == 250.0 and rows[1]["daphne_cores"] == 0.2
    assert load_by_window([], lag, cpu, 30.0) == []
    # The disk probe's flushes, in the same windows: a stall shows where it happened.
    fsyncs = [(100.5, 0.4), (101.0, 0.6), (133.0, 0.5), (134.0, 310.0)]
    rows = load_by_window(ack_at, lag, cpu, 30.0, fsyncs)
    assert (rows[0]["fsync_max"], rows[0]["fsync_stalled_share"]) == (0.6, 0.0)
    assert rows[1]["fsync_max"] == 310.0 and rows[1]["fsync_stalled_share"] > 0.3


def test_the_servers_act_timing_is_read_back_in_the_ack_windows():
    start = 1000.0
    daphne_1 = "\n".join(
        [
            "some other line",
            "acttiming act 1001.000 loop q=0.1 write=2.0 send=0.1 total=2.2",
            "acttiming act 1002.000 threads q=0.0 write=6.0 send=0.2 total=6.5",
            "acttiming loop 1009.000 lag_p50=0.5 lag_p99=3.0 lag_max=12.0 gc_n=3 gc_p99=4.0 gc_max=4.5"
            " gc_full_n=1 gc_full_max=4.0",
            "acttiming act 1031.000 loop q=0.0 write=300.0 send=0.1 total=300.2",
        ]
    )
    daphne_2 = "acttiming act 999.000 loop q=0.0 write=1.0 send=0.0 total=1.0"  # before the first ack
    rows = server_acks_by_window([daphne_1, daphne_2], start, 30.0)
    assert [r["from_s"] for r in rows] == [0, 30]
    assert rows[0]["n"] == 2 and rows[0]["max"] == 6.5 and rows[0]["threads_share"] == 0.5
    assert rows[0]["loop_lag_max"] == 12.0 and rows[0]["gc_pause_max"] == 4.5 and rows[0]["gc_full_max"] == 4.0
    assert rows[1]["write_p99"] == 300.0 and rows[1]["loop_lag_max"] is None


async def test_an_ack_read_only_after_the_phone_slept_is_kept_out_of_the_ack_latencies():
    import asyncio

    run = SimpleNamespace(stats=Stats(), index=0, acked=[])
    phone = Phone(run, role="guest", token="t", servers=[], source="", name="guest 1")
    phone.views[("seat", 7)] = {}

    async def act_answered(after_nap: bool) -> None:
        task = asyncio.ensure_future(phone.act({"type": "regroup", "cards": []}))
        await asyncio.sleep(0)
        (re,) = phone.pending
        if after_nap:  # pocketed while the act was in flight, read on waking
            phone.naps += 2
        phone._receive({"type": "ok", "re": re, "version": 3}, None)
        await task

    await act_answered(after_nap=False)
    await act_answered(after_nap=True)
    assert len(run.stats.ack_s) == len(run.stats.ack_detail) == 1
    assert len(run.stats.acks_over_sleep) == 1
    assert len(run.acked) == 2  # both still checked against the action log


def test_the_disk_probe_times_flushes_and_counts_the_time_stalled(tmp_path):
    probe = DiskProbe(str(tmp_path)).start()
    time.sleep(0.3)
    samples = probe.stop()
    assert len(samples) >= 5 and all(ms > 0 for _, ms in samples)
    assert list(tmp_path.iterdir()) == []  # its file is gone
    # Two 100 ms stalls in 2 s of flushes: a tenth of the time stalled.
    stalls = [(t / 10, 0.5) for t in range(1, 20)] + [(1.0, 100.0), (2.0, 100.0)]
    got = disk_summary(sorted(stalls))
    assert got["over_50ms"] == 2 and got["max"] == 100.0 and got["p50"] == 0.5
    assert got["stalled_share"] == pytest.approx(0.2 / 1.9, abs=0.01)


def test_the_bots_turn_chooser_makes_only_legal_moves_from_the_seat_view():
    """choose_turn sees only what a phone sees (seat_view); every choice must be a move
    the engine accepts, for every table size, with and without a vault."""
    r = random.Random(5)
    tried = 0
    for game_no in range(60):
        players = 2 + game_no % 9
        vault = [Gift(900 + i, f"v{i}", None) for i in range(game_no % 4)]
        game, _ = new_game(seed=game_no, gifts=[Gift(i, f"g{i}", i) for i in range(players)], vault=vault)
        for _ in range(400):
            if game.phase is Phase.OVER:
                break
            if game.phase is Phase.ACTION:
                action = choose_turn(seat_view(game, game.active), r)
                game, _ = apply(game, parse_action({**action, "seat": game.active}))  # raises if illegal
                tried += 1
            else:
                from games.yankee.bots import bot_action

                game, _ = apply(game, bot_action(game, r))
    assert tried > 1000


@pytest.mark.django_db(transaction=True)
@pytest.mark.stack
async def test_the_oracles_count_lost_actions_and_stale_screens():
    bots = await PartyBots.create(12, seed=3)
    from events.party import services

    await sync_to_async(services.party_seat)(party_id=bots.party.pk)
    tables = [t.pk for t in await tables_of(bots.party.pk)]

    @sync_to_async
    def snapshots():
        out = {gid: json.loads(json.dumps(snapshot_for(guest_actor(Guest.objects.get(pk=gid))))) for gid in bots.tokens}
        host = json.loads(json.dumps(snapshot_for(Actor(Role.HOST, bots.party.pk))))
        return out, host

    try:
        await _oracles(bots, tables, snapshots)
    finally:
        # the ORM ran on sync_to_async's thread: close its connection, or the test
        # database cannot be dropped at the end of the run
        await sync_to_async(connections.close_all)()


async def _oracles(bots, tables, snapshots):
    guest_snaps, host_snap = await snapshots()

    def screen(name, snap):
        views = {}
        if snap["role"] == "host":
            views = {("public", t["table"]["id"]): t for t in snap["tables"]}
        else:
            for kind, key in (("seat", "table"), ("public", "public")):
                if snap.get(key):
                    views[(kind, snap[key]["table"]["id"])] = snap[key]
        return SimpleNamespace(name=name, ready=True, views=views)

    run = SimpleNamespace(
        code=bots.party.code,
        tables=tables,
        host=screen("host", host_snap),
        guests={gid: screen(f"g{gid}", s) for gid, s in guest_snaps.items()},
        acked=[],
    )
    assert await sync_to_async(check_stale)(run) == (0, 13, [])
    assert (await sync_to_async(check_lost)(run))[0] == 0

    # One phone a version behind, one with another seat's hand: both stale.
    gids = sorted(run.guests)
    behind = run.guests[gids[0]].views
    key = next(k for k in behind if k[0] == "seat")
    behind[key] = {**behind[key], "version": behind[key]["version"] - 1}
    wrong = run.guests[gids[1]].views
    key = next(k for k in wrong if k[0] == "seat")
    wrong[key] = {**wrong[key], "view": {**wrong[key]["view"], "hand": []}}
    stale, checked, samples = await sync_to_async(check_stale)(run)
    assert (stale, checked) == (2, 13)
    assert {s["screen"] for s in samples} == {f"g{gids[0]}", f"g{gids[1]}"}

    # An acknowledged action is lost unless the action log has its `re` at its version.
    done = await sync_to_async(_one_bot_action)(tables[0], "re-1")
    run.acked = [(tables[0], "re-1", done, False, "g1")]
    assert (await sync_to_async(check_lost)(run))[0] == 0
    run.acked += [(tables[0], "never-sent", done + 1, False, "g1"), (tables[0], "re-1", done + 1, True, "g1")]
    assert (await sync_to_async(check_lost)(run))[0] == 2


def _one_bot_action(table_id: int, client_id: str) -> int:
    from events.party.commands import table_act
    from games.yankee.actions import action_to_dict
    from games.yankee.bots import bot_action
    from tables.models import Table

    table = Table.objects.get(pk=table_id)
    game = Game.from_dict(table.state)
    wire = action_to_dict(bot_action(game, random.Random(1)))
    guest = Guest.objects.get(table_id=table_id, seat=wire["seat"])
    return table_act(
        actor=guest_actor(guest), table_id=table_id, action=wire, client_id=client_id, expected_version=game.version
    ).data["version"]


def test_the_window_chooser_plays_only_legal_moves_that_open_a_window():
    """bench/live.py's windows phase decides from the seat view too: every move
    choose_window_play offers is legal and opens a reaction window, and it offers one
    whenever the hand holds a playable MOVE card or two cards to SWIPE with."""
    from games.yankee.bots import bot_action

    r = random.Random(8)
    opened = 0
    for game_no in range(40):
        players = 2 + game_no % 9
        game, _ = new_game(seed=game_no, gifts=[Gift(i, f"g{i}", i) for i in range(players)])
        for _ in range(400):
            if game.phase is Phase.OVER:
                break
            if game.phase is not Phase.ACTION:
                game, _ = apply(game, bot_action(game, r))
                continue
            view = seat_view(game, game.active)
            action = choose_window_play(view, r)
            hand = game.hands[game.active]
            if action is None:
                assert len(hand) < 2 and not any(
                    c["kind"] == "MOVE" and str(c["id"]) in view["playable"] for c in view["hand"]
                )
                game, _ = apply(game, bot_action(game, r))
                continue
            game, events = apply(game, parse_action({**action, "seat": game.active}))  # raises if illegal
            assert any(e.type == "window_opened" for e in events), action
            opened += 1
    assert opened > 500


def test_versus_sets_the_disk_beside_this_projects_figures():
    from bench.versus import live_row

    turns = {"diskFsyncMs": {"n": 900, "p50": 0.4, "p99": 12.5, "max": 410.0, "over_50ms": 3, "stalled_share": 0.021}}
    assert live_row({"turns": turns})["disk flush p99 / max ms"] == "12.5 / 410.0 (2.1% of the time over 50 ms)"
    assert live_row({"turns": {}})["disk flush p99 / max ms"] is None  # an older run's JSON
