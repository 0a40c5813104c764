"""Party writes: create, join, the host's lobby commands, seating, hand-over and the
end. Keyword-only `<entity>_<verb>` functions; each runs in one transaction under the
party's row lock (events/party/lobby.py) and returns an Outcome: the data for the sender's
reply and the messages to send after commit (tables/outcome.py, events/broadcast/groups.py).
Who may call each is the command registry's business (events/party/commands.py); the
consequences of a table action for the party are in events/party/play.py and events/party/lobby.py."""

from __future__ import annotations

import random
import re
import secrets
import unicodedata
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from events.broadcast.groups import Message, guest_group, host_group, party_group, seat_group, tablet_group
from events.models import DEFAULT_STEP_CLOCK, STEP_CLOCKS, Guest, Party, SeatHandOver, Tablet, VaultGift
from events.party.lobby import (
    lobby_messages,
    locked_party,
    locked_party_by_code,
    party_bump,
    party_close,
    tables_still_playing,
)
from events.party.play import table_act_server
from events.party.secrets import CODE_ALPHABET, new_claim_code, new_code, new_token, normalize_code, token_hash
from games.definition import (
    HostOptionError,
    PlaysInGroups,
    Setup,
    SpeaksLanguage,
    TakesHostOptions,
    check_host_options,
)
from games.registry import DEFAULT_GAME, GAMES, game_named
from tables import seating
from tables.errors import ErrorCode, ServiceError
from tables.models import Table
from tables.outcome import Outcome
from tables.services import table_messages
from tables.words import said

NAME_MAX = 40
DESCRIPTION_MAX = 200
LATE_MAX = 30  # late arrivals a party takes (they wait for a seat or take their gift home)


ZWJ = "\u200d"
# Letters and symbols that draw nothing (Hangul fillers, the braille blank): a name of
# only these would show blank like one of zero-width spaces.
BLANK_GLYPHS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


# What a refused text field is told, a whole sentence per field (the order of a sentence differs by
# language): required, required with visible letters, too long, unshowable characters.
_FIELD: dict[str, tuple[str, str, str, str]] = {
    "a party name": (
        gettext_noop("a party name is required"),
        gettext_noop("a party name is required (visible letters, please)"),
        gettext_noop("a party name is at most %(limit)s characters"),
        gettext_noop("a party name contains characters that cannot be shown"),
    ),
    "the budget": (
        gettext_noop("the budget is required"),
        gettext_noop("the budget is required (visible letters, please)"),
        gettext_noop("the budget is at most %(limit)s characters"),
        gettext_noop("the budget contains characters that cannot be shown"),
    ),
    "your name": (
        gettext_noop("your name is required"),
        gettext_noop("your name is required (visible letters, please)"),
        gettext_noop("your name is at most %(limit)s characters"),
        gettext_noop("your name contains characters that cannot be shown"),
    ),
    "a name": (
        gettext_noop("a name is required"),
        gettext_noop("a name is required (visible letters, please)"),
        gettext_noop("a name is at most %(limit)s characters"),
        gettext_noop("a name contains characters that cannot be shown"),
    ),
    "your gift's description": (
        gettext_noop("your gift's description is required"),
        gettext_noop("your gift's description is required (visible letters, please)"),
        gettext_noop("your gift's description is at most %(limit)s characters"),
        gettext_noop("your gift's description contains characters that cannot be shown"),
    ),
    "the contributor's name": (
        gettext_noop("the contributor's name is required"),
        gettext_noop("the contributor's name is required (visible letters, please)"),
        gettext_noop("the contributor's name is at most %(limit)s characters"),
        gettext_noop("the contributor's name contains characters that cannot be shown"),
    ),
    "the vault gift's description": (
        gettext_noop("the vault gift's description is required"),
        gettext_noop("the vault gift's description is required (visible letters, please)"),
        gettext_noop("the vault gift's description is at most %(limit)s characters"),
        gettext_noop("the vault gift's description contains characters that cannot be shown"),
    ),
}


def _clean(value: object, what: str, limit: int) -> str:
    required, visible, too_long, _unshowable = _FIELD[what]
    if not isinstance(value, str) or not value.strip():
        raise ServiceError(ErrorCode.INVALID, gettext(required))
    _check_text(value, what)  # before NFKC, which would choke on a lone surrogate
    value = " ".join(_visible(unicodedata.normalize("NFKC", value)).split())
    if not any(unicodedata.category(c)[0] in "LNPS" and c not in BLANK_GLYPHS for c in value):
        # Only invisible or combining characters: it would show as a blank name tag.
        raise ServiceError(ErrorCode.INVALID, gettext(visible))
    if len(value) > limit:
        raise ServiceError(ErrorCode.INVALID, gettext(too_long) % {"limit": limit})
    return value


def _visible(value: str) -> str:
    """Strip format characters (category Cf: zero-width spaces, bidi overrides and
    isolates, BOM, soft hyphens...): they hide text or reorder it on screens and in the
    CSV. A zero-width joiner stays only between two visible characters, where it
    joins an emoji sequence (👩‍👧)."""
    out = []
    for i, c in enumerate(value):
        if c in BLANK_GLYPHS:
            continue
        if unicodedata.category(c) != "Cf":
            out.append(c)
        elif c == ZWJ and 0 < i < len(value) - 1 and not value[i - 1].isspace() and not value[i + 1].isspace():
            if unicodedata.category(value[i - 1]) != "Cf" and unicodedata.category(value[i + 1]) != "Cf":
                out.append(c)
    return "".join(out)


