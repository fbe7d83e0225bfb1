"""The masked uniform random agent."""

from __future__ import annotations

import numpy as np

from agents.base import Agent


class RandomAgent(Agent):
    """Picks uniformly among the legal actions."""

    name = "random"

    def act(self, observation, view=None) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if len(legal) == 0:
            raise ValueError("random agent asked to act with no legal action (all-zero action_mask)")
        return int(legal[self.rng.integers(len(legal))])
