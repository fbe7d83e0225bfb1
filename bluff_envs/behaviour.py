"""Behaviour statistics from game records, one small module per game.

Each game's module ``bluff_envs.<game>.behaviour`` replays a record with full state (this is
offline analysis, so it may look at every hand) and offers:

* ``count(record) -> list[Counter]``: event counts per seat (plays, bluffs, challenges, …);
* ``rates(counts) -> dict``: the statistics from one agent's summed counts (``None`` where
  the agent never had the chance);
* ``COLUMNS``: ``(key, heading)`` pairs of ``rates`` for tables, most telling first;
* ``DETAILS`` (where there are any): the other keys of ``rates``, which qualify a column
  (the number of calls behind an accuracy) and are no column themselves.

Games with challenge decisions also split them (:func:`judged`, :func:`certainty_rates`) into
*certain* ones, where the claim is provably false from the decider's own decoded observation
(``env.public_view``, replayed with :func:`~bluff_envs.records.replay_steps`), and *uncertain*
ones, where it is not. ``count(record, decisions)`` also lists each of them as a
:class:`Decision` in ``decisions`` (a list), for splits the counts do not keep: by whose claim
was answered (``bluff behaviour --by maker``).

The bluffing games also list every claim with the stage of the game it was made at:

* ``claims(record) -> Iterator[Claim]``: who claimed, at which stage (``"row 2"``,
  ``"3 cards"``, ``"lead 1"``, …), whether it was a bluff and how the table answered it;
* ``STAGE_KINDS``, ``ANSWERS``: the kinds of stage and the answers, in table order.

(:func:`window_claims` is that loop for the games with a doubt / challenge window.)
:func:`claims_by_stage` sums them per agent and stage, :func:`stage_tables` shows them as
markdown for ``bluff behaviour``, with the intervals it is given (``bluff behaviour`` gives
deal-bootstrap ones, :func:`agents.arena.behaviour.stages_with_intervals`) or else Wilson 95 %
intervals (:func:`wilson`), which count every claim as independent.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import ModuleType
from typing import NamedTuple

from bluff_envs.records import GameRecord, RulesStep, replay_rules


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


class Decision(NamedTuple):
    """One challenge decision on a claim, as ``count(record, decisions)`` lists it."""

    seat: int  # who decided
    maker: int  # whose claim it was
    certain: bool  # provably false from the decider's own view
    bluff: bool
    challenged: bool


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
    were is in the counts: ``uncertain_windows``, ``certain_windows``.)

    The accuracy rests on the uncertain challenges alone, so it comes with their number
    (``uncertain_challenges``). Its interval needs to know which games were dealt alike (the
    calls of one deal hang together), which records alone do not say: evaluations and
    tournament reports add it (:mod:`agents.arena.behaviour`, a deal bootstrap)."""
    n = c["uncertain_challenges"]
    return {
        "uncertain_bluff_rate": ratio(c["uncertain_bluffs"], c["uncertain_windows"]),
        "uncertain_challenge_rate": ratio(n, c["uncertain_windows"]),
        "uncertain_challenge_accuracy": ratio(c["uncertain_correct_challenges"], n),
        "uncertain_challenges": n,
        "certain_challenge_rate": ratio(c["certain_challenges"], c["certain_windows"]),
    }


# the rates for tables (the window counts are in the summary's counts)
CERTAINTY_COLUMNS = (
    ("uncertain_bluff_rate", "uncertain: bluff rate"),
    ("uncertain_challenge_rate", "uncertain: challenge rate"),
    ("uncertain_challenge_accuracy", "uncertain: accuracy"),
    ("certain_challenge_rate", "certain: challenge rate"),
)
# the rates that qualify a column: the number of calls behind the uncertain accuracy
CERTAINTY_DETAILS = ("uncertain_challenges",)


# -- claims by stage ------------------------------------------------------------------------

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (``(0, 1)`` when ``n == 0``)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


class Claim(NamedTuple):
    """One claim (a face-down spade, a play on the pile) and how the table answered it."""

    seat: int
    stage: str  # when in the game it was made, in the game's words: "row 2", "3 cards", "lead 1"
    bluff: bool
    answer: str  # one of the game's ANSWERS: "challenged", "stood", "added", …


