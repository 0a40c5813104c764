"""The mutation run over the guards: cosmic-ray's operators applied one at a time to
the guard functions that tests/mutation/guards.toml names, each mutant tested by the
fast test files mapped to its module (with -x, in parallel workers, each worker on
its own copy of the tree and its own test database). Prints the score and every
survivor; writes the whole result to var/mutation/last.json.

    .venv/bin/python tests/mutation/run.py                 # the whole run
    .venv/bin/python tests/mutation/run.py --list          # the mutants only, no tests
    .venv/bin/python tests/mutation/run.py --modules events/access/gate.py --workers 2
    .venv/bin/python tests/mutation/run.py --again var/mutation/last.json  # its survivors only

A mutant is killed when its tests fail (or error, or run past the time limit), and
survives when they pass. Mutants listed under `[[equivalent]]` in guards.toml are
skipped and counted apart.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import time
import tomllib
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from queue import Queue

from cosmic_ray.ast import ast_nodes, get_ast
from cosmic_ray.mutating import mutate_code
from cosmic_ray.plugins import get_operator

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Path(__file__).with_name("guards.toml")
WORK = ROOT / "var" / "mutation"
PYTEST_ARGS = ["-x", "-q", "-p", "no:warnings", "--reuse-db"]
# Socket and stack tests time out now and then on a loaded machine (and take tens of
# seconds): left out unless a module's entry says `markers`.
MARKERS = "not browser and not slow and not stack"
IGNORED = {".venv", ".git", "var", "__pycache__", ".mypy_cache", ".import_linter_cache", ".grimp_cache"}


@dataclass
class Mutant:
    id: str
    module: str
    guard: str
    operator: str
    occurrence: int
    line: int
    text: str
    outcome: str = "pending"  # killed, survived, timeout, equivalent
    seconds: float = 0.0


def guard_ranges(source: str, names: list[str]) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of each module-level function, class or constant named."""
    out = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name in names:
            out.append((node.name, node.lineno, node.end_lineno or node.lineno))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name) and t.id in names:
                    out.append((t.id, node.lineno, node.end_lineno or node.lineno))
    missing = set(names) - {n for n, _, _ in out}
    if missing:
        raise SystemExit(f"guards.toml names what the module does not hold: {sorted(missing)}")
    return out


def mutants_of(module: str, guards: list[str], operators: list[str]) -> list[Mutant]:
    source = (ROOT / module).read_text(encoding="utf-8")
    lines = source.splitlines()
    ranges = guard_ranges(source, guards)
    tree = get_ast(source)
    out: list[Mutant] = []
    seen: Counter[str] = Counter()
    for name in operators:
        operator = get_operator(name)()
        positions = [start for node in ast_nodes(tree) for start, _ in operator.mutation_positions(node)]
        for occurrence, (line, _col) in enumerate(positions):
            guard = next((g for g, a, b in ranges if a <= line <= b), None)
            if guard is None:
                continue
            text = lines[line - 1].strip()
            key = f"{module}:{guard}:{name}:{text}"
            seen[key] += 1
            out.append(Mutant(f"{key}#{seen[key]}", module, guard, name, occurrence, line, text))
    return out


def copy_tree(dest: Path) -> None:
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(ROOT, dest, ignore=lambda _d, names: [n for n in names if n in IGNORED])


