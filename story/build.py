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

from games.yankee import ROUND_NAMES, gift_label
from tables.words import sentence

from .replay import ReplayMismatch, TableReplay

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
            line(f"{h.substitute} took over seat {h.seat + 1} from {h.leaver}.", "handover")
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
                    journey(gid, {"what": "dealt", "to": track.name(seat), "text": f"dealt to {track.name(seat)}"})
                for gid in track.vault:
                    journey(gid, {"what": "vault", "to": "the vault", "text": f"put in table {ti.letter}'s vault"})
            elif t == "round_started":
                track.round, track.turn = v["round"], None
                line(f"{ROUND_NAMES[v['round']]} begins; {track.name(v['starter'])} has START HERE.", "round")
            elif t == "turn_started":
                track.turn, track.active = v["turn"] + 1, v["seat"]
                line(f"{track.name(v['seat'])}'s turn.", "turn")
            elif t == "card_played":
                line(_played_text(track, v), "play")
            elif t == "swipe":
                line(f"{track.name(v['seat'])} cashed in 2 cards for a SWIPE at {track.name(v['target'])}.", "play")
            elif t == "regrouped":
                n = v["count"]
                who = track.name(v["seat"])
                line(f"{who} passed." if n == 0 else f"{who} regrouped: discarded {n} and drew {n}.", "play")
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
                                "text": f"{v['label']} by {track.name(track.active)}: "
                                f"from {track.name(m['from'])} to {track.name(m['to'])}",
                            },
                        )
                        parts.append(f"gift {gift_label(gid)} to {track.name(m['to'])}")
                line(f"{v['label']} went through: {', '.join(parts)}.", "move")
            elif t == "blocked":
                label = track.window["label"] if track.window else "a move"
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
                            "text": f"{label} by {by} would have moved it from {track.name(src)} to "
                            f"{track.name(dst)}: {blocker} blocked with {v['card_name']}",
                        },
                    )
                text = f"{blocker} blocked {by}'s {label} with {v['card_name']}: {_gift_list(gifts)} stayed put."
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
                line(f"{track.name(v['seat'])} did not answer in time: passed for them.", "pass")
            elif t == "turn_timed_out":
                line(f"{track.name(v['seat'])}'s turn ran out: passed for them.", "pass")
            elif t == "trim_timed_out":
                line(f"{track.name(v['seat'])}'s discard ran out: discarded at random.", "pass")
            elif t == "drew" and v.get("reason") in ("comeback", "tripwire"):
                what = "a comeback card" if v["reason"] == "comeback" else f"{v['count']} (TRIPWIRE)"
                line(f"{track.name(v['seat'])} drew {what}.", "draw")
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
                        "text": f"{who} put it in the vault",
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
                        "text": f"{who} took it from the vault",
                    },
                )
                line(
                    f"{who} used the vault: gave gift {gift_label(gave)}, took gift {gift_label(took)} "
                    f"({v['description']}).",
                    "move",
                )
            elif t == "revealed":
                for g in v["gifts"]:
                    descriptions[g["gift"]] = g["description"]
                line("Everyone unwrapped and showed their gift.", "round")
            elif t == "relay_seat_drawn":
                line(f"The relay seat drawn: {track.name(v['seat'])} (gift {gift_label(v['gift'])}).", "relay")
            elif t == "relay_exchanged":
                seat = v["seat"]
                descriptions[v["received"]] = v["description"]
                track.holders[seat] = v["received"]
                relays[ti.letter] = {"seat": seat, "gave": v["gave"], "received": v["received"]}
                first[v["received"]] = seat
                left[v["gave"]] = seat
                line(
                    f"The relay: {track.name(seat)} sent gift {gift_label(v['gave'])} on and received "
                    f"gift {gift_label(v['received'])}.",
                    "relay",
                )
            elif t == "game_over":
                line("The last action is done: the game is over.", "round")
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
                "from": f"{from_name} (table {src})",
                "to": f"{to_name} (table {letter})",
                "text": f"the relay carried it from {from_name} at table {src} to {to_name} at table {letter}",
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
    labels = [f"gift {gift_label(g)}" for g in gifts]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " and " + labels[-1]


def _played_text(track: _Track, v: dict[str, Any]) -> str:
    who = track.name(v["seat"])
    card = v["card_name"]
    targets = [track.name(s) for s in v["targets"]]
    if card == "CASE THE JOINT":
        return f"{who} played CASE THE JOINT on {targets[0]}'s wrapped gift (what they saw stays private)."
    if card == "INSIDE MAN":
        return f"{who} played INSIDE MAN and drew 2."
    if card == "PICKPOCKET":
        return f"{who} played PICKPOCKET on {targets[0]} and took a card."
    if card == "YANKEE HEIST":
        return f"{who} paid an extra card for YANKEE HEIST: swap with {' then '.join(targets)}."
    if card == "THREE-GIFT GRIFT":
        return f"{who} played THREE-GIFT GRIFT with {targets[0]} and {targets[1]}, {v['direction']}."
    if card == "SWITCHEROO":
        return f"{who} played SWITCHEROO on {targets[0]} and {targets[1]}."
    return f"{who} played {card} on {' and '.join(targets)}."
