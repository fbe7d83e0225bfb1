"""Running a study in its run directory, resumably.

The run directory::

    experiment.yaml             the resolved experiment (every training config in full)
    run.json                    seed, library versions, one entry per session (start, resume)
    <game>/train/<agent>/       each training run (see agents.ppo.train)
    <game>/tournament/          each tournament (see experiments.tournament.runner)
    <game>/robustness/<agent>/  a trained agent's robustness matrix, where the study asks for it
    <game>/exploit/<agent>/     its exploiters (see agents.ppo.exploit), where the study asks for them
    <game>/exploit_field/       the exploiters of the heuristic field, shared by the game's agents
    report.md, summary.json, plots/

The agents are trained first, up to ``workers`` runs at once in processes of their own (an agent
trained from another of its study after it); then,
game by game, the tournament, the robustness matrices and the exploiters. Running again in the
same directory continues where the last session stopped: finished training runs, matrices and
exploiters are kept, unfinished runs resume from their newest checkpoint, tournaments play only
the games not yet recorded. A directory holding another experiment is refused.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import yaml

from agents.training.run_dir import RunDirectoryError, exclusive, inside
from experiments.study.config import Experiment, trained_agent_spec


def run_experiment(experiment: Experiment, run_dir: str | Path, *, workers: int | None = None,
                   progress: bool = True, echo: Callable[[str], None] = print) -> dict[str, Any]:
    """Train what needs training, hold every tournament, write the report; returns the summary.
    One writer at a time: a second run on the same directory is a ``RunDirectoryError``."""
    run_dir = Path(run_dir)
    with exclusive(run_dir):
        return _run(experiment, run_dir, workers, progress, echo)


def _run(experiment: Experiment, run_dir: Path, workers: int | None, progress: bool,
         echo: Callable[[str], None]) -> dict[str, Any]:
    from experiments.study.report import write_report
    from experiments.tournament.runner import run_tournament

    _claim(run_dir, experiment)
    _log_session(run_dir, experiment)
    started = time.perf_counter()
    _train_all(experiment, run_dir, workers or experiment.workers, echo)
    tournaments: dict[str, dict[str, Any]] = {}
    steps: dict[str, dict[str, Any]] = {}  # each game's robustness matrices and exploiters
    for n, study in enumerate(experiment.games, 1):
        checkpoints = {agent: trained_agent_spec(run_dir, study.game, agent) for agent in study.train}
        echo(f"[{n}/{len(experiment.games)}] {study.game}: tournament")
        config = study.tournament_config(checkpoints)
        tournaments[study.game] = run_tournament(
            config, inside(run_dir, study.game, "tournament", what="game name"), workers=workers or experiment.workers, progress=progress
        )
        steps[study.game] = _robustness(study, run_dir, experiment.seed, checkpoints, echo)
        steps[study.game].update(_exploit(study, run_dir, checkpoints, echo))
        steps[study.game].update(_transfer(study, run_dir, experiment.seed, workers or experiment.workers, checkpoints,
                                           echo))
    summary = write_report(run_dir, experiment, tournaments, steps)
    echo(f"report: {run_dir / 'report.md'} ({time.perf_counter() - started:.0f} s this session)")
    return summary


def _train_all(experiment: Experiment, run_dir: Path, workers: int | None, echo: Callable[[str], None]) -> None:
    """Every agent not yet trained, each run in its own run directory; up to ``workers``
    (default: every core) runs at once, each in a process of its own, in rounds: an agent
    trained from others of its study waits for them. Each run is seeded by its config alone,
    so the agents are the same whatever the number of processes."""
    waiting = [(study, agent) for study in experiment.games for agent in study.train]
    done: set[tuple[str, str]] = set()
    while waiting:
        ready = [(s, a) for s, a in waiting if all((s.game, need) in done for need in s.needs.get(a, ()))]
        _train_round(ready, run_dir, workers, echo)
        done |= {(s.game, a) for s, a in ready}
        waiting = [job for job in waiting if job not in ready]


def _train_round(agents: list, run_dir: Path, workers: int | None, echo: Callable[[str], None]) -> None:
    """Train these (study, agent) pairs, those not yet trained, up to ``workers`` at once."""
    from agents.ppo import checkpoint

    jobs = []
    for study, agent in agents:
        out = inside(run_dir, study.game, "train", agent, what="trained agent name")
        if (out / "result.json").exists():
            echo(f"{study.game}: {agent} already trained")
            continue
        checkpoints = {name: trained_agent_spec(run_dir, study.game, name) for name in study.train}
        config = study.train_config(agent, checkpoints)
        resume = checkpoint.latest(out) is not None
        echo(f"{study.game}: training {agent} for {config.total_steps:,} steps" + (" (resuming)" if resume else "")
             + (f" from {', '.join(study.needs[agent])}" if study.needs.get(agent) else ""))
        jobs.append((config, out, resume, f"{study.game}/{agent}"))
    processes = min(len(jobs), workers or os.cpu_count() or 1)
    if processes <= 1:
        for config, out, resume, _ in jobs:
            _train(config, out, resume, echo)
        return
    echo(f"training {len(jobs)} agents, {processes} at a time")
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {pool.submit(_train, config, out, resume, None, label): label for config, out, resume, label in jobs}
        failed = []
        for future in as_completed(futures):
            try:
                future.result()
                echo(f"{futures[future]}: trained")
            except Exception as error:  # the others go on; every failure is reported below
                failed.append(f"{futures[future]}: {type(error).__name__}: {error}")
    if failed:
        raise RuntimeError("training failed for " + "; ".join(failed))


def _robustness(study, run_dir: Path, seed: int, checkpoints: dict[str, str], echo: Callable[[str], None]) -> dict[str, Any]:
    """The robustness matrix of each agent the study names, kept in ``<game>/robustness/<agent>/``
    (a finished matrix is not played again); the experiment's seed picks the deals."""
    from agents.training.robustness import markdown, record, robustness_matrix

    found: dict[str, Any] = {}
    step = study.robustness
    for agent in step.agents if step is not None else ():
        out = inside(run_dir, study.game, "robustness", agent, what="trained agent name")
        path = out / "robustness.json"
        if not path.exists():
            echo(f"{study.game}: robustness of {agent} ({step.deals} deals per field)")
            rows = robustness_matrix(study.game, study.options, checkpoints[agent], deals=step.deals, seed=seed)
            out.mkdir(parents=True, exist_ok=True)
            (out / "robustness.md").write_text(markdown(rows, agent))
            path.write_text(json.dumps(record(rows, agent=agent, game=study.game, options=study.options,
                                              deals=step.deals, seed=seed), indent=2) + "\n")
        found.setdefault("robustness", {})[agent] = json.loads(path.read_text())
    return found


