"""The command registry (events/party/commands.py), the error family and its two mappings
(tables/errors.py: the socket's error frame, HTTP's status and JSON), and the host's
`end` command."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from events.broadcast import groups
from events.live.socket.closing import error_frame as _error_frame
from events.models import Party
from events.party import services
from events.party.commands import PARTY_COMMANDS, TABLE_ACTION, dispatch
from events.party.roles import (
    CAPTAIN_COMMANDS,
    DELIVERY_COMMANDS,
    HOST_COMMANDS,
    SEAT_COMMANDS,
    Actor,
    Role,
)
from events.web.http import error_response
from games import yankee as engine
from games.definition import Definition, NamesWireTypes
from games.definition import Role as GameRole
from games.registry import GAMES
from games.yankee.definition import DUTY_ACTIONS, SEAT_ACTIONS, SERVER_ACTIONS
from tables.errors import Forbidden, Illegal, ServiceError, engine_rules
from tables.models import Table
from tests import shorthand
from tests.games.conformance.play import all_legal, sample_games, sample_states
from tests.live.clients import Phone
from tests.story.record import party_record_with_tokens

# --- the registry covers the role table, and only it ------------------------------------


def _actors(party_id: int = 1, table_id: int = 7) -> dict[str, Actor]:
    """One actor of every kind: what the role table distinguishes."""
    return {
        "host": Actor(Role.HOST, party_id),
        "captain": Actor(Role.GUEST, party_id, guest_id=5, table_id=table_id, seat=0, captain=True),
        "guest": Actor(Role.GUEST, party_id, guest_id=6, table_id=table_id, seat=1),
        "lobby guest": Actor(Role.GUEST, party_id, guest_id=8),
        "tablet": Actor(Role.TABLET, party_id, table_id=table_id, tablet_id=3),
        "spectator": Actor(Role.SPECTATOR, party_id),
    }


def test_every_command_of_the_role_table_has_an_entry_and_every_entry_a_role():
    assert set(PARTY_COMMANDS) == HOST_COMMANDS | CAPTAIN_COMMANDS | SEAT_COMMANDS | DELIVERY_COMMANDS
    assert all(c.frame == "party" for c in PARTY_COMMANDS.values())
    assert TABLE_ACTION.frame == "act"  # every game's table actions: the definition's roles
    assert all(name == c.name for name, c in PARTY_COMMANDS.items())


def _allowed(command, frame, *, party_id: int = 1, table_id: int = 7) -> set[str]:
    """Which of the sample actors (of table `table_id`) the command's role check lets through."""
    allowed = set()
    for who, actor in _actors(party_id, table_id).items():
        try:
            command.check(actor, frame)
        except Forbidden:
            continue
        allowed.add(who)
    return allowed


# Who may confirm a relay delivery depends on the walk (its carrier, the receiving
# table): tests/party/test_relay_walk.py.
@pytest.mark.parametrize("name", sorted(set(PARTY_COMMANDS) - DELIVERY_COMMANDS))
def test_each_party_command_is_allowed_to_exactly_the_roles_the_table_names(name):
    allowed = _allowed(PARTY_COMMANDS[name], {"type": "party", "command": name})
    if name in HOST_COMMANDS:
        assert allowed == {"host"}
    elif name in CAPTAIN_COMMANDS:
        # A frame that names no guest names no table: nobody's captain, nobody's tablet
        # (which table's captain may: test_a_captain_hands_over_seats_at_their_own_table_only).
        assert allowed == {"host"}
    else:
        assert allowed == {"captain", "guest"}  # a seated guest, about their own seat


@pytest.mark.parametrize("name", sorted(SEAT_ACTIONS | DUTY_ACTIONS | SERVER_ACTIONS))
def test_each_yankee_wire_type_is_refused_before_parsing_to_all_but_its_roles(name):
    # Yankee Heist names its wire types by role (NamesWireTypes): refused before parsing,
    # by the type alone (every game's parsed actions: the test below).
    allowed = _allowed(TABLE_ACTION, {"type": "act", "table": 7, "action": {"type": name}})
    if name in SEAT_ACTIONS:
        assert allowed == {"captain", "guest"}
    elif name in DUTY_ACTIONS:
        assert allowed == {"host", "captain", "tablet"}
    else:
        assert allowed == set()  # the relay's own action is no screen's


