"""Reads for party screens: the lobby, the host dashboard, a guest's snapshot."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, cast

from django.core.cache import cache
from django.db.models.fields.json import KT
from django.utils import timezone
from django.utils.translation import gettext

from events.models import Guest, Party, Tablet, VaultGift
from events.party.history import WRAPPED, joined_names, late_arrivals, party_handovers, seat_players
from events.party.roles import Actor, Role
from events.party.secrets import normalize_code, plausible_token, token_hash
from games.definition import Definition, HoldsGifts, PlaysInGroups, ScoresEachGame, gifts_of, ranked
from games.registry import DEFAULT_GAME, game_named
from relay.models import Relay
from relay.selectors import relay_json
from tables import seating
from tables.models import Table
from tables.replay import table_replayed
from tables.selectors import table_game, table_payload
from tables.simulate.estimates import lobby_estimate

ONLINE_GRACE = timedelta(seconds=45)


def party_by_code(code: object) -> Party | None:
    code = normalize_code(code) if isinstance(code, str) else None
    if code is None:
        return None
    return Party.objects.filter(code=code).first()


def actor_for(*, party: Party, role: str, token: object) -> Actor | None:
    """Authenticate a hello frame. None for a wrong or forged secret."""
    if role == "spectator":
        return Actor(Role.SPECTATOR, party.pk, game=party.game)
    if not isinstance(token, str) or not plausible_token(token):  # (isinstance: for mypy)
        return None
    digest = token_hash(token)
    if role == "host":
        # Looked up by digest; the digest compare itself happened in the index lookup,
        # and a 256-bit secret leaves nothing to learn from timing.
        return Actor(Role.HOST, party.pk, game=party.game) if party.host_token_hash == digest else None
    if role == "guest":
        guest = Guest.objects.filter(party=party, token_hash=digest, removed_at__isnull=True).first()
        return guest_actor(guest, game=party.game) if guest else None
    if role == "tablet":
        tablet = Tablet.objects.filter(party=party, token_hash=digest, revoked_at__isnull=True).first()
        return tablet_actor(tablet, game=party.game) if tablet else None
    return None


def tablet_actor(tablet: Tablet, *, game: str = DEFAULT_GAME) -> Actor:
    return Actor(Role.TABLET, tablet.party_id, table_id=tablet.table_id, tablet_id=tablet.pk, game=game)


def guest_actor(guest: Guest, *, game: str = DEFAULT_GAME) -> Actor:
    return Actor(
        Role.GUEST,
        guest.party_id,
        guest_id=guest.pk,
        table_id=guest.table_id,
        seat=guest.seat,
        captain=guest.is_captain,
        game=game,
    )


def is_online(guest: Guest, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return guest.sockets > 0 and guest.last_seen is not None and now - guest.last_seen < ONLINE_GRACE


def table_offline(table_id: int) -> list[int]:
    """The guests seated at one table whose phones are not connected: what its captain's
    screens are told in their snapshot, then kept up to date by `presence` messages
    (events/live/presence.py). Only that table's guests: no other table learns of them."""
    now = timezone.now()
    guests = Guest.objects.filter(table_id=table_id, removed_at__isnull=True).only("sockets", "last_seen")
    return sorted(g.pk for g in guests if not is_online(g, now))


def _table_rows(party: Party, tables: list[Table] | None) -> list[tuple[Table, str | None]]:
    """(table, its phase). Without the tables already read, the phase comes out of the
    stored game in the query: every hello reads this, and decoding each table's whole
    game for one key cost more than the rest of the snapshot."""
    if tables is not None:
        return [(t, t.state.get("phase")) for t in tables]
    rows = party.tables.defer("state", "setup").annotate(phase=KT("state__phase"))
    return [(t, t.phase) for t in rows]


