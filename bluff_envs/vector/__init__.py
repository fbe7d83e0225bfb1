"""The vector engine: many games of one kind held in arrays and stepped by compiled kernels.

A second engine for every game, exactly equal to the reference engine (``bluff_envs.<game>_v0``,
the readable specification): the same options, decks, observations, masks, rewards,
terminations and truncations, proven by the differential tests in ``tests/bluff_envs/vector/``
(rewards are float64, the reference's values exactly; observations float32, as the reference's).

    venv = bluff_envs.vector.make("i_doubt_it", num_envs=1024, num_players=4)
    obs, mask, actor = venv.reset(seed=0)            # or reset(decks=...): one deck per game
    obs, mask, actor, rewards, terminated, truncated = venv.step(actions)

See :class:`bluff_envs.vector.base.VectorGame` for the contract. The kernels are compiled by
numba on first use and cached on disk (``__pycache__`` beside the sources, or
``NUMBA_CACHE_DIR``), so only the first run on a machine pays for the compilation.
"""

from __future__ import annotations

import importlib
from typing import Any

from bluff_envs.registry import game_key
from bluff_envs.vector.base import VectorGame

# game name -> module holding its VectorGame subclass ``Vector<Game>``
ENGINES = {
    "i_doubt_it": "bluff_envs.vector.i_doubt_it",
    "believe_it_or_not": "bluff_envs.vector.believe_it_or_not",
    "seven_spades": "bluff_envs.vector.seven_spades",
    "tarneeb": "bluff_envs.vector.tarneeb",
}


def engine_class(name: str) -> type[VectorGame]:
    """The vector engine class of a game, named as for :func:`bluff_envs.make`."""
    key = game_key(name)
    if key not in ENGINES:
        raise ValueError(f"no vector engine for game {name!r}; engines: {', '.join(ENGINES)}")
    module = importlib.import_module(ENGINES[key])
    return module.ENGINE


def make(name: str, num_envs: int = 1, **options: Any) -> VectorGame:
    """``num_envs`` games of ``name`` with the options of ``bluff_envs.make(name, **options)``."""
    return engine_class(name)(num_envs, **options)


__all__ = ["ENGINES", "VectorGame", "engine_class", "make"]
