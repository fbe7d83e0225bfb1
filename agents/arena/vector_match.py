"""Playing a batch of tournament games on the vector engine, record for record the reference's.

:func:`play_tasks` plays the games of :class:`~agents.arena.schedule.GameTask` s many at a time
(``bluff_envs.vector``), every seat's decisions made by the batched form of its agent
(:mod:`agents.batched`), and returns the same :class:`~bluff_envs.records.GameRecord` s that
:func:`agents.arena.match.play_game` returns for them one by one:

* game ``k`` is dealt the task's deck and, for the deals after the first (Tarneeb), the decks
  its deal seed's generator draws, as ``raw_env.reset(seed=deal_seed, options={"deck": …})``;
* the seat's agent gets one uniform draw per decision from ``default_rng(agent_seed)``, as
  every reference agent draws it (``act`` = ``decide(observation, rng.random())``), so the
  batched agent, given the same observation and draw, takes the same action.

A mixture (``mix:...``, :mod:`agents.mixture`) plays its seat as the member its agent seed draws,
with the seed the member gets from it, as :class:`~agents.mixture.MixtureAgent` does.

The games stream through a fixed number of slots: a slot whose game ends takes the next task,
so the batch stays full until the last games. :func:`can_play` says whether a batch can be
played this way (a vector engine for its game, a batched form for every agent).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

import bluff_envs
from agents.arena.schedule import GameTask
from agents.base import GameInfo
from agents.batched import batched_agent, has_batched_form
from agents.mixture import is_mixture, member_and_seed, members_of
from agents.registry import unlabelled
from bluff_envs.cards import card_str
from bluff_envs.records import GameRecord, deck_ids_for
from bluff_envs.registry import game_key

SLOTS = 512  # games in play at once
DRAWS = 64  # draws taken ahead from a seat's generator at a time (the same stream as one by one)
MAX_DECISIONS = 10**6  # per game, as the reference's safety net


def batched(spec: str, game: str) -> bool:
    """Whether ``spec`` can play here: a batched form, or a mixture of agents that have one."""
    if is_mixture(unlabelled(spec)):
        try:
            return all(has_batched_form(member, game) for member in members_of(unlabelled(spec)))
        except ValueError:  # not a mixture as written: the agent's own check says why
            return False
    return has_batched_form(spec, game)


def can_play(tasks: Sequence[GameTask]) -> bool:
    """Whether every task's game has a vector engine and every agent a batched form."""
    from bluff_envs.vector import ENGINES

    return bool(tasks) and all(
        game_key(t.game) in ENGINES and all(batched(spec, game_key(t.game)) for spec in t.seats) for t in tasks
    )


def why_not(tasks: Sequence[GameTask]) -> str:
    """What keeps ``tasks`` off the vector engine, in words."""
    from bluff_envs.vector import ENGINES

    for t in tasks:
        if game_key(t.game) not in ENGINES:
            return f"{t.game} has no vector engine (engines: {', '.join(ENGINES)})"
        lacking = [spec for spec in t.seats if not batched(spec, game_key(t.game))]
        if lacking:
            return (f"agent {lacking[0]!r} has no batched form for {t.game} (batched: random, the heuristics with "
                    "kernels, ppo:<checkpoint>, mixtures of them); use engine 'auto' or 'reference'")
    return "no games to play" if not tasks else "nothing (they can be played)"


class _Game:
    """A task in a slot, and what its record needs beyond what the slot's arrays gather."""

    __slots__ = ("index", "task", "deck", "ids")

    def __init__(self, index: int, task: GameTask, ids: list[int]):
        self.index = index  # its place among the batch's tasks
        self.task = task
        self.ids = ids  # the deck deck_for names, as card ids
        self.deck = [card_str(c) for c in ids]

    def record(self, actions: list[int], rewards: list[float], truncated: bool) -> GameRecord:
        t = self.task
        return GameRecord(game=t.game, options=dict(t.options), seed=t.deal_seed, deck=self.deck, seats=list(t.seats),
                          actions=actions, rewards=rewards, steps=len(actions), truncated=truncated,
                          agent_seeds=list(t.agent_seeds))


class VectorTable:
    """Engines, reference environments (for decks) and batched agents, kept across batches."""

    def __init__(self, slots: int = SLOTS):
        self.slots = slots
        self._engines: dict[tuple[str, int], Any] = {}
        self._envs: dict[str, Any] = {}
        self._agents: dict[tuple[str, str], Any] = {}

    def setting(self, task: GameTask) -> str:
        return f"{game_key(task.game)}:{json.dumps(task.options, sort_keys=True)}"

    def env(self, task: GameTask):
        key = self.setting(task)
        if key not in self._envs:
            self._envs[key] = bluff_envs.make(task.game, raw=True, **task.options)
        return self._envs[key]

    def engine(self, task: GameTask, width: int):
        import bluff_envs.vector

        key = (self.setting(task), width)
        if key not in self._engines:
            self._engines[key] = bluff_envs.vector.make(task.game, width, **task.options)
        return self._engines[key]

    def agent(self, task: GameTask, spec: str):
        key = (self.setting(task), unlabelled(spec))
        if key not in self._agents:
            self._agents[key] = batched_agent(spec, GameInfo.of(self.env(task)))
        return self._agents[key]


