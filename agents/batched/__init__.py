"""Batched agents: one decision for each of many games at once, for the vector engine.

A batched agent is built for one game (:class:`~agents.base.GameInfo`) and maps the observation
rows ``obs`` (float32 ``[B, obs_dim]``), their legal-action masks ``mask`` (``[B, num_actions]``)
and one uniform draw per row ``u`` (float64 in ``[0, 1)``) to actions (int64 ``[B]``). Its
reference twin, the per-decision agent of the same spec, makes the same choice for the same
observation and the same draw (``decide(observation, u)``), which the tests check; playing, the
draws come from each seat's seeded generator, one per decision, as the reference agent draws
them. :func:`batched_agent` builds one by spec, and :func:`has_batched_form` says whether a spec
has one: ``random``, every heuristic of the games that have kernels, and ``ppo:<checkpoint>``
(:mod:`agents.batched.policy`).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util

from agents.base import GameInfo
from agents.batched.random import BatchedRandom
from agents.registry import unlabelled
from bluff_envs.registry import GAMES

PPO = "ppo:"  # a checkpoint's policy: batched by agents.batched.policy
BLEND = "blend:"  # the blend of checkpoints' policies (agents.blend): batched the same way


@functools.lru_cache(maxsize=None)
def _table(game: str) -> dict[str, type]:
    if game not in GAMES:
        return {}
    module = f"agents.batched.{game}"
    if importlib.util.find_spec(module) is None:
        return {}
    return dict(importlib.import_module(module).BATCHED)


def has_batched_form(spec: str, game: str) -> bool:
    spec = unlabelled(spec)
    return spec == "random" or spec.startswith((PPO, BLEND)) or spec in _table(game)


def batched_agent(spec: str, game: GameInfo):
    """The batched form of the agent ``spec``; ``ValueError`` if it has none."""
    base = unlabelled(spec)
    if base == "random":
        return BatchedRandom(game)
    if base.startswith((PPO, BLEND)):
        from agents.batched.policy import BatchedPolicy
        from agents.registry import make_agent

        agent = make_agent(base, game)
        return BatchedPolicy(game, agent.policy, sample=agent.sample, name=agent.name)
    table = _table(game.name)
    if base not in table:
        offered = ", ".join(["random", *table]) or "random"
        raise ValueError(f"agent {spec!r} has no batched form for {game.name}; batched agents: {offered}")
    return table[base](game)


def batched_specs(game: str) -> list[str]:
    """The agent names of ``game`` with a batched form (``ppo:`` checkpoints have one too)."""
    return ["random", *_table(game)]


__all__ = ["BatchedRandom", "batched_agent", "batched_specs", "has_batched_form"]