def run_tests(copy: Path, worker: int, tests: list[str], timeout: float) -> tuple[int | None, float, str]:
    """`tests`: the marker expression, then the test files."""
    db = f"heist_mutation_{copy.parent.name}_w{worker}"  # one test database per worker copy
    env = {**os.environ, "HEIST_TEST_DB": db, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PYTHONPATH", None)
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", *PYTEST_ARGS, "-m", *tests],
            cwd=copy,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - started, ""
    return done.returncode, time.monotonic() - started, done.stdout[-3000:] + done.stderr[-2000:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--modules", nargs="*", help="only these modules (paths as in guards.toml)")
    parser.add_argument("--again", type=Path, help="a previous result: run its survivors only")
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--copies", type=Path, default=WORK, help="where the workers' copies of the tree go")
    parser.add_argument("--resume", type=Path, help="an earlier result: keep its kills, run the rest (survivors again)")
    parser.add_argument("--no-baseline", action="store_true", help="trust the suites green (limit: 400 s each)")
    parser.add_argument("--sample", type=int, default=0, help="a random sample of this many mutants (seed 30)")
    parser.add_argument("--out", type=Path, default=WORK / "last.json")
    parser.add_argument("--leave-out", default="", help="test paths starting so are not run (the run before new tests)")
    args = parser.parse_args()

    config = tomllib.loads(CONFIG.read_text(encoding="utf-8"))
    equivalent = {
        f"{e['module']}:{e['guard']}:{e['operator']}:{e['line']}" for e in config.get("equivalent", []) if e["guard"]
    }
    modules = {m: c for m, c in config["modules"].items() if not args.modules or m in args.modules}
    mutants = [mu for m, c in modules.items() for mu in mutants_of(m, c["guards"], config["operators"])]
    if args.again:
        wanted = {m["id"] for m in json.loads(args.again.read_text())["mutants"] if m["outcome"] == "survived"}
        mutants = [m for m in mutants if m.id in wanted]
    if args.sample:
        mutants = sorted(random.Random(30).sample(mutants, min(args.sample, len(mutants))), key=mutants.index)
    for m in mutants:
        if m.id.rsplit("#", 1)[0] in equivalent:
            m.outcome = "equivalent"
    if args.resume and args.resume.exists():
        done = {d["id"]: d for d in json.loads(args.resume.read_text())["mutants"]}
        for m in mutants:
            d = done.get(m.id)
            # A kill stands; a survivor is tried again (tests may have been added since).
            if m.outcome == "pending" and d is not None and d["outcome"] in ("killed", "timeout"):
                m.outcome, m.seconds = d["outcome"], d["seconds"]
    print(f"{len(mutants)} mutants over {len(modules)} modules", flush=True)
    for module, n in Counter(m.module for m in mutants).items():
        print(f"  {module}: {n}")
    if args.list:
        for m in mutants:
            print(f"{m.module}:{m.line} {m.operator.removeprefix('core/')} [{m.guard}] {m.text}")
        return 0

    started = time.monotonic()
    args.copies.mkdir(parents=True, exist_ok=True)
    copies: Queue[tuple[int, Path]] = Queue()

    def suite(m: Mutant) -> tuple[str, ...]:
        """The marker expression and the test files for a mutant: its guard's own list
        (`by_guard`), else its module's."""
        c = modules[m.module]
        files = c.get("by_guard", {}).get(m.guard, c["tests"])
        kept = [t for t in files if (ROOT / t).exists() and not (args.leave_out and t.startswith(args.leave_out))]
        return (c.get("markers", MARKERS), *kept)

    limits: dict[tuple[str, ...], float] = {}
    for w in range(args.workers):
        copy = args.copies / f"w{w}"
        copy_tree(copy)
        copies.put((w, copy))

    # The baseline: every suite passes unmutated (and each worker's database is made).
    def baseline(tests: tuple[str, ...]) -> None:
        if len(tests) == 1:  # no test file (all left out): nothing can kill these mutants
            limits[tests] = 0.0
            return
        w, copy = copies.get()
        try:
            for _attempt in range(2):  # a test may time out under load: a fail must repeat
                code, seconds, output = run_tests(copy, w, list(tests), timeout=1800)
                if code in (0, 5):
                    break
        finally:
            copies.put((w, copy))
        if code == 5:  # no test selected: nothing can kill these mutants
            limits[tests] = 0.0
            print(f"baseline {' '.join(tests[1:])}: no test selected", flush=True)
            return
        if code != 0:
            print(output)
            raise SystemExit(f"the baseline of {tests} fails (exit {code}): fix that first")
        limits[tests] = max(60.0, 3 * seconds)
        print(f"baseline {seconds:4.0f} s: {' '.join(tests[1:])}", flush=True)

    suites = sorted({suite(m) for m in mutants if m.outcome == "pending"})
    if args.no_baseline:
        limits.update((t, 400.0 if len(t) > 1 else 0.0) for t in suites)
    else:
        with ThreadPoolExecutor(args.workers) as pool:
            list(pool.map(baseline, suites))
    # Round-robin over the modules: a run cut short has tried every module.
    by_module: dict[str, list[Mutant]] = {}
    for m in mutants:
        by_module.setdefault(m.module, []).append(m)
    queue = [m for group in itertools.zip_longest(*by_module.values()) for m in group if m is not None]

    def save() -> None:
        wall = time.monotonic() - started
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"wall_seconds": wall, "mutants": [asdict(m) for m in mutants]}, indent=1))

    def run_one(m: Mutant) -> None:
        if m.outcome != "pending":
            return
        w, copy = copies.get()
        target = copy / m.module
        original = target.read_text(encoding="utf-8")
        try:
            mutated = mutate_code(original, get_operator(m.operator)(), m.occurrence)
            if mutated is None:
                m.outcome = "not_applied"
                return
            tests = suite(m)
            if len(tests) == 1 or not limits[tests]:  # no test file: pytest would run the whole suite
                m.outcome = "survived"
                return
            target.write_text(mutated, encoding="utf-8")
            code, m.seconds, _ = run_tests(copy, w, list(tests), limits[tests])
            m.outcome = "timeout" if code is None else "survived" if code == 0 else "killed"
            if code in (4, 5):  # usage error, no tests collected: the run itself is wrong
                m.outcome = f"error({code})"
        finally:
            target.write_text(original, encoding="utf-8")
            copies.put((w, copy))
        print(f"{m.outcome:9} {m.seconds:5.1f}s {m.module}:{m.line} {m.operator.removeprefix('core/')}", flush=True)
        save()

    with ThreadPoolExecutor(args.workers) as pool:
        list(pool.map(run_one, queue))

    wall = time.monotonic() - started
    counts = Counter(m.outcome for m in mutants)
    tested = len(mutants) - counts["equivalent"]
    killed = counts["killed"] + counts["timeout"]
    print(
        f"\n{len(mutants)} mutants: {killed} killed ({counts['timeout']} by time), {counts['survived']} survived, "
        f"{counts['equivalent']} equivalent; score {killed / max(tested, 1):.1%}; wall {wall / 60:.1f} min"
    )
    for m in mutants:
        if m.outcome not in ("killed", "timeout", "equivalent"):
            print(f"  {m.outcome}: {m.module}:{m.line} {m.operator.removeprefix('core/')} [{m.guard}] {m.text}")
    save()
    return 0 if counts["survived"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