def party_public(party: Party, tables: list[Table] | None = None) -> dict[str, Any]:
    """What every screen of the party sees of it. `tables`: its tables, when the caller
    has read them whole anyway."""
    if party.status == Party.Status.LOBBY:
        # Before seating there are no tables, so no captains, tablets or relay either
        # (seating makes the tables and ends the lobby in one transaction): one read, of
        # the names. Every hello and every join burst's broadcast in a lobby reads this.
        names = list(
            party.guests.filter(removed_at__isnull=True).order_by("joined_at", "pk").values_list("name", flat=True)
        )
        return {**_public_fields(party, [], {}, set(), None, len(names)), "names": names}
    rows = _table_rows(party, tables)
    captains = dict(
        Guest.objects.filter(party=party, is_captain=True, removed_at__isnull=True, table__isnull=False).values_list(
            "table_id", "name"
        )
    )
    paired = set(
        Tablet.objects.filter(party=party, revoked_at__isnull=True, paired_at__isnull=False).values_list(
            "table_id", flat=True
        )
    )
    guest_count = party.guests.filter(removed_at__isnull=True).count()
    out = _public_fields(party, rows, captains, paired, Relay.objects.filter(party=party).first(), guest_count)
    if party.status == Party.Status.OVER:
        out["vault_returns"] = vault_returns_public(party)
    return out


def vault_returns_public(party: Party) -> list[dict[str, Any]]:
    """At the end, whom each gift left in a vault goes back to (docs/RULES.md, "The
    vault"): {table, gift (id), returns_to}, for the big screen's "who takes what home".
    Public once the party is over, as the result page anyone with the code may read
    (`party_result(public=True)`); the same names as there (`party_result`'s returns)."""
    definition = game_named(party.game)
    if not definition.features.gifts:
        return []
    gifts = gifts_of(definition)
    left = [(t.letter, g) for t in party.tables.all() for g in gifts.vault_gifts(table_game(t))]
    if not left:
        return []
    contributors = {gifts.vault_gift_id(n): name for n, name in party.vault_gifts.values_list("number", "contributor")}
    guests = list(party.guests.all())
    joined = joined_names(guests, party_handovers(party))
    brought = {g.gift_number: g.pk for g in guests}
    return [
        {"table": letter, "gift": gift, "returns_to": contributors.get(gift) or joined.get(brought.get(gift, 0), "")}
        for letter, gift in left
    ]


def _public_fields(
    party: Party,
    rows: list[tuple[Table, str | None]],
    captains: dict[int, str],
    paired: set[int],
    relay: Relay | None,
    guest_count: int,
) -> dict[str, Any]:
    at_gate = sum(1 for _, phase in rows if phase == "gate")
    return {
        "code": party.code,
        "name": party.name,
        "budget": party.budget,
        "jokes_welcome": party.jokes_welcome,
        "vault_size": party.vault_size,
        "step_clock": party.step_clock,
        "step_clock_server": party.step_clock_server,
        "status": party.status,
        "registration_open": party.registration_open,
        "revision": party.revision,
        "guest_count": guest_count,
        "tables": [
            {
                "id": t.pk,
                "letter": t.letter,
                "size": len(t.roster),
                "phase": phase,
                "captain": captains.get(t.pk),  # phones name their table's captain
                "tablet": t.pk in paired,  # a captain's tablet is paired to it
            }
            for t, phase in rows
        ],
        "gate": {"tables": len(rows), "at_gate": at_gate, "open": len(rows) > 1 and at_gate == len(rows)},
        "expires_at": party.expires_at.timestamp(),
        "relay": relay_json(relay),
    }


