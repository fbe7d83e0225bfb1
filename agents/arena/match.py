"""Playing one game of a tournament: agents at the seats, a fixed deal, a :class:`GameRecord`.

A worker keeps its environments and agents between games (building a learned agent means
loading a checkpoint) and re-seeds each agent with :meth:`Agent.seed` before every game, so
a game's record depends only on its task: agents must keep no other state from one game to
the next (or reset it in ``seed``).
"""

from __future__ import annotations

import json
from typing import Any

import bluff_envs
from agents import GameInfo, make_agent
from bluff_envs.records import GameRecord, deck_for
from agents.arena.schedule import GameTask

MAX_DECISIONS = 10**6  # a safety net: every game ends long before


class Table:
    """Environments and agents by game, reused across the games a worker plays."""

    def __init__(self) -> None:
        self._envs: dict[str, Any] = {}
        self._agents: dict[tuple[str, str, int], Any] = {}

    def env(self, game: str, options: dict[str, Any]):
        key = f"{game}:{json.dumps(options, sort_keys=True)}"
        if key not in self._envs:
            self._envs[key] = bluff_envs.make(game, raw=True, **options)
        return key, self._envs[key]

    def agent(self, env_key: str, env, spec: str, seat: int, seed: int):
        key = (env_key, spec, seat)
        agent = self._agents.get(key)
        if agent is None:
            agent = self._agents[key] = make_agent(spec, GameInfo.of(env), seed)
        else:
            agent.seed(seed)
        return agent


def play_game(task: GameTask, table: Table | None = None) -> GameRecord:
    """Play ``task`` to its end and return its record."""
    table = table or Table()
    env_key, env = table.env(task.game, task.options)
    agents = [table.agent(env_key, env, spec, s, seed) for s, (spec, seed) in enumerate(zip(task.seats, task.agent_seeds))]
    deck = deck_for(env, task.deal_seed)
    env.reset(seed=task.deal_seed, options={"deck": deck})
    seat = {a: i for i, a in enumerate(env.possible_agents)}
    rewards = [0.0] * len(agents)
    actions: list[int] = []
    truncated = False
    for agent in env.agent_iter(MAX_DECISIONS):
        observation, reward, terminated, trunc, _ = env.last()
        rewards[seat[agent]] += reward
        if terminated or trunc:
            truncated = truncated or trunc
            env.step(None)
            continue
        action = int(agents[seat[agent]].act(observation))
        actions.append(action)
        env.step(action)
    if env.agents:
        raise RuntimeError(f"game {task.game_id} did not end within {MAX_DECISIONS} decisions")
    return GameRecord(
        game=task.game,
        options=dict(task.options),
        seed=task.deal_seed,
        deck=deck,
        seats=list(task.seats),
        actions=actions,
        rewards=rewards,
        steps=len(actions),
        truncated=truncated,
        agent_seeds=list(task.agent_seeds),
    )


_WORKER_TABLE: Table | None = None
_VECTOR_TABLE = None


def play_batch(tasks: list[GameTask]) -> list[dict[str, Any]]:
    """Play a batch of games in this process: the unit of work every executor sends out.
    Returns one results line (a dict) per game, in the batch's order. The tasks' ``engine``
    says where: the vector engine (:mod:`agents.arena.vector_match`) or the reference one."""
    global _WORKER_TABLE, _VECTOR_TABLE
    if on_vector_engine(tasks):
        from agents.arena import vector_match

        if _VECTOR_TABLE is None:
            _VECTOR_TABLE = vector_match.VectorTable()
        return [result_line(t, r) for t, r in zip(tasks, vector_match.play_tasks(tasks, _VECTOR_TABLE))]
    if _WORKER_TABLE is None:
        _WORKER_TABLE = Table()
    return [result_line(task, play_game(task, _WORKER_TABLE)) for task in tasks]


def on_vector_engine(tasks: list[GameTask]) -> bool:
    """Whether ``tasks`` play on the vector engine: ``auto`` when they can, ``vector`` always
    (``ValueError`` naming what cannot), ``reference`` never."""
    engines = {t.engine for t in tasks}
    if not tasks or engines == {"reference"}:
        return False
    from agents.arena.vector_match import can_play, why_not

    if can_play(tasks):
        return True
    if "vector" in engines:
        raise ValueError(f"engine 'vector': {why_not(tasks)}")
    return False


def result_line(task: GameTask, record: GameRecord) -> dict[str, Any]:
    """A line of ``results.jsonl``: the game's place in the schedule, then its full record."""
    return {"game_id": task.game_id, "lineup": task.lineup, "deal": task.deal, "seating": task.seating, **record.to_dict()}
