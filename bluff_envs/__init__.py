"""bluff_envs: PettingZoo environments for card games of bluffing and challenging.

Each game is a module ``bluff_envs.<game>_v0`` exporting ``env(**options)`` and
``raw_env(**options)``; :func:`make` builds any of them by name.
"""

from __future__ import annotations

from typing import Any

from bluff_envs.registry import GAMES, available_games, game_key, game_module

__version__ = "0.1.0"


def make(name: str, *, raw: bool = False, **options: Any):
    """Build a game's environment: ``env(**options)``, or ``raw_env`` with ``raw=True``."""
    module = game_module(name)
    return module.raw_env(**options) if raw else module.env(**options)


def _register() -> None:
    try:
        from pettingzoo import aec_registry, register
    except ImportError:  # older PettingZoo: no registry, bluff_envs.make still works
        return
    for name in available_games():
        module = GAMES[name]
        env_id = f"bluff_envs/{name}-v0"
        if env_id not in aec_registry:
            register("aec", env_id, entry_point=f"{module}:env")


_register()

__all__ = ["GAMES", "available_games", "game_key", "game_module", "make"]
