"""``bluff robustness AGENT [--game G] [--deals N] [--seed S] [--earlier SPEC ...] [--other SPEC ...]``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from experiments.commands import disk_errors_as_messages, trust_pickle_option
from experiments.commands.exploit import _game_of, _name_of, _options_of


@click.command("robustness")
@trust_pickle_option
@click.argument("agent")
@click.option("--game", help="The agent's game (read from a ppo: checkpoint, or a mix: agent's first, when not given).")
@click.option("--options", "options_json", default=None, help="Game options as JSON (default: the checkpoint's).")
@click.option("--deals", type=click.IntRange(min=1), default=100, show_default=True, help="Duplicate deals per field.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the deals.")
@click.option("--earlier", multiple=True, help="An earlier checkpoint of the agent, as a field (repeatable).")
@click.option("--other", "others", multiple=True, help="Another agent (e.g. another seed's), as a field (repeatable).")
@click.option("--out", "out", type=click.Path(file_okay=False), help="Directory (default runs/robustness/<agent name>).")
@disk_errors_as_messages
def command(agent, game, options_json, deals, seed, earlier, others, out):
    """AGENT against the standard fields of its game, on the same fresh duplicate deals.

    Every heuristic, random, the mixed field, the challenge diagnostics, copies of AGENT, and any
    earlier checkpoints and other agents given: one table of win rates with Wilson 95 %
    intervals, parity and the edge over it (agents/training/robustness.py).
    """
    from agents.training.robustness import markdown, record, robustness_matrix
    from agents.training.run_dir import inside

    try:
        game = game or _game_of(agent)
        options = json.loads(options_json) if options_json else _options_of(agent)
        if not isinstance(options, dict):
            raise ValueError("--options must be a JSON object, e.g. '{\"num_players\": 4}'")
        where = Path(out) if out else inside(Path("runs") / "robustness", _name_of(agent), what="agent name")
        rows = robustness_matrix(game, options, agent, deals=deals, seed=seed, earlier=earlier, others=others)
    except (ValueError, json.JSONDecodeError) as error:
        raise click.UsageError(str(error)) from None
    where.mkdir(parents=True, exist_ok=True)
    table = markdown(rows, agent)
    (where / "robustness.md").write_text(table)
    (where / "robustness.json").write_text(json.dumps(
        record(rows, agent=agent, game=game, options=options, deals=deals, seed=seed), indent=2) + "\n")
    click.echo(table)
