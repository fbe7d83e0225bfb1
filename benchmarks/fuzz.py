"""Long random-play fuzzing: every game, invariants checked after every step.

The test suite fuzzes briefly; this script runs the long version (10^6 steps by default per
game) and reports how the games ended. Each game's ``bluff_envs.<game>.invariants`` module
says what must always hold (every card in exactly one place, hand sizes public and consistent
with the observations, masks exactly the legal actions).

    python benchmarks/fuzz.py                       # every game, 10^6 steps each
    python benchmarks/fuzz.py --games tarneeb --steps 200000 --options '{"episode": "deal"}'
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import time
from collections import Counter

import bluff_envs
from env_speed import play_episode  # the same random-play loop as the speed benchmark


def fuzz(game: str, steps: int, options: dict, seed: int = 0) -> dict:
    check = importlib.import_module(f"bluff_envs.{game}.invariants").check_invariants
    env = bluff_envs.make(game, raw=True, **options)
    rng = random.Random(seed)
    done = games = 0
    endings: Counter[str] = Counter()
    start = time.perf_counter()
    while done < steps:
        env.reset(seed=rng.randrange(2**31))
        check(env)
        done += play_episode(env, rng, after_step=check)
        games += 1
        state = env.game_state
        endings["truncated" if state.truncated else "ended"] += 1
    return {
        "game": game,
        "options": options,
        "steps": done,
        "games": games,
        "endings": dict(endings),
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=None)
    parser.add_argument("--steps", type=int, default=10**6, help="steps per game (default 10^6)")
    parser.add_argument("--options", default="{}", help="game options as JSON")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for game in args.games or bluff_envs.available_games():
        report = fuzz(game, args.steps, json.loads(args.options), args.seed)
        print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