def party_for_host(
    party: Party, public: dict[str, Any] | None = None, tables: list[Table] | None = None
) -> dict[str, Any]:
    """The host's view of the party: the public one (`public`, when the caller has it
    already) and the roster, vault, tablets and result."""
    now = timezone.now()
    out = dict(public) if public is not None else party_public(party, tables)
    # Table letters from the public view: joining each row to its table read the whole
    # stored game again for every guest (100 decoded per host update at a full party).
    letters = {t["id"]: t["letter"] for t in out["tables"]}
    # Who plays whose seat since a late arrival took it (none before the deal).
    played_by, playing_for = _late_substitutions(party)
    out["guests"] = [
        {
            "id": g.pk,
            "name": g.name,
            "gift_number": g.gift_number,
            "online": is_online(g, now),
            "table": letters.get(g.table_id),
            "seat": g.seat,
            "captain": g.is_captain,
            "late": g.late,  # registered after the deal (docs/RULES.md)
            "group": g.group,  # the team the host set by hand (None: drawn at seating)
            "played_by": played_by.get(g.pk),  # a late arrival plays this guest's seat
            "playing_for": playing_for.get(g.pk),  # this late arrival plays a leaver's seat
        }
        for g in party.guests.filter(removed_at__isnull=True)
    ]
    out["vault_gifts"] = [
        {
            "number": v.number,
            "label": f"V{v.number}",
            "contributor": v.contributor,
            "table": letters.get(v.table_id),
        }
        for v in VaultGift.objects.filter(party=party)
    ]
    # The simulator's estimate for the guests so far (a table lookup, no simulation).
    out["estimate"] = lobby_estimate(
        game=party.game, games=party.games, guests=out["guest_count"], options=party.options
    )
    # The vault gifts the current guest count needs (the seating refuses a shortfall).
    n = len(out["guests"])
    out["vault_needed"] = party.vault_size * seating.table_count(n)
    out["tablets"] = (
        []  # a tablet pairs with a table, and a lobby has none yet
        if party.status == Party.Status.LOBBY
        else [
            {
                "id": t.pk,
                "table": t.table_id,
                "letter": letters[t.table_id],
                "paired_at": cast(datetime, t.paired_at).timestamp(),  # paired: the filter
            }
            for t in Tablet.objects.filter(party=party, revoked_at__isnull=True, paired_at__isnull=False)
        ]
    )
    if party.status == Party.Status.OVER:
        out["result"] = party_result(party)
    return out


def _late_substitutions(party: Party) -> tuple[dict[int, str], dict[int, str]]:
    """({leaver id: the late arrival playing their seat}, {late arrival id: the leaver})."""
    if party.status == Party.Status.LOBBY:
        return {}, {}
    rows = party.handovers.filter(substitute__isnull=False).values_list(
        "guest_id", "claimed_by", "substitute_id", "leaving_name"
    )
    return {g: by for g, by, _, _ in rows}, {s: name for _, _, s, name in rows}


def snapshot_for(actor: Actor) -> dict[str, Any]:
    party = Party.objects.get(pk=actor.party_id)
    if actor.role in (Role.HOST, Role.SPECTATOR):
        rows = list(party.tables.all())
        tables = [table_payload(t, table_game(t), None) for t in rows]
        if actor.role is Role.HOST:
            return {"type": "snapshot", "role": "host", "party": party_for_host(party, tables=rows), "tables": tables}
        return {"type": "snapshot", "role": "spectator", "party": party_public(party, rows), "tables": tables}
    if actor.role is Role.TABLET:
        # The table's public payload only: a tablet never receives a hand.
        table = Table.objects.get(pk=cast(int, actor.table_id))  # a tablet's actor has its table
        return {
            "type": "snapshot",
            "role": "tablet",
            "party": party_public(party),
            "tablet": {"id": actor.tablet_id, "table": table.pk, "letter": table.letter},
            "table": table_payload(table, table_game(table), None),
            "offline": table_offline(table.pk),  # its guests not connected (presence)
        }
    guest = Guest.objects.select_related("table").get(pk=cast(int, actor.guest_id))  # the rest: guests
    me = {
        "id": guest.pk,
        "name": guest.name,
        "gift_number": guest.gift_number,
        "description": guest.description,  # their own: they wrote it
        "captain": guest.is_captain,
        "table": guest.table.letter if guest.table is not None else None,  # (selected with the guest)
        "seat": guest.seat,
        "late": guest.late,
        "group": guest.group,  # the team the host set by hand in the lobby (None: drawn)
    }
    if party.status != Party.Status.LOBBY and (guest.late or guest.table_id is None):
        played_by, playing_for = _late_substitutions(party)
        me["played_by"] = played_by.get(guest.pk)  # a leaver: who plays their seat for them
        me["playing_for"] = playing_for.get(guest.pk)
    out: dict[str, Any] = {
        "type": "snapshot",
        "role": "guest",
        "party": party_public(party),
        "me": me,
        "table": None,
        "public": None,
    }
    if guest.table is not None:
        game = table_game(guest.table)
        out["table"] = table_payload(guest.table, game, guest.seat)
        if guest.is_captain:
            out["public"] = table_payload(guest.table, game, None)
            out["offline"] = table_offline(guest.table.pk)  # as on the table's tablet
    if party.status == Party.Status.OVER:
        out["takes_home"] = guest_takes_home(party, guest)
        if not game_named(party.game).features.gifts:
            out["standing"] = guest_standing(party, guest)
    return out