_COUNTED = re.compile(r"\s\(\d+\)$")


def _spoken_name(name: str) -> str:
    """A name as people say it at the table: "Sam (2)" is still Sam (as the lobby's
    duplicate warning compares them)."""
    return _COUNTED.sub("", name.strip().casefold())


def _distinct_name(party: Party, name: str, *, guest_id: int | None = None) -> str:
    """Two guests never share a name on the screens: a second Sam becomes "Sam (2)"
    (compared case-insensitively), cut to fit NAME_MAX."""
    taken = {
        n.casefold()
        # django-stubs refuses None in a pk lookup; Django reads it as IS NULL (no pk is).
        for n in party.guests.filter(removed_at__isnull=True).exclude(pk=guest_id).values_list("name", flat=True)  # type: ignore[misc]
    }
    if name.casefold() not in taken:
        return name
    for n in range(2, seating.MAX_GUESTS + 2):
        suffix = f" ({n})"
        candidate = name[: NAME_MAX - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in taken:
            return candidate
    raise ServiceError(ErrorCode.INVALID, gettext("that name is taken; pick another"))


def _check_text(value: str, what: str) -> None:
    """Refuse control characters and lone surrogates: PostgreSQL cannot store NUL or a
    surrogate (the write would fail as a server error), and control characters have no
    business on a name tag, a screen or a CSV cell."""
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in value):
        raise ServiceError(ErrorCode.INVALID, gettext(_FIELD[what][3]))


# --- create and join ----------------------------------------------------------------


def party_create(
    *,
    name: object,
    budget: object = "",
    jokes_welcome: object = True,
    vault_size: object = 0,
    step_clock: object = DEFAULT_STEP_CLOCK,
    step_clock_server: object = False,
    game: object = DEFAULT_GAME,
    games: object = None,
    language: object = "en",
    options: object = None,
) -> Outcome:
    """A new party and its host secret (returned once, never stored in clear):
    data {"party": id, "code", "host_token"}. `step_clock`: seconds a step may wait
    for one guest (0 off, 60, 120); `step_clock_server`: the server then plays the
    rules' do-nothing choice itself (docs/RULES.md). `game`: a registered game's name
    (games/registry.py), which every table of the party plays; `games`: how many of it
    each table plays in a row, a running total (None: the game's Features.games);
    `options`: the host's choices of the game's own rules (its `host_options`)."""
    if not isinstance(game, str) or game not in GAMES:
        raise ServiceError(ErrorCode.INVALID, gettext("the game is one of %(games)s") % {"games": sorted(GAMES)})
    features = GAMES[game].features
    if games is None:
        games = features.games
    if type(games) is not int or not 1 <= games <= features.max_games:
        title = GAMES[game].title
        if features.max_games == 1:
            raise ServiceError(ErrorCode.INVALID, gettext("a %(game)s table plays one game in a row") % {"game": title})
        raise ServiceError(
            ErrorCode.INVALID,
            gettext("a %(game)s table plays 1 to %(most)s games in a row")
            % {"game": title, "most": features.max_games},
        )
    if not isinstance(language, str) or language not in dict(settings.LANGUAGES):
        raise ServiceError(
            ErrorCode.INVALID,
            gettext("the language is one of %(codes)s") % {"codes": [code for code, _name in settings.LANGUAGES]},
        )
    name = _clean(name, "a party name", 80)
    budget = " ".join(budget.split())[:40] if isinstance(budget, str) else ""
    _check_text(budget, "the budget")
    if type(vault_size) is not int or not 0 <= vault_size <= 3:
        raise ServiceError(ErrorCode.INVALID, gettext("the vault holds 0 to 3 gifts per table"))
    if vault_size and not GAMES[game].features.vaults:
        raise ServiceError(ErrorCode.INVALID, gettext("%(game)s has no vault") % {"game": GAMES[game].title})
    step_clock, step_clock_server = _check_clock(step_clock, step_clock_server)
    try:
        chosen = check_host_options(GAMES[game], options)
    except HostOptionError as exc:
        raise ServiceError(ErrorCode.INVALID, exc.translated(gettext)) from None
    token = new_token()
    for _ in range(20):  # a code collision is rare; try another
        try:
            with transaction.atomic():
                party = Party.objects.create(
                    code=new_code(),
                    name=name,
                    game=game,
                    games=games,
                    budget=budget,
                    language=language,
                    jokes_welcome=bool(jokes_welcome),
                    vault_size=vault_size,
                    options=chosen,
                    step_clock=step_clock,
                    step_clock_server=step_clock_server,
                    seed=secrets.randbits(63),  # the party's one seed: every draw derives from it
                    host_token_hash=token_hash(token),
                )
            return Outcome({"party": party.pk, "code": party.code, "host_token": token})
        except IntegrityError:
            continue
    raise ServiceError(ErrorCode.BUSY, gettext("could not allocate a join code; try again"))


