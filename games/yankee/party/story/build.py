"""The party's story, built from each table's replayed action log.

Only what a public screen was shown goes in: every event is read through
`Event.view(None)`, the big screen's view. So hands, the cards anyone drew or
pickpocketed, and what a CASE THE JOINT peek showed stay out; a gift's description
appears only once it was shown to everyone (the round-1 reveal, taken from the vault,
arriving by relay). A gift that stays wrapped to the end (a vault gift nobody took, or
a gift put in the vault in round 1 and left there) keeps its secret: the rules never
unwrap it, it just goes home with whoever gave it.

Gift positions are tracked from the events and checked against the replayed final
state: a story that disagreed with the engine would raise, not mislead.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.yankee import ROUND_NAMES, gift_label
from story.replay import ReplayMismatch, TableReplay
from tables.words import sentence

RELAY_ROUND = 2.5  # the relay sits between rounds 2 and 3 at every table
ESCAPES_SHOWN = 5


@dataclass(frozen=True)
class GiftOrigin:
    label: str
    kind: str  # "guest" or "vault"
    brought_by: str  # the guest who brought it, or the vault gift's contributor


@dataclass(frozen=True)
class HandOver:
    """A substitute took a seat once the table had reached `version` (None: not known,
    a hand-over recorded before versions were; told after the game)."""

    version: int | None
    seat: int
    leaver: str
    substitute: str


@dataclass
class TableInput:
    letter: str
    names: list[str]  # seat -> who sat down there (the leaver, for a seat handed over)
    replay: TableReplay
    handovers: list[HandOver] = field(default_factory=list)
    # seat -> who takes its gift home (its first guest, even when a substitute played
    # it: docs/RULES.md); None: the names above
    owners: list[str] | None = None


@dataclass
class _Track:
    """One table's gifts as the events move them."""

    letter: str
    names: list[str]
    holders: list[int] = field(default_factory=list)
    vault: list[int] = field(default_factory=list)
    round: int = 1
    turn: int | None = None
    active: int | None = None
    window: dict[str, Any] | None = None
    relay: dict[str, Any] | None = None

    def name(self, seat: int | None) -> str:
        if seat is None:  # a move reported before any turn started: the log is corrupt
            raise ReplayMismatch(f"table {self.letter}: a move with no active player")
        return self.names[seat]


