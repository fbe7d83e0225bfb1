"""``bluff list``: every game with its options (defaults, allowed values) and action table."""

from __future__ import annotations

import click

import bluff_envs


def describe_game(name: str, actions: bool = True) -> str:
    module = bluff_envs.game_module(name)
    game = module.raw_env().game
    lines = [f"{name}  ({game.name}; bluff_envs/{name}-v0)"]
    summary = (module.__doc__ or "").strip().splitlines()
    if summary:
        lines.append(f"  {summary[0]}")
    lines.append("  options:")
    for o in type(game.config).OPTIONS:
        lines.append(f"    {o.name:<20} default {o.default_text:<28} allowed: {o.allowed}")
    if actions:
        lines.append(f"  actions (Discrete({len(game.action_names)})):")
        lines.extend(_action_rows(game.action_names))
    return "\n".join(lines)


def _action_rows(names) -> list[str]:
    rows, per_line = [], 6
    for start in range(0, len(names), per_line):
        cells = [f"{a:>3} {names[a]:<12}" for a in range(start, min(start + per_line, len(names)))]
        rows.append("    " + " ".join(cells).rstrip())
    return rows


@click.command("list")
@click.argument("game", required=False)
@click.option("--no-actions", is_flag=True, help="Leave out the action tables.")
def command(game, no_actions):
    """List the games, their options (defaults and allowed values) and action tables."""
    names = [game] if game else bluff_envs.available_games()
    try:
        click.echo("\n\n".join(describe_game(n, not no_actions) for n in names))
    except ValueError as error:
        raise click.UsageError(str(error)) from None
