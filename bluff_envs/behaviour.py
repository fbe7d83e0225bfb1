"""Behaviour statistics from game records, one small module per game.

Each game's module ``bluff_envs.<game>.behaviour`` replays a record with full state (this is
offline analysis, so it may look at every hand) and offers:

* ``count(record) -> list[Counter]``: event counts per seat (plays, bluffs, challenges, …);
* ``rates(counts) -> dict``: the statistics from one agent's summed counts (``None`` where
  the agent never had the chance);
* ``COLUMNS``: ``(key, heading)`` pairs of ``rates`` for tables, most telling first.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections import Counter
from collections.abc import Iterable
from types import ModuleType

from bluff_envs.records import GameRecord


def module_for(game: str) -> ModuleType | None:
    """The behaviour module of ``game``, or ``None`` if it has none."""
    name = f"bluff_envs.{game}.behaviour"
    return importlib.import_module(name) if importlib.util.find_spec(name) is not None else None


def agent_counts(records: Iterable[GameRecord], module: ModuleType) -> dict[str, Counter]:
    """Counts summed per agent spec over every seat it held."""
    totals: dict[str, Counter] = {}
    for record in records:
        for spec, counts in zip(record.seats, module.count(record)):
            totals.setdefault(spec, Counter()).update(counts)
    return totals


def ratio(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def bluff_and_challenge_rates(c: Counter, claims: str, windows: str) -> dict[str, float | None]:
    """The rates every bluffing game reports: of the ``claims`` counted, how many were bluffs,
    challenged, caught; of the ``windows`` (chances to challenge), how many were taken and
    how many of those were right."""
    return {
        "bluff_rate": ratio(c["bluffs"], c[claims]),
        "bluffs_challenged": ratio(c["bluffs_challenged"], c["bluffs"]),
        "bluffs_caught": ratio(c["bluffs_caught"], c["bluffs"]),
        "challenge_rate": ratio(c["challenges"], c[windows]),
        "challenge_accuracy": ratio(c["correct_challenges"], c["challenges"]),
    }
