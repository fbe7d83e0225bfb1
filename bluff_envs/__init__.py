"""bluff_envs: PettingZoo environments for card games of bluffing and challenging.

Each game is a module ``bluff_envs.<game>_v0`` exporting ``env(**options)`` and
``raw_env(**options)``; :func:`make` builds any of them by name.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import Any

__version__ = "0.1.0"

# game name -> module, in the order of RULES.md
GAMES = {
    "i_doubt_it": "bluff_envs.i_doubt_it_v0",
    "believe_it_or_not": "bluff_envs.believe_it_or_not_v0",
    "seven_spades": "bluff_envs.seven_spades_v0",
    "tarneeb": "bluff_envs.tarneeb_v0",
}


def available_games() -> list[str]:
    """The games whose module is present in this installation."""
    return [name for name in GAMES if importlib.util.find_spec(GAMES[name]) is not None]


def game_module(name: str) -> ModuleType:
    """The environment module of a game: ``"i_doubt_it"``, ``"i_doubt_it_v0"`` or
    ``"bluff_envs/i_doubt_it-v0"``."""
    key = str(name).removeprefix("bluff_envs/").replace("-v0", "").removesuffix("_v0")
    if key not in GAMES or importlib.util.find_spec(GAMES[key]) is None:
        raise ValueError(f"unknown game {name!r}; games are {', '.join(available_games())}")
    return importlib.import_module(GAMES[key])


def make(name: str, *, raw: bool = False, **options: Any):
    """Build a game's environment: ``env(**options)``, or ``raw_env`` with ``raw=True``."""
    module = game_module(name)
    return module.raw_env(**options) if raw else module.env(**options)


def _register() -> None:
    try:
        from pettingzoo import aec_registry, register
    except ImportError:  # older PettingZoo: no registry, bluff_envs.make still works
        return
    for name, module in GAMES.items():
        env_id = f"bluff_envs/{name}-v0"
        if env_id not in aec_registry and importlib.util.find_spec(module) is not None:
            register("aec", env_id, entry_point=f"{module}:env")


_register()
