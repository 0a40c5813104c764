"""The layers of docs/ARCHITECTURE.md hold, and a reversed import breaks the build.

The contracts are in pyproject.toml ([tool.importlinter]); bin/check runs them. Here
they run on the tree as it is (kept), and on a copy of it with one import reversed
(broken), so a contract that could never fail would fail this test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("config", "events", "tables", "relay", "story", "printables", "games")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _copy_tree(dest: Path) -> Path:
    for name in PACKAGES:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")
    return dest


# The contracts' names in pyproject.toml, as lint-imports reports them.
CONTRACTS = {
    "layers": "Layers, top to bottom",
    "game-seam": "The host speaks to a game only through its definition",
    "tables-below-party": "A table knows nothing of the party",
    "pure-engine": "The rules engine is pure",
    "pure-simulator": "The simulator is pure",
    "simulated-play-without-io": "A simulated game touches no clock",
    "royal-simulator-apart": "Royal Heist's simulator stands apart",
    "yankee-simulator-apart": "Yankee Heist's simulator knows nothing of Royal Heist",
    "transports-on-top": "Nothing imports a transport",
    "acyclic-siblings": "No import cycle between sibling modules",
}


def _lint_imports(where: Path) -> subprocess.CompletedProcess:
    # The copy comes first on the path (the project's editable install resolves only
    # what the path does not); a wide console keeps each contract's verdict on its line.
    env = {**os.environ, "PYTHONPATH": str(where), "COLUMNS": "400"}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=where, env=env, capture_output=True, text=True, timeout=120
    )


def _verdicts(output: str) -> dict[str, str]:
    out = {}
    for line in output.splitlines():
        for key, name in CONTRACTS.items():
            # "KEPT", or "KEPT (24 ignored imports)" for a contract with an ignore list.
            verdict = re.search(r" (KEPT|BROKEN)( \(\d+ ignored imports?\))?$", line.rstrip())
            if line.startswith(name) and verdict:
                out[key] = verdict.group(1)
    return out


def _append(path: Path, code: str) -> None:
    path.write_text(path.read_text() + "\n\n" + code + "\n")


def test_the_tree_keeps_every_contract(tmp_path):
    run = _lint_imports(_copy_tree(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    assert _verdicts(run.stdout) == dict.fromkeys(CONTRACTS, "KEPT"), run.stdout


@pytest.mark.parametrize(
    ("module", "code", "broken"),
    [
        # A table reaching up into the party (an import inside a function counts).
        (
            "tables/selectors.py",
            "def _party_seat():\n    from events.party.services import party_seat\n\n    return party_seat",
            {"layers", "tables-below-party"},
        ),
        # The party's reads reaching up into a party service.
        # (and makes a loop: the services read through the selectors)
        (
            "events/party/selectors.py",
            "from events.party.services import party_seat  # noqa: E402,F401",
            {"layers", "acyclic-siblings"},
        ),
        # A service reaching up into the registry.
        ("relay/services.py", "from events.party.commands import dispatch  # noqa: E402,F401", {"layers"}),
        # The engine importing Django (and through it, the simulator).
        ("games/yankee/cards.py", "import django  # noqa: E402,F401", {"pure-engine", "pure-simulator"}),
        # The engine reading the clock (and through it, a simulated game).
        ("games/yankee/cards.py", "import time  # noqa: E402,F401", {"pure-engine", "simulated-play-without-io"}),
        # The table host reaching past the seat of a game into its engine (issue 31).
        ("tables/selectors.py", "from games.yankee import public_view  # noqa: E402,F401", {"game-seam"}),
        ("events/party/commands.py", "from games.royal.actions import parse_action  # noqa: E402,F401", {"game-seam"}),
        # A simulated game writing a file (the game's simulator door, or its self-play).
        ("games/yankee/party/simulate/play.py", "import json  # noqa: E402,F401", {"simulated-play-without-io"}),
        ("games/yankee/party/simulate/selfplay.py", "import json  # noqa: E402,F401", {"simulated-play-without-io"}),
        # The host's simulator reaching past a game's hook into the game (issue 38).
        ("tables/simulate/estimates.py", "from games.yankee import state  # noqa: E402,F401", {"game-seam"}),
        # A game's simulator hook using Django (it is part of the pure simulator).
        ("games/royal/party/simulate/play.py", "import django  # noqa: E402,F401", {"pure-simulator"}),
        # Royal Heist's simulator reaching into Yankee Heist's game, or writing a file.
        (
            "games/royal/party/simulate/play.py",
            "from games.yankee import rules  # noqa: E402,F401",
            {"royal-simulator-apart"},
        ),
        ("games/royal/party/simulate/stats.py", "import json  # noqa: E402,F401", {"simulated-play-without-io"}),
        # Yankee Heist's simulator reaching into Royal Heist's.
        (
            "games/yankee/party/simulate/stats.py",
            "from games.royal.party.simulate import strategies  # noqa: E402,F401",
            {"yankee-simulator-apart"},
        ),
        # The party's rules reaching a transport (a management command).
        (
            "events/party/timing.py",
            "def _simulate():\n    from tables.management.commands import simulate\n\n    return simulate",
            {"layers", "transports-on-top"},
        ),
    ],
)
def test_a_reversed_import_breaks_a_contract(tmp_path, module, code, broken):
    tree = _copy_tree(tmp_path)
    _append(tree / module, code)
    run = _lint_imports(tree)
    assert run.returncode == 1, run.stdout + run.stderr
    assert _verdicts(run.stdout) == {k: "BROKEN" if k in broken else "KEPT" for k in CONTRACTS}, run.stdout
    assert module.removesuffix(".py").replace("/", ".") in run.stdout, run.stdout  # the import is named


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        work = [(start, iter(sorted(graph.find_modules_directly_imported_by(start))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph.modules or child.split(".")[0] not in PACKAGES:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for module in sorted(graph.modules):
        if module.split(".")[0] in PACKAGES and module not in index:
            visit(module)
    return found


def _package_inits(graph: grimp.ImportGraph) -> set[tuple[str, str]]:
    """A package's __init__ importing its own submodules, which import the package
    back (`from games.yankee import ...` inside games.yankee.x): the one loop Python
    resolves by design, not a dependency cycle between modules."""
    out = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if imported.startswith(module + "."):
                out.add((module, imported))
    return out


def test_no_import_cycle_between_modules():
    """Imports inside functions are read too (grimp parses every import statement)."""
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)
    for importer, imported in _package_inits(graph):
        graph.remove_import(importer=importer, imported=imported)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    graph = grimp.ImportGraph()
    for m in ("events.a", "events.b", "events.c"):
        graph.add_module(m)
    graph.add_import(importer="events.a", imported="events.b")
    graph.add_import(importer="events.b", imported="events.c")
    assert _cycles(graph) == []
    graph.add_import(importer="events.c", imported="events.a")
    assert _cycles(graph) == [["events.a", "events.b", "events.c"]]