def guest_standing(party: Party, guest: Guest) -> dict[str, Any] | None:
    """A game without gifts, at the end: the party's champions and where this guest
    ranks among every seated guest (the seat they sat down at, even when a substitute
    played it), for their phone; None for a guest who never sat down. A game played in
    groups adds the group their seat played for and every group's total and rank."""
    result = _standings_result(party)
    rows = result["ranking"]
    mine = next((r for r in rows if r["guest_id"] == guest.pk), None)
    if mine is None:
        return None
    out = {
        "rank": mine["rank"],
        "of": len(rows),
        "total": mine["total"],
        "champion": mine["champion"],
        "champions": result["champions"],
    }
    if result["groups"]:  # a game played in groups (teams): theirs, and every group's total
        out["group"] = mine["group"]
        out["groups"] = result["groups"]
    return out


def guest_takes_home(party: Party, guest: Guest) -> list[dict[str, Any]]:
    """Everything this guest leaves with: the gift in front of their seat (or of the
    seat a substitute played for them), their own gift if it ended in a vault
    (leftover vault gifts return to whoever brought them), or, arrived late, their own
    gift. A game without gifts: nothing (and no replay of its tables for each phone)."""
    if not game_named(party.game).features.gifts:
        return []
    result = party_result(party)
    mine = [dict(r, kind="keeps") for r in result["keeps"] if r["guest_id"] == guest.pk]
    if result["vault_returns"]:  # only a game with gifts has any (its labels, then)
        own = gifts_of(game_named(party.game)).gift_label(guest.gift_number)
        mine += [dict(r, kind="vault_return") for r in result["vault_returns"] if r["gift"] == own]
    mine += [dict(r, kind="late") for r in result["late"] if r["guest_id"] == guest.pk]
    return mine


def told_to_the_room(gift_id: int, game: Any, gifts: HoldsGifts) -> bool:
    """The one rule of what stays secret, during the party and after it: a gift's
    description is told to the room once the gift was unwrapped in front of it (the
    round-1 reveal, taken from the vault, arriving by relay: the game says, `gifts`).
    A gift nobody ever unwrapped (a vault gift nobody took) keeps its secret for good,
    as the story tells it (story/build.py)."""
    return gifts.told_to_the_room(game, gift_id)


SCORES_CACHE_SECONDS = 600


def _game_scores(party: Party, tables: list[Table]) -> dict[int, list[list[int]]]:
    """table id -> each finished game's scores per seat, for a game that keeps score
    game by game (games.definition.ScoresEachGame): the stored state holds only the
    running totals, so the tables' action logs are replayed through the definition. A
    finished party never changes again: its replay runs once per party and process
    (every host hello at the end asks for the result), as the story's does."""
    definition = game_named(party.game)
    if not isinstance(definition, ScoresEachGame):
        return {}
    over = party.status == Party.Status.OVER
    key = f"scores:{party.pk}:{party.ended_at.timestamp() if party.ended_at else 0}"
    cached: dict[int, list[list[int]]] | None = cache.get(key) if over else None
    if cached is None:
        cached = {t.pk: definition.game_scores(table_replayed(t).events()) for t in tables}
        if over:
            cache.set(key, cached, SCORES_CACHE_SECONDS)
    return cached


