"""Tarneeb's heuristics, batched: ``rule_based`` for many observation rows in one kernel call.

:class:`BatchedRuleBased` chooses, row by row, exactly the action the reference
:class:`agents.heuristics.tarneeb.RuleBased` chooses for that observation (the kernels are in
:mod:`agents.batched.tarneeb_kernels`). The heuristic is deterministic: the draws ``u`` are
accepted, as the batched contract asks, and unused.
"""

from __future__ import annotations

import numpy as np

from agents.base import GameInfo
from agents.batched import tarneeb_kernels as k
from bluff_envs.tarneeb.actions import first_bid

# the observation fields the kernel reads, in the order of its ``offsets``
_FIELDS = (
    (k.F_PHASE, "phase"),
    (k.F_HAND, "hand"),
    (k.F_DECLARER, "declarer"),
    (k.F_STRAIN, "contract_strain"),
    (k.F_TRICKS, "contract_tricks"),
    (k.F_LEADER, "trick_leader"),
    (k.F_TRICK, "trick"),
    (k.F_PLAYED, "played"),
    (k.F_SHOWN_OUT, "shown_out"),
)


class BatchedRuleBased:
    """``rule_based`` Tarneeb, both variants: ``act(obs, mask, u)`` -> one action per row
    (``-1`` for a row whose mask is all zeros, a game that is over)."""

    name = "rule_based"

    def __init__(self, game: GameInfo):
        self.game = game
        c = game.config
        layout = game.layout
        self.offsets = np.zeros(k.NUM_OFFSETS, np.int64)
        for index, field in _FIELDS:
            # the kernel reads raw values as the decoded view: true while every field is unscaled
            if not np.all(np.asarray(layout.scale(field)) == 1.0) or layout.is_squashed(field):
                raise ValueError(f"tarneeb observation field {field!r} is scaled; the kernel reads it unscaled")
            self.offsets[index] = layout[field].start
        self.obs_dim = layout.size
        self.num_actions = len(game.action_names)
        self.egyptian = bool(c.egyptian)
        self.no_trump_offered = bool(c.egyptian or c.allow_no_trump)  # as the reference decides
        self.bid0 = first_bid(c.egyptian)

    def act(self, obs: np.ndarray, mask: np.ndarray, u: np.ndarray | None = None) -> np.ndarray:
        obs = np.ascontiguousarray(obs, np.float32)
        mask = np.ascontiguousarray(mask, np.int8)
        if obs.ndim != 2 or obs.shape != (len(mask), self.obs_dim) or mask.shape[1:] != (self.num_actions,):
            raise ValueError(
                f"obs and mask must be [B, {self.obs_dim}] and [B, {self.num_actions}], "
                f"got {obs.shape} and {mask.shape}"
            )
        out = np.empty(len(mask), np.int64)
        k.rule_based_actions(obs, mask, self.offsets, self.egyptian, self.no_trump_offered, self.bid0, out)
        return out


BATCHED = {"rule_based": BatchedRuleBased}
