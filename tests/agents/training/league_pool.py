"""A league's pool in miniature, for the exploiter's-table tests of both learner envs."""

from __future__ import annotations

import numpy as np

from agents.base import GameInfo
from agents.ppo.frozen_policy import FrozenPolicy
from agents.training.pool import OpponentPool


def random_policy(info: GameInfo, seed: int) -> FrozenPolicy:
    """A small policy of random weights that fits ``info``'s game."""
    rng = np.random.default_rng(seed)
    d, A = info.layout.size, len(info.action_names)
    return FrozenPolicy([rng.normal(0, 0.1, (d, 16)).astype(np.float32), rng.normal(0, 0.1, (16, A)).astype(np.float32)],
                        [np.zeros(16, np.float32), np.zeros(A, np.float32)])


def league_pool(info: GameInfo) -> OpponentPool:
    """honest, two snapshots of the learner and two exploiters: the copies at the exploiter's
    table are ``snapshot@30``, the newest exploiter ``exploiter@2``."""
    pool = OpponentPool(["honest"], "uniform")
    pool.add_snapshot(random_policy(info, 1), 10)
    pool.add_snapshot(random_policy(info, 2), 20, "exploiter@1")
    pool.add_snapshot(random_policy(info, 3), 30)  # the newest snapshot: the copies
    pool.add_snapshot(random_policy(info, 4), 40, "exploiter@2")  # the newest exploiter
    return pool
