"""``bluff tournament <config.yaml> [--workers N] [--out RUN_DIR]``."""

from __future__ import annotations

import os

import click

from experiments.tournament.config import ConfigError, TournamentConfig
from experiments.tournament.runner import RunDirectoryError, default_run_dir, run_tournament

from experiments.commands import disk_errors_as_messages, trust_pickle_option


@click.command("tournament")
@trust_pickle_option
@click.argument("config_path", metavar="CONFIG.yaml")
@click.option("--workers", type=click.IntRange(min=1, max=os.cpu_count() or 1), default=None,
              help="Worker processes (default: the config's, else all cores).")
@click.option("--out", "run_dir", type=click.Path(file_okay=False), default=None,
              help="Run directory (default: runs/tournaments/<name>). If it holds results of this "
                   "tournament, the run resumes.")
@click.option("--no-progress", is_flag=True, help="No progress bar.")
@disk_errors_as_messages
def command(config_path, workers, run_dir, no_progress):
    """Hold a tournament from a YAML config: duplicate deals, seat rotation, parallel workers,
    results appended game by game (an interrupted run resumes), then report.md, plots and
    summary.json in the run directory and a table here."""
    try:
        config = TournamentConfig.load(config_path)
        run_dir = run_dir or default_run_dir(config)
    except ValueError as error:  # a ConfigError, or a name that is not a plain directory name
        raise click.ClickException(str(error)) from None
    click.echo(f"{config.name}: {len(config.tasks())} games -> {run_dir}", err=True)
    try:
        run_tournament(config, run_dir, workers=workers, progress=not no_progress)
    except RunDirectoryError as error:
        raise click.ClickException(str(error)) from None
    except KeyboardInterrupt:
        raise click.ClickException(f"interrupted; run the same command again to resume from {run_dir}") from None
    click.echo(f"report: {run_dir}/report.md", err=True)
