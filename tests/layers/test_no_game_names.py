"""No game's name in the host: a game arrives as a package (docs/GAMES.md), so nothing
outside `games/<name>/` may name it, in Python, JavaScript, CSS or templates.

The walk takes every registered game's name ("royal"), its title ("Royal Heist") and its
package ("games.royal", "games/royal") and looks for them, as whole words and in any case,
in every host file (`games/`'s own modules, the seam, included; every package under
`games/` is a game's and left out). The one place a game is named is the registry's list of packages
(`games/registry.py` PACKAGES): adding a game is that line. Migrations are history (the
columns once had choices) and catalogues are generated from the sources, so both are
left out. A name planted in a copy of a host file must fail the walk.

A game's name is not the only way the host can know a game: its scripts reading a
table's view by the keys one game's `public_view` has (`view.round`, `view.relay_seat`)
is knowing it by its shape. The host's scripts read a view only by the keys every game's
screens share (HOST_VIEW_KEYS); the rest is the game's module's to read. The same holds
for the game's rules on the page (`rules()`, its `rules_for_screens`, whose shape is the
game's own: `rules().vault.id_base`): the host's scripts load them for the game's modules
and read no key of them.

Nor may the host's scripts build a game's action: the dashboard's `{ type: "confirm_reveal" }`
was Yankee Heist's reveal, known by its wire type. A script of the host's sends what a
game's module builds (the tile's duties, through the shell's `actAt`); every action type
a registered game knows (its declared wire types, and every action its play takes or
lists as legal, tests/games/conformance/play.py) is the game's word.
"""

from __future__ import annotations

import functools
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.definition import NamesWireTypes
from games.registry import GAMES, package_of

ROOT = Path(__file__).resolve().parents[2]
HOST = ("config", "events", "tables", "relay", "story", "printables", "templates", "static", "games")
SUFFIXES = {".py", ".js", ".css", ".html", ".txt", ".json", ".webmanifest"}
# The registry is where a game is registered by its package's name: the one line; the
# test settings are where a game the tests alone register is (docs/GAMES.md).
REGISTRATION = {Path("games/registry.py"), Path("config/settings/test.py")}
# Words that are a game's name and also plain English: matched only as an identifier
# ("word_heist", "games.word", '"word"' as a string), never in prose or as a variable.
EVERYDAY = {"word"}
# What the host's scripts may read of a table's view: `phase`, where "gate" and "over"
# are the host's own (the party's gate count reads the same key, events/party/selectors.py),
# and `you`, which tells a seat's view from the public one (live.js, play.js). Anything
# else is a game's view, which its own module reads (a tile's `waitingFor`, `beforeGate`).
HOST_VIEW_KEYS = {"phase", "you"}
# `view.round`, `payload.view?.turn`, `t.view.relay_seat`: a read of a view's key by name.
VIEW_READ = re.compile(r"\bview\??\.([A-Za-z_$][\w$]*)")
# `rules().vault`, `rules()?.cards`: a read of the game's rules by key.
RULES_READ = re.compile(r"\brules\(\)\??\.([A-Za-z_$][\w$]*)")
# `{ type: "confirm_reveal" }`: an object literal's type, as an action is written.
TYPE_LITERAL = re.compile(r"""\btype\s*:\s*["']([\w-]+)["']""")


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    patterns = []
    for name, definition in GAMES.items():
        package = package_of(name)
        words = [re.escape(definition.title), re.escape(package), re.escape(package.replace(".", "/"))]
        if name in EVERYDAY:
            words.append(rf"""(?<=["'])({re.escape(name)})(?=["'])""")
        else:
            words.append(rf"\b{re.escape(name)}\b")
        patterns.append((name, re.compile("|".join(words), re.IGNORECASE)))
    return patterns


def _host_files(root: Path) -> Iterator[Path]:
    # Every package under games/ is a game's (registered or on its way), the seam's own
    # modules are the files directly in games/.
    game_dirs = {path.relative_to(root) for path in (root / "games").iterdir() if path.is_dir()}
    for top in HOST:
        for path in sorted((root / top).rglob("*")):
            relative = path.relative_to(root)
            if not path.is_file() or path.suffix not in SUFFIXES:
                continue
            if "migrations" in relative.parts or "__pycache__" in relative.parts:
                continue
            if any(relative.is_relative_to(game) for game in game_dirs):
                continue
            if relative in REGISTRATION:
                continue
            yield path


def game_names_in_host(root: Path) -> list[str]:
    """Every `path:line: game` where a host file names a registered game."""
    found = []
    patterns = _patterns()
    for path in _host_files(root):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for name, pattern in patterns:
                if pattern.search(line):
                    found.append(f"{path.relative_to(root)}:{number}: {name}: {line.strip()[:100]}")
    return found


