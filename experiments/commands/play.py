"""``bluff play <game> [--option key=value ...] --opponents spec1,spec2,... [--seat K] [--seed S]``.

A person takes a seat against agents. Before each of his decisions he sees the table as his
seat sees it (the game's ``ansi`` view) and the legal actions by number and name; he answers
with a number or a name (several at once separated by commas, e.g. ``add K, add K, done``).
Anything else is refused with a reason and asked again. The other players' moves are told
as they become visible to him; moves that only their own seat can see (which cards they are
putting down) are not. Reads standard input, so it can be driven by a script.
"""

from __future__ import annotations

import click
import numpy as np
import yaml

import bluff_envs
from agents import GameInfo, make_agent

from experiments.commands import trust_pickle_option

QUIT = ("q", "quit", "exit")


def parse_options(pairs: tuple[str, ...]) -> dict:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{pair!r}: expected key=value, e.g. num_players=3", param_hint="--option")
        options[key.strip()] = yaml.safe_load(value) if value.strip() else None
    return options


class Quit(Exception):
    pass


class HumanSeat:
    """Asks the person at the keyboard for actions; remembers answers typed ahead."""

    def __init__(self, env, seat: int):
        self.env = env
        self.seat = seat
        self.queued: list[str] = []

    def act(self) -> int:
        raw = self.env.unwrapped
        names = raw.action_names
        legal = [int(a) for a in raw.legal_actions()]
        while True:
            if not self.queued:
                click.echo("\n" + raw.state.render_text(self.seat))
                click.echo("legal actions: " + "   ".join(f"[{a}] {names[a]}" for a in legal))
                line = click.prompt("your move", default="", show_default=False, prompt_suffix="> ")
                self.queued = [part.strip() for part in line.split(",") if part.strip()]
                if not self.queued:
                    click.echo("type the number or the name of an action (q to quit)")
                    continue
            answer = self.queued.pop(0)
            if answer.lower() in QUIT:
                raise Quit
            action = self._parse(answer, names)
            if action is None or action not in legal:
                self.queued = []
                shown = f"{names[action]!r} ({action})" if action is not None else repr(answer)
                reason = "is not legal now" if action is not None else "is not an action of this game"
                click.echo(f"{shown} {reason}; choose one of: " + ", ".join(f"{a} ({names[a]})" for a in legal))
                continue
            return action

    @staticmethod
    def _parse(answer: str, names) -> int | None:
        if answer.isdigit():
            a = int(answer)
            return a if 0 <= a < len(names) else None
        wanted = " ".join(answer.lower().split())
        for a, name in enumerate(names):
            if name.lower() == wanted:
                return a
        return None


def narrate(agent: str, name: str) -> str:
    # the rank of a card being put down is private: only say that a card went down
    if name.startswith("add "):
        return f"{agent} puts down a card"
    return f"{agent}: {name}"


def play(game: str, options: dict, opponents: list[str], seat: int | None, seed: int | None) -> list[float]:
    env = bluff_envs.make(game, raw=True, render_mode="ansi", **options)
    n = len(env.possible_agents)
    if len(opponents) == 1:
        opponents = opponents * (n - 1)
    if len(opponents) != n - 1:
        raise click.BadParameter(f"{len(opponents)} opponents for the {n - 1} other seats of {game} "
                                 "(give one spec for all, or one per seat)", param_hint="--opponents")
    if seat is None:
        seat = 0
    if not 0 <= seat < n:
        raise click.BadParameter(f"seat {seat} does not exist; seats are 0 to {n - 1}", param_hint="--seat")
    info = GameInfo.of(env)
    seed_sequence = np.random.SeedSequence(seed)
    agent_seeds = seed_sequence.generate_state(n)
    others = iter(opponents)
    agents, specs = {}, {}
    for s, name in enumerate(env.possible_agents):
        if s != seat:
            specs[name] = next(others)
            try:
                agents[name] = make_agent(specs[name], info, int(agent_seeds[s]))
            except ValueError as error:
                raise click.BadParameter(str(error), param_hint="--opponents") from None
    me = env.possible_agents[seat]
    click.echo(f"{game}: you are {me}; " + ", ".join(f"{a} = {spec}" for a, spec in specs.items()))
    human = HumanSeat(env, seat)
    env.reset(seed=seed)
    rewards = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if agent == me:
            env.step(human.act())
            continue
        before = env.observe(me)["observation"]
        action = agents[agent].act(observation)
        env.step(action)
        if env.agents and not np.array_equal(before, env.observe(me)["observation"]):
            click.echo(narrate(agent, env.unwrapped.action_name(action)))
    click.echo("\n" + env.unwrapped.state.render_text(seat))
    click.echo("game over: " + ", ".join(f"{a} {r:+.3f}" + (" (you)" if a == me else "") for a, r in rewards.items()))
    return [rewards[a] for a in env.possible_agents]


@click.command("play")
@trust_pickle_option
@click.argument("game")
@click.option("--option", "-o", "option_pairs", multiple=True, metavar="KEY=VALUE",
              help="A game option (repeatable), e.g. -o num_players=3 -o last_play_checked=false.")
@click.option("--opponents", required=True, help="Agent specs for the other seats, comma-separated, in seat "
              "order (one spec fills every seat), e.g. honest,counter,random.")
@click.option("--seat", type=int, default=None, help="Your seat (player index, default 0).")
@click.option("--seed", type=int, default=None, help="Seed of the deal and the agents.")
def command(game, option_pairs, opponents, seat, seed):
    """Take a seat against agents in the terminal. Answer with an action's number or name;
    several separated by commas; q quits."""
    options = parse_options(option_pairs)
    specs = [s.strip() for s in opponents.split(",") if s.strip()]
    try:
        play(game, options, specs, seat, seed)
    except Quit:
        click.echo("you left the table")
    except click.Abort:
        raise
    except ValueError as error:
        raise click.ClickException(str(error)) from None
