"""What every batched heuristic shares: the batch's checks, and one class per reference heuristic.

A game's module subclasses :class:`BatchedHeuristic` once (its kernels' tables in
:meth:`~BatchedHeuristic.setup`, the kernel call in :meth:`~BatchedHeuristic.decide`) and
:func:`batched_table` makes one class per heuristic the reference module registers, by spec;
a heuristic the kernels do not know fails there, at import.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from agents.base import GameInfo
from agents.registry import heuristics


class BatchedHeuristic(ABC):
    """A batched heuristic of ``game_name``; :func:`batched_table` names the reference it batches."""

    game_name: str  # the game it plays
    styles: dict[type, int]  # the kernels' code of each reference class
    reference: type  # the reference heuristic's class
    name: str  # its spec
    style: int  # its code in the kernels

    def __init__(self, game: GameInfo):
        if game.name != self.game_name:
            raise ValueError(f"batched {self.name} plays {self.game_name}, not {game.name}")
        self.game = game
        self.obs_dim = game.layout.size
        self.num_actions = len(game.action_names)
        self.setup(game)

    def setup(self, game: GameInfo) -> None:
        """Build the kernels' tables for ``game``."""

    @abstractmethod
    def decide(self, obs: np.ndarray, mask: np.ndarray, u: np.ndarray, out: np.ndarray) -> None:
        """Write the actions of the rows into ``out`` (the arrays are checked and contiguous)."""

    def act(self, obs: np.ndarray, mask: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Actions (int64 ``[B]``) for the rows ``obs`` (``[B, obs_dim]``), their masks
        (``[B, num_actions]``) and draws ``u`` (``[B]``); -1 for a row whose mask allows nothing."""
        obs = np.ascontiguousarray(obs, np.float32)
        mask = np.ascontiguousarray(mask)
        u = np.ascontiguousarray(u, np.float64)
        B = len(obs)
        if obs.shape != (B, self.obs_dim) or mask.shape != (B, self.num_actions) or u.shape != (B,):
            raise ValueError(
                f"batched {self.name}: expected obs [B, {self.obs_dim}], mask [B, {self.num_actions}] and "
                f"u [B], got {obs.shape}, {mask.shape} and {u.shape}"
            )
        out = np.empty(B, np.int64)
        self.decide(obs, mask, u, out)
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def batched_table(base: type[BatchedHeuristic], module: str) -> dict[str, type]:
    """One subclass of ``base`` per heuristic of ``base.game_name``, by spec."""
    table = {}
    for name, reference in heuristics(base.game_name).items():
        attributes = {"reference": reference, "name": name, "style": base.styles[reference]}
        cls = type(f"Batched{reference.__name__}", (base,), attributes)
        cls.__doc__ = f"``{name}`` batched: the choice of :class:`{reference.__module__}.{reference.__qualname__}`."
        cls.__module__ = module
        table[name] = cls
    return table
