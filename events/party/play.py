"""A table action at a party: the party's say in the table's write, and its consequences.

The table (tables/services.py) chooses the writer, locks or copies its row, applies the
engine and writes; it knows nothing of the party. The party speaks through
`PARTY_RULES`, in the same transaction: a relay draw needs the relay open (and is
decided on the locked row only), a table arriving at the gate is announced; after
commit, a table that finished may end the party (`_after`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext

from events.party.lobby import party_after_table_change, party_close_if_over
from games.definition import Definition, RelaysGifts
from games.registry import game_named
from relay.selectors import relay_is_open
from tables.clock import NO_SECONDS
from tables.errors import ErrorCode, ServiceError
from tables.groups import Message
from tables.models import Table
from tables.outcome import Outcome
from tables.services import (
    ActRequest,
    PartyRules,
    Persisted,
    TableClaim,
    table_apply,
    table_lock,
    table_persist,
    table_persist_on_loop,
)

Game = Any  # a game's state, as the table's definition makes it
Action = Any


def _is_relay_draw(request: ActRequest) -> bool:
    """Whether the request is the captain's draw of the relay seat, by its own game."""
    definition = game_named(request.game)
    return isinstance(definition, RelaysGifts) and definition.draws_relay_seat(request.action)


def _relay_open_for_draw(request: ActRequest) -> None:
    if _is_relay_draw(request) and not relay_is_open(request.party_id):
        # Captains draw only once the host has opened the relay (the ring is announced).
        raise ServiceError(ErrorCode.RELAY_NOT_OPEN, gettext("the host has not opened the relay yet"))


def _announce_gate(table: Table, game: Game) -> list[Message]:
    return party_after_table_change(table=table, game=game)


def _needs_nothing_more(table: Table, game: Game) -> bool:
    """The party has nothing to do about this new game (party_after_table_change and
    party_close_if_over read the database at the gate and the end)."""
    definition = table.definition
    return not (definition.at_gate(game) or definition.is_over(game))


PARTY_RULES = PartyRules(
    needs_lock=_is_relay_draw,
    admit=_relay_open_for_draw,
    after=_announce_gate,
    settles_alone=_needs_nothing_more,
)


def table_act(request: ActRequest) -> Outcome | None:
    """The party's one service for a table action, already parsed and permitted
    (events/party/commands.py): the table writes it (tables/services.py `table_persist`
    chooses how), then a table that finished may end the party. data {"version",
    "duplicate"}. Raises ServiceError (Illegal, stale, ...), in which case nothing
    changed. None: only for a request with `only_if` that was not written (the caller
    checks the long way and sends it again without)."""
    done = table_persist(request, PARTY_RULES)
    return None if done is None else _after(request.party_id, done)


async def table_act_on_loop(request: ActRequest) -> Outcome | None:
    """`table_act` from the event loop (tables/services.py `table_persist_on_loop`):
    only what needs no other read or write of the party. None: nothing was written;
    the caller takes the threads' path (`table_act`), which decides it again."""
    done = await table_persist_on_loop(request, PARTY_RULES)
    return None if done is None else _after(request.party_id, done)


def _after(party_id: int, done: Persisted) -> Outcome:
    if done.game is not None and done.definition is not None and done.definition.is_over(done.game):
        # The table's last action has committed; the party may now be over too.
        done.outcome.messages.extend(party_close_if_over(party_id=party_id))
    return done.outcome


def table_act_server(*, table: Table, engine_action: Action, actor_label: str) -> Outcome:
    """Apply an action the server itself decided (the relay). The caller holds the
    transaction, and the party's lock."""
    locked = table_lock(TableClaim(party_id=table.party_id, table_id=table.pk, actor_label=actor_label))
    applied = table_apply(locked, engine_action, actor_label=actor_label)
    applied.outcome.messages.extend(party_after_table_change(table=applied.table, game=applied.game))
    return applied.outcome


def table_act_stand_in(
    *, party_id: int, table_id: int, version: int, actor_label: str, now: datetime
) -> tuple[Outcome, Game | None]:
    """The server plays the rules' do-nothing choice for the step table `table_id`
    waits on at `version` (events/party/clocks.py; the caller holds the transaction and has
    claimed the row). The request id is the table's and the version's: a second fire
    for the same step finds it used and does nothing. (Outcome, the new game); the
    game is None when nothing was done (the table moved on, or waits for nobody)."""
    client_id = f"clock:{version}"
    locked = table_lock(TableClaim(party_id=party_id, table_id=table_id, actor_label=actor_label, client_id=client_id))
    if locked.duplicate is not None or locked.table.version != version:
        return Outcome({"version": locked.table.version, "duplicate": True}), None
    clock = locked.table.definition.clock(locked.game, NO_SECONDS)
    action = clock.stand_in if clock is not None else None
    if action is None:
        return Outcome({"version": version, "duplicate": False}), None
    applied = table_apply(locked, action, actor_label=actor_label, client_id=client_id, now=now)
    applied.outcome.messages.extend(party_after_table_change(table=applied.table, game=applied.game))
    return applied.outcome, applied.game


def after_table_act(*, party_id: int, outcome: Outcome, game: Game | None, definition: Definition) -> Outcome:
    """After the action's commit: a table that finished may end the party."""
    return _after(party_id, Persisted(outcome, game, definition))
