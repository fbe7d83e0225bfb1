"""Behaviour statistics from game records, one small module per game.

Each game's module ``bluff_envs.<game>.behaviour`` replays a record with full state (this is
offline analysis, so it may look at every hand) and offers:

* ``count(record) -> list[Counter]``: event counts per seat (plays, bluffs, challenges, …);
* ``rates(counts) -> dict``: the statistics from one agent's summed counts (``None`` where
  the agent never had the chance);
* ``COLUMNS``: ``(key, heading)`` pairs of ``rates`` for tables, most telling first.

Games with challenge decisions also split them (:func:`judged`, :func:`certainty_rates`) into
*certain* ones, where the claim is provably false from the decider's own decoded observation
(``env.public_view``, replayed with :func:`~bluff_envs.records.replay_steps`), and *uncertain*
ones, where it is not.
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


def judged(me: Counter, certain: bool, bluff: bool, challenged: bool) -> None:
    """Count one decision of ``me`` on a claim: ``certain`` when the claim is provably false from
    his own view (a count argument on his decoded observation), ``uncertain`` otherwise."""
    if certain:
        me["certain_windows"] += 1
        me["certain_bluffs"] += bluff  # always, if the view is right: a check, not a statistic
        me["certain_challenges"] += challenged
    else:
        me["uncertain_windows"] += 1
        me["uncertain_bluffs"] += bluff
        me["uncertain_challenges"] += challenged
        me["uncertain_correct_challenges"] += challenged and bluff


def window_decision(me: Counter, certain: bool, claim: list, challenged: bool) -> None:
    """One decision of a doubt / challenge window on ``claim`` (``[claimer, bluff, doubted, …]``,
    whose ``doubted`` it sets): the window, the challenge and whether it caught a bluff, and the
    certain / uncertain split (:func:`judged`)."""
    me["windows"] += 1
    judged(me, certain, claim[1], challenged)
    if challenged:
        me["challenges"] += 1
        me["correct_challenges"] += claim[1]
        claim[2] = True


def certainty_rates(c: Counter) -> dict[str, float | None]:
    """The split of challenge decisions into certain (the claim provably false from what the
    decider knew) and uncertain ones: on the uncertain, how many there were, how many of the
    claims were bluffs (the base rate), how often they were challenged and how often rightly;
    on the certain, how often the provably false claim was challenged. (How many of each there
    were is in the counts: ``uncertain_windows``, ``certain_windows``.)"""
    return {
        "uncertain_bluff_rate": ratio(c["uncertain_bluffs"], c["uncertain_windows"]),
        "uncertain_challenge_rate": ratio(c["uncertain_challenges"], c["uncertain_windows"]),
        "uncertain_challenge_accuracy": ratio(c["uncertain_correct_challenges"], c["uncertain_challenges"]),
        "certain_challenge_rate": ratio(c["certain_challenges"], c["certain_windows"]),
    }


# the rates for tables (the window counts are in the summary's counts)
CERTAINTY_COLUMNS = (
    ("uncertain_bluff_rate", "uncertain: bluff rate"),
    ("uncertain_challenge_rate", "uncertain: challenge rate"),
    ("uncertain_challenge_accuracy", "uncertain: accuracy"),
    ("certain_challenge_rate", "certain: challenge rate"),
)