def guest_join(*, code: object, name: object, description: object) -> Outcome:
    """A guest joins with the code: their gift gets the next label number. data: the
    seat's secret (returned once), what the screens show of the guest (_seat_data) and
    the party's id. No messages: the lobby's broadcast is read after the commit, once
    for all the joins of a burst (events/party/lobbycast.lobby_announce), not under the lock."""
    code = normalize_code(code) if isinstance(code, str) else None
    if code is None:
        raise ServiceError(ErrorCode.BAD_CODE, gettext("that is not a join code (six letters and digits)"))
    name = _clean(name, "your name", NAME_MAX)
    with transaction.atomic():
        party = locked_party_by_code(code)
        # A game without gifts asks for none: whatever came is not kept.
        gifts = GAMES[party.game].features.gifts
        description = _clean(description, "your gift's description", DESCRIPTION_MAX) if gifts else ""
        # After the deal nobody is turned away: a late arrival registers with their
        # gift, and the host may seat them in place of a guest who leaves
        # (late_guest_seat); otherwise they take their own gift home (docs/RULES.md).
        late = party.status == Party.Status.PLAYING
        if not late and (not party.registration_open or party.status != Party.Status.LOBBY):
            raise ServiceError(ErrorCode.CLOSED, gettext("registration for this party is closed"))
        if late:
            if party.guests.filter(late=True, removed_at__isnull=True).count() >= LATE_MAX:
                raise ServiceError(
                    ErrorCode.FULL, gettext("this party has taken %(most)s late arrivals already") % {"most": LATE_MAX}
                )
        elif party.guests.filter(removed_at__isnull=True).count() >= seating.MAX_GUESTS:
            raise ServiceError(
                ErrorCode.FULL, gettext("this party is full (%(most)s guests)") % {"most": seating.MAX_GUESTS}
            )
        number = (party.guests.aggregate(m=Max("gift_number"))["m"] or 0) + 1
        name = _distinct_name(party, name)
        token = new_token()
        guest = Guest.objects.create(
            party=party,
            name=name,
            description=description,
            gift_number=number,
            token_hash=token_hash(token),
            late=late,
        )
        party_bump(party)
        return Outcome({**_seat_data(guest, token, party), "party": party.pk})


def _seat_data(guest: Guest, token: str, party: Party) -> dict[str, Any]:
    return {
        "guest": guest.pk,
        "name": guest.name,  # as the screens show it (normalised, " (2)" if taken)
        "token": token,
        "gift_number": guest.gift_number,
        "code": party.code,
    }


# --- the host's lobby -----------------------------------------------------------------


def _lobby_guest(party: Party, guest_id: int) -> Guest:
    guest = party.guests.filter(pk=guest_id, removed_at__isnull=True).first()
    if guest is None:
        raise ServiceError(ErrorCode.NO_GUEST, gettext("no such guest"))
    return guest


def _seated_guest(party: Party, guest_id: int, why: str) -> tuple[Guest, int, int]:
    """A guest of the party who has a seat, with their table and seat; refused with `why`
    when they have none."""
    guest = _lobby_guest(party, guest_id)
    if guest.table_id is None or guest.seat is None:  # a seated guest has both, written together
        raise ServiceError(ErrorCode.NOT_SEATED, gettext(why))
    return guest, guest.table_id, guest.seat


def _locked_in_lobby(party_id: int, why: str) -> Party:
    """The party, locked, while it is still in its lobby; refused with `why` once seated."""
    party = locked_party(party_id)
    if party.status != Party.Status.LOBBY:
        raise ServiceError(ErrorCode.SEATED, gettext(why))
    return party


def _lobby_changed(party: Party) -> Outcome:
    """The lobby changed: a new revision, and every screen of the lobby told."""
    party_bump(party)
    return Outcome(messages=lobby_messages(party))


def guest_rename(*, party_id: int, guest_id: int, name: object) -> Outcome:
    name = _clean(name, "a name", NAME_MAX)
    with transaction.atomic():
        party = locked_party(party_id)
        guest = _lobby_guest(party, guest_id)
        if guest.table_id is not None:
            raise ServiceError(ErrorCode.SEATED, gettext("guests are seated; hand the seat over instead"))
        # The host renames to tell two guests apart: a name only a " (2)" keeps apart
        # from another guest's is still the same name at the table (the lobby warns on
        # it), so it is refused rather than quietly suffixed.
        others = party.guests.filter(removed_at__isnull=True).exclude(pk=guest.pk).values_list("name", flat=True)
        if _spoken_name(name) in {_spoken_name(n) for n in others}:
            raise ServiceError(ErrorCode.INVALID, gettext("another guest already has that name; pick a different one"))
        guest.name = name
        guest.save(update_fields=["name"])
        return _lobby_changed(party)


