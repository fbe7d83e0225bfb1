"""Ray on one machine: what the tournament executor and RLlib training cost against ours.

* ``tournament``: the same tournament on the local executor (worker processes) and on the Ray
  executor (Ray tasks), both with ``--workers`` CPUs; games/s with the executor's start-up
  included (a fresh Ray instance, as ``executor: ray`` starts one) and with Ray already running
  (as on a cluster); the results are checked to be identical.
* ``training``: env-steps/s of RLlib PPO (``experiments/train/rllib_i_doubt_it.yaml``, with 0
  and 1 remote env runners) against ``bluff train``'s MaskablePPO
  (``experiments/train/i_doubt_it.yaml``, measured as in ``benchmarks/train_speed.py``): the
  same game, one learning seat against heuristic opponents, evaluation and checkpoints off.

Run: ``python benchmarks/ray_scale.py tournament [--deals N]`` or
``python benchmarks/ray_scale.py training [--steps N] [--rllib-steps N]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def tournament(args) -> None:
    import ray

    from experiments.tournament.config import TournamentConfig
    from experiments.tournament.speedup import timed_run

    config = dataclasses.replace(TournamentConfig.load(args.config), deals=args.deals)
    games = len(config.tasks())
    print(f"{config.name}: {games} games, {args.workers} workers/CPUs")
    runs = {}
    for _ in range(args.repeat):  # interleaved, so that a busy spell on the machine hits every kind
        elapsed, _, local = timed_run(config, args.workers, "local")
        runs.setdefault("local executor (process pool)", []).append(elapsed)
        elapsed, _, fresh = timed_run(config, args.workers, "ray")  # starts and stops its own Ray
        runs.setdefault("ray executor, Ray started for the run", []).append(elapsed)
        started = time.perf_counter()
        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
        startup = time.perf_counter() - started
        try:
            elapsed, _, joined = timed_run(config, args.workers, "ray")
        finally:
            ray.shutdown()
        runs.setdefault("ray executor, Ray already running", []).append(elapsed)
        runs.setdefault("(ray.init alone)", []).append(startup)
        if not local == fresh == joined:
            raise SystemExit("the executors' results differ")
    for name, times in runs.items():
        best = min(times)
        rate = "" if name.startswith("(") else f" = {games / best:7.1f} games/s"
        print(f"  {name:42s} {best:7.2f} s{rate}")
    print("  results identical: yes")


def training(args) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from train_speed import ours_steps_per_second

    from agents.rllib.config import load_config
    from agents.rllib.train import RLlibTrainer

    base = load_config(ROOT / "experiments" / "train" / "rllib_i_doubt_it.yaml")
    rows = []
    for runners in (0, 1):
        config = base.replace(
            total_steps=args.rllib_steps,
            env_runners=dataclasses.replace(base.env_runners, num_env_runners=runners),
            checkpoint=dataclasses.replace(base.checkpoint, every=10**12),
            eval=dataclasses.replace(base.eval, deals=0),
        )
        with tempfile.TemporaryDirectory() as run_dir:
            RLlibTrainer(config, Path(run_dir), resume=False, echo=lambda line: None).run()
            result = json.loads((Path(run_dir) / "result.json").read_text())
        rows.append((f"RLlib PPO, {runners} remote env runner(s), {base.env_runners.num_envs_per_env_runner} envs each",
                     result["steps_per_second"]))
        print(f"  {rows[-1][0]:60s} {rows[-1][1]:8,.0f} env-steps/s", flush=True)
    sb3, sb3_config = ours_steps_per_second(args.steps, ROOT / "experiments" / "train" / "i_doubt_it.yaml")
    rows.append((f"bluff train (SB3 MaskablePPO), {sb3_config['num_envs']} {sb3_config['vec_env']} envs", sb3))
    print(f"  {rows[-1][0]:60s} {sb3:8,.0f} env-steps/s")
    best_rllib = max(rate for _, rate in rows[:2])
    print(f"  SB3 / best RLlib: {sb3 / best_rllib:.1f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    t = sub.add_parser("tournament")
    t.add_argument("--config", type=Path, default=ROOT / "experiments" / "tournaments" / "i_doubt_it_vs_random.yaml")
    t.add_argument("--deals", type=int, default=25)
    t.add_argument("--workers", type=int, default=2)
    t.add_argument("--repeat", type=int, default=2)
    r = sub.add_parser("training")
    r.add_argument("--steps", type=int, default=40_000, help="env steps of the SB3 run")
    r.add_argument("--rllib-steps", type=int, default=16_000, help="env steps of each RLlib run")
    args = parser.parse_args()
    {"tournament": tournament, "training": training}[args.what](args)


if __name__ == "__main__":
    main()