def _game_number(definition: Definition, game: Any) -> int:
    """Which of a table's games is being played (or was, at a gate between two): its
    public view's `game` (games/definition.py Setup.games), 1 for a view without one."""
    return int(definition.public_view(game).get("game", 1))


def _standings_result(party: Party) -> dict[str, Any]:
    """A game without gifts: one ranking of every seated guest across the tables by the
    running total (its definition's standings; tied totals share a rank), each table's
    winners, the party's champions (the best total of all; ties share it) and, for a game
    that keeps score game by game, each guest's score in each game.

    The seat belongs to the guest who sat down there (by the name they joined with),
    even when a substitute played it for them (`played_by` lists everyone who played
    the seat, as a gift swap's result does). Mid-party (the host's CSV), a table's last
    game in `games` is the one being played, so far (none at a gate between two)."""
    definition = game_named(party.game)
    tables = list(party.tables.order_by("letter"))
    guests = {g.pk: g for g in party.guests.all()}
    handovers = party_handovers(party)
    joined = joined_names(guests.values(), handovers)
    players = seat_players(handovers)
    scores = _game_scores(party, tables)
    # A late arrival seated for a leaver takes the roster's place; the seat's first
    # hand-over names the guest who sat down there.
    sat_down: dict[tuple[int | None, int], int] = {}
    for h in handovers:
        sat_down.setdefault((h.table_id, h.seat), h.guest_id)
    rows: list[dict[str, Any]] = []
    per_table = []
    for table in tables:
        game = definition.from_dict(table.state)
        standings = definition.standings(game)
        # the game being played, so far, counts too (none at a gate between two games)
        playing = 0 if definition.is_over(game) else _game_number(definition, game)
        table_rows = []
        for s in standings:
            entry = table.roster[s.seat]
            guest_id = sat_down.get((table.pk, s.seat), entry["guest"])
            name = joined.get(guest_id, entry["name"])
            row: dict[str, Any] = {
                "guest": name,
                "guest_id": guest_id,
                "played_by": players.get((table.pk, s.seat), [name]),
                "table": table.letter,
                "seat": s.seat,
                "total": s.score,
                "table_winner": s.winner,
            }
            if isinstance(definition, PlaysInGroups):
                row["group"] = definition.group_of(game, s.seat)
            if table.pk in scores:
                finished = [game_scores[s.seat] for game_scores in scores[table.pk]]
                if len(finished) < playing:
                    finished.append(s.score - sum(finished))
                row["games"] = finished
            table_rows.append(row)
        rows += table_rows
        per_table.append(
            {
                "table": table.letter,
                # (the table's own ranks: its standings as the table's screens show them)
                "standings": [
                    {"seat": s.seat, "name": r["guest"], "score": s.score, "rank": s.rank, "winner": s.winner}
                    for s, r in zip(standings, table_rows, strict=True)
                ],
                "winners": [r["guest"] for r in table_rows if r["table_winner"]],
            }
        )
    for row, place in zip(rows, ranked([r["total"] for r in rows]), strict=True):
        row["rank"], row["champion"] = place.rank, place.winner
    rows.sort(key=lambda r: (r["rank"], r["table"], r["seat"]))
    groups = _group_totals(definition, rows)
    return {
        "over": party.status == Party.Status.OVER,
        "game": definition.name,
        "games": party.games,
        "tables": per_table,
        "ranking": rows,
        "champions": [r["guest"] for r in rows if r["champion"]],
        # a game played in groups across tables (teams): each group's total, and the
        # best total wins the party (the guests' champions stay the best single totals)
        "groups": groups,
        "keeps": [],
        "vault_returns": [],
        "late": [],
    }