def guest_remove(*, party_id: int, guest_id: int) -> Outcome:
    """Remove a guest before seating (their gift goes home with them)."""
    with transaction.atomic():
        party = locked_party(party_id)
        guest = _lobby_guest(party, guest_id)
        if party.status != Party.Status.LOBBY:
            raise ServiceError(ErrorCode.SEATED, gettext("guests are seated; a gift cannot leave mid-game"))
        guest.removed_at = timezone.now()
        guest.save(update_fields=["removed_at"])
        party_bump(party)
        msgs = lobby_messages(party)
        msgs.append(
            (guest_group(guest.pk), {"type": "removed", **said(gettext_noop("The host removed you from this party."))})
        )
        return Outcome(messages=msgs)


def party_set_group(*, party_id: int, guest_id: int, group: int | None) -> Outcome:
    """The host puts a guest in one of the game's groups (its teams) by hand, or back in
    the seating's draw (None), in the lobby of a game that plays in groups."""
    with transaction.atomic():
        party = _locked_in_lobby(party_id, gettext_noop("teams are set before seating"))
        definition = game_named(party.game)
        # the seating hands the host's groups to the game's table_options (TakesHostOptions)
        if not isinstance(definition, PlaysInGroups) or not isinstance(definition, TakesHostOptions):
            raise ServiceError(ErrorCode.INVALID, gettext("%(game)s has no teams") % {"game": definition.title})
        guest = _lobby_guest(party, guest_id)
        names = [gettext(n) for n in definition.group_names()]
        if group is not None and not 0 <= group < len(names):
            raise ServiceError(
                ErrorCode.INVALID,
                gettext("the team is one of %(teams)s, or none to draw") % {"teams": ", ".join(names)},
            )
        guest.group = group
        guest.save(update_fields=["group"])
        out = _lobby_changed(party)
        # The guest's own phone is sent a new snapshot: its `me` carries the group, and
        # the lobby's update to every screen names no guest's team.
        out.messages.append((guest_group(guest.pk), {"type": "resubscribe"}))
        return out


def vault_gift_add(*, party_id: int, contributor: object, description: object) -> Outcome:
    contributor = _clean(contributor, "the contributor's name", NAME_MAX)
    description = _clean(description, "the vault gift's description", DESCRIPTION_MAX)
    with transaction.atomic():
        party = _locked_in_lobby(party_id, gettext_noop("vault gifts are added before seating"))
        number = (party.vault_gifts.aggregate(m=Max("number"))["m"] or 0) + 1
        VaultGift.objects.create(party=party, number=number, contributor=contributor, description=description)
        return _lobby_changed(party)


def vault_gift_remove(*, party_id: int, number: int) -> Outcome:
    with transaction.atomic():
        party = _locked_in_lobby(party_id, gettext_noop("vault gifts are fixed once the party is seated"))
        deleted, _ = party.vault_gifts.filter(number=number).delete()
        if not deleted:
            raise ServiceError(ErrorCode.INVALID, gettext("no such vault gift"))
        return _lobby_changed(party)


def party_set_registration(*, party_id: int, open_: bool) -> Outcome:
    with transaction.atomic():
        party = _locked_in_lobby(party_id, gettext_noop("the party is already seated"))
        party.registration_open = open_
        party.save(update_fields=["registration_open"])
        return _lobby_changed(party)


# --- seating and dealing ----------------------------------------------------------------


