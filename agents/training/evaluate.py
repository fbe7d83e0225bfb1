"""Evaluation of a checkpoint against a field of agents, through the tournament engine.

The learner (``ppo:<checkpoint>``) and the field make one line-up: the learner at seat 0 (and,
in a partnership game, at its partner's seat too: a trained partnership), the field's agents
in the other seats in turn. The tournament engine plays every deal in every rotation of that
line-up (duplicate deals: each seat gets the same cards, so the luck of the deal cancels out)
and its statistics give the win rate with its Wilson interval, the parity share and the mean
reward with a deal-bootstrap interval. The behaviour statistics of ``bluff_envs.behaviour``
(bluff rate, challenge accuracy, …) come from the same game records.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import bluff_envs
from agents.arena import stats
from agents.arena.evaluate import play_games
from agents.base import GameInfo
from agents.training.learner_env import partners


@dataclass
class EvalResult:
    """The learner's standing; ``win_rate`` counts seats among the winners (best reward, not a
    draw), ``parity`` is what an agent no better than the field would get."""

    games: int
    win_rate: float
    win_interval: tuple[float, float]
    parity: float
    mean_reward: float
    reward_interval: tuple[float, float]
    behaviour: dict[str, float | None] = field(default_factory=dict)  # the learner's
    field_standings: dict[str, dict[str, Any]] = field(default_factory=dict)  # per field agent, with behaviour

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def above_parity(self) -> bool:
        return self.win_interval[0] > self.parity

    def summary(self) -> str:
        lo, hi = self.win_interval
        text = (
            f"win {self.win_rate:.1%} [{lo:.1%}, {hi:.1%}] (parity {self.parity:.1%}), "
            f"reward {self.mean_reward:+.3f} over {self.games} games"
        )
        shown = [(k, v) for k, v in self.behaviour.items() if k in ("bluff_rate", "challenge_accuracy") and v is not None]
        return text + "".join(f", {k.replace('_', ' ')} {v:.1%}" for k, v in shown)


def lineup(game: GameInfo, learner: str, opponents: Sequence[str]) -> list[str]:
    """The learner at seat 0 and its partners' seats, the field in turn everywhere else."""
    own = {0, *partners(game, 0)}
    seats, k = [], 0
    for seat in range(game.num_players):
        if seat in own:
            seats.append(learner)
        else:
            seats.append(opponents[k % len(opponents)])
            k += 1
    return seats


def evaluate(game_name: str, options: dict, learner: str, opponents: Sequence[str], deals: int, seed: int, workers: int = 1) -> EvalResult:
    """Play ``deals`` duplicate deals of the learner (an agent spec) against ``opponents``."""
    game = GameInfo.of(bluff_envs.make(game_name, raw=True, **options))
    seats = lineup(game, learner, opponents)
    results = play_games(game_name, options, [seats], deals, seed, "rotations", workers)
    agents = stats.agent_order(results, seats)
    table = stats.standings(results, agents, seed=seed)
    rates = _behaviour([r.record for r in results])
    mine = table.pop(learner)
    for spec, row in table.items():
        row["behaviour"] = rates.get(spec, {})
    return EvalResult(
        games=mine["games"],
        win_rate=mine["win_rate"],
        win_interval=tuple(mine["win_rate_ci"]),
        parity=mine["parity"],
        mean_reward=mine["mean_reward"],
        reward_interval=tuple(mine["mean_reward_ci"]),
        behaviour=rates.get(learner, {}),
        field_standings=table,
    )


def _behaviour(records) -> dict[str, dict[str, float | None]]:
    """Behaviour rates per agent spec, where the game has a behaviour module."""
    try:  # behaviour statistics are a bonus: a game without them is still evaluated
        from bluff_envs.behaviour import agent_counts, module_for

        module = module_for(records[0].game) if records else None
    except ImportError:
        return {}
    if module is None:
        return {}
    counts = agent_counts(records, module)
    return {spec: module.rates(c) for spec, c in counts.items()}
