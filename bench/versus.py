#!/usr/bin/env python
"""boardgame.io's own bench and bench/live.py, same shapes, back to back, one table.

    .venv/bin/python bench/versus.py [--peer ../shared/peers/boardgameio] [--scratch /tmp/bgio-bench]
                                     [--shapes t1x10,t10x10,think250,serve] [--out-dir bench/results/versus]

The peer study (boardgame.io 0.50.2: bench.js, server.js, games.js, package.json) is
copied from `--peer` into `--scratch`, a folder outside this repository, and
`npm install`ed there once (its package.json pins koa-compose 4.1.0, which it needs).
Nothing of it is copied into the repository and nothing here imports it.

For each shape it runs boardgame.io's `node bench.js` and then `bench/live.py` with the
same tables, seats, moves, windows, warm-up and think time, both under `nice -n 5`, and
keeps their JSON in `--out-dir`. Then it prints one table: both figures and the ratio
(this project / boardgame.io; for moves/s above 1 is better, for times below 1 is better),
with the load average read before each run.

Shapes (as in boardgame.io's README and the issue):
- t1x10     1 table of 10, closed loop     (--moves 100 --windows 20 --warmup 5)
- t10x10    10 tables of 10, closed loop   (--moves 100 --windows 20 --warmup 5)
- think250  10 x 10, 250 ms think          (--moves 40 --windows 10 --warmup 3 --think 250)
- serve     the bin/serve stack (SQLite, in-process channel layer), the think250 shape;
            boardgame.io has no such stack, so it is compared with think250's bgio run.
- t10x10-d2 t10x10 with as many daphne processes as cores (2 here; parties split by
            code), against boardgame.io's t10x10 (one Node process).

Reaction windows are not the same load: boardgame.io's ask all P-1 = 9 other players
(its lenient game is used here); a Yankee Heist window asks only the 1-2 players whose
gifts a move threatens. Both are "play -> the mover sees the window closed".
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = ROOT / ".venv" / "bin" / "python"
PEER_FILES = ("bench.js", "server.js", "games.js", "package.json")

SHAPES = {
    "t1x10": ["--tables", "1", "--players", "10", "--moves", "100", "--windows", "20", "--warmup", "5"],
    "t10x10": ["--tables", "10", "--players", "10", "--moves", "100", "--windows", "20", "--warmup", "5"],
    "think250": [
        *("--tables", "10", "--players", "10", "--moves", "40", "--windows", "10", "--warmup", "3"),
        *("--think", "250"),
    ],
}


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--peer", default=str(ROOT.parent / "shared" / "peers" / "boardgameio"), help="the peer study")
    p.add_argument("--scratch", default="/tmp/bgio-bench", help="where boardgame.io is npm-installed")
    p.add_argument("--shapes", default="t1x10,t10x10,think250,serve,t10x10-d2")
    p.add_argument("--out-dir", default="", help="default bench/results/versus, the kept baseline")
    p.add_argument("--time", type=int, default=240, help="hard limit per run, s")
    p.add_argument("--daphnes", type=int, default=os.cpu_count() or 2, help="daphnes of the t10x10-d2 shape")
    p.add_argument("--no-bgio", action="store_true", help="only this project's runs (bgio from --bgio-from)")
    p.add_argument("--bgio-from", default="", help="a folder of earlier bgio-<shape>.json to compare with")
    p.add_argument("--report-only", action="store_true", help="no runs: the table from the JSON in --out-dir")
    return p.parse_args(argv)


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def install_peer(peer: Path, scratch: Path) -> None:
    if not (peer / "bench.js").exists():
        sys.exit(f"no boardgame.io peer study at {peer} (pass --peer)")
    scratch.mkdir(parents=True, exist_ok=True)
    for name in PEER_FILES:
        shutil.copy2(peer / name, scratch / name)
    marker = scratch / "node_modules" / "boardgame.io" / "package.json"
    if marker.exists():
        return
    print(f"npm install in {scratch} ...", file=sys.stderr)
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"], cwd=scratch, check=True)


def run_bgio(scratch: Path, shape: list[str], out: Path, limit: int) -> dict:
    cmd = ["nice", "-n", "5", "node", "bench.js", *shape, "--time", str(limit), "--out", str(out)]
    print("$ (cd", scratch, "&&", " ".join(cmd) + ")", file=sys.stderr)
    subprocess.run(cmd, cwd=scratch, check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text())


def run_live(shape: list[str], out: Path, limit: int, extra: list[str]) -> dict:
    cmd = ["nice", "-n", "5", str(PY), "bench/live.py", *shape, *extra, "--time", str(limit), "--out", str(out)]
    print("$", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text())


def pick(d: dict, *path):
    for k in path:
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def turn_figures(tu: dict) -> dict:
    """The turn phase's figures, named alike in both benches' JSON."""
    return {
        "moves/s": tu.get("movesPerSecondAllTables"),
        "per recipient p50": pick(tu, "perRecipientMs", "p50"),
        "per recipient p99": pick(tu, "perRecipientMs", "p99"),
        "slowest p50": pick(tu, "slowestRecipientPerMoveMs", "p50"),
        "slowest p99": pick(tu, "slowestRecipientPerMoveMs", "p99"),
    }


def bgio_row(b: dict) -> dict:
    tu = b.get("turns", {})
    cpu = pick(tu, "serverProcess", "cpuS")
    moves = tu.get("countedMoves") or 0
    return {
        **turn_figures(tu),
        "window closed p50": pick(b, "reactLenient", "stealToWindowClosedMs", "p50"),
        "window closed p99": pick(b, "reactLenient", "stealToWindowClosedMs", "p99"),
        # bgio reports CPU per phase only: over its counted moves (warm-up moves included
        # in the CPU), so slightly high.
        "server CPU ms/action": round(cpu * 1000 / moves, 2) if cpu and moves else None,
    }


def live_row(r: dict) -> dict:
    tu = r.get("turns", {})
    return {
        **turn_figures(tu),
        "window closed p50": pick(r, "windows", "playToWindowClosedMs", "p50"),
        "window closed p99": pick(r, "windows", "playToWindowClosedMs", "p99"),
        "server CPU ms/action": pick(tu, "serverProcess", "cpuMsPerAcceptedAction"),
        # The disk under the database during the turns (bench/disk.py): every ack here
        # waits for its commit's flush; boardgame.io's server writes nothing.
        "disk flush p99 / max ms": _flushes(pick(tu, "diskFsyncMs")),
    }


def _flushes(d: dict | None) -> str | None:
    if not d or not d.get("n"):
        return None
    return f"{d['p99']} / {d['max']} ({100 * d['stalled_share']:.1f}% of the time over 50 ms)"


def ratio(metric: str, ours, theirs) -> str:
    if not ours or not theirs:
        return ""
    return f"{ours / theirs:.2f}x"


def table(rows: list[tuple[str, list[float], dict, list[float] | None, dict | None]]) -> str:
    out = [
        "| shape | metric | boardgame.io | this project | ratio (ours / bgio) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for shape, load_ours, ours, load_bgio, theirs in rows:
        for metric, value in ours.items():
            t = theirs.get(metric) if theirs else None
            out.append(f"| {shape} | {metric} | {'' if t is None else t} | {value} | {ratio(metric, value, t)} |")
        out.append(f"| {shape} | load average before (1/5/15 min) | {load_bgio or ''} | {load_ours} | |")
    return "\n".join(out)


def report(out_dir: Path, shapes: list[str]) -> str:
    rows = []
    for s in shapes:
        base = {"serve": "think250", "t10x10-d2": "t10x10"}.get(s, s)
        ours, theirs = out_dir / f"live-{s}.json", out_dir / f"bgio-{base}.json"
        if not ours.exists():
            continue
        r = json.loads(ours.read_text())
        b = json.loads(theirs.read_text()) if theirs.exists() else None
        rows.append(
            (s, r.get("loadavgBefore"), live_row(r), b.get("_loadBefore") if b else None, bgio_row(b) if b else None)
        )
    return table(rows)


def main(argv=None):
    a = parse_args(argv)
    # The kept baseline by default: a run replaces it, and git keeps the earlier ones.
    out_dir = Path(a.out_dir or ROOT / "bench" / "results" / "versus").resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    scratch = Path(a.scratch)
    shapes = [s for s in a.shapes.split(",") if s]
    for s in shapes:
        if s not in (*SHAPES, "serve", "t10x10-d2"):
            sys.exit(f"unknown shape {s!r}")
    if a.report_only:
        print(report(out_dir, shapes))
        return
    if not a.no_bgio:
        install_peer(Path(a.peer), scratch)
    print(f"boardgame.io from {a.peer}, installed in {scratch}; results in {out_dir}", file=sys.stderr)
    bgio: dict[str, tuple[list[float], dict]] = {}
    rows = []
    for s in shapes:
        base = {"serve": "think250", "t10x10-d2": "t10x10"}.get(s, s)
        if base not in bgio:
            if a.no_bgio:
                path = Path(a.bgio_from) / f"bgio-{base}.json"
                if path.exists():
                    bgio[base] = (json.loads(path.read_text()).get("_loadBefore"), json.loads(path.read_text()))
            else:
                before = load()
                b = run_bgio(scratch, SHAPES[base], out_dir / f"bgio-{base}.json", a.time)
                b["_loadBefore"] = before
                (out_dir / f"bgio-{base}.json").write_text(json.dumps(b, indent=2) + "\n")
                bgio[base] = (before, b)
                time.sleep(2)
        extra = ["--embedded"] if s == "serve" else []
        if s == "t10x10-d2":
            extra += ["--daphnes", str(a.daphnes)]
        before = load()
        r = run_live(SHAPES[base], out_dir / f"live-{s}.json", a.time, extra)
        theirs = bgio.get(base)
        rows.append((s, before, live_row(r), theirs[0] if theirs else None, bgio_row(theirs[1]) if theirs else None))
        time.sleep(2)
    text = table(rows)
    (out_dir / "versus.md").write_text(text + "\n")
    print(text)
    print(f"\nload average at the end: {load()}; JSON and versus.md in {out_dir}")


if __name__ == "__main__":
    main()
