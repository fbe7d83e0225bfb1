"""A frozen PPO policy, batched: every row of a batch in one call, each chosen exactly as the
reference :class:`agents.ppo.agent.PPOAgent` chooses it with the same draw (both run the
row-by-row kernels of :mod:`agents.ppo.policy_kernels`). ``ppo:<checkpoint>`` specs and the
self-play pool's snapshots play on the vector engine through it."""

from __future__ import annotations

import numpy as np

from agents.base import GameInfo, check_policy_fits
from agents.ppo.frozen_policy import FrozenPolicy


class BatchedPolicy:
    """``policy`` for many rows: sampling from its masked softmax (``sample=True``, one draw
    per row) or its most likely legal action."""

    def __init__(self, game: GameInfo, policy: FrozenPolicy, *, sample: bool = True, name: str = "ppo"):
        check_policy_fits(game, policy.observation_size, policy.num_actions)
        self.game = game
        self.policy = policy
        self.sample = sample
        self.name = name

    def act(self, obs: np.ndarray, mask: np.ndarray, u: np.ndarray) -> np.ndarray:
        return self.policy.act_rows(obs, mask, u if self.sample else None)

    def __repr__(self) -> str:
        return f"BatchedPolicy({self.name!r}, {'sampled' if self.sample else 'greedy'})"
