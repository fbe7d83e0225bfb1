"""The long differential test: every option family of the suite, 10^5 steps or more each.

The suite (``tests/bluff_envs/vector/``) plays each option family of each game for a few
thousand game-steps in both engines. This script plays the same families much longer: at
least ``--steps`` game-steps each (games x steps), from other seeds, with the same assertions
(identical observations and masks of the acting seat and of one other seat, actors, rewards,
terminations, truncations at every step). It prints what it played and fails on the first
difference.

Run: ``python benchmarks/differential.py [--steps 100000] [--games i_doubt_it,...]``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.bluff_envs.vector.differential import play_both  # noqa: E402

GAMES = ("i_doubt_it", "believe_it_or_not", "seven_spades", "tarneeb")
NUM_ENVS = 64


def families(game: str) -> list[dict]:
    """The option sets the suite's differential test uses for ``game``."""
    module = importlib.import_module(f"tests.bluff_envs.vector.test_{game}")
    out = []
    for family in module.FAMILIES:
        values = family.values if hasattr(family, "values") else family
        options = next(v for v in values if isinstance(v, dict))
        if options not in out:
            out.append(options)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000, help="game-steps per option family (at least)")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    total = 0
    for game in args.games.split(","):
        for options in families(game):
            steps = -(-args.steps // NUM_ENVS)
            started = time.perf_counter()
            ended = play_both(game, options, num_envs=NUM_ENVS, steps=steps, seed=args.seed)
            total += NUM_ENVS * steps
            print(f"{game:<18} {str(options):<70} {NUM_ENVS * steps:>8,} steps, {ended:>6,} games ended: identical "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
    print(f"all identical: {total:,} game-steps")


if __name__ == "__main__":
    main()
