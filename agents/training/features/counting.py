"""Counting for the derived features: hypergeometric laws over many rows at once, in float64.

The heuristics compute ``P(X = k)`` for ``X ~ Hypergeometric(population, successes, draws)`` with
exact integers, one view at a time; a feature needs the same numbers for a batch of
observations, so here they come from a table of log-factorials (exact to about 1e-12: a feature
is an input, not a decision).
"""

from __future__ import annotations

import numpy as np
from numba import njit


def log_factorials(largest: int) -> np.ndarray:
    """``log(k!)`` for ``k = 0 … largest``."""
    return np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, largest + 1)))])


def log_comb(log_factorial: np.ndarray, n, k) -> np.ndarray:
    """``log C(n, k)`` for integer-valued arrays; ``-inf`` where ``k < 0`` or ``k > n``."""
    n = np.asarray(n, np.float64)
    k = np.broadcast_to(np.asarray(k, np.float64), n.shape)
    ok = (k >= 0) & (k <= n) & (n >= 0)
    ni, ki = np.where(ok, n, 0).astype(np.int64), np.where(ok, k, 0).astype(np.int64)
    return np.where(ok, log_factorial[ni] - log_factorial[ki] - log_factorial[ni - ki], -np.inf)


@njit(cache=True)
def log_comb_one(log_factorial, n, k):
    """:func:`log_comb` of one ``n`` and ``k`` (whole numbers), for the features' numba kernels."""
    if k < 0 or k > n or n < 0:
        return -np.inf
    return log_factorial[int(n)] - log_factorial[int(k)] - log_factorial[int(n - k)]


def hypergeometric(log_factorial: np.ndarray, population, successes, draws, top: int) -> np.ndarray:
    """``P(X = k)`` for ``k = 0 … top`` (columns), one row per population: zero where impossible."""
    successes = np.clip(successes, 0, None)
    log_total = log_comb(log_factorial, population, draws)
    columns = []
    for k in range(top + 1):
        ok = (k <= successes) & (k <= draws) & (draws - k <= population - successes)
        terms = (log_comb(log_factorial, successes, k) + log_comb(log_factorial, population - successes, draws - k)
                 - log_total)
        columns.append(np.where(ok, np.exp(np.where(ok, terms, 0.0)), 0.0))
    return np.stack(columns, axis=1)
