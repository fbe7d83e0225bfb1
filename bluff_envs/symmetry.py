"""Symmetries of a game: relabellings of its cards that change nothing in its rules.

In Believe It or Not every rank plays the same part: the leader names any rank, and no rank
beats another. Swap the labels of two ranks in the deck, in every hand and in every action, and
the game is the same game; so the best play in a position, relabelled, is the best play in the
relabelled position. A policy that is not built that way (an MLP reading one input per rank)
can treat ranks differently where the game does not, and a best response will find the rank
it trusts too much. Playing the policy after a random relabelling, one per decision, averages
such quirks over every rank (as AlphaGo evaluated a random rotation of the board).

:class:`Relabelling` is the group of permutations of some labels (the deck's ranks) and how a
permutation moves the observation and the actions: a game that has one exposes it as
``game.symmetry`` (None for games without), built next to its layout. A permutation ``sigma``
sends label ``r`` to ``sigma[r]``; the relabelled observation holds at ``sigma[r]`` what the
original holds at ``r``, in every block indexed by label, and the action on label ``r`` becomes
the action on ``sigma[r]``. The equivariance test of each game (the relabelled deal, played with
relabelled actions, shows the relabelled observations and gives the same rewards) proves the
blocks complete. Where a game orders its actions by label (Believe It or Not builds a play with
its ranks in the order 2 … A), the relabelled game takes the same step in its own order: the
two games meet again when the step is done.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numba import njit


class Relabelling:
    """The permutations of ``labels`` (indices below ``width``), moving each observation block of
    ``width`` entries that starts at an offset of ``observation_blocks`` (size
    ``observation_size``) and each action block of ``width`` ids that starts at an id of
    ``action_blocks`` (``num_actions`` ids); labels outside ``labels`` stay where they are."""

    def __init__(self, labels: Sequence[int], width: int, observation_blocks: Sequence[int], observation_size: int,
                 action_blocks: Sequence[int], num_actions: int):
        self.labels = np.asarray(labels, np.int64)
        if len(set(self.labels.tolist())) != len(self.labels) or not all(0 <= r < width for r in self.labels):
            raise ValueError(f"relabelling: labels {list(labels)} must be distinct indices below {width}")
        for what, starts, size in (("observation", observation_blocks, observation_size),
                                   ("action", action_blocks, num_actions)):
            spans = sorted((s, s + width) for s in starts)
            if any(a < 0 or b > size for a, b in spans) or any(b > a2 for (_, b), (a2, _) in zip(spans, spans[1:])):
                raise ValueError(f"relabelling: {what} blocks at {list(starts)} (width {width}) overlap or leave 0..{size}")
        self.width = width
        self.observation_blocks = np.asarray(observation_blocks, np.int64)
        self.action_blocks = np.asarray(action_blocks, np.int64)
        self.observation_size = observation_size
        self.num_actions = num_actions
        self.count = math.factorial(len(self.labels))  # the permutations, numbered 0..count-1
        self._radices = np.array([math.factorial(len(self.labels) - 1 - i) for i in range(len(self.labels))], np.int64)

    def permutations(self, k: np.ndarray) -> np.ndarray:
        """The permutations numbered ``k`` (ints in ``[0, count)``) as rows ``sigma`` over all
        ``width`` indices: the ``k``-th in lexicographic order of the labels' images (the
        factorial number system); 0 is the identity."""
        k = np.asarray(k, np.int64).reshape(-1)
        m = len(self.labels)
        sigma = np.tile(np.arange(self.width, dtype=np.int64), (len(k), 1))
        pool = np.tile(self.labels, (len(k), 1))  # the images not yet taken, in order
        rest = k.copy()
        rows = np.arange(len(k))
        for i in range(m):
            radix = math.factorial(m - 1 - i)
            digit, rest = np.divmod(rest, radix)
            sigma[:, self.labels[i]] = pool[rows, digit]
            keep = np.arange(m - i)[None, :] != digit[:, None]
            pool = pool[keep].reshape(len(k), m - i - 1)
        return sigma

    def sources(self, sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For permutation rows ``sigma``, the index rows that relabel: the relabelled
        observation is ``observation[obs_src]`` and mask ``mask[action_src]``, and the action
        ``a`` chosen there is ``action_src[a]`` in the original game."""
        sigma = np.atleast_2d(sigma)
        inverse = np.argsort(sigma, axis=1)  # the label that lands on each index
        b = len(sigma)
        obs_src = np.tile(np.arange(self.observation_size, dtype=np.int64), (b, 1))
        for start in self.observation_blocks:
            obs_src[:, start:start + self.width] = start + inverse
        action_src = np.tile(np.arange(self.num_actions, dtype=np.int64), (b, 1))
        for start in self.action_blocks:
            action_src[:, start:start + self.width] = start + inverse
        return obs_src, action_src

    def relabel(self, observations: np.ndarray, masks: np.ndarray, sigma: np.ndarray):
        """Observation and mask rows as the relabelled game shows them (one permutation row of
        ``sigma`` per row), and the action sources to map the choices back."""
        obs_src, action_src = self.sources(sigma)
        return (np.take_along_axis(np.atleast_2d(observations), obs_src, axis=1),
                np.take_along_axis(np.atleast_2d(masks), action_src, axis=1), action_src)

    def relabel_numbered(self, observations: np.ndarray, masks: np.ndarray, k: np.ndarray):
        """:meth:`relabel` by the permutations numbered ``k``, in one numba kernel (agents ask
        for a few rows at a time, where numpy's per-call cost would dominate); the same
        arrays as ``relabel(observations, masks, permutations(k))``, which the tests check."""
        observations, masks = np.atleast_2d(observations), np.atleast_2d(masks)
        k = np.ascontiguousarray(k, np.int64).reshape(-1)
        if len(k) != len(observations) or len(masks) != len(observations):
            raise ValueError(f"relabel_numbered needs one number per row: {len(k)} numbers, {len(observations)} "
                             f"observations, {len(masks)} masks")
        if len(k) and (k.min() < 0 or k.max() >= self.count):
            raise ValueError(f"relabel_numbered: permutation numbers must lie in 0..{self.count - 1}")
        shown = np.empty_like(observations)
        legal = np.empty_like(masks)
        back = np.empty((len(k), self.num_actions), np.int64)
        _relabel_rows(k, self.labels, self._radices, self.width, self.observation_blocks, self.action_blocks,
                      observations, masks, shown, legal, back)
        return shown, legal, back

    def __repr__(self) -> str:
        return f"Relabelling({len(self.labels)} labels, {self.count:,} permutations)"


