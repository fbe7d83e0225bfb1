"""One seat of a multi-player game as a single-agent Gymnasium environment.

:class:`LearnerEnv` wraps any of our games (its ``raw_env``, the fast path). Each episode the
learner owns one seat, rotating from episode to episode; every other seat is played inside
``step()`` by opponents drawn from a pool (:mod:`agents.training.pool`). What the learner gets
is exactly what it would get as a player:

* the observation and action mask of its own seat, at its own decisions only;
* its own rewards, summed from one of its decisions to its next, so that a reward earned while
  the opponents play (above all the final reward when *another* player ends the game) reaches
  the decision that led to it. PettingZoo's SB3 tutorial wrapper instead returns the reward of
  whichever agent just acted and hands the next observation of a *different* agent to the
  learner; neither happens here;
* ``terminated`` when the game ends by its rules, ``truncated`` when it hits ``max_turns``, so
  SB3 bootstraps truncated episodes as it should.

In a partnership game (Tarneeb: players 0 and 2 against 1 and 3) the partner seat is, by
``partner``: ``"self"``, the learner itself (its current policy decides for both seats, and
both seats' decisions are training steps; the partnership's reward is counted once), ``"pool"``
(drawn like an opponent) or a fixed agent spec. A mixture (``mix:...``, :mod:`agents.mixture`)
in any seat draws its member anew each game.

:meth:`action_masks` serves MaskablePPO. Every ``info`` also carries the next mask under
``"action_mask"`` (see :class:`agents.ppo.vec.MaskFromInfo`, which saves subprocess round
trips), and the last step of an episode carries ``info["selfplay"]``: the learner's seat, its
total reward and the ids of the opponents it met.

Optional **potential-based shaping** (Ng, Harada & Russell, 1999) adds
``gamma * phi(next) - phi(now)`` to each reward, where ``phi`` is a weighted sum of fields of
the learner's own observation, decoded to natural units (``{"hand_sizes[0]": -0.02}``: minus
0.02 per card in my hand) and ``phi = 0`` once the episode is over. Such shaping does not change
which policies are optimal, but rewards progress long before the game's one reward at the end.
It is off unless asked for; ``info["selfplay"]["reward"]`` is always the game's own reward.

**The exploiter's table** (``exploiter_tables`` s > 0, games without partnerships): once the
pool holds a league exploiter and a snapshot of the learner, a share s of the games is played at
the line-up the exploit measure plays: the newest league exploiter (``exploiter_table_draw=
"all"``: one of all the pool's exploiters, alike) in one other seat, drawn, and the learner's
newest snapshot in the rest. There the learner is rewarded with the mean of its copies' rewards
(its own seat's and the snapshots'): in a zero-sum game, minus the exploiter's reward over
n − 1, so the learner gains what the exploiter loses, as the copies do together. A seat that
wins only for itself against a table of copies is no defence: a best response needs only one
copy to lose. These games are not drawn from the pool and name no opponent (no member's PFSP
score counts them); their ``selfplay`` info adds ``exploiter_table``: the exploiter's seat and
reward. Once the table can be set, every episode draws two numbers for it (whether, which
seat), and with ``"all"`` a third (which exploiter); with s = 0 it draws none.

:class:`agents.training.vector_learner.VectorLearnerEnv` is the same environment for many games
at once on the vector engine (the default of ``bluff train``); the tests hold the two equal
step for step. The exploiter's table and mixtures draw in another order in each, so with them
the two are held to the same description apiece (who sits where, how often, what is credited).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np

import bluff_envs
from agents.base import GameInfo
from agents.mixture import MixtureAgent
from agents.training.pool import Opponents, exploiter_table_members, table_seats

MAX_REDEALS = 100  # deals in a row that end before the learner acts (a misconfigured game)
EXPLOITER_TABLE_DRAWS = ("newest", "all")


def partners(game: GameInfo, seat: int) -> list[int]:
    """The seats that share ``seat``'s reward, other than itself."""
    team = next((t for t in game.teams if seat in t), (seat,))
    return [p for p in team if p != seat]


def check_exploiter_tables(game: GameInfo, share: float, draw: str) -> None:
    """``ValueError`` unless ``share`` of the games at the exploiter's table, drawn by ``draw``,
    can be played in ``game``."""
    if not 0.0 <= share < 1.0:
        raise ValueError(f"exploiter_tables={share} must be at least 0 and below 1")
    if draw not in EXPLOITER_TABLE_DRAWS:
        raise ValueError(f"exploiter_table_draw={draw!r}; allowed: 'newest' or 'all'")
    if share and any(len(team) > 1 for team in game.teams):
        raise ValueError(f"exploiter_tables={share} in {game.name}, a partnership game: its exploiter holds "
                         "a whole side; allowed: 0")