def _sample_actions(definition: Definition) -> list[Any]:
    """One action of each wire type and role the game's sample tables played or could
    have played (tests/games/conformance/play.py): every action a frame may carry."""
    seen: dict[tuple[str, GameRole], Any] = {}
    for state in sample_states(definition):
        for action in all_legal(definition, state):
            key = (definition.action_to_dict(action)["type"], definition.role_of(action))
            seen.setdefault(key, action)
    for game in sample_games(definition):
        for action in game.actions:
            key = (definition.action_to_dict(action)["type"], definition.role_of(action))
            seen.setdefault(key, action)
    return list(seen.values())


def _table_actors(name: str, seat: int | None, players: int) -> dict[str, Actor]:
    """Every kind of sender an action at table 7 may come from, of the game `name`: the
    guest in the action's seat, the table's captain and another guest in other seats,
    the table's tablet, the next table's captain (in the same seat) and tablet."""
    mine = seat if seat is not None else 0
    other, third = (mine + 1) % players, (mine + 2) % players
    return {
        "host": Actor(Role.HOST, 1, game=name),
        "seat": Actor(Role.GUEST, 1, guest_id=5, table_id=7, seat=mine, game=name),
        "captain": Actor(Role.GUEST, 1, guest_id=6, table_id=7, seat=other, captain=True, game=name),
        "guest": Actor(Role.GUEST, 1, guest_id=7, table_id=7, seat=third, game=name),
        "lobby guest": Actor(Role.GUEST, 1, guest_id=8, game=name),
        "tablet": Actor(Role.TABLET, 1, table_id=7, tablet_id=3, game=name),
        "next captain": Actor(Role.GUEST, 1, guest_id=9, table_id=8, seat=mine, captain=True, game=name),
        "next tablet": Actor(Role.TABLET, 1, table_id=8, tablet_id=4, game=name),
        "spectator": Actor(Role.SPECTATOR, 1, game=name),
    }


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_table_action_of_every_game_is_allowed_to_exactly_the_roles_its_definition_names(game):
    """Every registered game's actions, parsed as a frame carries them: the definition's
    `role_of` and `seat_of` say who may send each (events/party/roles.py), and the
    registry lets through exactly them (its check and its parse, before any service)."""
    definition = GAMES[game]
    actions = _sample_actions(definition)
    roles = {definition.role_of(a) for a in actions}
    assert GameRole.SEAT in roles and GameRole.DUTY in roles, f"{game}: the samples lack a role"
    if isinstance(definition, NamesWireTypes):
        wire = {(definition.action_to_dict(a)["type"], definition.role_of(a)) for a in actions}
        assert set(definition.wire_roles().items()) <= wire, f"{game}: a wire type never sampled"
    for action in actions:
        role, seat = definition.role_of(action), definition.seat_of(action)
        # With the version the sender's screen showed: a checked action needs one.
        frame = {"type": "act", "table": 7, "version": 1, "action": definition.action_to_dict(action)}
        allowed = set()
        for who, actor in _table_actors(game, seat, definition.max_players).items():
            try:
                TABLE_ACTION.check(actor, frame)
                TABLE_ACTION.parse(actor, frame)
            except Forbidden:
                continue
            allowed.add(who)
        expected = {GameRole.SEAT: {"seat"}, GameRole.DUTY: {"host", "captain", "tablet"}, GameRole.SERVER: set()}
        assert allowed == expected[role], f"{game}: {frame['action']} ({role})"


