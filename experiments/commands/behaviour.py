"""``bluff behaviour RESULTS.jsonl [--by stage|maker] [--agent SPEC ...] [--out FILE.json]``: claims by
stage, or challenge decisions by whose claim they answered."""

from __future__ import annotations

import json
from pathlib import Path

import click

import bluff_envs
from bluff_envs.behaviour import module_for, stage_tables
from bluff_envs.records import read_records
from agents.arena.behaviour import by_maker, maker_tables, stages_with_intervals
from experiments.commands import disk_errors_as_messages


@click.command("behaviour")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--by", "split", type=click.Choice(["stage", "maker"]), default="stage", show_default=True,
              help="stage: each agent's claims by the stage of the game; maker: each agent's uncertain challenge "
                   "decisions by the agent whose claim they answered.")
@click.option("--agent", "agents", multiple=True, help="Only this agent spec (repeatable; default: every agent).")
@click.option("--out", type=click.Path(dir_okay=False), help="Also write the counts to this JSON file.")
@disk_errors_as_messages
def command(path, split, agents, out):
    """Each agent's claims in a tournament's results.jsonl (or a record file), split by the stage
    of the game they were made at: how often the claim was a bluff, and how the table answered
    bluffs and true claims, each share with its count and a 95 % interval that resamples deals
    (the games of one deal seed: they are dealt the same cards, so their claims are not
    independent).

    With --by maker, each agent's answers to claims it could not prove false, split by whose
    claim it answered: the base rate of bluffs, how often it challenged the bluffs and the true
    claims, and how often its challenges were right, each with the same kind of interval. Its
    challenges beat the base rate exactly when it challenges bluffs more often than true claims.

    The records are replayed with full state, so this is for analysis after the games, not for
    agents."""
    try:
        records = [record for _, record in read_records(path)]
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    if not records:
        raise click.ClickException(f"{path} holds no games")
    games = sorted({r.game for r in records})
    if len(games) > 1:
        raise click.ClickException(f"{path} mixes games ({', '.join(games)}); one game per file")
    game = games[0]
    module = module_for(game)
    if module is None or not hasattr(module, "claims"):
        staged = [g for g in bluff_envs.available_games() if hasattr(module_for(g), "claims")]
        raise click.ClickException(f"{game} has no claims to split by {split}; "
                                   f"the games that have: {', '.join(staged)}")
    seated = sorted({spec for r in records for spec in r.seats})
    unknown = [a for a in agents if a not in seated]
    if unknown:
        raise click.ClickException(f"no agent {unknown[0]!r} in {path}; its agents are {', '.join(seated)}")
    if agents:  # only the games the agents asked for sat in: replaying is the slow part
        records = [r for r in records if set(agents) & set(r.seats)]
    try:
        counted, intervals = stages_with_intervals(records, module) if split == "stage" else (by_maker(records), {})
    except ValueError as error:  # a ReplayError: the record is not the game it claims to be
        raise click.ClickException(f"a game of {path} does not replay: {error}") from None
    if agents:
        counted = {a: counted.get(a, {}) for a in agents}
    numbers = {"game": game, "games": len(records), "source": str(path), "by": split}
    if split == "stage":
        click.echo(f"## Claims by stage: {game}, {len(records)} games of {path}\n")
        click.echo(stage_tables(counted, module.ANSWERS, intervals))
        numbers["answers"] = list(module.ANSWERS)
        numbers["intervals"] = {spec: intervals.get(spec, {}) for spec in counted}
    else:
        click.echo(f"## Uncertain challenge decisions by maker: {game}, {len(records)} games of {path}\n")
        click.echo(maker_tables(counted))
    if out:
        Path(out).write_text(json.dumps({**numbers, "agents": counted}, indent=1) + "\n")
