"""The one registry of games: names, modules and the lookup every layer uses."""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

# game name -> environment module, in the order of the rules (docs/rules.md)
GAMES = {
    "i_doubt_it": "bluff_envs.i_doubt_it_v0",
    "believe_it_or_not": "bluff_envs.believe_it_or_not_v0",
    "seven_spades": "bluff_envs.seven_spades_v0",
    "tarneeb": "bluff_envs.tarneeb_v0",
}


def available_games() -> list[str]:
    """The games whose module is present in this installation."""
    return [name for name in GAMES if importlib.util.find_spec(GAMES[name]) is not None]


def game_key(name: str) -> str:
    """The registry name of a game given as ``"i_doubt_it"``, ``"i_doubt_it_v0"`` or
    ``"bluff_envs/i_doubt_it-v0"``; ``ValueError`` naming the games for anything else."""
    key = str(name).removeprefix("bluff_envs/").replace("-v0", "").removesuffix("_v0")
    if key not in GAMES or importlib.util.find_spec(GAMES[key]) is None:
        raise ValueError(f"unknown game {name!r}; games are {', '.join(available_games())}")
    return key


def game_module(name: str) -> ModuleType:
    """The environment module of a game (any of the names :func:`game_key` accepts)."""
    return importlib.import_module(GAMES[game_key(name)])