def test_the_registry_refuses_what_it_does_not_list():
    guest = _actors()["guest"]
    with pytest.raises(Forbidden, match="not available to players"):
        dispatch(guest, {"type": "act", "table": 7, "action": {"type": "relay_exchange"}})
    with pytest.raises(Forbidden, match="unknown command 'nope'"):
        dispatch(_actors()["host"], {"type": "party", "command": "nope"})
    with pytest.raises(ServiceError) as exc:
        dispatch(guest, {"type": "party", "command": 5})
    assert exc.value.code == "malformed"
    with pytest.raises(Forbidden, match="your own seat"):  # a forged seat, before any database read
        dispatch(guest, {"type": "act", "table": 7, "action": {"type": "play", "seat": 0, "card": 1}})


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ({"type": "act", "table": 7, "version": "3", "action": {"type": "play"}}, "malformed"),
        ({"type": "act", "table": "7", "action": {"type": "play"}}, "malformed"),
        ({"type": "act", "table": 7, "action": ["play"]}, "illegal.malformed"),
        ({"type": "act", "table": 7, "action": {"type": 1}}, "illegal.malformed"),
        ({"type": "act", "table": 7, "action": {"type": "play", "card": "x"}}, "illegal.malformed"),
        ({"type": "party", "command": "remove_guest", "guest": "1"}, "invalid"),
        ({"type": "party", "command": "remove_vault_gift", "number": True}, "invalid"),
        ({"type": "party", "command": "pair_tablet", "table": 1.0}, "invalid"),
        ({"type": "party", "command": "revoke_tablet"}, "invalid"),
    ],
)
def test_arguments_are_type_checked_before_any_service_runs(frame, code):
    """No database here: a wrongly typed argument is refused by the parser alone."""
    actor = _actors()["guest"] if frame["type"] == "act" else _actors()["host"]
    with pytest.raises(ServiceError) as exc:
        dispatch(actor, frame)
    assert exc.value.code == code


# --- one error family, mapped once per transport ---------------------------------------------


ENGINE_ERRORS = [
    engine.IllegalActionError,
    engine.MalformedActionError,
    engine.WrongPhaseError,
    engine.OutOfTurnError,
    engine.CardNotInHandError,
    engine.IllegalTargetError,
    engine.IllegalCardError,
]


@pytest.mark.parametrize("error", ENGINE_ERRORS)
def test_an_engine_error_becomes_illegal_with_its_rule(error):
    with pytest.raises(Illegal) as exc, engine_rules():
        raise error("not now")
    assert exc.value.code == f"illegal.{error.rule}" and str(exc.value) == "not now"
    assert isinstance(exc.value.__cause__, error)
    assert _error_frame("r1", exc.value) == {
        "type": "error",
        "re": "r1",
        "code": f"illegal.{error.rule}",
        "message": "not now",
    }


def test_the_socket_maps_every_refusal_to_one_frame_shape():
    assert _error_frame(None, Forbidden("only the host can do that")) == {
        "type": "error",
        "re": None,
        "code": "forbidden",
        "message": "only the host can do that",
    }
    assert _error_frame("x", ServiceError("stale", "moved on"))["code"] == "stale"


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (Forbidden("only the host can download the result"), 403),
        (ServiceError("no_party", "no party has that code"), 404),
        (ServiceError("expired", "gone"), 410),
        (ServiceError("closed", "closed"), 409),
        (ServiceError("full", "full"), 409),
        (ServiceError("not_over", "later"), 409),
        (ServiceError("not_seated", "seat first"), 409),
        (ServiceError("too_large", "too large"), 413),
        (ServiceError("rate_limited", "slow down"), 429),
        (ServiceError("invalid", "a name is required"), 400),
        (ServiceError("bad_code", "not a code"), 400),
        (Illegal(engine.WrongPhaseError("not now")), 400),
    ],
)
def test_http_maps_every_refusal_to_its_status_and_one_json_shape(error, status):
    response = error_response(error)
    assert response.status_code == status
    assert json.loads(response.content) == {"error": error.code, "message": str(error)}


def test_http_may_name_a_status_for_a_request_that_names_nothing():
    assert error_response(ServiceError("invalid", "no such printable"), status=404).status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", sorted(CAPTAIN_COMMANDS))
def test_a_captain_hands_over_seats_at_their_own_table_only(name):
    """The table of the guest a frame names decides: its captain and its tablet may, the
    captain and tablet of the next table may not, the host always may."""
    party, _, _ = shorthand.party_seated(name="Captains", guests=30)
    tables = list(Table.objects.filter(party=party).order_by("id").values_list("id", flat=True))
    assert len(tables) == 3
    for here in tables:
        guest = _guest_at(party_id=party.pk, table_id=here)
        frame = {"type": "party", "command": name, "guest": guest}
        assert _allowed(PARTY_COMMANDS[name], frame, party_id=party.pk, table_id=here) == {"host", "captain", "tablet"}
        for there in tables:
            if there != here:
                assert _allowed(PARTY_COMMANDS[name], frame, party_id=party.pk, table_id=there) == {"host"}


