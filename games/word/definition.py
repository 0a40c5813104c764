"""Word Heist behind the party's seam: `WORD`, a `games.definition.GameDefinition`.

The definition is where the rules meet their dictionary: it holds a `Lexicons` source
(a party language -> its `Lexicon`) and hands each call of the rules the table's one.
The host hands `DEFINITION` its source when it registers the game
(games/definition.py `TakesPartyData`: the party part games/word/party/dictionary.py,
which reads the installed word lists on first use); tests build a `WordDefinition`
with small word lists of their own. The rules never import a party part.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.definition import (
    Clock,
    Features,
    GameDefinition,
    HidesInformation,
    NamesDuties,
    Role,
    Setup,
    SpeaksLanguage,
    Standing,
    TakesPartyData,
)
from games.marks import gettext_noop

from . import hidden, legal, rules, views
from .actions import Action, Clue, Halt, OpenGate, StandIn, Vote, Write, action_to_dict, parse_action
from .bots import bot_action
from .catalogue import rules_for_screens
from .errors import MalformedActionError
from .lexicon import Lexicon, Lexicons
from .spelling import LANGUAGES
from .state import Event, Game, Phase

# The clocks: "roughly 1 minute" for the word and for the halt (the rulebook); the clue
# tokens and the vote are a few taps.
STEP_SECONDS: dict[str, float] = {"word": 60.0, "clues": 30.0, "halt": 60.0, "vote": 30.0}
_OPTIONS = frozenset({"language", "rounds"})


def _no_lexicon(language: str) -> Lexicon:
    raise LookupError(
        f"Word Heist has no dictionary for {language!r} yet: games.registry hands the party's"
        " dictionaries in when it registers the game (or build a WordDefinition with your own)"
    )


class WordDefinition:
    name = "word"
    title = "Word Heist"
    min_players = rules.MIN_PLAYERS
    max_players = rules.MAX_PLAYERS
    table_max = rules.MAX_PLAYERS
    features = Features(gifts=False, vaults=False, relay=False, gate=True, games=1, max_games=1)

    # The party part whose DATA (a `Lexicons`) the registry hands in (TakesPartyData).
    data_part = "dictionary"

    def __init__(self, lexicons: Lexicons = _no_lexicon) -> None:
        self._lexicons = lexicons

    def take_party_data(self, data: Any) -> None:
        self._lexicons = data

    def language_options(self, language: str) -> dict[str, Any]:
        """A table plays in its party's language, with that language's dictionary (a
        party in a language without one plays in English)."""
        return {"language": language if language in LANGUAGES else "en"}

    def lexicon(self, language: str) -> Lexicon:
        return self._lexicons(language)

    def _known_lexicon(self, language: str) -> Lexicon | None:
        """The dictionary a seat's view lists the Tableau's words from, if there is one (a
        view without it only lacks the phone's live dictionary check)."""
        try:
            return self.lexicon(language)
        except LookupError:
            return None

    def _options(self, setup: Setup) -> tuple[Lexicon, int]:
        unknown = set(setup.options) - _OPTIONS
        if unknown:
            raise MalformedActionError(f"unknown Word Heist options: {sorted(unknown)}")
        if setup.games != 1:
            raise MalformedActionError(f"a Word Heist table plays one game of three rounds, not {setup.games!r} games")
        language = setup.options.get("language", "en")
        if language not in LANGUAGES:
            raise MalformedActionError(f"Word Heist speaks {', '.join(LANGUAGES)}, not {language!r}")
        rounds = setup.options.get("rounds", rules.ROUNDS)
        return self.lexicon(language), rounds

    # --- setup, actions, rules ---------------------------------------------------------
    def setup(self, setup: Setup) -> tuple[Game, list[Event]]:
        lexicon, rounds = self._options(setup)
        return rules.new_game(setup.seed, setup.players, lexicon, gate=setup.gate, rounds=rounds)

    def parse_action(self, data: Any) -> Action:
        return parse_action(data)

    def action_to_dict(self, action: Action) -> dict[str, Any]:
        return action_to_dict(action)

    def apply(self, state: Game, action: Action) -> tuple[Game, list[Event]]:
        return rules.apply(state, action, self.lexicon(state.language))

    def replay(self, setup: Setup, actions: Sequence[Action]) -> Game:
        lexicon, rounds = self._options(setup)
        return rules.replay(setup.seed, setup.players, actions, lexicon, gate=setup.gate, rounds=rounds)

    # --- storage -------------------------------------------------------------------------
    def to_dict(self, state: Game) -> dict[str, Any]:
        return state.to_dict()

    def from_dict(self, data: Mapping[str, Any]) -> Game:
        return Game.from_dict(data)

    def version(self, state: Game) -> int:
        return state.version

    # --- views ----------------------------------------------------------------------------
    def public_view(self, state: Game) -> dict[str, Any]:
        return views.public_view(state)

    def seat_view(self, state: Game, seat: int) -> dict[str, Any]:
        return views.seat_view(state, seat, self._known_lexicon(state.language))

    def reshuffle_hidden(self, state: Game, viewer: int | None, rng: random.Random) -> Game:
        return hidden.reshuffle_hidden(state, viewer, rng, self.lexicon(state.language))

    def private_keys(self) -> tuple[str, ...]:
        return views.PRIVATE_KEYS

    def seat_private(self, state: Game, seat: int) -> dict[str, Any]:
        return views.seat_private(state, seat, self._known_lexicon(state.language))

    # --- who acts --------------------------------------------------------------------------
    def waiting_for(self, state: Game) -> tuple[int, ...]:
        return legal.waiting_for(state)

    def legal_actions(self, state: Game, seat: int | None) -> list[Action]:
        return legal.legal_actions(state, seat, self.lexicon(state.language))

    def accepts_typed(self, state: Game, action: Any) -> bool:
        """Whether the rules accept a typed word `legal_actions` does not list."""
        return legal.accepts_typed(state, action, self.lexicon(state.language))

    def role_of(self, action: Action) -> Role:
        if isinstance(action, Write | Clue | Halt | Vote):
            return Role.SEAT
        if isinstance(action, StandIn):
            # As Royal Heist's stand-in: the server plays it when the host chose so, else
            # the captain, the tablet or the host once the clock ran out.
            return Role.DUTY
        if isinstance(action, OpenGate):
            return Role.SERVER  # the host opens every table's gate at once
        raise MalformedActionError(f"not a Word Heist action: {action!r}")

    def seat_of(self, action: Action) -> int | None:
        return None if isinstance(action, OpenGate) else action.seat

    def bot_action(self, state: Game, rng: random.Random, seat: int | None = None) -> Action | None:
        return bot_action(state, rng, seat, self.lexicon(state.language))

    # --- clocks and the party ------------------------------------------------------------
    def clock(self, state: Game, seconds: Mapping[str, float]) -> Clock | None:
        waiting = legal.waiting_for(state)
        stand_in = legal.stand_in(state)
        if not waiting or stand_in is None:
            return None
        step = state.phase.value
        # Every seat answers a step at once and each answer is one action, so the step
        # began as many versions ago as it has answers: an answer taken on the step's
        # first screen still counts after another seat's (games/definition.py is_stale).
        answers: dict[Phase, int] = {
            Phase.WORD: len(state.words),
            Phase.CLUES: len(state.clues),
            Phase.HALT: len(state.halts),
            Phase.VOTE: len(state.votes),
        }
        since = state.version - answers.get(state.phase, 0)
        return Clock(
            step=step, waiting=waiting, stand_in=stand_in, seconds=seconds.get(step, STEP_SECONDS[step]), since=since
        )

    def clock_steps(self) -> Mapping[str, float]:
        return dict(STEP_SECONDS)

    def step_texts(self) -> Mapping[str, Mapping[str, str]]:
        # the words of the host's stand-in buttons and alerts per step (games/definition.py
        # NamesSteps): a quiet guest's stand-in writes no word, drops no clue, halts nobody
        # and abstains from the vote
        return {
            "word": {
                "stand_in": gettext_noop("No word this round for %(name)s"),
                "before": gettext_noop("A quiet guest may be left without a word in "),
                "waited": gettext_noop("Table %(letter)s: the secret words have waited %(seconds)s s for %(names)s"),
            },
            "clues": {
                "stand_in": gettext_noop("No clues for %(name)s"),
                "before": gettext_noop("A quiet guest's clues may be skipped in "),
                "waited": gettext_noop("Table %(letter)s: the clue tokens have waited %(seconds)s s for %(names)s"),
            },
            "halt": {
                "stand_in": gettext_noop("No Halt! guess for %(name)s"),
                "before": gettext_noop("A quiet guest's Halt! guess may be skipped in "),
                "waited": gettext_noop("Table %(letter)s: the Halt! guesses have waited %(seconds)s s for %(names)s"),
            },
            "vote": {
                "stand_in": gettext_noop("Abstain for %(name)s"),
                "before": gettext_noop("A quiet guest may be counted as abstaining in "),
                "waited": gettext_noop("Table %(letter)s: the challenge vote has waited %(seconds)s s for %(names)s"),
            },
        }

    def duty_texts(self) -> Mapping[str, str]:
        # the host's words for the step clock and the captain's duty (games/definition.py
        # NamesDuties): the four answered steps, each one's stand-in (step_texts); a vote is
        # never cast for another, only abstained
        return {
            "clock": gettext_noop(
                "How long a quiet guest's secret word, clues, Halt! guess or challenge vote may wait. Then the "
                "table's captain or you may play the rules' do-nothing choice for them: no word this round, no "
                "clues, no Halt! guess, an abstention."
            ),
            "tablet": gettext_noop(
                "No tablet yet. The captain's duty (a quiet guest's step once the step clock runs out: no word, "
                "no clues, no guess, an abstention) can run on a tablet at the table."
            ),
            "clock_hint": gettext_noop(
                "how long a quiet guest's secret word, clues, Halt! guess or challenge vote may wait"
            ),
            "stand_in_hint": gettext_noop(
                "else the captain or you may: no word this round, no clues, no Halt! guess, an abstention"
            ),
        }

    def at_gate(self, state: Game) -> bool:
        return state.phase is Phase.GATE

    def gate_opened(self, state: Game) -> Action | None:
        return OpenGate() if state.phase is Phase.GATE else None

    def is_over(self, state: Game) -> bool:
        return state.phase is Phase.OVER

    def standings(self, state: Game) -> list[Standing]:
        # ranked by points; the winners by points, then the final round's longest word
        top = set(rules.winners(state))
        return [
            Standing(seat=s, score=score, rank=1 + sum(1 for x in state.scores if x > score), winner=s in top)
            for s, score in enumerate(state.scores)
        ]

    # --- what the screens need -------------------------------------------------------------
    def rules_for_screens(self, say: Callable[[str], str] = str) -> dict[str, Any]:
        return rules_for_screens(say)


_WORD = WordDefinition()
WORD: GameDefinition[Game, Action] = _WORD
_HIDES: HidesInformation[Game] = _WORD
_DATA: TakesPartyData = _WORD
_LANGUAGE: SpeaksLanguage = _WORD
_DUTIES: NamesDuties = _WORD
DEFINITION = WORD  # what games/registry.py reads

__all__ = ["DEFINITION", "STEP_SECONDS", "WORD", "WordDefinition"]
