"""Holding a tournament in a run directory, resumably.

The run directory holds ``tournament.json`` (the resolved config and what the games depend
on), ``versions.json``, ``results.jsonl`` (one line per finished game) and, at the end,
``summary.json``, ``report.md`` and ``plots/``. Running again in the same directory plays only
the games not yet in ``results.jsonl``; a directory holding another tournament is refused.
"""

from __future__ import annotations

import json
import platform
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from experiments.tournament.config import TournamentConfig
from agents.arena.executor import Executor, batches_of, make_executor
from agents.training.run_dir import RunDirectoryError, exclusive, inside
from experiments.tournament.report import build_summary, print_table, write_report
from experiments.tournament.results import ResultsFile


def default_run_dir(config: TournamentConfig) -> Path:
    return inside(Path("runs") / "tournaments", config.name, what="tournament name")


def run_tournament(config: TournamentConfig, run_dir: str | Path | None = None, *, workers: int | None = None,
                   executor: Executor | None = None, progress: bool = True, report: bool = True,
                   console=None) -> dict[str, Any]:
    """Play every game of ``config`` not yet in ``run_dir``'s results, then write the report.
    Returns the summary. ``workers`` overrides the config's; ``executor`` replaces the one
    the config names (tests inject one)."""
    run_dir = Path(run_dir) if run_dir is not None else default_run_dir(config)
    run_dir.mkdir(parents=True, exist_ok=True)
    with exclusive(run_dir):
        return _run(config, run_dir, workers, executor, progress, report, console)


def _run(config, run_dir, workers, executor, progress, report, console) -> dict[str, Any]:
    _claim(run_dir, config)
    tasks = config.tasks()
    results = ResultsFile(run_dir / "results.jsonl")
    finished = results.finished()
    scheduled = {t.game_id for t in tasks}
    strangers = sorted(set(finished) - scheduled)
    if strangers:
        raise RunDirectoryError(f"{results.path} holds games this tournament does not schedule (e.g. {strangers[0]})")
    todo = [t for t in tasks if t.game_id not in finished]
    if todo:
        own = executor is None
        executor = executor or make_executor(config.executor.kind, workers or config.workers, config.executor.address)
        try:
            _play(todo, len(tasks), len(finished), executor, results, config, progress)
        finally:
            if own:
                executor.close()
    games = results.games(scheduled)
    summary = build_summary(config, games, len(tasks))
    if report:
        write_report(run_dir, summary)
        print_table(summary, console)
    return summary


def _play(todo, total, done, executor, results, config, progress) -> None:
    from experiments.terminal import progress as progress_bar

    batches = batches_of(todo, executor.workers, config.batch_size)
    with progress_bar(total, done, config.name, "game", enabled=progress) as bar:
        for lines in executor.run(batches):
            results.append(lines)
            bar.update(len(lines))


def _claim(run_dir: Path, config: TournamentConfig) -> None:
    """Record which tournament this directory holds, or check that it is this one."""
    path = run_dir / "tournament.json"
    key = config.outcome_key()
    if path.exists():
        try:
            held = json.loads(path.read_text())
        except (json.JSONDecodeError, UnicodeDecodeError):
            held = None
        if not isinstance(held, dict):
            raise RunDirectoryError(f"{path} is damaged (not a JSON object); move {run_dir} away to start over")
        if held.get("outcome_key") != key:
            differ = sorted(k for k in set(key) | set(held.get("outcome_key", {}))
                            if key.get(k) != held.get("outcome_key", {}).get(k))
            raise RunDirectoryError(
                f"{run_dir} holds another tournament (it differs in: {', '.join(differ)}); "
                "choose another --out directory or delete this one"
            )
    path.write_text(json.dumps({"config": config.to_dict(), "outcome_key": key}, indent=1) + "\n")
    (run_dir / "versions.json").write_text(json.dumps(versions(), indent=1) + "\n")


def versions() -> dict[str, str]:
    out = {"python": sys.version.split()[0], "platform": platform.platform()}
    for package in ("bluff_envs", "numpy", "pettingzoo", "gymnasium", "openskill", "torch", "sb3-contrib"):
        try:
            out[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            pass
    return out
