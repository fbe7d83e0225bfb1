"""``bluff run <experiment.yaml>``: a whole study — train, hold tournaments, write the report."""

from __future__ import annotations

import sys
from pathlib import Path

import os

import click

from experiments.commands import disk_errors_as_messages, trust_pickle_option


@click.command("run")
@trust_pickle_option
@click.argument("experiment_path", metavar="EXPERIMENT.yaml", type=click.Path(dir_okay=False))
@click.option("--out", "run_dir", type=click.Path(file_okay=False),
              help="Run directory (default runs/<name>). If it holds this experiment, the run resumes.")
@click.option("--workers", type=click.IntRange(min=1, max=os.cpu_count() or 1), help="Processes for training runs (one each) and tournaments (default: all cores).")
@click.option("--no-progress", is_flag=True, help="No progress bars.")
@disk_errors_as_messages
def command(experiment_path, run_dir, workers, no_progress):
    """Run a whole experiment: train its agents, hold its tournaments, write one report.

    Everything goes into the run directory: the resolved experiment, seeds and versions,
    training runs (checkpoints, TensorBoard logs), tournament results, and report.md with its
    plots and summary.json. Interrupted, the same command resumes where it stopped.
    """
    from experiments.study.config import load_experiment
    from experiments.study.run import RunDirectoryError, run_experiment

    from agents.training.run_dir import inside

    try:
        experiment = load_experiment(experiment_path)
        out = Path(run_dir) if run_dir else inside(Path("runs"), experiment.name, what="experiment name")
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    try:
        run_experiment(experiment, out, workers=workers, progress=not no_progress, echo=click.echo)
    except RunDirectoryError as error:
        raise click.UsageError(str(error)) from None
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: run the same command again to resume in {out}", err=True)
        sys.exit(130)
