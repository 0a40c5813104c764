"""The words on Royal Heist's rules card: the goal, the two piles, the six steps of a
heist, scoring and the house decisions players meet at the table (docs/RULES.md, "Our
decisions"). Written in our own words; every count, rank and value comes from the
engine (games/royal: its catalogue, its rules' constants, its clock) so the paper and
the app cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext_lazy

from games.royal.cards import SUITS
from games.royal.catalogue import rules_for_screens
from games.royal.definition import ROYAL

# What the clock's stand-in does, in the words of step 2 (the engine names the choice).
_CHOICE_WORDS = {
    "get_out": gettext_noop("gets out (an empty fist)"),
    "press_on": gettext_noop("presses on (a coin in the fist)"),
}
# The engine's English names of the suits and ranks, in the card's language.
_SUIT_WORDS: dict[str, Promise] = {
    "spades": pgettext_lazy("playing cards, suit", "spades"),
    "hearts": pgettext_lazy("playing cards, suit", "hearts"),
    "diamonds": pgettext_lazy("playing cards, suit", "diamonds"),
    "clubs": pgettext_lazy("playing cards, suit", "clubs"),
}
_RANK_WORDS: dict[str, Promise] = {
    "Jack": pgettext_lazy("playing cards, rank", "Jack"),
    "Queen": pgettext_lazy("playing cards, rank", "Queen"),
    "King": pgettext_lazy("playing cards, rank", "King"),
    "Ace": pgettext_lazy("playing cards, rank", "Ace"),
    "Joker": pgettext_lazy("playing cards, rank", "Joker"),
}
_RANKS_WORDS: dict[str, Promise] = {"Joker": pgettext_lazy("playing cards, rank", "Jokers")}


def _rank(name: str) -> str:
    return str(_RANK_WORDS.get(name, name))


def _ranks(name: str) -> str:
    """The plural: "Jokers"."""
    return str(_RANKS_WORDS[name]) if name in _RANKS_WORDS else _rank(name) + "s"


@dataclass(frozen=True)
class Pile:
    name: str  # "RUN DECK"
    count: int
    lines: tuple[str, ...]  # bullets


@dataclass(frozen=True)
class Item:
    """A named paragraph: a step of the heist or a house decision."""

    name: str
    text: str


@dataclass(frozen=True)
class RulesCard:
    title: str
    tagline: str
    goal: str
    piles: tuple[Pile, Pile]
    steps: tuple[Item, ...]
    scoring: str
    house: tuple[Item, ...]
    table: str  # playing with your own deck


def _span(values: list[int]) -> str:
    return _("%(low)s to %(high)s") % {"low": min(values), "high": max(values)}


def _suits(codes: list[str]) -> str:
    """ "of every suit", or "of hearts and diamonds" in the deck's suit order."""
    held = {code[1] for code in codes}
    if held == set(SUITS):
        return _("of every suit")
    names = [str(_SUIT_WORDS.get(name, name)) for s, name in SUITS.items() if s in held]
    return _("of %(suits)s") % {"suits": _names(names, "and")}


def _names(names: list[str], last: str) -> str:
    """ "Jack, Queen, King and Ace" (last="and"; or "or")."""
    if len(names) == 1:
        return names[0]
    parts = {"list": ", ".join(names[:-1]), "last": names[-1]}
    return (_("%(list)s and %(last)s") if last == "and" else _("%(list)s or %(last)s")) % parts


