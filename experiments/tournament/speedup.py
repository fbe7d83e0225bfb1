"""Measure how a tournament's games scale with worker processes (nothing is written).

``python -m experiments.tournament.speedup <config.yaml> [--deals N] [--workers 1,2] [--repeat R]``
plays the config's games with each number of workers (pool start-up included, best of
``--repeat``), checks that every run gives the same results, and prints games/s and the
speed-up over the first entry of ``--workers``.
"""

from __future__ import annotations

import dataclasses
import time

import click

from experiments.tournament.config import TournamentConfig
from experiments.tournament.executor import batches_of, make_executor


def timed_run(config: TournamentConfig, workers: int, kind: str = "local", address: str | None = None):
    tasks = config.tasks()
    start = time.perf_counter()
    with make_executor(kind, workers, address) as executor:
        lines = [x for batch in executor.run(batches_of(tasks, workers, config.batch_size)) for x in batch]
    elapsed = time.perf_counter() - start
    return elapsed, sorted(lines, key=lambda x: x["game_id"])


@click.command()
@click.argument("config_path")
@click.option("--deals", type=int, default=None, help="Override the config's number of deals.")
@click.option("--workers", "worker_counts", default="1,2", help="Worker counts to compare, comma-separated.")
@click.option("--repeat", type=int, default=1, help="Runs per worker count; the fastest counts.")
def main(config_path, deals, worker_counts, repeat):
    config = TournamentConfig.load(config_path)
    if deals is not None:
        config = dataclasses.replace(config, deals=deals)
    counts = [int(w) for w in worker_counts.split(",")]
    games = len(config.tasks())
    reference, base = None, None
    for workers in counts:
        best = None
        for _ in range(repeat):
            elapsed, lines = timed_run(config, workers)
            if reference is None:
                reference = lines
            elif lines != reference:
                raise SystemExit(f"results with {workers} workers differ from those with {counts[0]}")
            best = elapsed if best is None else min(best, elapsed)
        base = base or best
        click.echo(f"{workers} worker(s): {games} games in {best:.2f} s = {games / best:.1f} games/s, "
                   f"speed-up {base / best:.2f}x")


if __name__ == "__main__":
    main()
