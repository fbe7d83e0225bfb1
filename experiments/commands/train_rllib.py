"""RLlib training from the command line: what ``bluff train`` runs for an ``algorithm: rllib``
config (the same options as for MaskablePPO)."""

from __future__ import annotations

import sys
from pathlib import Path

import click


def train_command(config_path: str, run_dir: str | None, resume: bool, total_steps: int | None) -> None:
    """Train from an ``algorithm: rllib`` config; bad configs and run directories are usage errors."""
    from agents.rllib.config import load_config

    try:
        config = load_config(config_path)
        if total_steps is not None:
            config = config.replace(total_steps=total_steps)
        from agents.rllib.train import RLlibTrainer, default_run_dir

        out = run_dir or default_run_dir(config_path, config)
        trainer = RLlibTrainer(config, Path(out), resume=resume, echo=click.echo)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    except ImportError as error:
        raise click.ClickException(str(error)) from None
    try:
        final = trainer.run()
    except KeyboardInterrupt:
        sys.exit(130)
    click.echo(f"checkpoint: {final}  (play it as rllib:{final})")
