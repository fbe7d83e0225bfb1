"""The vector engine against the reference engine (and OpenSpiel's spades), side by side.

For every game at default options: the reference ``raw_env`` through the AEC loop of
``env_speed.py`` (an observation and a mask every step, a uniform legal action), and the vector
engine with ``--envs`` games (1024) stepped together, an observation and a mask of every game
every step, uniform legal actions chosen with numpy (the argmax of ``mask + u`` over a pool of
16 uniform matrices drawn once, so that the harness costs little next to the engine). With
OpenSpiel installed (the ``bench`` extra), its C++ ``spades`` through pyspiel runs the same
loop as the reference, as Tarneeb's peer. Speeds are game steps per second of this process's
CPU time, the median of ``--rounds`` alternating rounds.

    python benchmarks/vector_speed.py [--envs 1024] [--rounds 3] [--seconds 2] [--games tarneeb ...]
    python benchmarks/vector_speed.py --compile     # the first start (compiling) and a cached start

``--compile`` times, per game in fresh processes, the wall time from ``import`` to the first
stepped batch with an empty numba cache (``NUMBA_CACHE_DIR`` pointing at an empty folder: what
the first run on a machine pays) and then with that cache filled.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import bluff_envs
import bluff_envs.vector

sys.path.insert(0, str(Path(__file__).resolve().parent))
from env_speed import aec_runner, openspiel_runner  # noqa: E402  (the repository's reference loop)


def vector_runner(game: str, num_envs: int):
    venv = bluff_envs.vector.make(game, num_envs)
    rng = np.random.default_rng(0)
    pool = [rng.random((num_envs, venv.num_actions), dtype=np.float32) for _ in range(16)]
    _, mask, _ = venv.reset(seed=0)
    state = {"mask": mask, "k": 0}

    def run(seconds: float) -> tuple[int, int, float]:
        steps = games = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            for _ in range(50):
                state["k"] = (state["k"] + 1) % len(pool)
                actions = (state["mask"] + pool[state["k"]]).argmax(axis=1)
                _, state["mask"], actor, _, terminated, truncated = venv.step(actions)
                steps += int((actor >= 0).sum())  # games that stepped (not the ones being dealt again)
                games += int(terminated.sum() + truncated.sum())
        return steps, games, time.process_time() - start

    run(0.2)  # compile (or load the cache) and warm up outside the measurement
    return run


FIRST_STEP = "import bluff_envs.vector as v; e = v.make({game!r}, 64); e.reset(seed=0); e.step(e.mask.argmax(axis=1))"


def compile_times(games: list[str]) -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        for game in games:
            times = []
            for _ in range(2):  # first: compiles into the empty cache; second: loads it
                began = time.perf_counter()
                subprocess.run([sys.executable, "-c", FIRST_STEP.format(game=game)], env=env, check=True)
                times.append(time.perf_counter() - began)
            print(f"{game:<20} first start {times[0]:6.1f} s (compiling)   cached start {times[1]:5.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--games", nargs="*", default=list(bluff_envs.vector.ENGINES))
    parser.add_argument("--no-openspiel", action="store_true")
    parser.add_argument("--compile", action="store_true", help="time the first (compiling) and a cached start instead")
    args = parser.parse_args()
    if args.compile:
        compile_times(args.games)
        return
    started = time.process_time()
    runners = {}
    for game in args.games:
        runners[f"{game} raw_env"] = aec_runner(lambda g=game: bluff_envs.make(g, raw=True))
        runners[f"{game} vector x{args.envs}"] = vector_runner(game, args.envs)
    if not args.no_openspiel and "tarneeb" in args.games:
        try:
            runners["openspiel spades"] = openspiel_runner("spades")
        except ImportError:
            print("(OpenSpiel is not installed: pip install -e '.[bench]' to compare with its spades)")
    speeds: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, run in runners.items():
            steps, _, seconds = run(args.seconds)
            speeds[name].append(steps / seconds)
    median = {name: statistics.median(v) for name, v in speeds.items()}
    print(f"\n{'':<34}{'steps/s':>14}{'ratio':>10}")
    for game in args.games:
        raw, vec = median[f"{game} raw_env"], median[f"{game} vector x{args.envs}"]
        print(f"{game + ' raw_env':<34}{raw:>14,.0f}")
        print(f"{game + f' vector x{args.envs}':<34}{vec:>14,.0f}{vec / raw:>9.1f}x")
    if "openspiel spades" in median:
        spades = median["openspiel spades"]
        tarneeb = median.get(f"tarneeb vector x{args.envs}")
        print(f"{'openspiel spades (pyspiel)':<34}{spades:>14,.0f}" + (f"{tarneeb / spades:>9.1f}x (tarneeb vector / spades)" if tarneeb else ""))
    print(f"\n(CPU time, median of {args.rounds} alternating rounds of {args.seconds:g} s; {time.process_time() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
