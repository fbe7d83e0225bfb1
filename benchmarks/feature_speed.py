"""Derived features and frozen-policy decisions: the numba kernels against their numpy references.

Frozen opponents (league snapshots, exploiters' targets, ``ppo:`` agents in tournaments) ask a
policy for one to a few rows at a time, thousands of times per rollout, and every row first
needs the game's derived features (``network.features``). For each game this times, on
observations from random games at the options of the game's zoo agent, median of 3 rounds:

* **features, one row per call**: ``feature_set.reference`` (batched numpy, the specification)
  against ``feature_set(x)`` (the row-by-row numba kernel);
* **features, 1,024 rows per call**: the same, as the SB3 policy asks while it trains;
* **a frozen policy's decisions, one row per call**: the zoo agent of the game
  (``FrozenPolicy.decide`` with a draw) with the reference features, and with the kernel.

Run: ``python benchmarks/feature_speed.py [--rows N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.agents.training.test_feature_kernels import observations  # noqa: E402

GAMES = {"i_doubt_it": "doubt", "believe_it_or_not": "doubt", "seven_spades": "doubt", "tarneeb": "card_play"}


def per_second(fn, items: int, rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return items / statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1000, help="single-row calls per timing")
    args = parser.parse_args()
    from agents import GameInfo
    from agents.ppo import checkpoint
    from agents.training.features import make_features
    import bluff_envs

    print("| game | features, 1 row/call: reference | kernel | ratio | 1,024 rows/call: reference | kernel "
          "| ratio | zoo agent decisions/s: reference | kernel | ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for game, name in GAMES.items():
        entry = ROOT / "zoo" / f"{game}_league_seed0.zip"
        options = checkpoint.read_metadata(entry)["config"]["game"]["options"]  # the zoo agent's table
        layout = GameInfo.of(bluff_envs.make(game, raw=True, **options)).layout
        feature_set = make_features(game, layout, [name]).sets[0]
        x, masks = observations(game, options, max(args.rows, 1024), seed=5)
        single, batch = x[: args.rows], x[:1024]
        feature_set(single[:2]), feature_set.reference(single[:2])  # compile / warm up
        rows = {
            "ref1": per_second(lambda: [feature_set.reference(r[None]) for r in single], len(single)),
            "fast1": per_second(lambda: [feature_set(r[None]) for r in single], len(single)),
            "refB": per_second(lambda: feature_set.reference(batch), len(batch)),
            "fastB": per_second(lambda: feature_set(batch), len(batch)),
        }
        policy = checkpoint.read_policy(entry)
        u = np.random.default_rng(0).random(len(single))
        sets = policy.features.sets
        decisions = {}
        for label, call in (("ref", "reference"), ("fast", "__call__")):
            policy.features.sets = [_Bound(s, getattr(type(s), call)) for s in sets]
            decisions[label] = per_second(
                lambda: [policy.decide(single[i], masks[i], u[i]) for i in range(len(single))], len(single))
        policy.features.sets = sets
        cells = [f"{rows['ref1']:,.0f}", f"{rows['fast1']:,.0f}", f"{rows['fast1'] / rows['ref1']:.0f}×",
                 f"{rows['refB']:,.0f}", f"{rows['fastB']:,.0f}", f"{rows['fastB'] / rows['refB']:.1f}×",
                 f"{decisions['ref']:,.0f}", f"{decisions['fast']:,.0f}", f"{decisions['fast'] / decisions['ref']:.1f}×"]
        print(f"| {game} | " + " | ".join(cells) + " |", flush=True)


class _Bound:
    """A feature set whose call is ``call`` (the reference or the kernel), for the decision timings."""

    def __init__(self, feature_set, call):
        self.feature_set, self.call, self.size = feature_set, call, feature_set.size

    def __call__(self, x):
        return self.call(self.feature_set, x)


if __name__ == "__main__":
    main()
