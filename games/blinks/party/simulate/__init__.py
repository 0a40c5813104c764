"""Blinks Heist's simulator (tables/simulate/hook.py `GameSimulator`): whole games played
by the engine and its thrower bot at the throw success rates given, to size a table's
vault for a party's 30-45 minutes (hook.py; the games in play.py)."""

from .hook import SIMULATOR

__all__ = ["SIMULATOR"]