@njit(cache=True)
def _relabel_rows(k, labels, radices, width, obs_blocks, action_blocks, observations, masks, shown, legal, back):
    """Row ``i``: decode permutation ``k[i]`` as :meth:`Relabelling.permutations` does, then fill
    ``shown``, ``legal`` and ``back`` as :meth:`Relabelling.relabel` would."""
    m = len(labels)
    pool = np.empty(m, np.int64)
    sigma = np.empty(width, np.int64)
    inverse = np.empty(width, np.int64)
    for i in range(len(k)):
        for r in range(width):
            sigma[r] = r
        for j in range(m):
            pool[j] = labels[j]
        rest = k[i]
        for j in range(m):
            digit = rest // radices[j]
            rest = rest % radices[j]
            sigma[labels[j]] = pool[digit]
            for t in range(digit, m - 1 - j):
                pool[t] = pool[t + 1]
        for r in range(width):
            inverse[sigma[r]] = r
        shown[i, :] = observations[i, :]
        for start in obs_blocks:
            for j in range(width):
                shown[i, start + j] = observations[i, start + inverse[j]]
        for a in range(back.shape[1]):
            back[i, a] = a
        for start in action_blocks:
            for j in range(width):
                back[i, start + j] = start + inverse[j]
        for a in range(back.shape[1]):
            legal[i, a] = masks[i, back[i, a]]
