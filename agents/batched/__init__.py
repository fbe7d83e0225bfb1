"""Batched agents: one decision for each of many games at once, for the vector engine.

A batched agent is built for one game (:class:`~agents.base.GameInfo`) and maps the observation
rows ``obs`` (float32 ``[B, obs_dim]``), their legal-action masks ``mask`` (``[B, num_actions]``)
and one uniform draw per row ``u`` (float64 in ``[0, 1)``) to actions (int64 ``[B]``). Its
reference twin, the per-decision agent of the same spec, makes the same choice for the same
observation and the same draw (``decide(observation, u)``), which the tests check; playing, the
draws come from the batch's seeded generator. :func:`batched_agent` builds one by spec, and
:func:`has_batched_form` says whether a spec has one (``random`` and the heuristics of the games
that have kernels).
"""

from __future__ import annotations

import importlib
import importlib.util

from agents.base import GameInfo
from agents.batched.random import BatchedRandom
from agents.registry import unlabelled
from bluff_envs.registry import GAMES


def _table(game: str) -> dict[str, type]:
    if game not in GAMES:
        return {}
    module = f"agents.batched.{game}"
    if importlib.util.find_spec(module) is None:
        return {}
    return dict(importlib.import_module(module).BATCHED)


def has_batched_form(spec: str, game: str) -> bool:
    spec = unlabelled(spec)
    return spec == "random" or spec in _table(game)


def batched_agent(spec: str, game: GameInfo):
    """The batched form of the agent ``spec``; ``ValueError`` if it has none."""
    base = unlabelled(spec)
    if base == "random":
        return BatchedRandom(game)
    table = _table(game.name)
    if base not in table:
        offered = ", ".join(["random", *table]) or "random"
        raise ValueError(f"agent {spec!r} has no batched form for {game.name}; batched agents: {offered}")
    return table[base](game)


__all__ = ["BatchedRandom", "batched_agent", "has_batched_form"]
