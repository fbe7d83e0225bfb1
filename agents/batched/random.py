"""Uniform random play, batched: row ``i`` takes its ``floor(u[i] * legal)``-th legal action,
exactly the choice :class:`agents.random_agent.RandomAgent` makes with the same draw."""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.base import GameInfo


@njit(cache=True)
def _pick(mask, u, out):
    for i in range(mask.shape[0]):
        legal = 0
        for a in range(mask.shape[1]):
            legal += mask[i, a] != 0
        k = min(int(u[i] * legal), legal - 1)
        out[i] = -1
        for a in range(mask.shape[1]):
            if mask[i, a] != 0:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


class BatchedRandom:
    name = "random"

    def __init__(self, game: GameInfo):
        self.game = game

    def act(self, obs: np.ndarray, mask: np.ndarray, u: np.ndarray) -> np.ndarray:
        out = np.empty(len(mask), np.int64)
        _pick(np.ascontiguousarray(mask), np.ascontiguousarray(u, np.float64), out)
        return out
