"""Evaluation of a learner against a field of fixed agents, on duplicate deals.

Each deal (one seeded deck) is played once with the learner in every seat (in a partnership
game: at both seats of each partnership in turn, the learner playing for both partners), the
field's agents taking the other seats in turn. So every seat gets the same cards, and the luck
of the deal cancels out.

The games are kept as :class:`~bluff_envs.records.GameRecord` so that the behaviour
statistics of ``experiments.behaviour`` (bluff rate, challenge accuracy, …) come from the same
code as the tournaments'.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

import bluff_envs
from agents.base import Agent, GameInfo
from agents.registry import make_agent
from agents.training.learner_env import partners
from bluff_envs.records import GameRecord, deck_for

LEARNER = "learner"
Z95 = 1.959963984540054


@dataclass
class EvalResult:
    """The learner's results; ``win_rate`` counts games in which it was among the winners
    (best reward, not a draw), ``parity`` is what an agent no better than the field would get."""

    games: int
    mean_reward: float
    reward_interval: tuple[float, float]
    win_rate: float
    win_interval: tuple[float, float]
    parity: float
    truncated: int
    behaviour: dict[str, float | None] = field(default_factory=dict)  # the learner's
    field_behaviour: dict[str, dict[str, float | None]] = field(default_factory=dict)  # per field agent

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        lo, hi = self.win_interval
        text = f"win {self.win_rate:.1%} [{lo:.1%}, {hi:.1%}] (parity {self.parity:.1%}), reward {self.mean_reward:+.3f} over {self.games} games"
        rates = {k: v for k, v in self.behaviour.items() if k in ("bluff_rate", "challenge_accuracy") and v is not None}
        if rates:
            text += ", " + ", ".join(f"{k.replace('_', ' ')} {v:.1%}" for k, v in rates.items())
        return text


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return (max(0.0, centre - half), min(1.0, centre + half))


def learner_seatings(game: GameInfo) -> list[tuple[int, ...]]:
    """The seat groups the learner takes in turn: single seats, or whole partnerships."""
    groups = []
    for seat in range(game.num_players):
        group = tuple(sorted([seat, *partners(game, seat)]))
        if group not in groups:
            groups.append(group)
    return groups


def play_records(game_name: str, options: dict, learner: Agent, field: Sequence[str], deals: int, seed: int) -> list[GameRecord]:
    """Every deal with the learner at every seat group; the field fills the other seats."""
    env = bluff_envs.make(game_name, raw=True, **options)
    game = GameInfo.of(env)
    n = game.num_players
    field_agents: dict[tuple[str, int], Agent] = {}
    records = []
    for deal in range(deals):
        deal_seed = int(np.random.SeedSequence([seed, deal]).generate_state(1)[0])
        deck = deck_for(env, deal_seed)
        for group in learner_seatings(game):
            others = [s for s in range(n) if s not in group]
            seats = [LEARNER] * n
            players: list[Agent] = [learner] * n
            for k, s in enumerate(others):
                spec = field[(k + deal) % len(field)]
                key = (spec, s)
                if key not in field_agents:
                    field_agents[key] = make_agent(spec, game, seed + 101 * s)
                agent = field_agents[key]
                agent.seed(int(np.random.SeedSequence([seed, deal, s]).generate_state(1)[0]))
                seats[s], players[s] = spec, agent
            records.append(_play(env, game_name, options, deal_seed, deck, seats, players))
    return records


def evaluate(game_name: str, options: dict, learner: Agent, field: Sequence[str], deals: int, seed: int) -> EvalResult:
    """Play :func:`play_records` and summarise the learner's results and behaviour."""
    records = play_records(game_name, options, learner, field, deals, seed)
    return summarise(records)


def summarise(records: Sequence[GameRecord], name: str = LEARNER) -> EvalResult:
    rewards, wins, shares, truncated = [], 0, [], 0
    for record in records:
        mine = [s for s, spec in enumerate(record.seats) if spec == name]
        rewards.append(record.rewards[mine[0]])
        winners = record.winners
        wins += bool(set(winners) & set(mine))
        shares.append(len(winners) / len(record.seats) if winners else 0.0)
        truncated += record.truncated
    games = len(records)
    mean = float(np.mean(rewards)) if rewards else 0.0
    half = Z95 * float(np.std(rewards, ddof=1)) / math.sqrt(games) if games > 1 else float("inf")
    behaviour, field_behaviour = _behaviour(records, name)
    return EvalResult(
        games=games,
        mean_reward=mean,
        reward_interval=(mean - half, mean + half),
        win_rate=wins / games if games else 0.0,
        win_interval=wilson(wins, games),
        parity=float(np.mean(shares)) if shares else 0.0,
        truncated=truncated,
        behaviour=behaviour,
        field_behaviour=field_behaviour,
    )


def _behaviour(records: Sequence[GameRecord], name: str):
    try:  # behaviour statistics are a bonus: a game without them still gets evaluated
        from experiments.behaviour import agent_counts, module_for

        module = module_for(records[0].game) if records else None
    except ImportError:
        return {}, {}
    if module is None:
        return {}, {}
    counts = agent_counts(records, module)
    rates = {spec: module.rates(c) for spec, c in counts.items()}
    return rates.pop(name, module.rates(Counter())), rates


def _play(env, game_name, options, deal_seed, deck, seats, players) -> GameRecord:
    env.reset(seed=deal_seed, options={"deck": deck})
    actions: list[int] = []
    terminations, truncations = env.terminations, env.truncations
    while True:
        agent = env.agent_selection
        if terminations[agent] or truncations[agent]:
            break
        action = int(players[int(agent.rsplit("_", 1)[1])].act(env.observe(agent)))
        actions.append(action)
        env.step(action)
    rewards = [float(env._cumulative_rewards[a]) for a in env.possible_agents]
    return GameRecord(
        game=game_name,
        options=dict(options),
        seed=deal_seed,
        deck=list(deck),
        seats=list(seats),
        actions=actions,
        rewards=rewards,
        steps=len(actions),
        truncated=bool(truncations[env.agent_selection]),
    )
