"""Playing agents against each other in memory: OpenSpiel's ``evaluate_bots``, on duplicate deals.

:func:`play_games` plays every game of a schedule and returns the results in game-id order;
:func:`evaluate` is "play this line-up on N duplicate deals and tell me how each agent did".
Nothing is written to disk; the same arguments give the same result whatever the number of
workers or the executor.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.arena import stats
from agents.arena.executor import Executor, batches_of, make_executor
from agents.arena.schedule import partnerships, schedule
from agents.arena.stats import GameResult
from bluff_envs.records import GameRecord


def play_games(game: str, options: dict[str, Any], lineups: Sequence[Sequence[str]], deals: int, seed: int,
               seating: str = "balanced", workers: int | None = 1, executor: Executor | None = None,
               engine: str = "auto") -> list[GameResult]:
    """Every game of ``lineups`` on ``deals`` duplicate deals, each in every ``seating``, on
    ``engine`` (see :mod:`agents.arena.schedule`: the same results either way)."""
    tasks = schedule(game, dict(options), [tuple(x) for x in lineups], deals, seed, seating, engine)
    own = executor is None
    executor = executor or make_executor("local", workers)
    try:
        lines = [line for batch in executor.run(batches_of(tasks, executor.workers)) for line in batch]
    finally:
        if own:
            executor.close()
    return sorted((GameResult(x["game_id"], x["deal"], GameRecord.from_dict(x)) for x in lines), key=lambda r: r.game_id)


def evaluate(game: str, lineup: list[str], *, options: dict[str, Any] | None = None, deals: int = 50,
             seed: int = 0, seating: str = "balanced", workers: int | None = 1, executor=None,
             engine: str = "auto") -> dict[str, Any]:
    """Play ``deals`` duplicate deals of one line-up (an agent spec per seat), each deal in every
    seating, and return ``{"games": n, "agents": {spec: standings}, "head_to_head": ...}``;
    standings as in :func:`agents.arena.stats.standings` (``win_rate``, ``win_rate_ci``,
    ``parity``, ``mean_reward``, ``mean_reward_ci``, …)."""
    results = play_games(game, options or {}, [lineup], deals, seed, seating, workers, executor, engine)
    agents = stats.agent_order(results, lineup)
    return {
        "games": len(results),
        "agents": stats.standings(results, agents, seed=seed),
        "head_to_head": stats.head_to_head(results, agents, partnerships(game, len(lineup))),
    }
