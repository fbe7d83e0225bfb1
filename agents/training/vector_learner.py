"""The learner's seat in many games at once, on the vector engine, as an SB3 ``VecEnv``.

:class:`VectorLearnerEnv` is :class:`~agents.training.learner_env.LearnerEnv` for ``num_envs``
games held by one :mod:`bluff_envs.vector` engine: the same episodes, seen by the learner the
same way (see that module for the details), but every opponent decision of the batch is taken
by a batched agent (:mod:`agents.batched`) in one call per agent and engine step:

* game ``i`` starts at seat ``first_seat + i`` and rotates from episode to episode (or keeps
  a fixed seat); its first deal is the one ``LearnerEnv(seed=seeds[i])`` would deal;
* the other seats are drawn from the pool (``per_seat``: one member per seat, else one for all;
  the first table drawn seats them all), new every episode; snapshots play through
  :class:`~agents.batched.policy.BatchedPolicy`, specs through their batched form, and anything
  else (an ``rllib:`` agent, a ready agent object) through its own ``act``, one row at a time;
* the learner's reward is its own seat's, summed from one of its decisions to the next, with the
  same optional potential-based shaping; ``terminated`` and ``truncated`` as the game ends;
* ``exploiter_tables`` s > 0: a share s of the games (once the pool holds a league exploiter and
  a snapshot of the learner) is played at **the exploiter's table**, the line-up the exploit
  measure plays: the newest league exploiter (``exploiter_table_draw="all"``: one of all the
  pool's exploiters, alike) in one other seat (drawn), the learner's newest snapshot in the
  rest. There the learner's reward is the mean of its copies' (its own seat's and the
  snapshots'): in a zero-sum game, minus the exploiter's reward over n − 1, so the learner
  gains what the exploiter loses, as the copies do together. A seat that wins only for itself
  against a table of copies is no defence: a best response needs only one copy to lose. These
  games are not drawn from the pool and count for no member's PFSP score; their ``selfplay``
  info adds ``exploiter_table``: the exploiter's seat and reward;
* ``symmetric_snapshots``: the learner's snapshots play through the game's symmetry
  (:mod:`agents.symmetric`), as a learner trained with ``learner.symmetric`` plays;
* a mixture (``mix:...``, :mod:`agents.mixture`) in a seat plays one of its members there, drawn
  alike for each game and seat;
* partnerships: ``partner="self"`` lets the learner decide for its partner's seat too (both
  seats' decisions are its steps), ``"pool"`` draws the partner like an opponent, and an agent
  spec plays it.

It speaks SB3's ``VecEnv`` protocol with automatic resets: a finished game's ``infos[i]`` holds
``terminal_observation``, ``TimeLimit.truncated`` and ``selfplay`` (seat, the game's own reward,
the opponents' ids, truncated), and the observation returned is the next episode's first.
``env_method("action_masks")`` answers MaskablePPO, ``env_method("set_opponents", payload)``
changes the pool from the next episode on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

import bluff_envs.vector
from agents.base import Agent, GameInfo
from agents.batched import batched_agent, has_batched_form
from agents.mixture import is_mixture, members_of
from agents.training.learner_env import MAX_REDEALS, check_exploiter_tables, partners, potential_terms
from agents.training.pool import Member, exploiter_table_members, table_seats


class RowByRow:
    """A reference agent in a batched agent's place: one ``act`` per row (its own draws)."""

    def __init__(self, agent: Agent):
        self.agent = agent
        self.name = agent.name

    def act(self, obs: np.ndarray, mask: np.ndarray, u: np.ndarray) -> np.ndarray:
        return np.array([self.agent.act({"observation": o, "action_mask": m}) for o, m in zip(obs, mask)], np.int64)


class Mixture:
    """A mixture's place among the agents: never acts, its seats are its members' (drawn)."""

    def __init__(self, name: str):
        self.name = name

    def act(self, obs: np.ndarray, mask: np.ndarray, u: np.ndarray) -> np.ndarray:
        raise RuntimeError(f"{self.name} was seated undrawn")