def story_build(
    *,
    code: str,
    name: str,
    tables: list[TableInput],
    origins: dict[int, GiftOrigin],
    ring: list[str],
    late: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    journeys: dict[int, list[dict[str, Any]]] = {gid: [] for gid in origins}
    descriptions: dict[int, str] = {}
    moves: Counter[int] = Counter()
    escapes: list[dict[str, Any]] = []
    timelines = []
    relays: dict[str, dict[str, Any]] = {}
    finals: dict[str, _Track] = {}
    flows: list[dict[str, Any]] = []
    handovers: list[dict[str, Any]] = []
    players: dict[tuple[str, int], list[str]] = {}  # (table, seat) -> who played it, in order

    for ti in tables:
        track = _Track(ti.letter, list(ti.names))  # a copy: a hand-over renames a seat
        seq = 0
        first: dict[int, int | str] = {}  # gift -> where it was first at this table (seat or "vault")
        left: dict[int, int] = {}  # gift -> the seat it left this table from (the relay)
        entries: list[dict[str, Any]] = []

        # journey() and line() are called only within this iteration: the loop variables they read are current.
        def journey(gid: int, entry: dict[str, Any]) -> None:
            journeys.setdefault(gid, []).append(
                {"table": ti.letter, "round": track.round, "key": (track.round, ti.letter, seq), **entry}
            )

        def line(text: str, kind: str) -> None:
            entries.append({"round": track.round, "turn": track.turn, "kind": kind, "text": sentence(text)})

        def hand_over(h: HandOver) -> None:
            # From here on the story names the substitute; before, the leaver.
            track.names[h.seat] = h.substitute
            players.setdefault((ti.letter, h.seat), [h.leaver]).append(h.substitute)
            line(
                _("%(substitute)s took over seat %(seat)s from %(leaver)s.")
                % {"substitute": h.substitute, "seat": h.seat + 1, "leaver": h.leaver},
                "handover",
            )
            handovers.append(
                {
                    "table": ti.letter,
                    "seat": h.seat,
                    "round": track.round,
                    "leaver": h.leaver,
                    "substitute": h.substitute,
                }
            )

        # A hand-over at version V came after the action that made V, before the next.
        pending = sorted(ti.handovers, key=lambda h: (h.version is None, h.version or 0))
        events = [
            *((0, e) for e in ti.replay.setup_events),
            *((step.version, e) for step in ti.replay.steps for e in step.events),
        ]
        for version, e in events:
            while pending and pending[0].version is not None and pending[0].version < version:
                hand_over(pending.pop(0))
            v = e.view(None)
            if v is None:
                continue  # private to some seat (dealt hands, peeks): not in the story
            seq += 1
            t = v["type"]
            if t == "game_started":
                track.holders = list(v["gifts"])
                track.vault = list(v["vault"])
                first = {gid: seat for seat, gid in enumerate(track.holders)} | {gid: "vault" for gid in track.vault}
                for seat, gid in enumerate(track.holders):
                    dealt = _("dealt to %(name)s") % {"name": track.name(seat)}
                    journey(gid, {"what": "dealt", "to": track.name(seat), "text": dealt})
                for gid in track.vault:
                    put = _("put in table %(letter)s's vault") % {"letter": ti.letter}
                    journey(gid, {"what": "vault", "to": "the vault", "text": put})
            elif t == "round_started":
                track.round, track.turn = v["round"], None
                begins = _("%(round)s begins; %(name)s has START HERE.")
                line(begins % {"round": ROUND_NAMES[v["round"]], "name": track.name(v["starter"])}, "round")
            elif t == "turn_started":
                track.turn, track.active = v["turn"] + 1, v["seat"]
                line(_("%(name)s's turn.") % {"name": track.name(v["seat"])}, "turn")
            elif t == "card_played":
                line(_played_text(track, v), "play")
            elif t == "swipe":
                swipe = _("%(name)s cashed in 2 cards for a SWIPE at %(target)s.")
                line(swipe % {"name": track.name(v["seat"]), "target": track.name(v["target"])}, "play")
            elif t == "regrouped":
                n = v["count"]
                who = track.name(v["seat"])
                if n == 0:
                    line(_("%(name)s passed.") % {"name": who}, "play")
                else:
                    regrouped = ngettext(
                        "%(name)s regrouped: discarded %(n)s and drew %(n)s.",
                        "%(name)s regrouped: discarded %(n)s and drew %(n)s.",
                        n,
                    )
                    line(regrouped % {"name": who, "n": n}, "play")
            elif t == "window_opened":
                track.window = v
            elif t == "gifts_moved":
                before = list(track.holders)
                parts = []
                for m in v["moves"]:
                    gid = m["gift"]
                    assert before[m["from"]] == gid, "event and tracked position disagree"
                    track.holders[m["to"]] = gid
                    if m["from"] != m["to"]:
                        moves[gid] += 1
                        journey(
                            gid,
                            {
                                "what": v["label"],
                                "by": track.name(track.active),
                                "from": track.name(m["from"]),
                                "to": track.name(m["to"]),
                                "round": track.round,
                                "text": _("%(card)s by %(name)s: from %(from)s to %(to)s")
                                % {
                                    "card": v["label"],
                                    "name": track.name(track.active),
                                    "from": track.name(m["from"]),
                                    "to": track.name(m["to"]),
                                },
                            },
                        )
                        parts.append(
                            _("gift %(gift)s to %(name)s") % {"gift": gift_label(gid), "name": track.name(m["to"])}
                        )
                line(_("%(card)s went through: %(moves)s.") % {"card": v["label"], "moves": ", ".join(parts)}, "move")
            elif t == "blocked":
                label = track.window["label"] if track.window else _("a move")
                by = track.name(track.active)
                blocker = track.name(v["seat"])
                gifts = []
                for src, dst in v["move"]:
                    gid = track.holders[src]
                    gifts.append(gid)
                    journey(
                        gid,
                        {
                            "what": "blocked",
                            "card": label,
                            "by": by,
                            "from": track.name(src),
                            "to": track.name(dst),
                            "blocked_by": blocker,
                            "block_card": v["card_name"],
                            "round": track.round,
                            "text": _(
                                "%(card)s by %(by)s would have moved it from %(from)s to %(to)s: "
                                "%(blocker)s blocked with %(block_card)s"
                            )
                            % {
                                "card": label,
                                "by": by,
                                "from": track.name(src),
                                "to": track.name(dst),
                                "blocker": blocker,
                                "block_card": v["card_name"],
                            },
                        },
                    )
                text = ngettext(
                    "%(blocker)s blocked %(by)s's %(card)s with %(block_card)s: %(gifts)s stayed put.",
                    "%(blocker)s blocked %(by)s's %(card)s with %(block_card)s: %(gifts)s stayed put.",
                    len(gifts),
                ) % {
                    "blocker": blocker,
                    "by": by,
                    "card": label,
                    "block_card": v["card_name"],
                    "gifts": _gift_list(gifts),
                }
                line(text, "block")
                escapes.append(
                    {
                        "table": ti.letter,
                        "round": track.round,
                        "round_name": ROUND_NAMES[track.round],
                        "turn": track.turn,
                        "gifts": [gift_label(g) for g in gifts],
                        "blocked_by": blocker,
                        "block_card": v["card_name"],
                        "by": by,
                        "card": label,
                        "text": text,
                        "_key": (track.round, track.turn or 0, seq),
                    }
                )
            elif t == "reaction_timed_out":
                line(_("%(name)s did not answer in time: passed for them.") % {"name": track.name(v["seat"])}, "pass")
            elif t == "turn_timed_out":
                line(_("%(name)s's turn ran out: passed for them.") % {"name": track.name(v["seat"])}, "pass")
            elif t == "trim_timed_out":
                line(_("%(name)s's discard ran out: discarded at random.") % {"name": track.name(v["seat"])}, "pass")
            elif t == "drew" and v.get("reason") in ("comeback", "tripwire"):
                if v["reason"] == "comeback":
                    drew = _("%(name)s drew a comeback card.") % {"name": track.name(v["seat"])}
                else:
                    drew = _("%(name)s drew %(n)s (TRIPWIRE).") % {"name": track.name(v["seat"]), "n": v["count"]}
                line(drew, "draw")
            elif t == "vault_exchanged":
                seat, gave, took = v["seat"], v["gave"], v["took"]
                who = track.name(seat)
                descriptions[took] = v["description"]
                track.vault[track.vault.index(took)] = gave
                track.holders[seat] = took
                journey(
                    gave,
                    {
                        "what": "vault",
                        "by": who,
                        "from": who,
                        "to": "the vault",
                        "round": track.round,
                        "text": _("%(name)s put it in the vault") % {"name": who},
                    },
                )
                journey(
                    took,
                    {
                        "what": "vault",
                        "by": who,
                        "from": "the vault",
                        "to": who,
                        "round": track.round,
                        "text": _("%(name)s took it from the vault") % {"name": who},
                    },
                )
                line(
                    _("%(name)s used the vault: gave gift %(gave)s, took gift %(took)s (%(description)s).")
                    % {
                        "name": who,
                        "gave": gift_label(gave),
                        "took": gift_label(took),
                        "description": v["description"],
                    },
                    "move",
                )
            elif t == "revealed":
                for g in v["gifts"]:
                    descriptions[g["gift"]] = g["description"]
                line(_("Everyone unwrapped and showed their gift."), "round")
            elif t == "relay_seat_drawn":
                drawn = _("The relay seat drawn: %(name)s (gift %(gift)s).")
                line(drawn % {"name": track.name(v["seat"]), "gift": gift_label(v["gift"])}, "relay")
            elif t == "relay_exchanged":
                seat = v["seat"]
                descriptions[v["received"]] = v["description"]
                track.holders[seat] = v["received"]
                relays[ti.letter] = {"seat": seat, "gave": v["gave"], "received": v["received"]}
                first[v["received"]] = seat
                left[v["gave"]] = seat
                line(
                    _("The relay: %(name)s sent gift %(gave)s on and received gift %(received)s.")
                    % {"name": track.name(seat), "gave": gift_label(v["gave"]), "received": gift_label(v["received"])},
                    "relay",
                )
            elif t == "game_over":
                line(_("The last action is done: the game is over."), "round")
        for h in pending:
            hand_over(h)
        final = ti.replay.final
        if final is None or track.holders != list(final.gifts) or track.vault != list(final.vault):
            raise ReplayMismatch(f"table {ti.letter}: the story's gift positions differ from the replayed state")
        finals[ti.letter] = track
        last = {gid: seat for seat, gid in enumerate(track.holders)} | {gid: "vault" for gid in track.vault} | left
        flows.append(
            {
                "table": ti.letter,
                "seats": list(ti.names),
                "vault": bool(track.vault),
                "gifts": [
                    {
                        "gift": gift_label(gid),
                        "first": first[gid],
                        "last": last[gid],
                        "moves": moves[gid],
                        "left": gid in left,
                    }
                    for gid in sorted(first)
                ],
            }
        )
        timelines.append({"table": ti.letter, "entries": entries})

    # The relay: gift from ring[i - 1]'s drawn seat arrives at ring[i]'s drawn seat.
    names = {ti.letter: ti.names for ti in tables}
    relay_flow = []
    for i, letter in enumerate(ring):
        if letter not in relays:
            continue
        src = ring[i - 1]
        got, sent = relays[letter], relays[src]
        if got["received"] != sent["gave"]:
            raise ReplayMismatch(f"relay: table {letter} received a gift table {src} did not send")
        gid = got["received"]
        from_name, to_name = names[src][sent["seat"]], names[letter][got["seat"]]
        journeys[gid].append(
            {
                "table": letter,
                "round": None,
                "key": (RELAY_ROUND, "", 0),
                "what": "relay",
                "from": _("%(name)s (table %(letter)s)") % {"name": from_name, "letter": src},
                "to": _("%(name)s (table %(letter)s)") % {"name": to_name, "letter": letter},
                "text": _("the relay carried it from %(from)s at table %(from_table)s to %(to)s at table %(to_table)s")
                % {"from": from_name, "from_table": src, "to": to_name, "to_table": letter},
            }
        )
        relay_flow.append(
            {
                "from_table": src,
                "to_table": letter,
                "gift": gift_label(gid),
                "from": from_name,
                "to": to_name,
                "from_seat": sent["seat"],
                "to_seat": got["seat"],
            }
        )

    holder_of: dict[int, dict[str, Any]] = {}
    owners = {ti.letter: ti.owners or ti.names for ti in tables}
    for letter, track in finals.items():
        for seat, gid in enumerate(track.holders):
            holder_of[gid] = {
                "home_with": owners[letter][seat],
                "played_by": players.get((letter, seat), [track.name(seat)]),
                "table": letter,
                "seat": seat,
                "returned": False,
            }
        for gid in track.vault:
            # Leftover vault gifts return to whoever gave them (a guest's gift left in the
            # vault goes back to its bringer).
            holder_of[gid] = {
                "home_with": origins[gid].brought_by,
                "played_by": [],
                "table": letter,
                "seat": None,
                "returned": True,
            }

    gifts_out = []
    for gid, origin in sorted(origins.items(), key=lambda kv: (kv[1].kind != "guest", kv[0])):
        trail = sorted(journeys.get(gid, []), key=lambda j: j["key"])
        for j in trail:
            del j["key"]
        gifts_out.append(
            {
                "gift": origin.label,
                "kind": origin.kind,
                "brought_by": origin.brought_by,
                # Secret while wrapped: a gift never shown to the room keeps its description.
                "description": descriptions.get(gid),
                "moves": moves[gid],
                "blocked": sum(1 for j in trail if j["what"] == "blocked"),
                **holder_of[gid],
                "journey": trail,
            }
        )

    top = max(moves.values(), default=0)
    most_stolen = [
        {
            "gift": g["gift"],
            "moves": g["moves"],
            "brought_by": g["brought_by"],
            "home_with": g["home_with"],
            "description": g["description"],
        }
        for g in gifts_out
        if top > 0 and g["moves"] == top
    ]
    escapes.sort(key=lambda x: x["_key"], reverse=True)
    for x in escapes:
        del x["_key"]
    return {
        "party": {"code": code, "name": name, "tables": [ti.letter for ti in tables], "ring": ring},
        "gifts": gifts_out,
        "most_stolen": most_stolen,
        "closest_escapes": escapes[:ESCAPES_SHOWN],
        "blocked_total": len(escapes),
        "relay": relay_flow,
        "substitutes": handovers,
        # Late arrivals' gifts, never in play: each goes home with whoever brought it.
        "late_gifts": list(late or []),
        "tables": timelines,
        "flows": flows,
    }


def _gift_list(gifts: list[int]) -> str:
    labels = [_("gift %(gift)s") % {"gift": gift_label(g)} for g in gifts]
    if len(labels) == 1:
        return labels[0]
    return _("%(list)s and %(last)s") % {"list": ", ".join(labels[:-1]), "last": labels[-1]}


# THREE-GIFT GRIFT's rotation as the story says it (the engine's value is a protocol word).
_DIRECTION = {
    "clockwise": lambda: pgettext("rotation", "clockwise"),
    "counterclockwise": lambda: pgettext("rotation", "counterclockwise"),
}


def _played_text(track: _Track, v: dict[str, Any]) -> str:
    who = track.name(v["seat"])
    card = v["card_name"]
    targets = [track.name(s) for s in v["targets"]]
    if card == "CASE THE JOINT":
        return _("%(name)s played CASE THE JOINT on %(target)s's wrapped gift (what they saw stays private).") % {
            "name": who,
            "target": targets[0],
        }
    if card == "INSIDE MAN":
        return _("%(name)s played INSIDE MAN and drew 2.") % {"name": who}
    if card == "PICKPOCKET":
        return _("%(name)s played PICKPOCKET on %(target)s and took a card.") % {"name": who, "target": targets[0]}
    if card == "YANKEE HEIST":
        then = _("%(first)s then %(second)s")
        swaps = targets[0]
        for t in targets[1:]:
            swaps = then % {"first": swaps, "second": t}
        return _("%(name)s paid an extra card for YANKEE HEIST: swap with %(targets)s.") % {
            "name": who,
            "targets": swaps,
        }
    if card == "THREE-GIFT GRIFT":
        direction = v["direction"]
        direction = _DIRECTION[direction]() if direction in _DIRECTION else direction
        return _("%(name)s played THREE-GIFT GRIFT with %(first)s and %(second)s, %(direction)s.") % {
            "name": who,
            "first": targets[0],
            "second": targets[1],
            "direction": direction,
        }
    if card == "SWITCHEROO":
        return _("%(name)s played SWITCHEROO on %(first)s and %(second)s.") % {
            "name": who,
            "first": targets[0],
            "second": targets[1],
        }
    if len(targets) == 2:
        return _("%(name)s played %(card)s on %(first)s and %(second)s.") % {
            "name": who,
            "card": card,
            "first": targets[0],
            "second": targets[1],
        }
    return _("%(name)s played %(card)s on %(targets)s.") % {"name": who, "card": card, "targets": " and ".join(targets)}
