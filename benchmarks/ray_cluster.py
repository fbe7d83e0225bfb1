"""A real two-node Ray cluster on this machine, faults included.

    python benchmarks/ray_cluster.py [--deals 6] [--out DIR]

Starts a head node and a worker node (``ray.cluster_utils.Cluster``: two raylets, each with its
own object store and worker processes, as ``ray start`` would give), then:

1. plays a tournament on the cluster and checks that its ``results.jsonl`` holds exactly the
   games, record for record, that the local executor plays;
2. plays it again and kills the worker node while games are in flight: Ray retries the lost
   tasks on the head node, and the run must finish with every scheduled game exactly once and
   the same records as the local run (a result line is written only when its task's result
   is back, so nothing half-played reaches the file).

With ``--rllib`` it also trains a short RLlib PPO run (one env runner, a seeded config) once on
a local Ray instance and once on the cluster, and checks that the two final policies have the
same weights, tensor for tensor.

Both nodes run on this machine and talk over its own interface; nothing leaves the machine.
Prints one line per check and exits 1 if any fails. The test suite runs it with few deals
(``tests/agents/arena/test_ray_cluster.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path


def lines_of(run: Path) -> list[str]:
    return sorted((run / "results.jsonl").read_text().splitlines())


TINY_RLLIB = {
    "algorithm": "rllib",
    "game": {"name": "i_doubt_it", "options": {"num_players": 3, "max_turns": 30}},
    "total_steps": 400,
    "seed": 3,
    "opponents": ["honest", "random"],
    "ppo": {"train_batch_size": 200, "minibatch_size": 100, "num_epochs": 1},
    "network": {"hiddens": [32]},
    "env_runners": {"num_env_runners": 1, "num_envs_per_env_runner": 2},
    "checkpoint": {"every": 200, "keep": 0},
}


def rllib_weights(run: Path) -> dict:
    """The final RLModule's weights of an RLlib run (loaded with trust: this script wrote it)."""
    from agents.rllib import checkpoint
    from agents.rllib.agent import load_module
    from agents.trust import trust_pickle

    trust_pickle(True)
    folder = checkpoint.resolve(str(run))
    module = load_module(checkpoint.module_path(folder, checkpoint.read_metadata(folder)))
    return {k: v.detach().cpu().numpy() for k, v in module.state_dict().items()}


def rllib_run(out: Path) -> dict:
    from agents.rllib.config import config_from_dict
    from agents.rllib.train import RLlibTrainer

    RLlibTrainer(config_from_dict(TINY_RLLIB), out, resume=False, echo=lambda line: None).run()
    return rllib_weights(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--rllib", action="store_true", help="also compare a short RLlib training, local and on the cluster")
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="ray_cluster_"))

    import ray
    from ray.cluster_utils import Cluster

    from agents.arena.ray_executor import RayExecutor
    from experiments.tournament import TournamentConfig, run_tournament

    data = {"name": "cluster", "game": "i_doubt_it", "options": {"num_players": 3}, "format": "round_robin",
            "agents": ["honest", "counter", "bluffer"], "deals": args.deals, "seating": "rotations", "seed": 11,
            "batch_size": 1}
    config = TournamentConfig.from_dict(data)
    started = time.perf_counter()
    run_tournament(config, out / "local", workers=1, progress=False, report=False)
    expected = lines_of(out / "local")
    print(f"local executor: {len(expected)} games in {time.perf_counter() - started:.1f} s")

    if args.rllib:
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
        started = time.perf_counter()
        local_weights = rllib_run(out / "rllib_local")
        ray.shutdown()
        print(f"RLlib on a local Ray instance: {len(local_weights)} tensors in {time.perf_counter() - started:.0f} s")

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    worker = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, log_to_driver=False)
    failures = 0
    try:
        nodes = [n for n in ray.nodes() if n["Alive"]]
        print(f"cluster: {len(nodes)} nodes alive, {int(ray.cluster_resources().get('CPU', 0))} CPUs")
        failures += len(nodes) != 2

        with RayExecutor(workers=2) as executor:
            run_tournament(config, out / "cluster", executor=executor, progress=False, report=False)
        same = lines_of(out / "cluster") == expected
        print(f"cluster run: {'the same games as the local executor' if same else 'DIFFERENT games'}")
        failures += not same

        if args.rllib:
            import numpy as np

            cluster_weights = rllib_run(out / "rllib_cluster")
            same = local_weights.keys() == cluster_weights.keys() and all(
                np.array_equal(local_weights[k], cluster_weights[k]) for k in local_weights)
            print(f"RLlib on the cluster: {'the same weights as on the local instance' if same else 'DIFFERENT weights'}")
            failures += not same

        killed = threading.Event()

        def kill_when_started() -> None:
            results = out / "faults" / "results.jsonl"
            while not (results.exists() and results.stat().st_size > 0):
                time.sleep(0.05)
            cluster.remove_node(worker, allow_graceful=False)  # kill -9 of the node's processes
            killed.set()

        killer = threading.Thread(target=kill_when_started, daemon=True)
        killer.start()
        with RayExecutor(workers=2) as executor:
            run_tournament(config, out / "faults", executor=executor, progress=False, report=False)
        killer.join(timeout=60)
        got = lines_of(out / "faults")
        ids = [json.loads(line)["game_id"] for line in got]
        complete = killed.is_set() and len(ids) == len(set(ids)) == len(expected) and got == expected
        print(f"worker node killed mid-run: {len(set(ids))} of {len(expected)} games, "
              f"{len(ids) - len(set(ids))} repeated; {'records identical to the local run' if got == expected else 'RECORDS DIFFER'}")
        failures += not complete
    finally:
        ray.shutdown()
        cluster.shutdown()
    print("all checks passed" if not failures else f"{failures} check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