def party_seat(*, party_id: int) -> Outcome:
    """Close registration, seat everyone at balanced tables and deal every table."""
    with transaction.atomic():
        party = _locked_in_lobby(party_id, gettext_noop("this party is already seated"))
        guests = list(party.guests.filter(removed_at__isnull=True))
        definition = game_named(party.game)
        if len(guests) < definition.min_players:
            raise ServiceError(
                ErrorCode.TOO_FEW,
                gettext("at least %(least)s guests are needed to play") % {"least": definition.min_players},
            )
        vault = list(party.vault_gifts.all()) if definition.features.vaults else []
        try:
            plan = seating.seating_plan(
                seed=party.seed,
                guest_ids=[g.pk for g in guests],
                vault_ids=[v.pk for v in vault],
                vault_size=party.vault_size if definition.features.vaults else 0,
                table_max=definition.table_max,
                min_players=definition.min_players,
            )
        except seating.VaultMismatch as exc:
            text = gettext(
                "%(tables)s table(s) with %(each)s vault gift(s) each need %(need)s vault gifts; there are %(have)s"
            )
            raise ServiceError(ErrorCode.SEATING, text % exc.params) from None
        except ValueError as exc:
            raise ServiceError(ErrorCode.SEATING, str(exc)) from None
        by_id = {g.pk: g for g in guests}
        vault_by_id = {v.pk: v for v in vault}
        # Several tables meet at the gate half-way: a game with the relay opens it with
        # the relay, another game with the host's `open_gate` (party_open_gate).
        gate = len(plan) > 1 and definition.features.gate
        # The host's choices of the game's rules, per table (teams drawn across tables
        # from the party's seed: the same party, the same draw).
        per_table: list[dict[str, Any]] = [{} for _ in plan]
        if isinstance(definition, TakesHostOptions):
            per_table = definition.table_options(
                check_host_options(definition, party.options),
                [len(entry["guests"]) for entry in plan],
                random.Random(f"{party.seed}:options"),
                # the groups the host set by hand in the lobby (party_set_group)
                **(
                    {"groups": [[by_id[gid].group for gid in entry["guests"]] for entry in plan]}
                    if isinstance(definition, PlaysInGroups)
                    else {}
                ),
            )
        for entry, table_options in zip(plan, per_table, strict=True):
            seated = [by_id[gid] for gid in entry["guests"]]
            vault_gifts = [vault_by_id[vid] for vid in entry["vault"]]
            if definition.features.gifts:
                setup: dict[str, Any] = {
                    "gifts": [
                        {"id": g.gift_number, "description": g.description, "brought_by": seat}
                        for seat, g in enumerate(seated)
                    ],
                    "vault": [{"id": v.gift_id, "description": v.description} for v in vault_gifts],
                    "gate": gate,
                }
                options: dict[str, Any] = {"gifts": setup["gifts"], "vault": setup["vault"]}
            else:
                # A game without gifts: its definition's own setup (games/definition.py Setup),
                # in the party's language when the game plays in one (SpeaksLanguage), with
                # the host's choices of its rules (TakesHostOptions).
                options = definition.language_options(party.language) if isinstance(definition, SpeaksLanguage) else {}
                options = {**options, **table_options}
                setup = {"players": len(seated), "gate": gate, "games": party.games, "options": options}
            game, _ = definition.setup(
                Setup(players=len(seated), seed=entry["seed"], gate=gate, games=party.games, options=options)
            )
            table = Table.objects.create(
                party=party,
                game=party.game,
                letter=entry["letter"],
                seed=entry["seed"],
                setup=setup,
                state=definition.to_dict(game),
                version=definition.version(game),
                step_clock=party.step_clock,
                step_clock_server=party.step_clock_server,
                step_due_at=_first_due(party.step_clock),
                roster=[{"guest": g.pk, "name": g.name, "gift_number": g.gift_number} for g in seated],
            )
            for seat, g in enumerate(seated):
                g.table, g.seat, g.is_captain = table, seat, g.pk == entry["captain"]
                g.save(update_fields=["table", "seat", "is_captain"])
            for v in vault_gifts:
                v.table = table
                v.save(update_fields=["table"])
        party.status = Party.Status.PLAYING
        party.registration_open = False
        party.seating = plan
        party.save(update_fields=["status", "registration_open", "seating"])
        party_bump(party)
        # Every screen of the party (host, guests, spectators) now has tables to watch:
        # each re-subscribes to its groups and gets a fresh snapshot.
        return Outcome(messages=[(party_group(party.pk), {"type": "resubscribe"})])


def _check_clock(step_clock: object, step_clock_server: object) -> tuple[int, bool]:
    """The step clock as sent, checked: (seconds, whether the server plays)."""
    if type(step_clock) is not int or step_clock not in STEP_CLOCKS:
        raise ServiceError(ErrorCode.INVALID, gettext("the step clock is off, 60 or 120 seconds"))
    if type(step_clock_server) is not bool:
        raise ServiceError(ErrorCode.INVALID, gettext("say whether the server plays for a quiet guest (true or false)"))
    return step_clock, step_clock_server


def _first_due(step_clock: int) -> datetime | None:
    return timezone.now() + timedelta(seconds=step_clock) if step_clock else None


def party_set_clock(*, party_id: int, step_clock: object, step_clock_server: object) -> Outcome:
    """The host changes the party's step clock, also during play: every table's clock
    changes with it, the step waiting now starting afresh (a guest gets the whole new
    clock from the change). Each table's screens get its new clock."""
    step_clock, step_clock_server = _check_clock(step_clock, step_clock_server)
    with transaction.atomic():
        party = locked_party(party_id)
        party.step_clock, party.step_clock_server = step_clock, step_clock_server
        party.save(update_fields=["step_clock", "step_clock_server"])
        party_bump(party)
        msgs = lobby_messages(party)
        now = timezone.now()
        for table in Table.objects.select_for_update().filter(party=party).order_by("pk"):
            game = table.definition.from_dict(table.state)
            table.step_clock, table.step_clock_server = step_clock, step_clock_server
            waits = step_clock and table.definition.clock(game, {}) is not None
            table.step_due_at = now + timedelta(seconds=step_clock) if waits else None  # afresh from the change
            table.save(update_fields=["step_clock", "step_clock_server", "step_due_at"])
            msgs += table_messages(table, game, [])
        return Outcome({"step_clock": step_clock, "step_clock_server": step_clock_server}, msgs)


def party_set_captain(*, party_id: int, guest_id: int) -> Outcome:
    with transaction.atomic():
        party = locked_party(party_id)
        guest, table_id, _ = _seated_guest(party, guest_id, gettext_noop("captains are chosen among seated guests"))
        old = list(Guest.objects.filter(table_id=table_id, is_captain=True).exclude(pk=guest.pk))
        Guest.objects.filter(table_id=table_id).update(is_captain=False)
        Guest.objects.filter(pk=guest.pk).update(is_captain=True)
        party_bump(party)
        msgs = lobby_messages(party)
        for g in [*old, guest]:
            msgs.append((guest_group(g.pk), {"type": "resubscribe"}))
        return Outcome(messages=msgs)


