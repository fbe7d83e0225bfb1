"""Scripted games for the learner environment: one list of action names for the whole table."""

from __future__ import annotations

from collections import deque

import numpy as np

from agents.base import Agent, GameInfo
from bluff_envs.cards import DeckSpec, card_str


class Script:
    """The actions of one game by name, in the order they are taken, whoever takes them."""

    def __init__(self, game: GameInfo, *names: str):
        self.game = game
        self.names = deque(names)

    def next(self, mask: np.ndarray) -> int:
        name = self.names.popleft()
        action = self.game.action(name)
        legal = [self.game.action_names[a] for a in np.flatnonzero(mask)]
        assert mask[action], f"scripted {name!r} is not legal now; legal: {legal}"
        return action


class ScriptedAgent(Agent):
    """An opponent that takes the next action of the shared script."""

    name = "scripted"

    def __init__(self, game: GameInfo, script: Script):
        super().__init__(game, 0)
        self.script = script

    def act(self, observation, view=None) -> int:
        return self.script.next(observation["action_mask"])


def play_learner(env, script: Script) -> list[tuple[float, bool, bool]]:
    """Drive the learner's seat(s) from the script too; ``(reward, terminated, truncated)`` of
    every learner step."""
    results = []
    while True:
        _, reward, terminated, truncated, _ = env.step(script.next(env.action_masks()))
        results.append((reward, terminated, truncated))
        if terminated or truncated:
            assert not script.names, f"the game ended with {list(script.names)} left in the script"
            return results


def stock(*top: str) -> list[str]:
    """A 52-card deck whose first cards are ``top``, then the rest with spades last."""
    rest = [card_str(c) for c in DeckSpec().cards() if card_str(c) not in top]
    rest.sort(key=lambda c: c.endswith("S"))
    return [*top, *rest]
