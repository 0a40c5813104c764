"""The words on Royal Heist's rules card: the goal, the two piles, the six steps of a
heist, scoring and the house decisions players meet at the table (docs/RULES.md, "Our
decisions"). Written in our own words; every count, rank and value comes from the
engine (games/royal: its catalogue, its rules' constants, its clock) so the paper and
the app cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.royal.cards import SUITS
from games.royal.catalogue import rules_for_screens
from games.royal.definition import ROYAL

# What the clock's stand-in does, in the words of step 2 (the engine names the choice).
_CHOICE_WORDS = {"get_out": "gets out (an empty fist)", "press_on": "presses on (a coin in the fist)"}


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
    return f"{min(values)} to {max(values)}"


def _suits(codes: list[str]) -> str:
    """ "of every suit", or "of hearts and diamonds" in the deck's suit order."""
    held = {code[1] for code in codes}
    if held == set(SUITS):
        return "of every suit"
    return "of " + " and ".join(name for s, name in SUITS.items() if s in held)


def _names(names: list[str], last: str) -> str:
    """ "Jack, Queen, King and Ace" (last="and")."""
    return f"{', '.join(names[:-1])} {last} {names[-1]}" if len(names) > 1 else names[0]


def royal_rules_card() -> RulesCard:
    rules = rules_for_screens()
    cards: dict[str, dict[str, Any]] = rules["cards"]
    run, side = rules["run_deck"], rules["side_stack"]
    loot = [c for c in run if cards[c]["kind"] == "loot"]
    bonus = [c for c in run if cards[c]["kind"] == "bonus"]
    danger = [c for c in run if cards[c]["kind"] == "danger"]
    joker = rules["joker"]
    jokers = [c for c in danger if cards[c]["rank"] == joker]
    faces = [c for c in danger if cards[c]["rank"] != joker]
    face_names = [name for rank, name in rules["danger_ranks"].items() if rank != joker]
    joker_name = rules["danger_ranks"][joker]
    value = {c: cards[c]["value"] for c in run + side if cards[c]["value"] is not None}
    bonus_low = min(value[c] for c in bonus) + min(value[c] for c in side)
    bonus_high = max(value[c] for c in bonus) + max(value[c] for c in side)
    heists = rules["heists"]["default"]
    party = rules["party"]
    players = rules["players"]
    seconds = ROYAL.clock_steps()["decide"]
    stand_in = _CHOICE_WORDS[rules["decide_default"]]

    run_pile = Pile(
        name="RUN DECK",
        count=len(run),
        lines=(
            f"The {_span([value[c] for c in loot])} {_suits(loot)} ({len(loot)}): loot worth its rank.",
            f"The {_span([value[c] for c in bonus])} {_suits(bonus)} ({len(bonus)}): loot worth its rank plus "
            f"the rank of the side stack's top card, {bonus_low} to {bonus_high} in all.",
            f"The {_names(face_names, 'and')} {_suits(faces)} ({len(faces)}) and the {joker_name}s ({len(jokers)}): "
            f"danger, pays nothing. The {joker_name}s count as one rank.",
        ),
    )
    side_pile = Pile(
        name="SIDE STACK",
        count=len(side),
        lines=(
            f"The {_span([value[c] for c in side])} {_suits(side)}.",
            "Only a diamond room draws from it.",
            "Shuffled whole every heist.",
            "The 10s are not used: set them aside.",
        ),
    )
    steps = (
        Item(
            "Go in",
            "Shuffle the run deck (less the cards retired in earlier heists) and the side stack. "
            "Everybody goes in with an empty satchel. Turn up the first room at once.",
        ),
        Item(
            "Decide",
            "Everybody still inside chooses at the same time and in secret: press on (a coin in your closed fist) "
            "or get out (an empty fist). Open all fists together; a choice shown is final.",
        ),
        Item(
            "Get out",
            "The players getting out split the jewels left in all the rooms equally; what doesn't divide stays. "
            "Each banks that share and their satchel and is out for the rest of the heist. If nobody is left "
            "inside, the heist ends and the rooms' jewels are lost.",
        ),
        Item(
            "Turn up a room",
            "If anybody is still inside, turn up the top card of the run deck as the next room. Split its loot "
            "equally among the players inside, into their satchels; what doesn't divide stays on the room.",
        ),
        Item(
            "Second danger",
            f"A {_names([*face_names, joker_name], 'or')} of a rank already turned up this heist ends it: everybody "
            f"inside loses their satchel and the rooms' jewels are lost; a second {joker_name} also takes half of "
            "each caught player's bank, rounded down. Remove that card from the game for good.",
        ),
        Item(
            "Repeat",
            f"Go back to Decide. A heist that ends starts the next at once, until {heists} heists are played.",
        ),
    )
    house = (
        Item(
            "Leaving together",
            "Several players getting out at once sweep the leftovers of all the rooms into one pile and split it "
            "once, equally. What doesn't divide goes back on the newest room.",
        ),
        Item(
            "Out of time",
            f"On phones, everybody inside has {seconds:g} seconds to decide (the host may change it). "
            f"Whoever has not chosen when the clock runs out {stand_in}.",
        ),
        Item(
            "At a party",
            f"Each table plays {party['games']} games in a row; every player's banks add up, and the biggest "
            f"total wins. With several tables, all stop after heist {party['gate']['heist']} of game "
            f"{party['gate']['game']} until the host opens the gate.",
        ),
        Item(
            "Open books",
            "Satchels and banks stay in plain sight; only the choice is secret. "
            f"A lone {joker_name} left after the other was removed is a harmless danger.",
        ),
    )
    return RulesCard(
        title="ROYAL HEIST",
        tagline=f"{players['min']} to {players['max']} players · {heists} heists · "
        "a standard deck with both Jokers, and counters for jewels",
        goal=f"Bank the biggest stash of jewels over {heists} heists. Only banked jewels count.",
        piles=(run_pile, side_pile),
        steps=steps,
        scoring=f"After heist {heists}, the player with the biggest bank wins; players tied for it share the win.",
        house=house,
        table="Each player keeps a satchel and a bank of counters apart; leftover jewels sit on their room card.",
    )


__all__ = ["Item", "Pile", "RulesCard", "royal_rules_card"]