class VectorLearnerEnv(VecEnv):
    """``num_envs`` learner games on the vector engine (see the module docstring)."""

    def __init__(
        self,
        game: str,
        options: dict[str, Any] | None,
        opponents: dict | Sequence,
        *,
        num_envs: int,
        seeds: Sequence[int],
        seat: int | str = "rotate",
        partner: str = "self",
        per_seat: bool = True,
        first_seat: int = 0,
        shaping: dict[str, float] | None = None,
        shaping_gamma: float = 1.0,
        exploiter_tables: float = 0.0,
        exploiter_table_draw: str = "newest",
        symmetric_snapshots: bool = False,
    ):
        if len(seeds) != num_envs:
            raise ValueError(f"the vector learner env needs one seed per game ({num_envs}), got {len(seeds)}")
        options = dict(options or {})
        raw = bluff_envs.make(game, raw=True, **options)
        self.game = GameInfo.of(raw)
        n = self.game.num_players
        if seat != "rotate" and not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n):
            raise ValueError(f"seat={seat!r} must be 'rotate' or a seat index from 0 to {n - 1}")
        if not isinstance(partner, str) or not partner:
            raise ValueError(f"partner={partner!r} must be 'self', 'pool' or an agent spec")
        check_exploiter_tables(self.game, exploiter_tables, exploiter_table_draw)
        name = raw.possible_agents[0]
        self.render_mode = None
        super().__init__(num_envs, raw.observation_space(name)["observation"], raw.action_space(name))
        raw.close()
        self.engine = bluff_envs.vector.make(game, num_envs, **options)
        self.seat_rule, self.partner, self.per_seat = seat, partner, per_seat
        self.exploiter_tables, self.exploiter_table_draw = float(exploiter_tables), exploiter_table_draw
        self.symmetric_snapshots = bool(symmetric_snapshots)
        if symmetric_snapshots and self.game.symmetry is None:
            raise ValueError(f"symmetric_snapshots: {game} has no symmetry")
        self.seeds = [int(s) for s in seeds]
        self.rng = np.random.default_rng(self.seeds)  # opponent draws and the batched agents' draws
        self._terms = potential_terms(self.game, shaping or {})
        self.shaping_gamma = float(shaping_gamma)
        B = num_envs
        self._agents: list[Any] = []  # batched agents, by index
        self._mixtures: dict[int, np.ndarray] = {}  # a mixture's index -> its members' agent indices
        self._index: dict[str, int] = {}  # member id (or partner spec) -> index into _agents
        self._partner_agent = None
        if partner not in ("self", "pool") and any(partners(self.game, s) for s in range(n)):
            self._partner_agent = self._agent_for(Member(partner, spec=partner))
        self.set_opponents(opponents)
        self.seat = (np.arange(B) + first_seat) % n  # each game's learner seat this episode
        self._next_seat = self.seat.copy()
        self._learns = np.zeros((B, n), bool)  # seats the learner decides for
        self._plays = np.full((B, n), -1, np.int64)  # the agent index of every other seat
        self._met: list[list[str]] = [[] for _ in range(B)]  # opponent ids, for selfplay infos
        self._exploiter_seat = np.full(B, -1, np.int64)  # at the exploiter's table: its seat; else -1
        self._exploiter_total = np.zeros(B)  # there: the exploiter's own reward so far
        self._credited = np.zeros(B)  # learner reward not yet handed out
        self._total = np.zeros(B)  # the game's own reward so far this episode
        self._potential = np.zeros(B)
        self._over = np.zeros(B, bool)  # the game ended and its episode is not yet closed
        self._truncated = np.zeros(B, bool)  # how it ended
        self._restart = np.zeros(B, bool)  # the engine deals it on the next step
        self._fresh = np.zeros(B, bool)  # a new episode: the learner has not decided in it yet
        self._redeals = np.zeros(B, np.int64)  # deals in a row that ended before the learner acted
        self._who = np.zeros(B, np.int64)
        self._stepping = np.zeros(B, bool)
        self._obs = np.zeros((B, self.engine.obs_dim), np.float32)
        self._mask = np.zeros((B, self.engine.num_actions), np.int8)
        self._actions = np.zeros(B, np.int64)
        self.episodes = 0

    # -- the pool ---------------------------------------------------------------------------

    def set_opponents(self, payload: dict | Sequence) -> None:
        """New members and probabilities (a list of specs or agents: these, uniformly), drawn
        from the next episode on; the games in play keep their opponents."""
        if not isinstance(payload, dict):
            members = [Member(a.name, agent=a) if isinstance(a, Agent) else Member(a, spec=a) for a in payload]
            payload = {"members": members, "probabilities": [1.0] * len(members)}
        if "members" in payload:
            members = list(payload["members"])
            if not members:
                raise ValueError("the opponent pool is empty")
            self._members = [self._agent_for(m) for m in members]
            self._member_ids = [m.id for m in members]
            self._tables = {i: [self._agent_for(Member(spec, spec=spec)) for spec in m.table]
                            for i, m in enumerate(members) if m.is_table}
            # the exploiter's table: (the exploiters' agents, oldest first; the learner's newest snapshot's)
            table = exploiter_table_members(members)
            self._exploiter_table = None if table is None else (
                [self._index[members[i].id] for i in table[0]], self._index[members[table[1]].id])
        p = np.asarray(payload["probabilities"], np.float64)
        if len(p) != len(self._members) or not (p >= 0).all() or p.sum() <= 0:
            raise ValueError(f"opponent probabilities {p.tolist()} do not fit the {len(self._members)} pool members")
        self._cumulative = np.cumsum(p / p.sum())

    def _agent_for(self, member: Member) -> int:
        key = member.id
        if member.is_table:
            return -1  # its seats are its specs' agents (self._tables)
        if key not in self._index:
            if is_mixture(member.spec):  # its members' agents; each seat it sits in draws one per game
                parts = [self._agent_for(Member(spec, spec=spec)) for spec in members_of(member.spec)]
                self._mixtures[len(self._agents)] = np.array(parts, np.int64)
                agent = Mixture(member.spec)
            elif member.agent is not None:
                agent = RowByRow(member.agent)
            elif member.is_snapshot:
                from agents.batched.policy import BatchedPolicy
                from agents.symmetric import SymmetrizedPolicy

                policy = member.policy
                if self.symmetric_snapshots and member.is_learner:  # it plays as the learner played
                    policy = SymmetrizedPolicy(policy, self.game.symmetry)
                agent = BatchedPolicy(self.game, policy, sample=True, name=member.id)
            elif has_batched_form(member.spec, self.game.name):
                agent = batched_agent(member.spec, self.game)
            else:
                from agents.registry import make_agent

                agent = RowByRow(make_agent(member.spec, self.game, int(self.rng.integers(2**31))))
            self._index[key] = len(self._agents)
            self._agents.append(agent)
            self._counts = np.zeros(len(self._agents), np.int64)
        return self._index[key]

    def _draw(self, count: int) -> np.ndarray:
        """``count`` pool members (indices into the members) drawn by their probabilities."""
        picked = np.searchsorted(self._cumulative, self.rng.random(count) * self._cumulative[-1], side="right")
        return np.minimum(picked, len(self._members) - 1)

    # -- VecEnv -----------------------------------------------------------------------------

    def reset(self):
        B = self.num_envs
        self.engine.reset(seeds=self.seeds)
        self._over[:] = self._restart[:] = False
        rows = np.arange(B)
        self._seat_up(rows)
        self._fresh[:] = True
        self._advance(np.zeros(B), np.zeros(B, bool), [{} for _ in range(B)])
        self._observe_decisions()
        self._potential[:] = self._phi(self._obs) if self._terms else 0.0
        self._credited[:] = 0.0
        self.reset_infos = [{"action_mask": self._mask[i]} for i in range(B)]
        return self._obs.copy()

    def seed(self, seed: int | None = None) -> list[int]:
        """New first deals for the next :meth:`reset` (game ``i``: one child of
        ``SeedSequence(seed)`` each) and a new generator for the opponents' draws."""
        if seed is not None:
            self.seeds = np.random.SeedSequence(seed).generate_state(self.num_envs, np.uint32).astype(int).tolist()
            self.rng = np.random.default_rng(self.seeds)
        return list(self.seeds)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions[:] = np.asarray(actions).reshape(self.num_envs)

    def step_wait(self):
        B = self.num_envs
        rewards = np.zeros(B)
        dones = np.zeros(B, bool)
        infos: list[dict[str, Any]] = [{} for _ in range(B)]
        self._fresh[:] = False
        self._redeals[:] = 0
        self._step(self._actions, np.ones(B, bool))  # the learner's decision in every game
        self._advance(rewards, dones, infos)
        self._observe_decisions()
        going = ~dones
        rewards[going] = self._credited[going]
        self._credited[:] = 0.0
        if self._terms:
            phi = self._phi(self._obs)
            rewards[going] += self.shaping_gamma * phi[going] - self._potential[going]
            self._potential = phi  # a new episode's starts at its first decision
        for i in range(B):
            infos[i]["action_mask"] = self._mask[i]
        return self._obs.copy(), rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game's current learner decision."""
        return self._mask

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        return [getattr(self, attr_name)] * len(self._get_indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list[Any]:
        chosen = list(self._get_indices(indices))
        if method_name == "action_masks":
            return [self._mask[i] for i in chosen]
        result = getattr(self, method_name)(*method_args, **method_kwargs)  # one call for the whole batch
        return [result] * len(chosen)

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._get_indices(indices))

    def has_attr(self, attr_name: str) -> bool:
        return hasattr(self, attr_name)

    # -- episodes ---------------------------------------------------------------------------

    def _seat_up(self, rows: np.ndarray) -> None:
        """The learner's seats and the opponents of a new episode in games ``rows``."""
        n = self.game.num_players
        if self.seat_rule == "rotate":
            self.seat[rows] = self._next_seat[rows]
        else:
            self.seat[rows] = self.seat_rule
        self._next_seat[rows] = (self.seat[rows] + 1) % n
        self.episodes += len(rows)
        draws = self._draw(len(rows) * (n if self.per_seat else 1)).reshape(len(rows), -1)
        for k, i in enumerate(rows.tolist()):
            me = int(self.seat[i])
            mates = partners(self.game, me)
            learns = [me, *mates] if self.partner == "self" else [me]
            self._learns[i] = False
            self._learns[i, learns] = True
            self._plays[i] = -1
            met = []
            for s in range(n):
                if s in mates and self._partner_agent is not None:
                    self._plays[i, s] = self._partner_agent
            others = [s for s in range(n) if s not in learns and self._plays[i, s] < 0]
            for s in others:
                member = int(draws[k, s if self.per_seat else 0])
                if member in self._tables:  # the first table drawn seats the whole game
                    agents = self._tables[member]
                    for t, j in table_seats(others, me, n, len(agents)).items():
                        self._plays[i, t] = agents[j]
                    met = [self._member_ids[member]]
                    break
                self._plays[i, s] = self._members[member]
                met.append(self._member_ids[member])
            self._met[i] = met
            if self._mixtures:
                self._draw_mixtures(i)
        self._exploiter_seat[rows] = -1
        self._exploiter_total[rows] = 0.0
        if self.exploiter_tables and self._exploiter_table is not None:
            self._seat_exploiter_tables(rows)
        self._credited[rows] = 0.0
        self._total[rows] = 0.0

    def _draw_mixtures(self, i: int) -> None:
        """Game ``i``'s seats held by a mixture: one of its members each, alike."""
        for s in range(self.game.num_players):
            parts = self._mixtures.get(int(self._plays[i, s]))
            if parts is not None:
                self._plays[i, s] = parts[int(self.rng.random() * len(parts))]

    def _seat_exploiter_tables(self, rows: np.ndarray) -> None:
        """A share ``exploiter_tables`` of the new games ``rows`` at the exploiter's table."""
        exploiters, copy = self._exploiter_table
        chosen = self.rng.random(len(rows)) < self.exploiter_tables
        picks = self.rng.random(len(rows))
        # "newest": the newest exploiter; "all": one of them all, alike (the uniform mixture of the best responses so far)
        if self.exploiter_table_draw == "all":
            which = (self.rng.random(len(rows)) * len(exploiters)).astype(np.int64)
        else:
            which = np.full(len(rows), len(exploiters) - 1)
        for i, pick, j in zip(rows[chosen].tolist(), picks[chosen].tolist(), which[chosen].tolist()):
            others = np.flatnonzero(~self._learns[i])
            seat = int(others[int(pick * len(others))])
            self._plays[i, others] = copy
            self._plays[i, seat] = exploiters[j]
            self._exploiter_seat[i] = seat
            self._met[i] = []

    def _close_episodes(self, rewards: np.ndarray, dones: np.ndarray, infos: list) -> None:
        """The games that ended: a learner's episode is closed (its last reward, ``done`` and
        infos); a deal that ended before the learner acted is dealt again. Either way the
        game starts a new episode on the next engine step."""
        ended = np.flatnonzero(self._over)
        closing = ended[~self._fresh[ended]]
        if len(closing):
            final, _ = self.engine.observe(self.seat)
            for i in closing.tolist():
                truncated = bool(self._truncated[i])
                rewards[i] = self._credited[i] - self._potential[i]  # phi is 0 once the game is over
                dones[i] = True
                infos[i] = {
                    "terminal_observation": final[i].copy(),
                    "TimeLimit.truncated": truncated,
                    "selfplay": {"seat": int(self.seat[i]), "reward": float(self._total[i]),
                                 "opponents": list(self._met[i]), "truncated": truncated},
                }
                if self._exploiter_seat[i] >= 0:
                    infos[i]["selfplay"]["exploiter_table"] = {"seat": int(self._exploiter_seat[i]),
                                                               "reward": float(self._exploiter_total[i])}
        again = ended[self._fresh[ended]]
        self._redeals[again] += 1
        if (self._redeals > MAX_REDEALS).any():
            raise RuntimeError(f"{MAX_REDEALS} deals in a row ended before the learner could act")
        self._seat_up(ended)
        self._over[ended] = False
        self._restart[ended] = True
        self._fresh[ended] = True

    # -- playing ----------------------------------------------------------------------------

    def _advance(self, rewards: np.ndarray, dones: np.ndarray, infos: list) -> None:
        """Step every game until the learner must decide in it: the other seats' decisions,
        and new episodes for the games that end."""
        actions = np.zeros(self.num_envs, np.int64)
        obs, mask = self.engine.obs, self.engine.mask
        while True:
            if self._over.any():
                self._close_episodes(rewards, dones, infos)
            who, stepping, counts = self._who, self._stepping, self._counts
            if not _who_acts(self.engine.actor, self._restart, self._learns, self._plays, who, stepping, counts):
                return
            for agent in np.flatnonzero(counts).tolist():
                rows = np.flatnonzero(who == agent)
                actions[rows] = self._agents[agent].act(obs[rows], mask[rows], self.rng.random(len(rows)))
            self._step(actions, stepping)
            self._restart[:] = False

    def _step(self, actions: np.ndarray, where: np.ndarray) -> None:
        _, _, _, rewards, terminated, truncated = self.engine.step(actions, where=where)
        _credit(rewards, terminated, truncated, where, self.seat, self._exploiter_seat, self._credited, self._total,
                self._exploiter_total, self._over, self._truncated)

    def _observe_decisions(self) -> None:
        self._obs[:] = self.engine.obs
        self._mask[:] = self.engine.mask

    def _phi(self, obs: np.ndarray) -> np.ndarray:
        phi = np.zeros(len(obs))
        for where, weight in self._terms:
            phi += weight * obs[:, where].sum(axis=1, dtype=np.float64)
        return phi