def _group_totals(definition: Definition, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each group's total of its members' scores over every table, ranked (tied groups
    share a rank and the win), for a game that plays in groups (PlaysInGroups); none
    for another game."""
    if not isinstance(definition, PlaysInGroups):
        return []
    names = list(definition.group_names())
    totals = [0] * len(names)
    members = [0] * len(names)
    for row in rows:
        totals[row["group"]] += row["total"]
        members[row["group"]] += 1
    return [
        {
            "group": g,
            "name": gettext(names[g]),
            "total": place.score,
            "members": members[g],
            "rank": place.rank,
            "winner": place.winner and place.score > 0,
        }
        for g, place in enumerate(ranked(totals))
    ]


def party_result(party: Party, *, public: bool = False) -> dict[str, Any]:
    """Who leaves with which gift, and where every vault gift goes. Read from the
    tables' final states (valid at any moment: it is the current holder of each gift).
    `public` (a page anyone with the code may read): descriptions as the room was told
    them (`told_to_the_room`), even after the end; otherwise (the host's files and
    dashboard, a guest's own gift) every description once the party is over.

    Everyone who brought a gift leaves with exactly one (docs/RULES.md): the gift in
    front of the seat they sat down at, even when a substitute played it for them
    (`played_by` lists everyone who played the seat); a late arrival, their own gift
    (`late`). A game without gifts (its definition's Features): the party's ranking
    (`_standings_result`)."""
    definition = game_named(party.game)
    if not definition.features.gifts:
        return _standings_result(party)
    gifts = gifts_of(definition)
    guests = {g.pk: g for g in party.guests.all()}
    handovers = party_handovers(party)
    joined = joined_names(guests.values(), handovers)
    players = seat_players(handovers)
    brought = {g.gift_number: g for g in guests.values()}
    vault_by_id = {v.gift_id: v for v in party.vault_gifts.all()}

    over = party.status == Party.Status.OVER

    def bringer(gift_id: int) -> str:
        return joined[brought[gift_id].pk]

    def describe(gift_id: int, game: Any) -> dict[str, Any]:
        # `source` in the language of the request (the CSV, the join page); `from` and
        # `wrapped` for the screens, which put them in their own (a result reaches the
        # host's devices in a broadcast, built once for all of them).
        if gift_id in vault_by_id:
            origin = {"kind": "vault", "name": vault_by_id[gift_id].contributor}
            source = gettext("vault gift from %(name)s") % {"name": origin["name"]}
        elif gift_id in brought:
            origin = {"kind": "brought", "name": bringer(gift_id)}
            source = gettext("brought by %(name)s") % {"name": origin["name"]}
        else:
            origin = {"kind": "unknown", "name": ""}
            source = gettext("unknown")
        # The host downloads this mid-party too: a gift still wrapped keeps its secret
        # (the host plays as well, and a projector may show the dashboard).
        told = told_to_the_room(gift_id, game, gifts) or (over and not public)
        description = gifts.gift_description(game, gift_id) if told else gettext(WRAPPED)
        return {
            "gift": gifts.gift_label(gift_id),
            "description": description,
            "wrapped": not told,
            "source": source,
            "from": origin,
        }

    keeps: list[dict[str, Any]] = []
    returns: list[dict[str, Any]] = []
    tables = list(party.tables.all())
    letters = {t.pk: t.letter for t in tables}
    for table in tables:
        game = table_game(table)
        for seat, gift_id in enumerate(gifts.seat_gifts(game)):
            entry = table.roster[seat]
            # The seat's owner brought the gift the seat was dealt with in mind: the
            # roster's gift number (a late substitute's own gift is not in play).
            owner = brought.get(entry["gift_number"]) or guests[entry["guest"]]
            keeps.append(
                {
                    "guest": joined[owner.pk],
                    "guest_id": owner.pk,
                    "played_by": players.get((table.pk, seat), [joined[owner.pk]]),
                    "table": table.letter,
                    "seat": seat,
                    **describe(gift_id, game),
                }
            )
        for gift_id in gifts.vault_gifts(game):
            # Leftover vault gifts return to whoever contributed them (rulebook).
            to = vault_by_id[gift_id].contributor if gift_id in vault_by_id else bringer(gift_id)
            returns.append({"table": table.letter, "returns_to": to, **describe(gift_id, game)})
    keeps.sort(key=lambda r: (r["table"], r["seat"]))
    late = late_arrivals(guests.values(), handovers, letters, over=over)
    return {"over": over, "keeps": keeps, "vault_returns": returns, "late": late}
