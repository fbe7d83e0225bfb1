"""Behaviour statistics of a set of played games, per agent spec, with the intervals that need
to know which games were dealt alike.

:mod:`bluff_envs.behaviour` counts events in one record (bluffs, calls, certain and uncertain
decisions). Over many games, the accuracy of uncertain challenges, the mark of informed ones,
gets a 95 % deal-bootstrap interval here (``uncertain_challenge_accuracy_low`` / ``_high``):
the calls of one deal's rotations answer the same cards, so they are not independent, and an
interval counting calls would be too narrow. Used by evaluations
(:func:`agents.training.evaluate.evaluate`), tournament reports and the zoo's table
(:func:`accuracy_text`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from bluff_envs.behaviour import module_for
from agents.arena.stats import GameResult, cluster_bootstrap

ACCURACY = "uncertain_challenge_accuracy"


class Behaviour(NamedTuple):
    columns: tuple[tuple[str, str], ...]  # the game module's ``COLUMNS``: (key, heading)
    counts: dict[str, Counter]  # per agent spec, summed over every seat it held
    rates: dict[str, dict[str, float | None]]  # per agent spec: ``module.rates`` and the interval


def behaviour(results: Sequence[GameResult], seed: int, bootstrap: int = 2000) -> Behaviour | None:
    """The behaviour statistics of ``results``, or ``None`` for a game without a behaviour module
    (or no results). The interval is reproducible from ``seed``; ``None`` where an agent made no
    uncertain challenge."""
    module = module_for(results[0].record.game) if results else None
    if module is None:
        return None
    deals = {d: i for i, d in enumerate(sorted({r.deal for r in results}))}
    totals: dict[str, Counter] = {}
    calls: dict[str, np.ndarray] = {}  # per agent and deal: uncertain calls right, and made
    for result in results:
        for spec, counts in zip(result.record.seats, module.count(result.record)):
            totals.setdefault(spec, Counter()).update(counts)
            per_deal = calls.setdefault(spec, np.zeros((2, len(deals))))
            per_deal[:, deals[result.deal]] += (counts["uncertain_correct_challenges"], counts["uncertain_challenges"])
    rates = {spec: module.rates(c) for spec, c in totals.items()}
    if ACCURACY in next(iter(rates.values()), {}):
        rng = np.random.default_rng(seed)
        for spec, (right, made) in calls.items():
            low, high = cluster_bootstrap(right, made, bootstrap, rng) if made.sum() else (None, None)
            rates[spec].update({f"{ACCURACY}_low": low, f"{ACCURACY}_high": high})
    return Behaviour(tuple(module.COLUMNS), totals, rates)


def accuracy_text(rates: dict) -> str:
    """The uncertain accuracy as a table shows it: ``0.315 [0.261, 0.375] (254 calls)``, the point
    alone where no interval was kept (an evaluation from before it was), ``–`` without one."""
    accuracy = rates.get(ACCURACY)
    if accuracy is None or accuracy != accuracy:  # None or NaN
        return "–"
    low, high, calls = rates.get(f"{ACCURACY}_low"), rates.get(f"{ACCURACY}_high"), rates.get("uncertain_challenges")
    if low is None or high is None or not calls:
        return f"{accuracy:.3f}"
    return f"{accuracy:.3f} [{low:.3f}, {high:.3f}] ({calls} calls)"
