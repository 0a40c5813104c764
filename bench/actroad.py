#!/usr/bin/env python
"""One act's road, traced: the distinct functions a table action passes, and their modules.

    .venv/bin/python bench/actroad.py [--json]

Sets up a throwaway SQLite party of each registered game in a temporary folder (the
embedded settings: in-memory channel layer, no server), plays one untraced action of a
first party of the game to warm every import and cache, then traces, with
`sys.setprofile`, one action of a second party exactly as its `act` frame runs in
process (events/party/commands.py `dispatch`: the role check, parsing, the table's lock,
the definition, the write, the messages): the first game's first seat action that is not
a pass (Yankee Heist: a card played) and a Royal Heist decision. It prints, per action,
the distinct Python functions called (all; and the host's alone: config, events,
tables, relay, story, printables), and the distinct modules. Run it on two trees (from each tree's
folder, with PYTHONPATH set to it) to compare their roads.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path.cwd()
# The host's packages (docs/ARCHITECTURE.md): everything of the project but the games
# (games/: the seam and the rules), the tests and the benches.
HOST_PACKAGES = frozenset({"config", "events", "tables", "relay", "story", "printables"})


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.embedded")
    os.environ["HEIST_VAR_DIR"] = tempfile.mkdtemp(prefix="actroad-")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _party(game: str, guests: int) -> tuple[Any, Any]:
    """A seated party of `game`: its table row and the actor of the seat to act."""
    from events.models import Guest
    from events.party import services
    from events.party.selectors import guest_actor
    from tables.models import Table

    data = services.party_create(name=f"Trace {game}", game=game).data
    party_id = data["party"]
    from events.models import Party

    code = Party.objects.get(pk=party_id).code
    for i in range(guests):
        services.guest_join(code=code, name=f"G{i}", description=f"gift {i}")
    services.party_seat(party_id=party_id)
    table = Table.objects.get(party_id=party_id)
    definition = table.definition
    state = definition.from_dict(table.state)
    seat = definition.waiting_for(state)[0]
    guest = Guest.objects.get(table=table, seat=seat)
    return table, guest_actor(guest, game=game)


def _frame(table: Any, actor: Any) -> dict[str, Any]:
    """The act frame of the seat's first listed action that is not its pass, as a phone sends it."""
    from games.definition import Role

    definition = table.definition
    state = definition.from_dict(table.state)
    actions = [a for a in definition.legal_actions(state, actor.seat) if definition.role_of(a) is Role.SEAT]
    wire = [definition.action_to_dict(a) for a in actions]
    plays = [w for w in wire if w["type"] == "play"] or wire
    action = {k: v for k, v in plays[0].items() if k != "seat"}
    return {"type": "act", "table": table.pk, "version": definition.version(state), "action": action, "re": "trace"}


def trace(game: str, guests: int) -> dict[str, Any]:
    from events.party.commands import dispatch

    warm_table, warm_actor = _party(game, guests)
    dispatch(warm_actor, _frame(warm_table, warm_actor))
    table, actor = _party(game, guests)
    frame = _frame(table, actor)
    seen: set[tuple[str, str, int, str]] = set()

    def profile(frame_: Any, event: str, arg: Any) -> None:
        if event == "call":
            code = frame_.f_code
            seen.add((frame_.f_globals.get("__name__", "?"), code.co_filename, code.co_firstlineno, code.co_name))

    sys.setprofile(profile)
    try:
        outcome = dispatch(actor, frame)
    finally:
        sys.setprofile(None)
    assert outcome.data.get("version"), outcome.data

    def host(entry: tuple[str, str, int, str]) -> bool:
        # by the module the code runs in (a dataclass's generated methods have no file)
        return entry[0].split(".")[0] in HOST_PACKAGES

    hosts = {e for e in seen if host(e)}
    return {
        "game": game,
        "action": frame["action"]["type"],
        "functions": len(seen),
        "host_functions": len(hosts),
        "modules": len({e[0] for e in seen}),
        "host_modules": sorted({e[0] for e in hosts}),
        "host_function_names": sorted(f"{e[0]}.{e[3]}" for e in hosts),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object per action, with every host function")
    args = parser.parse_args()
    _setup()
    for game, guests in (("yankee", 10), ("royal", 8)):
        result = trace(game, guests)
        if args.json:
            print(json.dumps(result))
            continue
        print(
            f"{result['game']} {result['action']}: {result['functions']} distinct functions "
            f"({result['host_functions']} in the host) in {result['modules']} modules; "
            f"host modules: {', '.join(result['host_modules'])}"
        )


if __name__ == "__main__":
    main()
