"""Evaluation of a checkpoint against a field of agents, through the tournament engine.

The learner (``ppo:<checkpoint>``) and the field make one line-up: the learner at seat 0 (and,
in a partnership game, at its partner's seat too: a trained partnership), the field's agents
in the other seats in turn. The tournament engine plays every deal in every rotation of that
line-up (duplicate deals: each seat gets the same cards, so the luck of the deal cancels out),
the field's order around the table changing deal by deal (``balanced`` seating: who sits
after the learner matters, and no one field agent is always its neighbour), and its
statistics give the win rate with its Wilson interval, the parity share and the mean
reward with a deal-bootstrap interval. The behaviour statistics of ``bluff_envs.behaviour``
(bluff rate, challenge accuracy, …) come from the same game records; the accuracy of uncertain
challenges, the mark of informed ones, gets a deal-bootstrap interval too
(``uncertain_challenge_accuracy_low`` / ``_high``, :mod:`agents.arena.behaviour`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import bluff_envs
from agents.arena import stats
from agents.arena.behaviour import behaviour
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
    seed: int | None = None  # the deal seed: a headline number says which deals it comes from
    deals: int | None = None
    field: list[str] = field(default_factory=list)
    seating: str | None = None  # how the line-ups sat around the table (agents.arena.schedule.SEATINGS)

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
            + (f" (deal seed {self.seed})" if self.seed is not None else "")
        )
        shown = [(k, v) for k, v in self.behaviour.items() if k in ("bluff_rate", "challenge_accuracy") and v is not None]
        return text + "".join(f", {k.replace('_', ' ')} {v:.1%}" for k, v in shown)


SEATING = "balanced"  # every evaluation: each deal's rotations in a different order around the table
LEARNER = "#learner"  # the label that keeps the learner apart from field agents of the same spec


def lineups(game: GameInfo, learner: str, opponents: Sequence[str]) -> list[list[str]]:
    """The learner at seat 0 and its partners' seats, the field in turn everywhere else. A
    field larger than the other seats is rotated through them, one line-up per field agent, so
    that every agent of the field plays and plays as often."""
    own = {0, *partners(game, 0)}
    others = [seat for seat in range(game.num_players) if seat not in own]
    starts = range(len(opponents)) if len(opponents) > len(others) else range(1)
    out = []
    for start in starts:
        seats = [learner] * game.num_players
        for k, seat in enumerate(others):
            seats[seat] = opponents[(start + k) % len(opponents)]
        out.append(seats)
    return out


def evaluate(game_name: str, options: dict, learner: str, opponents: Sequence[str], deals: int, seed: int, workers: int = 1,
             engine: str = "auto") -> EvalResult:
    """Play ``deals`` duplicate deals of the learner (an agent spec) against ``opponents``. The
    learner is counted apart from any field agent of the same spec (it plays as ``<spec>#learner``).
    ``engine``: where the games are played (:mod:`agents.arena.schedule`; the same results)."""
    if not opponents:
        raise ValueError("an evaluation needs at least one field agent")
    game = GameInfo.of(bluff_envs.make(game_name, raw=True, **options))
    me = learner + LEARNER
    seatings = lineups(game, me, opponents)
    results = play_games(game_name, options, seatings, deals, seed, SEATING, workers, engine=engine)
    agents = stats.agent_order(results, seatings[0])
    table = stats.standings(results, agents, seed=seed)
    found = behaviour(results, seed)  # None for a game without behaviour statistics
    rates = found.rates if found else {}
    mine = table.pop(me)
    for spec, row in table.items():
        row["behaviour"] = rates.get(spec, {})
    return EvalResult(
        games=mine["games"],
        win_rate=mine["win_rate"],
        win_interval=tuple(mine["win_rate_ci"]),
        parity=mine["parity"],
        mean_reward=mine["mean_reward"],
        reward_interval=tuple(mine["mean_reward_ci"]),
        behaviour=rates.get(me, {}),
        field_standings=table,
        seed=seed,
        deals=deals,
        field=list(opponents),
        seating=SEATING,
    )