NOBODY = -1  # _who_acts: the learner decides next in this game
DEAL = -2  # _who_acts: the engine deals this game on the next step


@njit(cache=True)
def _who_acts(actor, restart, learns, plays, who, stepping, counts):
    """For every game: the agent index of the seat to act, NOBODY when it is a learner's seat,
    DEAL when the game is to be dealt; ``stepping``: not NOBODY; ``counts``: games per agent.
    Returns whether any game is to be stepped."""
    counts[:] = 0
    any_ = False
    for i in range(actor.shape[0]):
        if restart[i]:
            who[i] = DEAL
        elif actor[i] < 0 or learns[i, actor[i]]:
            who[i] = NOBODY
        else:
            who[i] = plays[i, actor[i]]
            counts[who[i]] += 1
        stepping[i] = who[i] != NOBODY
        any_ |= stepping[i]
    return any_


@njit(cache=True)
def _credit(rewards, terminated, truncated, where, seat, exploiter, credited, total, exploiter_total, over, how):
    """The learner seat's rewards of the games stepped (``credited``: at the exploiter's table,
    minus the exploiter's over n - 1; ``total``: its own; ``exploiter_total``: the exploiter's),
    and which of them ended."""
    for i in range(where.shape[0]):
        if where[i]:
            r = rewards[i, seat[i]]
            if exploiter[i] < 0:
                credited[i] += r
            else:
                credited[i] -= rewards[i, exploiter[i]] / (rewards.shape[1] - 1)
                exploiter_total[i] += rewards[i, exploiter[i]]
            total[i] += r
            if terminated[i] or truncated[i]:
                over[i] = True
                how[i] = truncated[i]