def party_open_gate(*, party_id: int) -> Outcome:
    """The host opens the gate of a game without the relay: once every table has reached
    it (or finished), each plays its second half, together. A game with the relay opens
    its gate with the relay (relay/services.py)."""
    with transaction.atomic():
        party = locked_party(party_id)
        definition = game_named(party.game)
        if definition.features.relay:
            raise ServiceError(
                ErrorCode.INVALID, gettext("%(game)s's gate opens with the relay") % {"game": definition.title}
            )
        tables = list(Table.objects.select_for_update().filter(party=party).order_by("pk"))  # pk order, as ever
        games = [(table, definition.from_dict(table.state)) for table in tables]
        playing = sorted(t.letter for t, g in games if not definition.at_gate(g) and not definition.is_over(g))
        if playing:
            raise ServiceError(
                ErrorCode.GATE_CLOSED,
                gettext("still playing the first half: table %(tables)s") % {"tables": ", ".join(playing)},
            )
        opening = [(t, definition.gate_opened(g)) for t, g in games if definition.at_gate(g)]
        if not opening:
            raise ServiceError(ErrorCode.GATE_CLOSED, gettext("no table is waiting at the gate"))
        messages: list[Message] = []
        for table, action in opening:
            assert action is not None  # a game at its gate names the action that opens it
            messages += table_act_server(table=table, engine_action=action, actor_label="host").messages
        party_bump(party)
        return Outcome({"opened": len(opening)}, messages + lobby_messages(party))


def party_end(*, party_id: int) -> Outcome:
    """The host ends the party. A party ends by itself when its last table finishes
    (party_close_if_over, after that action's commit); this is the host's way to close
    one whose close did not happen (the server stopped between the two), and the answer
    to a host who asks early: refused while a table still plays. Idempotent: an ended
    party stays ended, with nothing to announce."""
    with transaction.atomic():
        party = locked_party(party_id)
        if party.status == Party.Status.OVER:
            return Outcome({"status": Party.Status.OVER.value})
        if party.status == Party.Status.LOBBY:
            raise ServiceError(ErrorCode.NOT_OVER, gettext("the party has not started; seat the guests first"))
        playing = tables_still_playing(party)
        if playing:
            raise ServiceError(
                ErrorCode.NOT_OVER,
                gettext("still playing: table %(tables)s; the party ends when every table has finished")
                % {"tables": ", ".join(playing)},
            )
        return Outcome({"status": Party.Status.OVER.value}, party_close(party))


# --- a leaving guest hands their seat to a substitute ------------------------------------

CLAIM_LIFETIME_MINUTES = 15
# A captain may hand over a seat nobody is using: no socket hello, close or ping from it
# for this long (phones ping every 20 s while the page is open), or one whose guest
# offered it from their own phone, valid for OFFER_LIFETIME. The host always may.
HANDOVER_OFFLINE = timedelta(minutes=2)
OFFER_LIFETIME = timedelta(minutes=10)


def _table_notice(party_id: int, table_id: int, seats: int, notice: dict[str, Any]) -> list[Message]:
    """A notice every seat at the table sees (the captain among them), the table's
    paired tablets, and the host. Not the table's public group: a captain's socket is
    in it too and would see it twice."""
    payload = {"type": "notice", **notice}
    tablets = Tablet.objects.filter(table_id=table_id, revoked_at__isnull=True, paired_at__isnull=False)
    return (
        [(seat_group(table_id, s), payload) for s in range(seats)]
        + [(tablet_group(pk), payload) for pk in tablets.values_list("pk", flat=True)]
        + [(host_group(party_id), payload)]
    )