def potential_terms(game: GameInfo, shaping: dict[str, float]) -> list[tuple[slice, float]]:
    """``{"field": w, "field[i]": w}`` as (observation slice, weight per encoded unit) pairs:
    a field counts with the sum of its entries, ``field[i]`` with entry ``i`` alone."""
    layout, terms = game.layout, []
    for key, weight in shaping.items():
        name, _, index = str(key).partition("[")
        if name not in layout:
            raise ValueError(f"shaping field {key!r} is not an observation field of {game.name}; fields: {', '.join(layout)}")
        where = layout[name]
        if index:
            size = where.stop - where.start
            if not index.endswith("]") or not index[:-1].isdigit() or int(index[:-1]) >= size:
                raise ValueError(f"shaping field {key!r}: the index must be 0 to {size - 1}, as in {name}[0]")
            where = slice(where.start + int(index[:-1]), where.start + int(index[:-1]) + 1)
        terms.append((where, float(weight) * layout.scale(name)))
    return terms


class LearnerEnv(gym.Env):
    """A Gymnasium environment in which the learner plays one seat of ``game``.

    ``opponents``: agent specs drawn uniformly (``["random", ...]``), ready :class:`Agent`
    objects, or an :meth:`OpponentPool.payload`. ``seat``: ``"rotate"`` (episode ``k`` plays
    seat ``(first_seat + k) % n``) or a fixed seat index. ``per_seat``: draw an opponent for
    each seat (a mixed field) rather than one for all of them.

    ``exploiter_tables``, ``exploiter_table_draw``: the exploiter's table (the module docstring).

    ``reset(options=...)`` accepts ``deck`` (a fixed deal, as the games' own ``reset``) and
    ``seat`` (the learner's seat this episode; the rotation goes on from it).
    """

    metadata = {"render_modes": []}

    def __init__(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        opponents: dict | Sequence = ("random",),
        *,
        seat: int | str = "rotate",
        partner: str = "self",
        per_seat: bool = True,
        first_seat: int = 0,
        seed: int | None = None,
        shaping: dict[str, float] | None = None,
        shaping_gamma: float = 1.0,
        exploiter_tables: float = 0.0,
        exploiter_table_draw: str = "newest",
    ):
        self.raw = bluff_envs.make(game, raw=True, **(options or {}))
        self.game = GameInfo.of(self.raw)
        n = self.game.num_players
        check_exploiter_tables(self.game, exploiter_tables, exploiter_table_draw)
        self.exploiter_tables, self.exploiter_table_draw = float(exploiter_tables), exploiter_table_draw
        if seat != "rotate" and not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"seat={seat!r} must be 'rotate' or a seat index from 0 to {n - 1}")
        if not isinstance(partner, str) or not partner:
            raise ValueError(f"partner={partner!r} must be 'self', 'pool' or an agent spec")
        self.seat_rule = seat
        self.partner = partner
        self.per_seat = per_seat
        self.agent_names = list(self.raw.possible_agents)
        space = self.raw.observation_space(self.agent_names[0])
        self.observation_space = space["observation"]
        self.action_space = self.raw.action_space(self.agent_names[0])
        self.rng = np.random.default_rng(seed)
        self._first_game_seed = seed
        self.opponents = Opponents(self.game, opponents, self.rng)
        self._partner_agent = None
        if partner not in ("self", "pool") and any(partners(self.game, s) for s in range(n)):
            from agents.registry import make_agent

            self._partner_agent = make_agent(partner, self.game, int(self.rng.integers(2**31)))
        self._potential_terms = potential_terms(self.game, shaping or {})
        self.shaping_gamma = shaping_gamma
        self._potential = 0.0
        self._next_seat = first_seat % n
        self._mask = np.zeros(self.action_space.n, np.int8)
        self.seat = 0
        self.episodes = 0

    # -- Gymnasium API --------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        options = dict(options or {})
        if seed is not None:
            self.rng = self.opponents.rng = np.random.default_rng(seed)
            self._first_game_seed = seed
        forced_seat = options.pop("seat", None)
        for _ in range(MAX_REDEALS):
            self._deal(forced_seat, options)
            if not self._play_others():
                observation = self._observe()
                self._potential = self._phi(observation)
                return observation, {"action_mask": self._mask}
            if "deck" in options:
                raise ValueError("the fixed deal given to reset() ends the game before the learner's first decision")
        raise RuntimeError(f"{MAX_REDEALS} deals in a row ended before the learner could act")

    def step(self, action):
        raw = self.raw
        raw.step(int(action))
        over = self._play_others()
        total = raw._cumulative_rewards[self._learner]  # the learner's reward so far this episode
        credit = total if self._exploiter is None else \
            -raw._cumulative_rewards[self._exploiter] / (self.game.num_players - 1)  # its copies' mean
        reward = credit - self._credited
        self._credited = credit
        if not over:
            observation = self._observe()
            if self._potential_terms:
                potential, self._potential = self._potential, self._phi(observation)
                reward += self.shaping_gamma * self._potential - potential
            return observation, reward, False, False, {"action_mask": self._mask}
        reward -= self._potential  # phi is 0 once the game is over
        self._mask = np.zeros_like(self._mask)
        truncated = bool(raw.truncations[self._learner])
        info = {
            "action_mask": self._mask,
            "selfplay": {"seat": self.seat, "reward": float(total), "opponents": self._opponent_ids, "truncated": truncated},
        }
        if self._exploiter is not None:
            info["selfplay"]["exploiter_table"] = {"seat": self.agent_names.index(self._exploiter),
                                                   "reward": float(raw._cumulative_rewards[self._exploiter])}
        observation = raw.view.observation(self.seat)
        return observation, reward, not truncated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner's current decision (MaskablePPO's hook)."""
        return self._mask

    def set_opponents(self, payload: dict | Sequence) -> None:
        """New pool members and probabilities; they take effect from the next episode."""
        self.opponents.update(payload)

    def close(self) -> None:
        self.raw.close()

    # -- internals ------------------------------------------------------------------------------

    def _deal(self, forced_seat: int | None, options: dict) -> None:
        n = self.game.num_players
        if forced_seat is not None:
            if not (isinstance(forced_seat, int) and 0 <= forced_seat < n):
                raise ValueError(f"reset option seat={forced_seat!r} must be a seat index from 0 to {n - 1}")
            self.seat = forced_seat
        elif self.seat_rule == "rotate":
            self.seat = self._next_seat
        else:
            self.seat = self.seat_rule
        self._next_seat = (self.seat + 1) % n
        self.episodes += 1
        seats = {self.seat: None}
        mates = partners(self.game, self.seat)
        if self.partner == "self":
            seats.update({p: None for p in mates})
        elif self._partner_agent is not None:
            seats.update({p: self._partner_agent for p in mates})
        self._learner = self.agent_names[self.seat]
        self._learner_agents = {self.agent_names[s] for s, agent in seats.items() if agent is None}
        self._seat_agents = {self.agent_names[s]: agent for s, agent in seats.items() if agent is not None}
        others = [s for s in range(n) if s not in seats]
        field = [self.opponents.draw()] if not self.per_seat else []
        ids = []
        for s in others:
            member = self.opponents.draw() if self.per_seat else field[0]
            if member.is_table:  # the first table drawn seats the whole game
                positions = table_seats(others, self.seat, n, len(member.table))
                for t in others:
                    self._seat_agents[self.agent_names[t]] = self.opponents.agent(member, t, positions[t])
                ids = [member.id]
                break
            self._seat_agents[self.agent_names[s]] = self.opponents.agent(member, s)
            ids.append(member.id)
        self._opponent_ids = ids
        self._exploiter = None  # the exploiter's agent name at its table
        if self.exploiter_tables:
            self._seat_exploiter_table(others)
        for agent in self._seat_agents.values():  # a mixture (agents.mixture) draws its member for this game
            if isinstance(agent, MixtureAgent):
                agent.seed(int(self.rng.integers(2**63)))
        game_seed, self._first_game_seed = self._first_game_seed, None
        self.raw.reset(seed=game_seed, options=options or None)
        self._credited = 0.0

    def _seat_exploiter_table(self, others: list[int]) -> None:
        """With probability ``exploiter_tables``, the exploiter's table in ``others``' seats."""
        members = self.opponents.members
        table = exploiter_table_members(members)
        if table is None:
            return
        exploiters, copy = table
        chosen, pick = self.rng.random() < self.exploiter_tables, self.rng.random()
        # "newest": the newest exploiter; "all": one of them all, alike (the uniform mixture of the best responses so far)
        which = int(self.rng.random() * len(exploiters)) if self.exploiter_table_draw == "all" else len(exploiters) - 1
        if not chosen:
            return
        seat = others[int(pick * len(others))]
        for s in others:
            member = members[exploiters[which]] if s == seat else members[copy]
            self._seat_agents[self.agent_names[s]] = self.opponents.agent(member, s)
        self._exploiter = self.agent_names[seat]
        self._opponent_ids = []

    def _play_others(self) -> bool:
        """Let the other seats act until one of the learner's seats must decide; True if the
        game ended first."""
        raw = self.raw
        learners, seat_agents = self._learner_agents, self._seat_agents
        terminations, truncations = raw.terminations, raw.truncations
        while True:
            agent = raw.agent_selection
            if terminations[agent] or truncations[agent]:
                return True
            if agent in learners:
                return False
            raw.step(seat_agents[agent].act(raw.observe(agent)))

    def _phi(self, observation: np.ndarray) -> float:
        return sum(weight * float(observation[where].sum()) for where, weight in self._potential_terms)

    def _observe(self) -> np.ndarray:
        observed = self.raw.observe(self.raw.agent_selection)
        self._mask = observed["action_mask"]
        return observed["observation"]
