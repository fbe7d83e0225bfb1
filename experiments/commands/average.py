"""``bluff average CKPT CKPT … --out FILE``."""

from __future__ import annotations

import click

from experiments.commands import disk_errors_as_messages


@click.command("average")
@click.argument("checkpoints", nargs=-1, required=True)
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="The averaged checkpoint to write (a .zip; e.g. beside the run's checkpoints).")
@disk_errors_as_messages
def command(checkpoints, out):
    """One policy from several checkpoints of a run: the mean of their weights.

    CHECKPOINTS: two or more checkpoints (or run directories, for their final agents) of one
    game, options and network, e.g. a run's last three. The result plays as ppo:FILE and
    warm-starts like any checkpoint, and cannot be resumed (agents/ppo/average.py). Written as
    RUN/checkpoints/average.zip, it is what ppo:RUN plays; a training config averages by itself
    with checkpoint.average_last.
    """
    from agents.ppo import checkpoint
    from agents.ppo.average import average

    try:
        path = average(checkpoints, out)
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    steps = ", ".join(f"{source['num_timesteps']:,}" for source in checkpoint.read_metadata(path)["averaged_from"])
    click.echo(f"{path}: the mean of the weights of {len(checkpoints)} checkpoints ({steps} steps); "
               f"play it as ppo:{path}")