def test_no_host_file_names_a_game() -> None:
    found = game_names_in_host(ROOT)
    assert not found, f"{len(found)} host lines name a game:\n" + "\n".join(found)


def game_view_reads_in_host(root: Path) -> list[str]:
    """Every `path:line: key` where a host script reads a table view's key that is a
    game's, or any key of the game's rules (`rules().key`)."""
    found = []
    for path in _host_files(root):
        if path.suffix != ".js":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]  # a comment may speak of a game's view
            keys = [key for key in VIEW_READ.findall(code) if key not in HOST_VIEW_KEYS]
            keys += [f"rules().{key}" for key in RULES_READ.findall(code)]
            for key in dict.fromkeys(keys):
                found.append(f"{path.relative_to(root)}:{number}: {key}: {line.strip()[:100]}")
    return found


def test_no_host_script_reads_a_games_view() -> None:
    found = game_view_reads_in_host(ROOT)
    assert not found, f"{len(found)} host lines read a game's view (ask the game's module):\n" + "\n".join(found)


@functools.cache
def game_action_types() -> dict[str, str]:
    """Every action type a registered game knows, and the game: its declared wire types
    (NamesWireTypes), and each type one table's play took or listed as legal on the way
    (a captain's pass, the reveal's go-ahead: the duties included)."""
    from tests.games.conformance.play import all_legal, played

    found: dict[str, str] = {}
    for name, definition in sorted(GAMES.items()):
        types = set(definition.wire_roles()) if isinstance(definition, NamesWireTypes) else set()
        game = played(name, definition.min_players, 0, True, 0.3)
        actions = [*game.actions, *(a for state in game.states()[::3] for a in all_legal(definition, state))]
        types |= {definition.action_to_dict(action)["type"] for action in actions}
        found.update(dict.fromkeys(types, name))
    return found


def game_actions_in_host(root: Path) -> list[str]:
    """Every `path:line: game: type` where a host script writes a game's action type."""
    types = game_action_types()
    found = []
    for path in _host_files(root):
        if path.suffix != ".js":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]  # a comment may speak of a game's action
            for kind in TYPE_LITERAL.findall(code):
                if kind in types:
                    found.append(f"{path.relative_to(root)}:{number}: {types[kind]}: {kind}: {line.strip()[:100]}")
    return found


def test_no_host_script_builds_a_games_action() -> None:
    found = game_actions_in_host(ROOT)
    assert not found, f"{len(found)} host lines build a game's action (let its module build it):\n" + "\n".join(found)


def _copy_of_host(tmp_path: Path) -> Path:
    for top in HOST:
        shutil.copytree(ROOT / top, tmp_path / top, ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize(
    ("host_file", "line"),
    [
        ("tables/services.py", 'if table.game == "{name}":\n    pass\n'),
        ("static/heist/play.js", "// the {title} phone\n"),
        ("templates/base.html", "{{% if party.game == '{name}' %}}{{% endif %}}\n"),
    ],
)
def test_a_planted_game_name_fails_the_walk(tmp_path: Path, name: str, host_file: str, line: str) -> None:
    copy = _copy_of_host(tmp_path)
    planted = copy / host_file
    title = GAMES[name].title
    planted.write_text(planted.read_text(encoding="utf-8") + line.format(name=name, title=title), encoding="utf-8")
    found = game_names_in_host(copy)
    assert any(hit.startswith(host_file) and f": {name}: " in hit for hit in found), found


@pytest.mark.parametrize(
    ("host_file", "line", "key"),
    [
        ("static/heist/host.js", "const r = t.view.round;\n", "round"),
        ("static/heist/party.js", "const seat = p.view.relay_seat;\n", "relay_seat"),
        ("static/heist/screen.js", "if (payload.view?.turn) draw();\n", "turn"),
        ("static/heist/ui.js", "const base = rules().vault.id_base;\n", "rules().vault"),
    ],
)
def test_a_planted_view_read_fails_the_walk(tmp_path: Path, host_file: str, line: str, key: str) -> None:
    copy = _copy_of_host(tmp_path)
    planted = copy / host_file
    planted.write_text(planted.read_text(encoding="utf-8") + line, encoding="utf-8")
    found = game_view_reads_in_host(copy)
    assert any(hit.startswith(host_file) and f": {key}: " in hit for hit in found), found


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_planted_game_action_fails_the_walk(tmp_path: Path, name: str) -> None:
    kind = min(t for t, game in game_action_types().items() if game == name)
    copy = _copy_of_host(tmp_path)
    planted = copy / "static/heist/host.js"
    line = f'const duty = (table, button) => actAt(table, {{ type: "{kind}" }}, button);\n'
    planted.write_text(planted.read_text(encoding="utf-8") + line, encoding="utf-8")
    found = game_actions_in_host(copy)
    assert any(hit.startswith("static/heist/host.js") and f": {name}: {kind}: " in hit for hit in found), found