def seat_offer(*, party_id: int, guest_id: int) -> Outcome:
    """The guest's own phone consents to a hand-over of their seat (they are leaving)."""
    with transaction.atomic():
        party = locked_party(party_id)
        guest, table_id, seat = _seated_guest(
            party, guest_id, gettext_noop("only a seated guest's seat can be handed over")
        )
        guest.handover_offered_until = timezone.now() + OFFER_LIFETIME
        guest.save(update_fields=["handover_offered_until"])
        seats = Table.objects.filter(pk=table_id).values_list("roster", flat=True).first()
        assert seats is not None  # the guest's table (a foreign key)
        notice = {
            "kind": "offer",
            "table": table_id,
            "seat": seat,
            **said(
                gettext_noop("%(name)s (seat %(seat)s) offers their seat to a substitute."),
                {"name": guest.name, "seat": seat + 1},
            ),
        }
        minutes = int(OFFER_LIFETIME.total_seconds() // 60)
        return Outcome({"minutes": minutes}, _table_notice(party.pk, table_id, len(seats), notice))


def _hand_over_reason(guest: Guest, requested_by: str, now: datetime) -> SeatHandOver.Reason:
    if requested_by == "host":
        return SeatHandOver.Reason.HOST
    if requested_by == f"captain:{guest.pk}":
        return SeatHandOver.Reason.CONSENT  # the captain's own seat
    if guest.handover_offered_until is not None and guest.handover_offered_until > now:
        return SeatHandOver.Reason.CONSENT
    if guest.last_seen is None or now - guest.last_seen >= HANDOVER_OFFLINE:
        return SeatHandOver.Reason.OFFLINE
    ago = int((now - guest.last_seen).total_seconds())
    raise ServiceError(
        ErrorCode.SEAT_IN_USE,
        gettext(
            "%(name)s's phone was online %(ago)s s ago. A seat in use can be handed over only when "
            "its guest offers it (“Offer my seat” on their phone), after "
            "%(minutes)s minutes offline, or by the host."
        )
        % {"name": guest.name, "ago": ago, "minutes": int(HANDOVER_OFFLINE.total_seconds() // 60)},
    )


def seat_hand_over(*, party_id: int, guest_id: int, requested_by: str) -> Outcome:
    """Start a hand-over: a one-time claim code (shown only to the host or captain who
    asked) that a substitute types to take the seat with its whole game state.
    `requested_by` is "host" or "captain:<guest id>": a captain needs the seat offline
    or its guest's offer (a captain could otherwise take any seat, and its hand).
    Announced to the table and recorded (SeatHandOver)."""
    with transaction.atomic():
        party = locked_party(party_id)
        guest, table_id, seat = _seated_guest(
            party, guest_id, gettext_noop("only a seated guest's seat can be handed over")
        )
        now = timezone.now()
        reason = _hand_over_reason(guest, requested_by, now)
        code = new_claim_code()
        guest.claim_hash = token_hash(code)
        guest.claim_expires = now + timedelta(minutes=CLAIM_LIFETIME_MINUTES)
        guest.handover_offered_until = None  # an offer is used once
        guest.save(update_fields=["claim_hash", "claim_expires", "handover_offered_until"])
        SeatHandOver.objects.create(
            party=party,
            guest=guest,
            table_id=table_id,
            seat=seat,
            leaving_name=guest.name,
            requested_by=requested_by,
            reason=reason,
            created_at=now,
        )
        told = {  # a whole sentence per reason
            SeatHandOver.Reason.HOST: gettext_noop(
                "%(name)s's seat (seat %(seat)s) is being handed to a substitute, by the host."
            ),
            SeatHandOver.Reason.CONSENT: gettext_noop(
                "%(name)s's seat (seat %(seat)s) is being handed to a substitute, as they offered."
            ),
            SeatHandOver.Reason.OFFLINE: gettext_noop(
                "%(name)s's seat (seat %(seat)s) is being handed to a substitute, as their phone is offline."
            ),
        }[reason]
        notice = {
            "kind": "handover",
            "table": table_id,
            "seat": seat,
            "reason": reason,
            "by": "host" if requested_by == "host" else "captain",
            **said(told, {"name": guest.name, "seat": seat + 1}),
        }
        roster = Table.objects.filter(pk=table_id).values_list("roster", flat=True).first()
        assert roster is not None  # the guest's table (a foreign key)
        seats = len(roster)
        return Outcome(
            {"claim": code, "guest": guest.pk, "minutes": CLAIM_LIFETIME_MINUTES},
            _table_notice(party.pk, table_id, seats, notice),
        )


def seat_claim(*, code: object, claim: object, name: object) -> Outcome:
    """The substitute takes the seat: a new secret, the new name on the roster; the
    leaving guest's device loses the seat."""
    code = normalize_code(code) if isinstance(code, str) else None
    if code is None:
        raise ServiceError(ErrorCode.BAD_CODE, gettext("that is not a join code"))
    name = _clean(name, "your name", NAME_MAX)
    if not isinstance(claim, str) or not 4 <= len(claim) <= 16:
        raise ServiceError(ErrorCode.BAD_CLAIM, gettext("that hand-over code is not valid"))
    claim = claim.strip().upper()
    if any(c not in CODE_ALPHABET for c in claim):  # codes come from this alphabet only
        raise ServiceError(ErrorCode.BAD_CLAIM, gettext("that hand-over code is not valid"))
    digest = token_hash(claim)
    with transaction.atomic():
        party = Party.objects.select_for_update().filter(code=code).first()
        if party is None:
            raise ServiceError(ErrorCode.NO_PARTY, gettext("no party has that code"))
        guest = (
            Guest.objects.select_for_update()
            .filter(party=party, claim_hash=digest, claim_expires__gt=timezone.now(), removed_at__isnull=True)
            .first()
        )
        if guest is None:
            raise ServiceError(ErrorCode.BAD_CLAIM, gettext("that hand-over code is not valid (or has expired)"))
        old_group = guest_group(guest.pk)
        leaving = guest.name
        name = _distinct_name(party, name, guest_id=guest.pk)
        token = new_token()
        guest.name, guest.token_hash, guest.claim_hash, guest.claim_expires = name, token_hash(token), "", None
        guest.save(update_fields=["name", "token_hash", "claim_hash", "claim_expires"])
        # A claim code is given for a seated guest's seat only (seat_hand_over), and
        # dropped when the seat goes another way (late_guest_seat).
        assert guest.table_id is not None and guest.seat is not None
        table = Table.objects.select_for_update().get(pk=guest.table_id)
        _roster_seat_taken(table, guest.seat, guest_id=guest.pk, name=name, leaving=leaving)
        party_bump(party)
        record = (
            SeatHandOver.objects.filter(guest=guest, claimed_at__isnull=True).order_by("-created_at", "-pk").first()
        )
        if record is not None:
            record.claimed_at, record.claimed_by, record.table_version = timezone.now(), name, table.version
            record.save(update_fields=["claimed_at", "claimed_by", "table_version"])
        gone = said(gettext_noop("Your seat was handed over to a substitute."))
        msgs = [(old_group, {"type": "removed", **gone})]
        msgs += _seat_taken_messages(
            party,
            table,
            guest.seat,
            said(
                gettext_noop("%(name)s took over seat %(seat)s from %(leaving)s"),
                {"name": name, "seat": guest.seat + 1, "leaving": leaving},
                full_stop=True,
            ),
        )
        return Outcome(_seat_data(guest, token, party), msgs)


def _roster_seat_taken(table: Table, seat: int, *, guest_id: int, name: str, leaving: str) -> None:
    """The seat's new player in the table's roster. `played_for`: the guest the seat's
    gift goes home with (docs/RULES.md), kept through a chain of substitutes; the
    roster's gift number stays the first player's."""
    roster = list(table.roster)
    roster[seat] = {
        **roster[seat],
        "guest": guest_id,
        "name": name,
        "played_for": roster[seat].get("played_for", leaving),
    }
    table.roster = roster
    table.save(update_fields=["roster"])


def _seat_taken_messages(party: Party, table: Table, seat: int, message: dict[str, Any]) -> list[Message]:
    """What a seat changing hands tells the room: the lobby, the table's views (with the
    new name) and a notice to the table's seats, tablets and the host."""
    msgs = lobby_messages(party)
    msgs += table_messages(table, table.definition.from_dict(table.state), [])
    msgs += _table_notice(
        party.pk, table.pk, len(table.roster), {"kind": "claimed", "table": table.pk, "seat": seat, **message}
    )
    return msgs


# --- a late arrival ----------------------------------------------------------------------


def late_guest_seat(*, party_id: int, late_guest_id: int, guest_id: int) -> Outcome:
    """The host seats a late arrival in place of a seated guest who leaves: the late
    arrival plays that seat, with its whole game state, for the leaver (rulebook: a
    person may leave by handing their seat and entire game state to a substitute).
    The leaver takes home the gift in front of the seat at the end; the late arrival,
    their own gift (docs/RULES.md). Recorded as a hand-over (SeatHandOver.substitute)."""
    with transaction.atomic():
        party = locked_party(party_id)
        if party.status != Party.Status.PLAYING:
            raise ServiceError(
                ErrorCode.NOT_PLAYING, gettext("a late arrival can take a seat only while the tables play")
            )
        late = party.guests.filter(pk=late_guest_id, late=True, removed_at__isnull=True).first()
        if late is None:
            raise ServiceError(ErrorCode.NO_GUEST, gettext("no such late arrival"))
        if late.table_id is not None:
            raise ServiceError(ErrorCode.SEATED, gettext("%(name)s already plays a seat") % {"name": late.name})
        leaver = _lobby_guest(party, guest_id)
        if leaver.table_id is None:
            raise ServiceError(
                ErrorCode.NOT_SEATED, gettext("%(name)s has no seat to hand over") % {"name": leaver.name}
            )
        table = Table.objects.select_for_update().get(pk=leaver.table_id)
        if table.definition.is_over(table.definition.from_dict(table.state)):
            raise ServiceError(ErrorCode.OVER, gettext("table %(table)s has finished") % {"table": table.letter})
        seat, captain = leaver.seat, leaver.is_captain
        assert seat is not None
        now = timezone.now()
        SeatHandOver.objects.filter(guest=leaver, claimed_at__isnull=True).delete()  # a code never used
        leaver.table, leaver.seat, leaver.is_captain = None, None, False
        leaver.claim_hash, leaver.claim_expires, leaver.handover_offered_until = "", None, None
        leaver.save(
            update_fields=["table", "seat", "is_captain", "claim_hash", "claim_expires", "handover_offered_until"]
        )
        late.table, late.seat, late.is_captain = table, seat, captain
        late.save(update_fields=["table", "seat", "is_captain"])
        _roster_seat_taken(table, seat, guest_id=late.pk, name=late.name, leaving=leaver.name)
        SeatHandOver.objects.create(
            party=party,
            guest=leaver,
            table=table,
            seat=seat,
            leaving_name=leaver.name,
            requested_by="host",
            reason=SeatHandOver.Reason.HOST,
            created_at=now,
            claimed_at=now,
            claimed_by=late.name,
            substitute=late,
            table_version=table.version,
        )
        party_bump(party)
        msgs: list[Message] = [
            (
                guest_group(leaver.pk),
                {"type": "resubscribe"},  # the leaver's phone: no seat now, and why (snapshot)
            ),
            (guest_group(late.pk), {"type": "resubscribe"}),  # the late arrival's phone: the seat
        ]
        msgs += _seat_taken_messages(
            party,
            table,
            seat,
            said(
                gettext_noop("%(name)s (arrived late) took over seat %(seat)s from %(leaving)s, playing it for them."),
                {"name": late.name, "seat": seat + 1, "leaving": leaver.name},
            ),
        )
        return Outcome({"guest": late.pk, "table": table.letter, "seat": seat}, msgs)
