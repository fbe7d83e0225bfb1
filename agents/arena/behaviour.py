"""Behaviour statistics of a set of played games, per agent spec, with the intervals that need
to know which games were dealt alike.

:mod:`bluff_envs.behaviour` counts events in one record (bluffs, calls, certain and uncertain
decisions). Over many games, the accuracy of uncertain challenges, the mark of informed ones,
gets a 95 % deal-bootstrap interval here (``uncertain_challenge_accuracy_low`` / ``_high``):
the calls of one deal's rotations answer the same cards, so they are not independent, and an
interval counting calls would be too narrow. Used by evaluations
(:func:`agents.training.evaluate.evaluate`), tournament reports and the zoo's table
(:func:`accuracy_text`).

:func:`stages_with_intervals` gives ``bluff behaviour``'s claims by stage their deal-bootstrap
intervals. :func:`by_maker` splits each agent's uncertain challenge decisions by whose claim it answered,
and :func:`maker_tables` shows the split (``bluff behaviour --by maker``): an accuracy below the
base rate says the calls are uninformed; this says where they go wrong (which makers' true
claims draw the calls, which makers' bluffs go unanswered).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from types import ModuleType
from typing import NamedTuple

import numpy as np

from bluff_envs.behaviour import Decision, claims_by_stage, module_for, stage_key
from bluff_envs.records import GameRecord
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


def _deals(records: Sequence[GameRecord]) -> list[int]:
    """Each record's deal, numbered from 0: the records of one deal share their ``seed`` (a record
    without one is a deal of its own)."""
    keys = [r.seed if r.seed is not None else ("game", n) for n, r in enumerate(records)]
    numbers = {key: i for i, key in enumerate(dict.fromkeys(keys))}
    return [numbers[key] for key in keys]


Intervals = dict[str, dict[str, dict[str, tuple[float, float]]]]  # per agent spec, stage and share


def stages_with_intervals(records: Sequence[GameRecord], module: ModuleType, seed: int = 0,
                          bootstrap: int = 2000) -> tuple[dict[str, dict[str, Counter]], Intervals]:
    """:func:`~bluff_envs.behaviour.claims_by_stage` of ``records`` and, for
    :func:`~bluff_envs.behaviour.stage_tables`, the 95 % deal-bootstrap interval of each of its
    shares (per agent, stage and share: ``"bluffs"`` of the claims, ``"bluff <answer>"`` of the
    bluffs, ``"true <answer>"`` of the true claims): the claims of one deal's seatings are
    dealt the same cards, so they do not count as independent. From a single deal there is
    nothing to resample: no intervals (the tables then show Wilson's)."""
    deals = _deals(records)
    groups: list[list[GameRecord]] = [[] for _ in range(max(deals, default=-1) + 1)]
    for record, deal in zip(records, deals):
        groups[deal].append(record)
    per_deal = [claims_by_stage(group, module) for group in groups]
    by_stage: dict[str, dict[str, Counter]] = {}
    for counted in per_deal:
        for spec, stages in counted.items():
            for stage, counts in stages.items():
                by_stage.setdefault(spec, {}).setdefault(stage, Counter()).update(counts)
    rng = np.random.default_rng(seed)
    intervals: Intervals = {}
    for spec, stages in by_stage.items():
        order = sorted(stages, key=lambda stage: stage_key(stage, module.STAGE_KINDS))
        by_stage[spec] = {stage: stages[stage] for stage in order}
        if len(groups) < 2:
            continue
        for stage, total in by_stage[spec].items():
            counts = [counted.get(spec, {}).get(stage, Counter()) for counted in per_deal]
            column = {key: np.array([c[key] for c in counts], float) for key in total}
            claims, bluffs = column["claims"], column["bluffs"]
            shares = {"bluffs": (bluffs, claims)}
            shares.update({key: (values, bluffs if key.startswith("bluff ") else claims - bluffs)
                           for key, values in column.items() if key.startswith(("bluff ", "true "))})
            intervals.setdefault(spec, {})[stage] = {key: cluster_bootstrap(part, whole, bootstrap, rng)
                                                     for key, (part, whole) in shares.items() if whole.sum()}
    return by_stage, intervals


# by_maker's shares: (key, heading, what is counted, out of what)
MAKER_SHARES = (
    ("bluff_rate", "bluffs (base rate)", "bluffs", "answers"),
    ("bluffs_challenged", "bluffs challenged", "right", "bluffs"),
    ("true_claims_challenged", "true claims challenged", "wrong", "true_claims"),
    ("accuracy", "accuracy", "right", "challenges"),
)


def by_maker(records: Sequence[GameRecord], seed: int = 0, bootstrap: int = 2000) -> dict[str, dict[str, dict]]:
    """Each agent's uncertain challenge decisions split by the agent spec whose claim it answered
    (``"all"`` for every maker together): per agent spec, then per maker, the counts (``answers``,
    ``bluffs``, ``true_claims``, ``challenges``, ``right``, ``wrong``, and ``certain_answers`` /
    ``certain_challenges`` on provably false claims) and each share of :data:`MAKER_SHARES`
    with its 95 % deal-bootstrap interval (``<key>_low`` / ``_high``; records of one deal share
    their ``seed``; ``None`` from a single deal, which leaves nothing to resample). The calls
    are more often right than the base rate exactly when bluffs are challenged more often than
    true claims. Empty for a game without challenge decisions."""
    module = module_for(records[0].game) if records else None
    if module is None or not hasattr(module, "claims"):
        return {}
    deals = _deals(records)
    # per agent and maker: counts per deal, rows as in _COUNTS
    table: dict[str, dict[str, np.ndarray]] = {}
    for record, deal in zip(records, deals):
        decisions: list[Decision] = []
        module.count(record, decisions)
        for d in decisions:
            per_maker = table.setdefault(record.seats[d.seat], {})
            for maker in (record.seats[d.maker], "all"):
                counts = per_maker.setdefault(maker, np.zeros((len(_COUNTS), max(deals) + 1)))
                counts[:, deal] += _counted(d)
    rng = np.random.default_rng(seed) if max(deals) else None
    return {spec: {maker: _shares(counts, bootstrap, rng) for maker, counts in sorted(makers.items(), key=_all_last)}
            for spec, makers in sorted(table.items())}


_COUNTS = ("answers", "bluffs", "true_claims", "challenges", "right", "wrong", "certain_answers", "certain_challenges")


def _counted(d: Decision) -> tuple[int, ...]:
    """One decision as a column of ``_COUNTS``."""
    uncertain = not d.certain
    return (uncertain, uncertain and d.bluff, uncertain and not d.bluff, uncertain and d.challenged,
            uncertain and d.challenged and d.bluff, uncertain and d.challenged and not d.bluff,
            d.certain, d.certain and d.challenged)


def _all_last(item: tuple[str, np.ndarray]) -> tuple[bool, str]:
    return item[0] == "all", item[0]


def _shares(per_deal: np.ndarray, bootstrap: int, rng: np.random.Generator | None) -> dict:
    """A row of counts per deal as its counts and shares; intervals where ``rng`` is given."""
    row = dict(zip(_COUNTS, per_deal))
    out: dict = {key: int(values.sum()) for key, values in row.items()}
    for key, _, part, whole in MAKER_SHARES:
        total = row[whole].sum()
        out[key] = float(row[part].sum() / total) if total else None
        low, high = cluster_bootstrap(row[part], row[whole], bootstrap, rng) if total and rng else (None, None)
        out[f"{key}_low"], out[f"{key}_high"] = low, high
    return out


def maker_tables(split: dict[str, dict[str, dict]]) -> str:
    """:func:`by_maker` as markdown: a table per agent, a row per maker (``all`` last), each share
    as ``0.880 [0.851, 0.907] (905/1028)``."""
    lines = []
    for spec, makers in split.items():
        if not makers:
            lines += [f"### {spec}", "", "No challenge decisions.", ""]
            continue
        headings = " | ".join(heading for _, heading, _, _ in MAKER_SHARES)
        lines += [f"### {spec}", "", f"| maker | uncertain answers | {headings} | certain: challenged |",
                  "|---|---:|" + "---:|" * (len(MAKER_SHARES) + 1)]
        for maker, row in makers.items():
            cells = [maker, str(row["answers"])]
            cells += [_share_text(row, key, part, whole) for key, _, part, whole in MAKER_SHARES]
            made, certain = row["certain_challenges"], row["certain_answers"]
            cells.append(f"{made / certain:.3f} ({made}/{certain})" if certain else "–")
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def _share_text(row: dict, key: str, part: str, whole: str) -> str:
    if row[key] is None:
        return "–"
    if row[f"{key}_low"] is None:
        return f"{row[key]:.3f} ({row[part]}/{row[whole]})"
    return f"{row[key]:.3f} [{row[key + '_low']:.3f}, {row[key + '_high']:.3f}] ({row[part]}/{row[whole]})"
