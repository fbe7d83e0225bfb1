"""The masked uniform random agent."""

from __future__ import annotations

import numpy as np

from agents.base import Agent


class RandomAgent(Agent):
    """Picks uniformly among the legal actions."""

    name = "random"

    def act(self, observation, view=None) -> int:
        return self.decide(observation, float(self.rng.random()))

    def decide(self, observation, u: float) -> int:
        """The ``floor(u * legal)``-th legal action, for a uniform draw ``u`` in [0, 1): what
        the batched form (:mod:`agents.batched.random`) picks with the same draw."""
        legal = np.flatnonzero(observation["action_mask"])
        if len(legal) == 0:
            raise ValueError("random agent asked to act with no legal action (all-zero action_mask)")
        return int(legal[min(int(u * len(legal)), len(legal) - 1)])
