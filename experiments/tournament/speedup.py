"""Measure how a tournament's games scale with worker processes (nothing is written).

``python -m experiments.tournament.speedup <config.yaml> [--deals N] [--workers 1,2] [--repeat R]``
plays the config's games with each number of workers (pool start-up included; the runs are
interleaved and the fastest of ``--repeat`` counts), checks that every run gives the same results, and prints games/s and the
speed-up over the first entry of ``--workers``, with the CPU time the games took (what
parallelism costs in extra work, whatever else runs on the machine).
"""

from __future__ import annotations

import dataclasses
import math
import resource
import time

import click

from experiments.tournament.config import TournamentConfig
from agents.arena.executor import batches_of, make_executor


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (workers, once the pool is shut)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_run(config: TournamentConfig, workers: int, kind: str = "local", address: str | None = None):
    """``(wall seconds, CPU seconds, sorted results lines)`` of playing every game once."""
    tasks = config.tasks()
    start, cpu = time.perf_counter(), cpu_seconds()
    with make_executor(kind, workers, address) as executor:
        lines = [x for batch in executor.run(batches_of(tasks, workers, config.batch_size)) for x in batch]
    elapsed, used = time.perf_counter() - start, cpu_seconds() - cpu
    return elapsed, used, sorted(lines, key=lambda x: x["game_id"])


def spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def control(workers: int, n: int = 5_000_000) -> float:
    """Seconds for a fixed pure-Python workload split over ``workers`` processes: the
    parallel speed-up the machine itself gives right now, to compare the engine's with."""
    import multiprocessing

    start = time.perf_counter()
    jobs = [n] * 4
    if workers == 1:
        for job in jobs:
            spin(job)
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            pool.map(spin, jobs)
    return time.perf_counter() - start


@click.command()
@click.argument("config_path")
@click.option("--deals", type=int, default=None, help="Override the config's number of deals.")
@click.option("--workers", "worker_counts", default="1,2", help="Worker counts to compare, comma-separated.")
@click.option("--repeat", type=int, default=1, help="Runs per worker count; the fastest counts.")
@click.option("--control", "control_run", is_flag=True, help="Also time a pure CPU loop split the same ways: the speed-up "
              "the machine allows at the moment (on a shared machine, often far below the core count).")
def main(config_path, deals, worker_counts, repeat, control_run):
    config = TournamentConfig.load(config_path)
    if deals is not None:
        config = dataclasses.replace(config, deals=deals)
    counts = [int(w) for w in worker_counts.split(",")]
    games = len(config.tasks())
    best: dict[int, float] = {}
    spun: dict[int, float] = {}
    cpu: dict[int, float] = {}
    reference = None
    for _ in range(repeat):  # interleaved, so that a busy spell on the machine hits every count
        for workers in counts:
            if control_run:
                spun[workers] = min(spun.get(workers, math.inf), control(workers))
            elapsed, used, lines = timed_run(config, workers)
            if reference is None:
                reference = lines
            elif lines != reference:
                raise SystemExit(f"results with {workers} workers differ from those with {counts[0]}")
            best[workers] = min(best.get(workers, elapsed), elapsed)
            cpu[workers] = min(cpu.get(workers, used), used)
            click.echo(f"  {workers} worker(s): {elapsed:.2f} s, {used:.2f} CPU s", err=True)
    base = best[counts[0]]
    for workers in counts:
        line = (f"{workers} worker(s): {games} games in {best[workers]:.2f} s = {games / best[workers]:.1f} games/s, "
                f"speed-up {base / best[workers]:.2f}x, CPU time {cpu[workers]:.2f} s")
        if control_run:
            line += f"; a pure CPU loop: speed-up {spun[counts[0]] / spun[workers]:.2f}x"
        click.echo(line)


if __name__ == "__main__":
    main()
