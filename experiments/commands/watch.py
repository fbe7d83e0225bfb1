"""``bluff watch <game> --agents spec1,spec2,... [--gif FILE | --mp4 FILE]``: agents play one game.

In the terminal, the table is shown before every decision as the acting player sees it, with
what happened told by the game's narrator, at ``--delay`` seconds a move. ``--gif`` or ``--mp4``
writes the pictures of the ``rgb_array`` render mode instead (MP4 needs the ``moviepy``
package, installed with the ``dev`` extra). Learned agents (``ppo:…``, the zoo's) play here
as they play in tournaments.
"""

from __future__ import annotations

import time
from pathlib import Path

import click
import numpy as np

import bluff_envs
from agents import GameInfo, make_agent
from experiments.commands import trust_pickle_option
from experiments.commands.play import announcer_for, parse_options


def watch(game: str, options: dict, specs: list[str], seed: int | None, *, delay: float = 0.0,
          movie: Path | None = None, fps: int = 2, echo=click.echo) -> list[float]:
    """Play one game; returns the rewards. With ``movie`` the frames go to a GIF or an MP4."""
    mode = "rgb_array" if movie is not None else "ansi"
    env = bluff_envs.make(game, raw=True, render_mode=mode, **options)
    n = len(env.possible_agents)
    if len(specs) == 1:
        specs = specs * n
    if len(specs) != n:
        raise click.BadParameter(f"{len(specs)} agents for the {n} seats of {game} (one spec for all, or one per seat)",
                                 param_hint="--agents")
    info = GameInfo.of(env)
    seeds = np.random.SeedSequence(seed).generate_state(n)
    agents = {name: make_agent(spec, info, int(s)) for name, spec, s in zip(env.possible_agents, specs, seeds)}
    echo(f"{game}: " + ", ".join(f"{a} = {spec}" for a, spec in zip(env.possible_agents, specs)))
    env.reset(seed=seed)
    announcer = announcer_for(env)
    frames, rewards = [], {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if movie is not None:
            frames.append(env.render())
        else:
            echo("\n" + env.render())
        action = agents[agent].act(observation)
        seat = env.possible_agents.index(agent)
        env.step(action)
        if movie is None:
            echo(f"{agent} ({specs[seat]}): {env.unwrapped.action_name(action)}")
            for line in announcer.lines(env.unwrapped.last_events, env.unwrapped.game_state, seat) if announcer else ():
                echo("  " + line)
        if delay:
            time.sleep(delay)
    echo("game over: " + ", ".join(f"{a} {r:+.3f}" for a, r in rewards.items()))
    if movie is not None:
        write_movie(frames, movie, fps)
        echo(f"{len(frames)} frames -> {movie}")
    return [rewards[a] for a in env.possible_agents]


def write_movie(frames: list[np.ndarray], path: Path, fps: int) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".gif":
        from PIL import Image

        images = [Image.fromarray(f) for f in frames]
        images[0].save(path, save_all=True, append_images=images[1:], duration=int(1000 / fps), loop=0)
        return
    try:
        from moviepy import ImageSequenceClip
    except ImportError:
        raise click.ClickException('an MP4 needs moviepy (pip install moviepy); --gif needs nothing more') from None
    ImageSequenceClip(list(frames), fps=fps).write_videofile(str(path), logger=None)


@click.command("watch")
@trust_pickle_option
@click.argument("game")
@click.option("--agents", "agent_specs", required=True,
              help="Agent specs for the seats, comma-separated in seat order (one spec fills every seat).")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="KEY=VALUE", help="A game option (repeatable).")
@click.option("--seed", type=int, default=None, help="Seed of the deal and the agents.")
@click.option("--delay", type=click.FloatRange(min=0), default=0.0, help="Seconds to wait after each move.")
@click.option("--gif", "gif", type=click.Path(dir_okay=False), default=None, help="Write the game as a GIF.")
@click.option("--mp4", "mp4", type=click.Path(dir_okay=False), default=None, help="Write the game as an MP4 (moviepy).")
@click.option("--fps", type=click.IntRange(min=1), default=2, help="Frames per second of the GIF or MP4.")
def command(game, agent_specs, option_pairs, seed, delay, gif, mp4, fps):
    """Watch agents play one game, in the terminal or into a GIF or MP4."""
    if gif and mp4:
        raise click.UsageError("give --gif or --mp4, not both")
    specs = [s.strip() for s in agent_specs.split(",") if s.strip()]
    try:
        watch(game, parse_options(option_pairs), specs, seed, delay=delay, movie=Path(gif or mp4) if (gif or mp4) else None,
              fps=fps)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
