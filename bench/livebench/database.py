"""The bench's database: made fresh and migrated, its parties created and seated through the
services, and each table replayed from its action log to check what the sockets received."""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
from pathlib import Path

from bench.livebench.measures import now
from bench.livebench.servers import HOST, ROOT, VENV_BIN


def prepare_database(args, env: dict, tmp: Path) -> dict:
    t = now()
    if args.embedded:
        env["HEIST_BENCH_EMBEDDED"] = "1"
        env["HEIST_BENCH_SQLITE"] = str(tmp / "bench.sqlite3")
    else:
        import psycopg

        env["HEIST_BENCH_DB"] = args.db
        with psycopg.connect(host=HOST, user="postgres", dbname="postgres", autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (args.db,)).fetchone()
            if exists and not args.reuse_db:
                conn.execute(f'DROP DATABASE "{args.db}" WITH (FORCE)')
                exists = None
            if not exists:
                conn.execute(f'CREATE DATABASE "{args.db}"')
    subprocess.run(
        [str(VENV_BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    return {"migrateS": round(now() - t, 2)}


def django_setup(env: dict):
    os.environ.update({k: v for k, v in env.items() if k.startswith(("HEIST_", "DJANGO_"))})
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


# Everything below imports Django models lazily (after django_setup).


def create_game(players: int, label: str) -> dict:
    """One party of `players` guests, seated (one table), through the services."""
    from events.models import Guest, Party
    from events.party import services
    from tables.models import Table

    created = services.party_create(name=f"Bench {label}").data
    party, host_token = Party.objects.get(pk=created["party"]), created["host_token"]
    tokens = {}
    for i in range(players):
        joined = services.guest_join(code=party.code, name=f"Guest {i + 1}", description=f"gift {label}/{i + 1}").data
        tokens[joined["guest"]] = joined["token"]
    services.party_seat(party_id=party.pk)  # before any socket connects: nothing to broadcast
    table = Table.objects.get(party=party)
    seats = {}
    for g in Guest.objects.filter(party=party):
        seats[g.seat] = {"guest": g.pk, "token": tokens[g.pk], "captain": g.is_captain}
    return {"code": party.code, "party_id": party.pk, "table_id": table.pk, "host_token": host_token, "seats": seats}


def replay_check(table_id: int, digests: list) -> collections.Counter:
    """Check every recorded message of one table against the table replayed from its log."""
    from games.yankee import apply, parse_action
    from games.yankee.definition import YANKEE
    from tables.models import Table, TableAction
    from tables.replay import table_setup

    out = collections.Counter()
    table = Table.objects.get(pk=table_id)
    game, _ = YANKEE.setup(table_setup(table))
    actions = {a.version: a.action for a in TableAction.objects.filter(table_id=table_id)}
    events = []
    for d in sorted(digests, key=lambda d: d[1]):
        v = d[1]
        while game.version < v:
            if game.version + 1 not in actions:
                out["no_such_version"] += 1
                break
            game, events = apply(game, parse_action(actions[game.version + 1]))
        if game.version != v:
            continue
        out["checked"] += 1
        if d[0] == "s":
            _, _, seat, you, hand, described, evs = d
            if you != seat:
                out["leak_wrong_seat"] += 1
            if list(hand) != list(game.hands[seat]):
                if any(list(hand) == list(h) and list(h) for s, h in enumerate(game.hands) if s != seat):
                    out["leak_other_hand"] += 1
                else:
                    out["hand_mismatch"] += 1
            if any(gift not in game.peeks[seat] for gift in described):
                out["leak_description"] += 1
            if evs is not None:
                want = json.loads(json.dumps([x for x in (e.view(seat) for e in events) if x is not None]))
                if evs != want:
                    out["events_mismatch"] += 1
                    if any(("cards" in x or "card" in x) for x in evs if x not in want):
                        out["leak_event_secret"] += 1
        else:
            _, _, has_hand, described, evs = d
            if has_hand:
                out["leak_public_hand"] += 1
            if described:
                out["leak_public_description"] += 1
            if evs is not None:
                want = json.loads(json.dumps([x for x in (e.view(None) for e in events) if x is not None]))
                if evs != want:
                    out["events_mismatch_public"] += 1
    return out