def window_claims(record: GameRecord, claim_action: int, challenge_action: int, challenged: str,
                  staged: Callable[[RulesStep], Claim]) -> Iterator[Claim]:
    """The claims of a game with a doubt / challenge window (I Doubt It, Seven Spades), in game
    order: ``staged`` makes the claim of each ``claim_action`` step, with the answer it has if
    nobody challenges; a ``challenge_action`` in its window changes the answer to ``challenged``."""
    claim = None  # the claim whose window is open
    for step in replay_rules(record):
        if step.action == claim_action:
            if claim is not None:
                yield claim
            claim = staged(step)
        elif step.action == challenge_action:
            claim = claim._replace(answer=challenged)
    if claim is not None:
        yield claim


def claims_by_stage(records: Iterable[GameRecord], module: ModuleType) -> dict[str, dict[str, Counter]]:
    """``module.claims`` summed per agent spec over every seat it held, then per stage: a
    Counter of ``claims``, ``bluffs`` and, for each answer, ``bluff <answer>`` and
    ``true <answer>``. Stages come in the game's order (:func:`stage_key`)."""
    totals: dict[str, dict[str, Counter]] = {}
    for record in records:
        for claim in module.claims(record):
            counts = totals.setdefault(record.seats[claim.seat], {}).setdefault(claim.stage, Counter())
            counts["claims"] += 1
            counts["bluffs"] += claim.bluff
            counts[f"{'bluff' if claim.bluff else 'true'} {claim.answer}"] += 1
    return {
        spec: dict(sorted(stages.items(), key=lambda item: stage_key(item[0], module.STAGE_KINDS)))
        for spec, stages in totals.items()
    }


def stage_key(stage: str, kinds: Sequence[str]) -> tuple:
    """Sorts stages by kind in the game's order (``kinds``, unknown kinds last), then by their
    number: "row 2" before "row 10", "lead 3" before "add 1"."""
    words = stage.split()
    kind = " ".join(w for w in words if not w.isdigit())
    numbers = [int(w) for w in words if w.isdigit()]
    return kinds.index(kind) if kind in kinds else len(kinds), kind, numbers


def stage_tables(by_stage: dict[str, dict[str, Counter]], answers: Sequence[str],
                 intervals: dict[str, dict[str, dict[str, tuple[float, float]]]] | None = None) -> str:
    """:func:`claims_by_stage` as markdown, a table per agent and a row per stage: the claims,
    the share of bluffs, and the share of each answer among the bluffs and among the true
    claims, each share with its count and 95 % interval. ``answers``: the game's, in column
    order; an answer not among them that occurs gets a column after them. ``intervals``: per
    agent, stage and share (``"bluffs"``, ``"bluff <answer>"``, ``"true <answer>"``), the
    interval to show; without them, Wilson intervals, which count the claims as independent."""
    lines = []
    for spec, stages in by_stage.items():
        lines += [f"### {spec}", ""]
        if not stages:
            lines += ["No claims.", ""]
            continue
        seen = {key.split(" ", 1)[1] for c in stages.values() for key in c if key.startswith(("bluff ", "true "))}
        shown = [*answers, *sorted(seen - set(answers))]
        lines += [
            "| stage | claims | bluffs | " + " | ".join(f"bluffs {a}" for a in shown) + " | "
            + " | ".join(f"true claims {a}" for a in shown) + " |",
            "|---|---:|" + "---:|" * (1 + 2 * len(shown)),
        ]
        for stage, c in stages.items():
            given = (intervals or {}).get(spec, {}).get(stage, {})
            honest = c["claims"] - c["bluffs"]
            cells = [stage, str(c["claims"]), _share(c["bluffs"], c["claims"], given.get("bluffs"))]
            cells += [_share(c[f"bluff {a}"], c["bluffs"], given.get(f"bluff {a}")) for a in shown]
            cells += [_share(c[f"true {a}"], honest, given.get(f"true {a}")) for a in shown]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def _share(k: int, n: int, interval: tuple[float, float] | None = None) -> str:
    """``0.250 (1/4) [0.046, 0.699]`` (``interval``, or Wilson's); a dash where there was nothing to share."""
    if not n:
        return "–"
    lo, hi = interval or wilson(k, n)
    return f"{k / n:.3f} ({k}/{n}) [{lo:.3f}, {hi:.3f}]"
