"""``bluff replay <results.jsonl|record.json> [--game-id ID]``: a recorded game, move by move."""

from __future__ import annotations

import click

from bluff_envs.records import moves, read_records


@click.command("replay")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--game-id", default=None, help="Which game of a results.jsonl (default: the first).")
@click.option("--quiet", is_flag=True, help="Only the moves, without the table before each.")
def command(path, game_id, quiet):
    """Print a recorded game move by move: the table as the acting player sees it (ansi view),
    then the action taken. The replay checks that it reaches the recorded outcome."""
    try:
        records = list(read_records(path))
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    if not records:
        raise click.ClickException(f"{path} holds no games")
    if game_id is not None:
        chosen = [r for i, r in records if i == game_id]
        if not chosen:
            known = ", ".join(i for i, _ in records[:5] if i)
            raise click.ClickException(f"no game {game_id!r} in {path}; game ids look like {known} …")
        record = chosen[0]
    else:
        record = records[0][1]
    options = ", ".join(f"{k}={v!r}" for k, v in record.options.items()) or "default options"
    click.echo(f"{record.game} ({options}), seed {record.seed}")
    click.echo("seats: " + ", ".join(f"player_{s}={spec}" for s, spec in enumerate(record.seats)))
    try:
        for step, agent, name, text in moves(record):
            if not quiet:
                click.echo("")
                click.echo(text)
            click.echo(f"[{step}] {agent} ({record.seats[int(agent.rsplit('_', 1)[1])]}): {name}")
    except ValueError as error:
        raise click.ClickException(f"the record does not replay: {error}") from None
    rewards = ", ".join(f"player_{s}: {r:+.3f}" for s, r in enumerate(record.rewards))
    end = "truncated" if record.truncated else "ended"
    click.echo(f"\n{end} after {record.steps} decisions; rewards {rewards}")
