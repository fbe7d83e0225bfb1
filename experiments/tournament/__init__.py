"""Tournaments between agents: duplicate deals, seat rotation, resumable, parallel.

``bluff tournament <config.yaml>`` holds one from a config (:mod:`.config`); from Python:

* :func:`run_tournament` — a whole tournament in a run directory (resumable, with report);
* :func:`evaluate` — "play these agents on N duplicate deals and tell me how each did",
  in memory, e.g. for periodic evaluation during training.
"""

from __future__ import annotations

from typing import Any

from experiments.tournament.config import ConfigError, TournamentConfig
from experiments.tournament.runner import run_tournament


def evaluate(game: str, lineup: list[str], *, options: dict[str, Any] | None = None, deals: int = 50,
             seed: int = 0, seating: str = "rotations", workers: int | None = 1, executor=None) -> dict[str, Any]:
    """Play ``deals`` duplicate deals of one line-up (an agent spec per seat), each deal in every
    seating, and return ``{"games": n, "agents": {spec: standings}, "head_to_head": ...}``;
    standings as in :func:`experiments.tournament.stats.standings` (``win_rate``,
    ``win_rate_ci``, ``parity``, ``mean_reward``, ``mean_reward_ci``, …). Nothing is written
    to disk. The same arguments give the same result whatever the number of workers."""
    from bluff_envs.records import GameRecord
    from experiments.tournament import stats
    from experiments.tournament.executor import batches_of, make_executor
    from experiments.tournament.stats import GameResult

    config = TournamentConfig.from_dict(
        {"game": game, "options": dict(options or {}), "lineups": [list(lineup)], "deals": deals, "seed": seed,
         "seating": seating, "workers": workers}
    )
    tasks = config.tasks()
    own = executor is None
    executor = executor or make_executor(config.executor.kind, workers, config.executor.address)
    try:
        lines = [line for batch in executor.run(batches_of(tasks, executor.workers)) for line in batch]
    finally:
        if own:
            executor.close()
    results = sorted((GameResult(x["game_id"], x["deal"], GameRecord.from_dict(x)) for x in lines), key=lambda r: r.game_id)
    agents = stats.agent_order(results, lineup)
    return {
        "games": len(results),
        "agents": stats.standings(results, agents, seed=seed),
        "head_to_head": stats.head_to_head(results, agents, config.teams()),
    }


__all__ = ["ConfigError", "TournamentConfig", "evaluate", "run_tournament"]