def royal_rules_card() -> RulesCard:
    """The card's words in the active language (translation.override around the PDF)."""
    rules = rules_for_screens()
    cards: dict[str, dict[str, Any]] = rules["cards"]
    run, side = rules["run_deck"], rules["side_stack"]
    loot = [c for c in run if cards[c]["kind"] == "loot"]
    bonus = [c for c in run if cards[c]["kind"] == "bonus"]
    danger = [c for c in run if cards[c]["kind"] == "danger"]
    joker = rules["joker"]
    jokers = [c for c in danger if cards[c]["rank"] == joker]
    faces = [c for c in danger if cards[c]["rank"] != joker]
    face_names = [_rank(name) for rank, name in rules["danger_ranks"].items() if rank != joker]
    joker_name = _rank(rules["danger_ranks"][joker])
    jokers_name = _ranks(rules["danger_ranks"][joker])
    value = {c: cards[c]["value"] for c in run + side if cards[c]["value"] is not None}
    bonus_low = min(value[c] for c in bonus) + min(value[c] for c in side)
    bonus_high = max(value[c] for c in bonus) + max(value[c] for c in side)
    heists = rules["heists"]["default"]
    party = rules["party"]
    players = rules["players"]
    seconds = ROYAL.clock_steps()["decide"]
    stand_in = _(_CHOICE_WORDS[rules["decide_default"]])

    run_pile = Pile(
        name=_("RUN DECK"),
        count=len(run),
        lines=(
            _("The %(span)s %(suits)s (%(count)s): loot worth its rank.")
            % {"span": _span([value[c] for c in loot]), "suits": _suits(loot), "count": len(loot)},
            _(
                "The %(span)s %(suits)s (%(count)s): loot worth its rank plus "
                "the rank of the side stack's top card, %(low)s to %(high)s in all."
            )
            % {
                "span": _span([value[c] for c in bonus]),
                "suits": _suits(bonus),
                "count": len(bonus),
                "low": bonus_low,
                "high": bonus_high,
            },
            _(
                "The %(faces)s %(suits)s (%(count)s) and the %(jokers)s (%(jokers_count)s): "
                "danger, pays nothing. The %(jokers)s count as one rank."
            )
            % {
                "faces": _names(face_names, "and"),
                "suits": _suits(faces),
                "count": len(faces),
                "jokers": jokers_name,
                "jokers_count": len(jokers),
            },
        ),
    )
    side_pile = Pile(
        name=_("SIDE STACK"),
        count=len(side),
        lines=(
            _("The %(span)s %(suits)s.") % {"span": _span([value[c] for c in side]), "suits": _suits(side)},
            _("Only a diamond room draws from it."),
            _("Shuffled whole every heist."),
            _("The 10s are not used: set them aside."),
        ),
    )
    steps = (
        Item(
            _("Go in"),
            _(
                "Shuffle the run deck (less the cards retired in earlier heists) and the side stack. "
                "Everybody goes in with an empty satchel. Turn up the first room at once."
            ),
        ),
        Item(
            _("Decide"),
            _(
                "Everybody still inside chooses at the same time and in secret: press on (a coin in your closed fist) "
                "or get out (an empty fist). Open all fists together; a choice shown is final."
            ),
        ),
        Item(
            _("Get out"),
            _(
                "The players getting out split the jewels left in all the rooms equally; what doesn't divide stays. "
                "Each banks that share and their satchel and is out for the rest of the heist. If nobody is left "
                "inside, the heist ends and the rooms' jewels are lost."
            ),
        ),
        Item(
            _("Turn up a room"),
            _(
                "If anybody is still inside, turn up the top card of the run deck as the next room. Split its loot "
                "equally among the players inside, into their satchels; what doesn't divide stays on the room."
            ),
        ),
        Item(
            _("Second danger"),
            _(
                "A %(ranks)s of a rank already turned up this heist ends it: everybody "
                "inside loses their satchel and the rooms' jewels are lost; a second %(joker)s also takes half of "
                "each caught player's bank, rounded down. Remove that card from the game for good."
            )
            % {"ranks": _names([*face_names, joker_name], "or"), "joker": joker_name},
        ),
        Item(
            _("Repeat"),
            _("Go back to Decide. A heist that ends starts the next at once, until %(heists)s heists are played.")
            % {"heists": heists},
        ),
    )
    house = (
        Item(
            _("Leaving together"),
            _(
                "Several players getting out at once sweep the leftovers of all the rooms into one pile and split it "
                "once, equally. What doesn't divide goes back on the newest room."
            ),
        ),
        Item(
            _("Out of time"),
            _(
                "On phones, everybody inside has %(seconds)s seconds to decide (the host may change it). "
                "Whoever has not chosen when the clock runs out %(stand_in)s."
            )
            % {"seconds": f"{seconds:g}", "stand_in": stand_in},
        ),
        Item(
            _("At a party"),
            _(
                "Each table plays %(games)s games in a row; every player's banks add up, and the biggest "
                "total wins. With several tables, all stop after heist %(heist)s of game "
                "%(game)s until the host opens the gate."
            )
            % {"games": party["games"], "heist": party["gate"]["heist"], "game": party["gate"]["game"]},
        ),
        Item(
            _("Open books"),
            _(
                "Satchels and banks stay in plain sight; only the choice is secret. "
                "A lone %(joker)s left after the other was removed is a harmless danger."
            )
            % {"joker": joker_name},
        ),
    )
    return RulesCard(
        title="ROYAL HEIST",
        tagline=_(
            "%(min)s to %(max)s players · %(heists)s heists · a standard deck with both Jokers, and counters for jewels"
        )
        % {"min": players["min"], "max": players["max"], "heists": heists},
        goal=_("Bank the biggest stash of jewels over %(heists)s heists. Only banked jewels count.")
        % {"heists": heists},
        piles=(run_pile, side_pile),
        steps=steps,
        scoring=_("After heist %(heists)s, the player with the biggest bank wins; players tied for it share the win.")
        % {"heists": heists},
        house=house,
        table=_("Each player keeps a satchel and a bank of counters apart; leftover jewels sit on their room card."),
    )


__all__ = ["Item", "Pile", "RulesCard", "royal_rules_card"]
