"""Every module of the six packages is in a named layer, and only the places that mount
the transports import them.

The layers (pyproject.toml [tool.importlinter]) say where each module stands; a module in
no layer is free to import anything and be imported by anything, so a new module must
join one. The transports (the socket, the HTTP views, Celery's tasks, the management
commands) are entry points: only config's ASGI app, routing and URLs mount them.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("config", "events", "tables", "relay", "story", "printables", "games")

TRANSPORTS = (
    "events.live.consumers",
    "events.live.clockloop",
    "events.web.views",
    "events.tasks",
    "events.management",
    "story.views",
    "printables.views",
    "printables.management",
    "tables.management",
    "config.asgi",
    "config.routing",
    "config.urls",
)
# config.health answers /healthz with its view before the host check (issue 29).
MOUNTS = {"config.asgi", "config.routing", "config.urls", "config.health"}


def _contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def _layer_names() -> set[str]:
    (layers,) = (c for c in _contracts() if c["id"] == "layers")
    names = set()
    for layer in layers["layers"]:
        for sep in ("|", ":"):
            layer = layer.replace(sep, " ")
        names.update(layer.split())
    return names


def _modules() -> list[str]:
    """Every module of the six packages, read from the files; a package's __init__
    only when it holds code (a docstring alone is no module to place)."""
    out = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if parts[-1] == "__init__":
                if len(parts) == 2 or not _has_code(path):
                    continue
                parts = parts[:-1]
            if len(parts) > 1:
                out.append(".".join(parts))
    return out


def _has_code(path: Path) -> bool:
    import ast

    body = ast.parse(path.read_text()).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return bool(body)


def unplaced(modules: list[str], layer_names: set[str]) -> list[str]:
    """The modules neither named in a layer nor inside a package that is."""

    def placed(module: str) -> bool:
        parts = module.split(".")
        return any(".".join(parts[:i]) in layer_names for i in range(1, len(parts) + 1))

    return [m for m in modules if not placed(m)]


def test_every_module_is_in_a_layer():
    modules = _modules()
    assert len(modules) > 100, modules  # the walk found the tree
    assert unplaced(modules, _layer_names()) == []


def test_a_module_in_no_layer_is_found():
    names = {"events.party", "games.yankee", "config"}
    assert unplaced(["events.party.roles", "games.yankee.rules", "config.settings.base"], names) == []
    assert unplaced(["events.party.roles", "events.newthing", "tables.words"], names) == [
        "events.newthing",
        "tables.words",
    ]


def test_every_layer_name_is_a_module():
    """A layer that names a module gone (a rename the contract missed) protects nothing."""
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)
    assert sorted(n for n in _layer_names() if n not in graph.modules) == []


def test_only_the_mounts_import_a_transport():
    """Direct imports, those inside functions too; a transport importing another counts."""
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False, cache_dir=None)
    found = []
    for module in sorted(graph.modules):
        if not module.startswith(TRANSPORTS):
            continue
        for importer in sorted(graph.find_modules_that_directly_import(module)):
            same_transport = any(importer.startswith(t) and module.startswith(t) for t in TRANSPORTS)
            if importer not in MOUNTS and not same_transport:
                found.append(f"{importer} -> {module}")
    assert found == []