def _exploit(study, run_dir: Path, checkpoints: dict[str, str], echo: Callable[[str], None]) -> dict[str, Any]:
    """The exploiters of each agent the study names, in ``<game>/exploit/<agent>/`` (finished
    exploiters are kept, an interrupted one resumes)."""
    step = study.exploit
    if step is None:
        return {}
    from agents.ppo.exploit import exploit

    found = {}
    for agent in step.agents:
        out = inside(run_dir, study.game, "exploit", agent, what="trained agent name")
        echo(f"{study.game}: exploiters of {agent} ({step.steps:,} steps, seeds {list(step.seeds)}, "
             f"starts {list(step.starts)})")
        summary = exploit(checkpoints[agent], study.exploit_recipe, out, seeds=step.seeds, steps=step.steps,
                          reference=step.reference, starts=step.starts, field_out=run_dir / study.game / "exploit_field",
                          echo=echo)
        found[agent] = {**summary, "agent": agent}
    return {"exploit": found}


def _transfer(study, run_dir: Path, seed: int, workers: int | None, checkpoints: dict[str, str],
              echo: Callable[[str], None]) -> dict[str, Any]:
    """The transfer exploitability of each agent the study names, in ``<game>/transfer/<agent>/``
    (kept once written): the exploiters under the step's paths and the study's own (its
    ``<game>/`` folder: the exploit step's, league exploiters), the experiment's seed picking
    the deals, on ``workers`` processes (None: all cores, as training and tournaments). No
    exploiter at all is recorded as such, not an error."""
    step = study.transfer
    if step is None:
        return {}
    from agents.training.transfer import find_exploiters, markdown, transfer

    found = {}
    for agent in step.agents:
        out = inside(run_dir, study.game, "transfer", agent, what="trained agent name")
        path = out / "transfer.json"
        if not path.exists():
            exploiters, skipped = find_exploiters([*study.transfer_paths, run_dir / study.game])
            echo(f"{study.game}: transfer exploitability of {agent} ({len(exploiters)} exploiters, {step.deals} deals)")
            try:
                record = transfer(study.game, study.options, checkpoints[agent], exploiters, deals=step.deals, seed=seed,
                                  confirm=step.confirm, confirm_deals=step.confirm_deals, workers=workers or os.cpu_count() or 1,
                                  echo=echo)
            except ValueError as error:  # none of them plays this game and options
                record = {"agent": checkpoints[agent], "game": study.game, "exploiters": 0, "rows": [],
                          "strongest": None, "skipped": [], "error": str(error)}
            record["skipped"] = skipped + record["skipped"]
            out.mkdir(parents=True, exist_ok=True)
            (out / "transfer.md").write_text(markdown(record) if record["rows"] else f"No exploiter to play: {record['error']}\n")
            path.write_text(json.dumps(record, indent=2) + "\n")
        found[agent] = {**json.loads(path.read_text()), "agent": agent}
    return {"transfer": found}


def _train(config, out: Path, resume: bool, echo: Callable[[str], None] | None, label: str = "") -> None:
    """One training run (in a worker process: ``echo`` None, its lines printed with ``label``)."""
    from agents.ppo.train import Trainer

    if echo is None:
        def echo(line: str) -> None:
            print(f"[{label}] {line}" if not line.startswith("[") else line, flush=True)
    Trainer(config, out, resume=resume, echo=echo).run()


def _claim(run_dir: Path, experiment: Experiment) -> None:
    saved = run_dir / "experiment.yaml"
    resolved = experiment.to_dict()
    if saved.exists():
        before = yaml.safe_load(saved.read_text())
        if before != json.loads(json.dumps(resolved)):
            raise RunDirectoryError(
                f"{run_dir} holds another experiment ({saved} differs); resume it with the same file, "
                "or run into another --out directory"
            )
        return
    run_dir.mkdir(parents=True, exist_ok=True)
    saved.write_text(yaml.safe_dump(resolved, sort_keys=False))


def _log_session(run_dir: Path, experiment: Experiment) -> None:
    from agents.ppo.checkpoint import library_versions

    path = run_dir / "run.json"
    run = json.loads(path.read_text()) if path.exists() else {"name": experiment.name, "seed": experiment.seed, "sessions": []}
    run["versions"] = library_versions()
    run["sessions"].append({"started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                            "command": " ".join(sys.argv)})
    path.write_text(json.dumps(run, indent=2))
