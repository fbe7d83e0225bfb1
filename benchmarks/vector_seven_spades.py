"""Speed of the Seven Spades vector engine against the reference ``raw_env``.

Both sides play random legal actions and produce the actor's observation and mask at every
step. The vector engine steps ``--envs`` games at once, choosing each game's action with numpy
from ``mask`` (uniform over the legal ones); the reference plays one game through ``raw_env``
(``observe`` of the agent to act, a uniform legal action from its mask, ``step``, ``reset``
when the game is over). Figures are game-steps per second (one decision in one game), the
median of ``--rounds`` alternating rounds, in this process's CPU time so that a busy machine
weighs on both sides alike.

The first line is the time of building an engine and its first reset and step: loading the
compiled kernels from numba's cache, or with ``--fresh`` (an empty cache folder) compiling them.

    python benchmarks/vector_seven_spades.py
    python benchmarks/vector_seven_spades.py --fresh --rounds 0      # compile time only
    python benchmarks/vector_seven_spades.py --envs 4096 --rounds 5 --num-players 10
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

import numpy as np

if "--fresh" in sys.argv:  # before numba is imported: it reads the cache folder once
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-cache-")

import bluff_envs  # noqa: E402
import bluff_envs.vector  # noqa: E402

_clock = time.process_time


def vector_runner(num_envs: int, options: dict):
    venv = bluff_envs.vector.make("seven_spades", num_envs, **options)
    obs, mask, actor = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    u = np.empty((num_envs, venv.num_actions))

    def run(seconds: float) -> tuple[int, float]:
        nonlocal mask
        steps = 0
        start = _clock()
        while _clock() - start < seconds:
            for _ in range(50):
                rng.random(out=u)
                u[mask == 0] = -1.0  # a uniform legal action: the largest draw among the legal
                actions = u.argmax(axis=1)  # (a game just ended gets 0: it is ignored)
                obs, mask, actor, rewards, terminated, truncated = venv.step(actions)
            steps += 50 * num_envs
        return steps, _clock() - start

    return run


def reference_runner(options: dict):
    env = bluff_envs.make("seven_spades", raw=True, **options)
    env.reset(seed=0)
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, float]:
        steps = 0
        start = _clock()
        while _clock() - start < seconds:
            for _ in range(200):
                seen = env.observe(env.agent_selection)
                legal = seen["action_mask"].nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
                if env.state.is_over:
                    env.reset()
            steps += 200
        return steps, _clock() - start

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--num-players", type=int, default=None)
    parser.add_argument("--fresh", action="store_true", help="an empty numba cache: time the compilation")
    args = parser.parse_args()
    options = {} if args.num_players is None else {"num_players": args.num_players}

    start, cpu = time.perf_counter(), time.process_time()
    venv = bluff_envs.vector.make("seven_spades", args.envs, **options)
    venv.reset(seed=0)
    for _ in range(venv.deck_size + 1):  # discards to the empty stock and a new deal: every kernel
        venv.step(np.zeros(args.envs, np.int64))
    assert (venv.actor == 0).all()  # every game dealt again
    venv.observe(np.ones(args.envs, np.int64))
    how = "compiled into an empty numba cache" if args.fresh else "kernels from numba's cache"
    print(f"engine built, reset and stepped: {time.perf_counter() - start:.2f} s "
          f"({time.process_time() - cpu:.2f} s CPU), {how}")
    if args.rounds < 1:
        return

    runners = {"vector": vector_runner(args.envs, options), "reference": reference_runner(options)}
    rates: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, run in runners.items():
            steps, elapsed = run(args.seconds)
            rates[name].append(steps / elapsed)
    vector, reference = (statistics.median(rates[name]) for name in ("vector", "reference"))
    print(f"seven_spades {options or 'default options'}, {args.envs} games, median of {args.rounds} rounds")
    print(f"vector engine  {vector:>12,.0f} game-steps/s")
    print(f"reference      {reference:>12,.0f} game-steps/s")
    print(f"ratio          {vector / reference:>12.1f}x")


if __name__ == "__main__":
    main()
