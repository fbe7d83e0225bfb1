"""Throughput of the Tarneeb vector engine against the reference ``raw_env``, and its compile time.

Both sides play random legal actions and produce an observation and a mask every step:

* ``reference``: ``bluff_envs.tarneeb_v0.raw_env`` through the AEC loop of
  ``benchmarks/env_speed.py`` (``last()`` every step, a uniform legal action);
* ``vector``: ``num_envs`` games (1024 by default) stepped together; each step the actions are
  chosen with numpy from ``mask``: the argmax of ``mask * priorities``, uniform over each game's
  legal actions. By default the priorities are one of 16 random float32 matrices drawn once (one
  picked at random per step), since drawing 10^5 fresh floats per step costs numpy more than the
  whole engine step; ``--fresh`` draws them anew every step (and reports that too).

Speeds are games stepped per second of this process's CPU time (steadier than wall time on a
shared machine), the median over ``--rounds`` alternating rounds. ``--compile`` also times, in
fresh subprocesses, the first start with an empty numba cache (compilation) and a cached start.

    python benchmarks/vector_tarneeb.py
    python benchmarks/vector_tarneeb.py --num-envs 4096 --fresh --compile
    python benchmarks/vector_tarneeb.py --option variant=egyptian
"""

from __future__ import annotations

import argparse
import ast
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import bluff_envs.vector
from bluff_envs import tarneeb_v0

sys.path.insert(0, str(Path(__file__).resolve().parent))
from env_speed import aec_runner  # noqa: E402  (the repository's reference loop)

_clock = time.process_time
TARGET_RATIO = 10.0  # the vector engine is meant to be at least this much faster


def vector_runner(num_envs: int, options: dict, fresh: bool):
    """Game-steps played in ``seconds`` of random play, obs and mask every step."""
    venv = bluff_envs.vector.make("tarneeb", num_envs, **options)
    _, mask, _ = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    shape = (num_envs, venv.num_actions)
    pool = rng.random((16, *shape), dtype=np.float32)
    scratch = np.empty(shape, np.float32)

    def run(seconds: float) -> tuple[int, float]:
        nonlocal mask
        steps = 0
        start = _clock()
        while _clock() - start < seconds:
            for _ in range(50):
                if fresh:
                    rng.random(out=scratch, dtype=np.float32)
                    np.multiply(scratch, mask, out=scratch)
                else:
                    np.multiply(pool[rng.integers(16)], mask, out=scratch)
                actions = scratch.argmax(axis=1)  # games being dealt again ignore theirs
                _, mask, _, _, _, _ = venv.step(actions)
            steps += 50 * num_envs
        return steps, _clock() - start

    return run


def reference_runner(options: dict):
    run = aec_runner(lambda: tarneeb_v0.raw_env(**options))

    def timed(seconds: float) -> tuple[int, float]:
        steps, _, elapsed = run(seconds)
        return steps, elapsed

    return timed


_START = """
import time
start = time.perf_counter()
import numpy as np
import bluff_envs.vector
venv = bluff_envs.vector.make("tarneeb", 8)
_, mask, _ = venv.reset(seed=0)
for _ in range(200):
    venv.step(mask.argmax(axis=1))
print(time.perf_counter() - start)
"""


def start_times() -> tuple[float, float]:
    """Seconds from import to 200 steps in a fresh process: with an empty numba cache (the
    kernels compile), then again with the cache that run wrote."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        times = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", _START], env=env, check=True, capture_output=True, text=True)
            times.append(float(out.stdout.strip().splitlines()[-1]))
    return times[0], times[1]


def parse_option(text: str) -> tuple[str, object]:
    name, _, value = text.partition("=")
    try:
        return name, ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return name, value


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (median taken)")
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per measurement")
    parser.add_argument("--option", action="append", default=[], help="a game option, e.g. variant=egyptian")
    parser.add_argument("--fresh", action="store_true", help="also time fresh random priorities every step")
    parser.add_argument("--compile", action="store_true", help="also time the first (compiling) and a cached start")
    args = parser.parse_args(argv)
    options = dict(parse_option(o) for o in args.option)

    runners = {"reference raw_env": reference_runner(options)}
    runners[f"vector x{args.num_envs}"] = vector_runner(args.num_envs, options, fresh=False)
    if args.fresh:
        runners[f"vector x{args.num_envs} (fresh priorities)"] = vector_runner(args.num_envs, options, fresh=True)
    for run in runners.values():  # warm up (and compile)
        run(0.3)
    samples = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, run in runners.items():
            steps, elapsed = run(args.seconds)
            samples[name].append(steps / elapsed)
    speeds = {name: statistics.median(s) for name, s in samples.items()}
    reference = speeds["reference raw_env"]
    print(f"tarneeb {options or 'default options'}: game-steps per CPU second (median of {args.rounds})")
    for name, speed in speeds.items():
        print(f"  {name:<40} {speed:>12,.0f}   x{speed / reference:5.1f}")
    ratio = speeds[f"vector x{args.num_envs}"] / reference
    verdict = "met" if ratio >= TARGET_RATIO else "NOT met"
    print(f"  target: >= {TARGET_RATIO:g}x the reference -> {verdict} ({ratio:.1f}x)")
    result = {"speeds": speeds, "ratio": ratio}
    if args.compile:
        first, cached = start_times()
        print(f"  start to 200 steps: {first:.1f} s with an empty numba cache (compiling), {cached:.1f} s cached")
        result.update(first_start_s=first, cached_start_s=cached)
    return result


if __name__ == "__main__":
    main()
