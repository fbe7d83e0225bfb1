"""``bluff transfer AGENT PATH... [--deals N] [--seed S] [--confirm K] [--confirm-deals N] [--out DIR]``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from experiments.commands import disk_errors_as_messages, trust_pickle_option
from experiments.commands.exploit import _game_of, _name_of, _options_of


@click.command("transfer")
@trust_pickle_option
@click.argument("agent")
@click.argument("paths", nargs=-1, required=True)
@click.option("--game", help="The agent's game (read from a ppo: checkpoint, or a mix: agent's first, when not given).")
@click.option("--options", "options_json", default=None, help="Game options as JSON (default: the checkpoint's).")
@click.option("--deals", type=click.IntRange(min=1), default=250, show_default=True,
              help="Duplicate deals each exploiter plays (every rotation of the seats).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the deals.")
@click.option("--confirm", type=click.IntRange(min=0), default=3, show_default=True,
              help="The strongest exploiters played again on other deals (the winner's curse).")
@click.option("--confirm-deals", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Duplicate deals of each confirmation.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="Processes playing the games.")
@click.option("--out", "out", type=click.Path(file_okay=False), help="Directory (default runs/transfer/<agent name>).")
@disk_errors_as_messages
def command(agent, paths, game, options_json, deals, seed, confirm, confirm_deals, workers, out):
    """Exploiters trained before, each against copies of AGENT: its transfer exploitability.

    PATHS are exploiter checkpoints, exploiter runs, or directories searched for them (the
    vs_* runs of `bluff exploit`, the league/exploiter_* runs of league training, the zoo's
    kept exploiters: zoo/exploiters, from any directory); only
    finished runs of AGENT's game and options play. Each plays against copies of AGENT in
    every other seat (Tarneeb: its partnership) on the same fresh duplicate deals; the
    --confirm strongest play again on other deals, and the strongest confirmed edge over
    parity is reported with its Wilson 95 % interval (agents/training/transfer.py).
    """
    from agents.ppo.zoo import folder
    from agents.training.run_dir import exclusive, inside
    from agents.training.transfer import find_exploiters, markdown, transfer

    try:
        game = game or _game_of(agent)
        options = json.loads(options_json) if options_json else _options_of(agent)
        if not isinstance(options, dict):
            raise ValueError("--options must be a JSON object, e.g. '{\"num_players\": 4}'")
        exploiters, skipped = find_exploiters([folder(p) for p in paths])
        if not exploiters:
            raise ValueError(f"no finished exploiter under {', '.join(p[:100] for p in paths[:5])}"
                             f"{' ...' if len(paths) > 5 else ''} ({len(skipped)} unfinished or broken)")
        where = Path(out) if out else inside(Path("runs") / "transfer", _name_of(agent), what="agent name")
    except (ValueError, json.JSONDecodeError) as error:
        raise click.UsageError(str(error)) from None
    where.mkdir(parents=True, exist_ok=True)
    try:
        with exclusive(where):  # one writer: another transfer into the same directory is refused
            record = transfer(game, options, agent, exploiters, deals=deals, seed=seed, confirm=confirm,
                              confirm_deals=confirm_deals, workers=workers, echo=click.echo)
            record["skipped"] = skipped + record["skipped"]
            (where / "transfer.json").write_text(json.dumps(record, indent=2) + "\n")
            report = markdown(record)
            (where / "transfer.md").write_text(report)
    except KeyboardInterrupt:
        sys.exit(130)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    click.echo(report)