def _guest_at(*, party_id: int, table_id: int) -> int:
    """One guest seated at the table."""
    from events.models import Guest

    return Guest.objects.filter(party_id=party_id, table_id=table_id).order_by("id").values_list("id", flat=True)[0]


# --- the host ends the party ---------------------------------------------------------------

pytestmark_db = pytest.mark.django_db(transaction=True)  # the registry tests above need no database


def _end(party_id: int):
    return dispatch(Actor(Role.HOST, party_id), {"type": "party", "command": "end"})


@pytestmark_db
def test_end_is_refused_in_the_lobby_and_while_a_table_plays():
    party, _ = shorthand.party_create(name="Too early")
    for i in range(4):
        shorthand.guest_join(code=party.code, name=f"E{i}", description=f"gift {i}")
    with pytest.raises(ServiceError) as exc:
        _end(party.pk)
    assert exc.value.code == "not_over" and "seat the guests first" in str(exc.value)
    services.party_seat(party_id=party.pk)
    with pytest.raises(ServiceError) as exc:
        _end(party.pk)
    assert exc.value.code == "not_over" and "still playing: table A" in str(exc.value)
    party.refresh_from_db()
    assert party.status == Party.Status.PLAYING and party.ended_at is None
    with pytest.raises(Forbidden):  # and only the host may ask
        dispatch(Actor(Role.SPECTATOR, party.pk), {"type": "party", "command": "end"})


@pytestmark_db
@pytest.mark.stack
async def test_end_closes_a_finished_party_whose_close_was_lost_and_is_idempotent():
    """Every table is over but the party is not: the server stopped between the last
    action's commit and the party's close (a transaction of its own). The host's `end`
    closes it, every screen is told, and the host gets the result; again, it is a no-op."""
    party, host_token, _ = await sync_to_async(party_record_with_tokens)(4, seed=3, name="Lost close")
    assert party.status == Party.Status.OVER
    phases = await sync_to_async(lambda: {t.state["phase"] for t in Table.objects.filter(party=party)})()
    assert phases == {"over"}
    await sync_to_async(Party.objects.filter(pk=party.pk).update)(status=Party.Status.PLAYING, ended_at=None)

    host = await Phone(party.code).connect()
    screen = await Phone(party.code).connect()
    try:
        assert (await host.hello("host", host_token))["party"]["status"] == "playing"
        await screen.hello("spectator")
        ok = await host.command("end")
        assert ok == {"type": "ok", "re": ok["re"], "status": "over"}
        told = await host.until(lambda m: m.get("type") == "party" and m["role"] == "host")
        assert told["party"]["status"] == "over" and told["party"]["result"]["over"] is True
        public = await screen.until(lambda m: m.get("type") == "party")
        assert public["party"]["status"] == "over"
        row = await sync_to_async(Party.objects.get)(pk=party.pk)
        assert row.status == Party.Status.OVER and row.ended_at is not None
        revision = row.revision

        # The host reads the public party message too: the first end's is in before the mark.
        def public_over(m):
            return m.get("type") == "party" and m["role"] == "public" and m["party"]["status"] == "over"

        if not any(public_over(m) for m in host.inbox):
            await host.until(public_over)
        mark = len(host.inbox)
        again = await host.command("end")
        assert again == {"type": "ok", "re": again["re"], "status": "over"}
        # A resync on the same socket runs after that command's handler has published
        # whatever it would; a probe sent to the host's group after that reply comes
        # after any such broadcast.
        await host.send({"type": "resync", "re": "after"})
        await host.reply("after")
        await groups.send([(groups.host_group(party.pk), {"type": "probe"})])
        await host.until(lambda m: m.get("type") == "probe")
        assert not [m for m in host.inbox[mark:] if m.get("type") == "party"]
        row = await sync_to_async(Party.objects.get)(pk=party.pk)
        assert row.revision == revision and row.status == Party.Status.OVER
    finally:
        await host.close()
        await screen.close()
