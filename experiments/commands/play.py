"""``bluff play <game> [--option key=value ...] --opponents spec1,spec2,... [--seat K] [--seed S]``.

A person takes a seat against agents. Before each of his decisions he sees the table as his
seat sees it (the game's ``ansi`` view) and the legal actions by number and name; he answers
with a number, a name or its last word (``8C`` for ``play 8C``, ``K`` for ``add K``), several at
once separated by commas (``K, K, done``). Anything else is refused with a reason and asked
again. What happens is told as his seat may know it (each game's narrator,
``bluff_envs.<game>.announce``): every claim, the cards a doubt or challenge turns up, whether
the claim was true, who took the pile or went out, every trick and deal score; never the cards
another player picks. Reads standard input, so it can be driven by a script.
"""

from __future__ import annotations

import importlib
import shutil

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
                click.echo("\n" + raw.game_state.render_text(self.seat))
                click.echo(wrapped("legal actions:", [f"[{a}] {names[a]}" for a in legal]))
                line = click.prompt("your move", default="", show_default=False, prompt_suffix="> ")
                self.queued = [part.strip() for part in line.split(",") if part.strip()]
                if not self.queued:
                    click.echo("type the number or the name of an action (q to quit)")
                    continue
            answer = self.queued.pop(0)
            if answer.lower() in QUIT:
                raise Quit
            action, problem = parse_answer(answer, names, legal)
            if problem:
                self.queued = []
                click.echo(problem)
                click.echo(wrapped("choose one of:", [f"[{a}] {names[a]}" for a in legal]))
                continue
            return action


def parse_answer(answer: str, names, legal: list[int]) -> tuple[int | None, str | None]:
    """``(action, None)``, or ``(None, why not)``: a number, a whole name, or the last word of
    the name of exactly one legal action (``8C`` for ``play 8C``, ``K`` for ``add K``)."""
    wanted = " ".join(answer.lower().split())
    if wanted.isdigit():
        action = int(wanted)
        if not 0 <= action < len(names):
            return None, f"{answer!r} is not an action of this game (actions are 0 to {len(names) - 1})"
    else:
        exact = [a for a, name in enumerate(names) if name.lower() == wanted]
        ending = [a for a in legal if names[a].lower().split()[-1] == wanted]
        if exact:
            action = exact[0]
        elif len(ending) == 1:
            action = ending[0]
        elif ending:
            return None, f"{answer!r} could be {' or '.join(names[a] for a in ending)}: say which"
        elif any(name.lower().split()[-1] == wanted for name in names):
            action = next(a for a, name in enumerate(names) if name.lower().split()[-1] == wanted)
        else:
            return None, f"{answer!r} is not an action of this game"
    if action in legal:
        return action, None
    why = f"{names[action]!r} ({action}) is not legal now"
    if names[action].startswith("add ") and any(names[a].startswith("add ") for a in legal):
        why += ("; cards go into a play in rank order, 2 … A: once a rank is added, only it or "
                "higher ranks can follow (add the lower ones first, or finish with done)")
    return None, why


def wrapped(label: str, items: list[str]) -> str:
    """``label`` and the items, wrapped to the terminal only between items, never inside one."""
    width = max(40, shutil.get_terminal_size((100, 24)).columns)
    lines, line = [], label
    for item in items:
        if len(line) + 3 + len(item) > width and line != label:
            lines.append(line)
            line = " " * len(label)
        line += "   " + item
    return "\n".join(lines + [line])


def announcer_for(env):
    """The game's narrator (``bluff_envs.<game>.announce.Announcer``), or None without one."""
    name = bluff_envs.game_key(env.unwrapped.metadata["name"])
    try:
        module = importlib.import_module(f"bluff_envs.{name}.announce")
    except ImportError:
        return None
    return module.Announcer(env.unwrapped.game)


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
    announcer = announcer_for(env)
    rewards = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(human.act() if agent == me else agents[agent].act(observation))
        if announcer is not None:
            for line in announcer.lines(env.unwrapped.last_events, env.unwrapped.game_state, seat):
                click.echo(line)
    click.echo("\n" + env.unwrapped.game_state.render_text(seat))
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
