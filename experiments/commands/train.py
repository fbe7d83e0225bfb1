"""``bluff train <config.yaml> [--out RUN_DIR] [--resume]``."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from experiments.commands import disk_errors_as_messages, trust_pickle_option


@click.command("train")
@trust_pickle_option
@click.argument("config_path", metavar="CONFIG.yaml", type=click.Path(dir_okay=False))
@click.option("--out", "run_dir", type=click.Path(file_okay=False), help="Run directory (default runs/train/<config>_seed<seed>).")
@click.option("--resume", is_flag=True, help="Continue the run in the run directory from its newest checkpoint.")
@click.option("--total-steps", type=click.IntRange(min=1), help="Override total_steps (e.g. to extend a finished run).")
@disk_errors_as_messages
def command(config_path, run_dir, resume, total_steps):
    """Self-play training with MaskablePPO from a YAML config.

    Everything the run writes goes into its run directory: the resolved config, seeds and
    versions, the progress log, TensorBoard logs (logs/), evaluations and checkpoints. A
    checkpoint plays as the agent ``ppo:<checkpoint.zip>`` (or ``ppo:<run directory>``).
    A config with ``algorithm: rllib`` trains with RLlib instead (see agents/rllib), and its
    checkpoints play as ``rllib:<checkpoint>``.
    """
    from agents.rllib.config import is_rllib_config

    if is_rllib_config(config_path):  # `algorithm: rllib`: RLlib's PPO (the optional ray extra)
        from experiments.commands.train_rllib import train_command

        return train_command(config_path, run_dir, resume, total_steps)
    from agents.training.config import load_config

    try:  # a bad config or run directory is the user's to fix: show it as a usage error
        config = load_config(config_path)
        if total_steps is not None:
            config = config.replace(total_steps=total_steps)
        from agents.ppo.train import Trainer, default_run_dir

        out = run_dir or default_run_dir(config_path, config)
        trainer = Trainer(config, Path(out), resume=resume, echo=click.echo)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    try:
        final = trainer.run()
    except KeyboardInterrupt:
        sys.exit(130)
    click.echo(f"checkpoint: {final}  (play it as ppo:{final})")
