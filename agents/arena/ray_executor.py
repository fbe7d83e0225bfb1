"""The Ray executor: a tournament's batches of games as Ray tasks, on one machine or a cluster.

Named in a tournament config as ``executor: ray`` (a Ray instance of this machine's cores,
started for the run and stopped after it) or ``executor: {kind: ray, address: ...}`` to join a
running cluster (``auto``: the cluster this machine belongs to; ``ray://head:10001``: a remote
head through Ray Client). ``workers`` caps the batches in flight; by default, every CPU of the
cluster. Each task runs :func:`~agents.arena.match.play_batch`, the same pure function
as the local executor, and its results lines come back to this process, which appends them to
``results.jsonl``: a run gives the same games whichever executor played them, and an
interrupted one resumes with either.

Ray is an optional extra (``pip install -e ".[ray]"``); it is imported only when a Ray
executor is built. The cluster's nodes need this package installed too (see the README).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from agents.arena.executor import WINDOW_PER_WORKER, Batch, Executor, Lines, in_flight
from agents.arena.match import play_batch


def import_ray():
    """The ``ray`` module, or an ``ImportError`` that says how to install it."""
    try:
        import ray
    except ImportError:
        raise ImportError('the Ray executor needs Ray: pip install -e ".[ray]"') from None
    return ray


def _play_batch_task(tasks: Batch) -> Lines:
    # a Ray worker process serves many tasks, so play_batch's table of environments and
    # loaded agents is reused from batch to batch, as in a local worker process
    return play_batch(tasks)


class RayExecutor(Executor):
    """Plays batches as Ray tasks (one CPU each). Joins the Ray instance already running in this
    process if there is one (a test's, a notebook's); otherwise connects to ``address`` or, with
    no address, starts a local instance with ``workers`` CPUs, and shuts it down on close."""

    def __init__(self, workers: int | None = None, address: str | None = None, **init_options: Any):
        self.ray = ray = import_ray()
        self._owns_ray = not ray.is_initialized()
        if self._owns_ray:
            options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, **init_options}
            if address is None:  # a local instance of its own, never a cluster that happens to run here
                from agents.arena.executor import default_workers

                options.setdefault("num_cpus", workers or default_workers())
                address = "local"
            ray.init(address=address, **options)
        self.workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        from agents.trust import ENV_VAR, pickle_trusted

        # the trust switch, given here, holds on the workers too (they load the agents)
        runtime = {"env_vars": {ENV_VAR: "1"}} if pickle_trusted() else None
        self._task = ray.remote(num_cpus=1, runtime_env=runtime)(_play_batch_task)

    def run(self, batches: Iterable[Batch]) -> Iterator[Lines]:
        ray = self.ray

        def finished(pending: list[Any]) -> tuple[list[Lines], list[Any]]:
            done, rest = ray.wait(pending, num_returns=1)
            return [ray.get(ref) for ref in done], rest

        yield from in_flight(batches, WINDOW_PER_WORKER * self.workers, self._task.remote, finished,
                             lambda ref: ray.cancel(ref, force=True))

    def close(self) -> None:
        if self._owns_ray and self.ray.is_initialized():
            self.ray.shutdown()
            self._owns_ray = False