def play_tasks(tasks: Sequence[GameTask], table: VectorTable | None = None) -> list[GameRecord]:
    """The records of ``tasks`` (in their order), played on the vector engine."""
    table = table or VectorTable()
    records: dict[int, GameRecord] = {}
    groups: dict[str, list[int]] = {}
    for k, task in enumerate(tasks):
        groups.setdefault(table.setting(task), []).append(k)
    for indices in groups.values():
        for k, record in zip(indices, _play_group([tasks[k] for k in indices], table)):
            records[k] = record
    return [records[k] for k in range(len(tasks))]


def _play_group(tasks: list[GameTask], table: VectorTable) -> list[GameRecord]:
    """Tasks of one game and options, through ``min(len(tasks), slots)`` slots."""
    width = min(len(tasks), table.slots)
    venv = table.engine(tasks[0], width)
    env = table.env(tasks[0])
    n = venv.num_players
    seated = {unlabelled(s) for t in tasks for s in t.seats}
    mixtures = {s: members_of(s) for s in seated if is_mixture(s)}
    specs = sorted((seated - set(mixtures)) | {m for members in mixtures.values() for m in members})
    agents = [table.agent(tasks[0], spec) for spec in specs]
    spec_index = {spec: k for k, spec in enumerate(specs)}

    def seat_up(spec: str, seed: int) -> tuple[int, np.random.Generator]:
        """The agent playing a seat of ``spec`` with ``seed``, and its generator."""
        members = mixtures.get(unlabelled(spec))
        if members is None:
            return spec_index[unlabelled(spec)], np.random.default_rng(seed)
        member, member_seed = member_and_seed(len(members), seed)
        return spec_index[members[member]], np.random.default_rng(member_seed)

    queue = iter(enumerate(tasks))
    slots: list[_Game | None] = [None] * width
    plays = np.zeros((width, n), np.int64)  # the agent (index into agents) at every seat
    rngs: list[list[np.random.Generator]] = [[] for _ in range(width)]
    ahead = np.zeros((width, n, DRAWS))  # draws taken ahead from each seat's generator
    used = np.zeros((width, n), np.int64)
    history = np.zeros((width, 256), np.int64)  # the actions of each slot's game
    length = np.zeros(width, np.int64)
    totals = np.zeros((width, n))  # every seat's rewards, summed in order as the reference does

    def place(i: int, k: int, task: GameTask) -> _Game:
        game = _Game(k, task, deck_ids_for(env, task.deal_seed))
        slots[i] = game
        seats = [seat_up(spec, seed) for spec, seed in zip(task.seats, task.agent_seeds)]
        plays[i] = [agent for agent, _ in seats]
        rngs[i] = [rng for _, rng in seats]
        for seat, rng in enumerate(rngs[i]):
            ahead[i, seat] = rng.random(DRAWS)
        used[i] = 0
        length[i] = 0
        totals[i] = 0.0
        return game

    for i in range(width):
        k, task = next(queue)
        place(i, k, task)
    venv.reset(seeds=[g.task.deal_seed for g in slots], decks=np.array([g.ids for g in slots], np.int64))
    records: list[GameRecord | None] = [None] * len(tasks)
    restarting = np.zeros(width, bool)  # a slot given a new task: the next step deals it
    busy = np.ones(width, bool)
    actions = np.zeros(width, np.int64)
    every = np.arange(width)
    while busy.any():
        actor = venv.actor
        live = busy & ~restarting & (actor >= 0)
        rows = np.flatnonzero(live)
        seats = actor[rows]
        spent = used[rows, seats]
        for i, seat in zip(rows[spent == DRAWS].tolist(), seats[spent == DRAWS].tolist()):
            ahead[i, seat] = rngs[i][seat].random(DRAWS)  # the same stream as one draw at a time
            used[i, seat] = 0
        u = ahead[rows, seats, used[rows, seats]]
        used[rows, seats] += 1
        who = plays[rows, seats]
        obs, mask = venv.obs, venv.mask
        for agent in np.unique(who).tolist():
            chosen = rows[who == agent]
            actions[chosen] = agents[agent].act(obs[chosen], mask[chosen], u[who == agent])
        if (length[rows] == history.shape[1]).any():
            history = np.concatenate([history, np.zeros_like(history)], axis=1)
        history[rows, length[rows]] = actions[rows]
        length[rows] += 1
        _, _, _, rewards, terminated, truncated = venv.step(actions, where=live | restarting)
        restarting[:] = False
        totals[live] += rewards[live]
        ended = live & (terminated | truncated)
        for i in np.flatnonzero(ended).tolist():
            game = slots[i]
            records[game.index] = game.record(history[i, : length[i]].tolist(), totals[i].tolist(), bool(truncated[i]))
            following = next(queue, None)
            if following is None:
                busy[i] = False
                slots[i] = None
                continue
            k, task = following
            game = place(i, k, task)
            venv.reseed([i], [task.deal_seed])
            venv.queue_decks([i], np.array([game.ids], np.int64))
            restarting[i] = True
        if (length[every[busy]] >= MAX_DECISIONS).any():
            i = int(every[busy][length[every[busy]] >= MAX_DECISIONS][0])
            raise RuntimeError(f"game {slots[i].task.game_id} did not end within {MAX_DECISIONS} decisions")
    return records
