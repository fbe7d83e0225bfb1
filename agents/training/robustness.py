"""The robustness matrix: one agent against a standard set of fields, on fresh duplicate deals.

An agent that beats the field it trained against may still lose to a field it never met (an
opponent that challenges everything, one that never does, copies of itself). The matrix plays
the agent (seat 0 and, in a partnership game, its partner's seat) against every field of
:func:`standard_fields` on the same duplicate deals, each deal in every rotation of the seats
(a different order around the table deal by deal: ``balanced`` seating), and reports for each
field the agent's win rate with its Wilson 95 % interval, the parity share
(what an agent no better than the field would get), the edge over parity and the mean reward.

The standard fields of a game with ``n`` seats (``k = n - 1`` other seats, or the opposing
partnership in Tarneeb):

* ``<heuristic> x k`` for every heuristic of the game, and ``random x k``;
* ``mixed``: the heuristics in turn (the field a recipe trains against, where it has three);
* ``never + always challenge``: the two diagnostics side by side (bluffing games);
* ``self x k``: copies of the agent itself;
* ``<checkpoint> x k`` for each earlier checkpoint given (``earlier``), and ``<other> x k``
  for each other agent given (``others``: e.g. another seed's agent).

The deals come from ``seed`` through :func:`agents.arena.schedule.derive_seed` (a domain of its
own), never from a training run's seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import bluff_envs
from agents.base import GameInfo
from agents.registry import heuristics
from agents.training.evaluate import SEATING, EvalResult, evaluate

ROBUSTNESS_DOMAIN = 7  # derive_seed(seed, ROBUSTNESS_DOMAIN): the matrix's deals
TOLERANCE = 0.03  # "holds up": at least parity - TOLERANCE against every field


@dataclass
class Row:
    field: str
    agents: list[str]
    result: EvalResult

    @property
    def edge(self) -> float:
        return self.result.win_rate - self.result.parity

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        return {"field": self.field, "agents": self.agents, "games": r.games, "win_rate": r.win_rate,
                "win_interval": list(r.win_interval), "parity": r.parity, "edge": self.edge,
                "mean_reward": r.mean_reward, "reward_interval": list(r.reward_interval),
                "holds_up": r.win_rate >= r.parity - TOLERANCE, "behaviour": r.behaviour}


def other_seats(game: GameInfo) -> int:
    """How many field agents a line-up needs: the seats not the agent's (its partners' are)."""
    from agents.training.learner_env import partners

    return game.num_players - 1 - len(partners(game, 0))


def standard_fields(game: GameInfo, agent: str, earlier: Sequence[str] = (), others: Sequence[str] = ()) -> dict[str, list[str]]:
    """The fields of the matrix by name, each a list of agent specs for the other seats."""
    k = other_seats(game)
    names = list(heuristics(game.name))
    fields: dict[str, list[str]] = {f"{h} x{k}": [h] * k for h in names}
    fields[f"random x{k}"] = ["random"] * k
    mixed = [h for h in ("honest", "counter", "bluffer") if h in names]
    if len(mixed) > 1 and k > 1:
        fields["mixed " + "+".join(mixed[:k])] = [mixed[i % len(mixed)] for i in range(k)]
    if {"never_challenge", "always_challenge"} <= set(names) and k > 1:
        fields["never + always challenge"] = [["never_challenge", "always_challenge"][i % 2] for i in range(k)]
    fields[f"self x{k}"] = [f"{agent}#copy{i + 1}" for i in range(k)]
    for spec in earlier:
        fields[f"{spec} x{k}"] = [f"{spec}#copy{i + 1}" for i in range(k)]
    for spec in others:
        fields[f"{spec} x{k}"] = [f"{spec}#copy{i + 1}" for i in range(k)]
    return fields


def robustness_matrix(game_name: str, options: dict, agent: str, *, deals: int, seed: int, earlier: Sequence[str] = (),
                      others: Sequence[str] = (), workers: int = 1, engine: str = "auto") -> list[Row]:
    """The agent against every standard field on the same ``deals`` duplicate deals."""
    from agents.arena.schedule import derive_seed

    game = GameInfo.of(bluff_envs.make(game_name, raw=True, **options))
    deal_seed = derive_seed(seed, ROBUSTNESS_DOMAIN)
    rows = []
    for name, field in standard_fields(game, agent, earlier, others).items():
        result = evaluate(game_name, options, agent, field, deals, deal_seed, workers, engine=engine)
        rows.append(Row(name, field, result))
    return rows


def record(rows: Sequence[Row], *, agent: str, game: str, options: dict, deals: int, seed: int) -> dict[str, Any]:
    """The matrix as ``robustness.json`` holds it: what was played, how, and every row."""
    return {"agent": agent, "game": game, "options": options, "deals": deals, "seed": seed, "seating": SEATING,
            "rows": [row.to_dict() for row in rows]}


def markdown(rows: Sequence[Row], agent: str) -> str:
    """The matrix as a Markdown table."""
    lines = [f"Robustness of `{agent}`: win rate with its Wilson 95 % interval against each field, on the same "
             f"duplicate deals; it holds up where it wins at least parity − {TOLERANCE}.", "",
             "| field | games | win rate | 95 % interval | parity | edge | mean reward | holds up |",
             "|---|---:|---:|---|---:|---:|---:|:---:|"]
    for row in rows:
        r = row.result
        lo, hi = r.win_interval
        lines.append(f"| {row.field} | {r.games} | {r.win_rate:.3f} | [{lo:.3f}, {hi:.3f}] | {r.parity:.3f} | "
                     f"{row.edge:+.3f} | {r.mean_reward:+.3f} | {'yes' if r.win_rate >= r.parity - TOLERANCE else '**no**'} |")
    return "\n".join(lines) + "\n"
