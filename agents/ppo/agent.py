"""Agents trained by ``bluff train``: the spec ``ppo:<checkpoint.zip or run directory>``.

The checkpoint's policy plays through numpy (no PyTorch needed) and picks the legal action with
the highest probability, so a ``ppo:`` agent is deterministic. A checkpoint trained on another
game, env version or options is refused with a ``ValueError`` that names the difference.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from agents.base import Agent, GameInfo, check_policy_fits, require_legal
from agents.ppo import checkpoint
from agents.ppo.frozen_policy import FrozenPolicy


class PPOAgent(Agent):
    """A frozen MaskablePPO policy. ``sample=True`` draws from the masked softmax (with this
    agent's seeded generator) instead of taking the most likely action: that is how self-play
    snapshots play while the learner trains."""

    name = "ppo"

    def __init__(self, game: GameInfo, policy: FrozenPolicy, seed: int | None = None, *, sample: bool = False, name: str = "ppo"):
        super().__init__(game, seed)
        check_policy_fits(game, policy.observation_size, policy.num_actions)
        self.policy = policy
        self.sample = sample
        self.name = name

    def act(self, observation, view=None) -> int:
        mask = require_legal(observation, self.name)
        return self.policy.act(observation["observation"], mask, self.rng if self.sample else None)

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Deterministic actions for many observations at once (rows)."""
        logits = np.where(masks.astype(bool), self.policy.logits(observations), np.float32(-1e8))
        return logits.argmax(axis=1)


def load(path: str, game: GameInfo, seed: int | None = None) -> PPOAgent:
    """The agent of spec ``ppo:<path>``: a checkpoint zip, or a run directory (its newest
    checkpoint). ``ValueError`` if it was trained for another game, version or options."""
    if not path:
        raise ValueError("spec 'ppo:<path>' needs a checkpoint path, e.g. ppo:runs/i_doubt_it/checkpoints/step_0000100000.zip")
    file = checkpoint.resolve(path)
    meta = checkpoint.read_metadata(file)
    checkpoint.check_compatible(meta, game, source=f"checkpoint {file}")
    return PPOAgent(game, checkpoint.read_policy(file), seed, name=f"ppo:{Path(path)}")
