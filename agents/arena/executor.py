"""Executors: where batches of games are played.

An executor takes batches of :class:`~agents.arena.schedule.GameTask` and yields
each batch's results lines (see :func:`~agents.arena.match.play_batch`) as soon as
the batch is done, in any order. Every executor runs the same pure function,
``play_batch``, so a game's result depends only on its task — never on the executor, the
worker or the batch it landed in. A distributed executor (Ray) plugs in by implementing
:meth:`Executor.run` with the same function on remote workers and being named in
``EXECUTORS``.
"""

from __future__ import annotations

import importlib
import importlib.util
import multiprocessing
import os
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from agents.arena.match import on_vector_engine, play_batch
from agents.arena.schedule import GameTask

Batch = list[GameTask]
Lines = list[dict[str, Any]]


# executor kind -> "module:class"; a kind is offered when its module is installed
EXECUTORS = {
    "local": "agents.arena.executor:LocalExecutor",
    "ray": "agents.arena.ray_executor:RayExecutor",
}
# what an executor needs beyond its module, and how to get it
REQUIRES = {"ray": ("ray", 'pip install -e ".[ray]"')}


def available_executors() -> list[str]:
    return [k for k, target in EXECUTORS.items() if importlib.util.find_spec(target.split(":")[0]) is not None]


WINDOW_PER_WORKER = 2  # batches in flight per worker: one running, one waiting to start


def in_flight(batches: Iterable[Batch], window: int, submit: Callable[[Batch], Any],
              finished: Callable[[list[Any]], tuple[list[Lines], list[Any]]], cancel: Callable[[Any], Any]) -> Iterator[Lines]:
    """Keep up to ``window`` batches submitted (``submit(batch)`` -> a job), yield the lines of
    each as it finishes (``finished(jobs)`` -> (lines of some finished jobs, the jobs still
    pending)), and cancel the pending jobs if the caller stops early: the batches not yet
    played are dropped."""
    pending: list[Any] = []
    queue = iter(batches)
    try:
        while True:
            while len(pending) < window:
                batch = next(queue, None)
                if batch is None:
                    break
                pending.append(submit(batch))
            if not pending:
                return
            lines, pending = finished(pending)
            yield from lines
    finally:
        for job in pending:
            cancel(job)


class Executor(ABC):
    """Plays batches of games; use as a context manager."""

    workers: int = 1

    @abstractmethod
    def run(self, batches: Iterable[Batch]) -> Iterator[Lines]:
        """Yield each batch's results lines when it is done (any order)."""

    def close(self) -> None:
        pass

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class LocalExecutor(Executor):
    """Worker processes on this machine (``workers=None``: all cores); with one worker the
    games are played in this process, which is also the way to debug them."""

    def __init__(self, workers: int | None = None, address: str | None = None, start_method: str | None = None):
        if address is not None:
            raise ValueError("the local executor takes no address")
        self.workers = workers or default_workers()
        self.start_method = start_method
        self._pool: ProcessPoolExecutor | None = None

    def run(self, batches: Iterable[Batch]) -> Iterator[Lines]:
        if self.workers == 1:
            for batch in batches:
                yield play_batch(batch)
            return
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=self._context(), initializer=exit_with_parent,
                                             initargs=(os.getpid(),))
        pool = self._pool

        def finished(pending: list[Future]) -> tuple[list[Lines], list[Future]]:
            done, rest = wait(pending, return_when=FIRST_COMPLETED)
            return [future.result() for future in done], list(rest)

        yield from in_flight(batches, WINDOW_PER_WORKER * self.workers, lambda batch: pool.submit(play_batch, batch),
                             finished, Future.cancel)

    def _context(self):
        """Fork where it is safe: it starts workers at once, with everything imported. Once
        torch is loaded (a learned agent), a forked child could hang on the parent's thread
        pools, so workers then come from a clean fork server, which imports the game code once."""
        methods = multiprocessing.get_all_start_methods()
        method = self.start_method
        if method is None:
            method = "fork" if "fork" in methods and "torch" not in sys.modules else (
                "forkserver" if "forkserver" in methods else "spawn")
        context = multiprocessing.get_context(method)
        if method == "forkserver":
            context.set_forkserver_preload(["agents.arena.match"])
        return context

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def exit_with_parent(owner: int) -> None:
    """In a worker: end when ``owner`` (the process that made the pool) dies, even by ``kill -9``,
    which leaves it no chance to shut the pool down. A forked worker's parent is the owner:
    Linux then delivers SIGTERM at once (``PR_SET_PDEATHSIG``). A worker from a fork server (or
    on another system) watches the owner from a thread and leaves within a second of its death."""
    import signal
    import threading
    import time

    if os.getppid() == owner:
        try:
            import ctypes

            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            if libc.prctl(1, int(signal.SIGTERM), 0, 0, 0) == 0:  # PR_SET_PDEATHSIG = 1
                if os.getppid() != owner:  # the owner died before the call: nobody would tell us
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while not _gone(owner):
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="exit-with-owner").start()


def _gone(pid: int) -> bool:
    """``pid`` no longer runs (it is gone, or a zombie waiting to be reaped)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return False


def make_executor(kind: str = "local", workers: int | None = None, address: str | None = None) -> Executor:
    """The executor named ``kind`` (see ``EXECUTORS``)."""
    if kind not in available_executors():
        raise ValueError(f"unknown executor {kind!r}; executors: {', '.join(available_executors())}")
    module, name = EXECUTORS[kind].split(":")
    return getattr(importlib.import_module(module), name)(workers=workers, address=address)


def batches_of(tasks: list[GameTask], workers: int, batch_size: int | None = None) -> list[Batch]:
    """Consecutive tasks in batches: big enough to make the hand-over cheap, small enough that
    every worker gets many (for balance, and to lose little when a run is killed). Games for the
    vector engine come in batches of hundreds: it plays a batch's games side by side."""
    if batch_size is None:
        if on_vector_engine(tasks):
            batch_size = max(64, min(1024, len(tasks) // (2 * workers)))
        else:
            batch_size = max(1, min(16, len(tasks) // (8 * workers)))
    return [tasks[i : i + batch_size] for i in range(0, len(tasks), batch_size)]
