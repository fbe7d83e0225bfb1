"""The self-play opponent pool: fixed agents and frozen snapshots of the learner.

:class:`OpponentPool` lives in the training process. It holds the members (fixed agents named by
spec, e.g. ``random`` or a heuristic, and snapshots of the learner taken every K steps), keeps
the learner's recent results against each, and turns them into sampling probabilities:

* ``uniform``: every member alike;
* ``latest``: the newest snapshot gets ``latest_share`` of the probability, the other members
  share the rest evenly (uniform until the first snapshot exists);
* ``pfsp``: prioritised fictitious self-play: member ``m`` is drawn with weight
  ``(1 - score_m) ** pfsp_power`` (plus a small floor so nobody is forgotten), where
  ``score_m`` is the learner's mean score over its recent games against ``m`` (win 1, draw 0.5,
  loss 0; 0.5 before any game). The members the learner does worst against come up most.

With ``self_play_share`` s > 0 (``uniform`` or ``pfsp``), the newest snapshot of the learner
takes s of the probability and the other members share 1 − s as the sampling gives it them:
self-play against the learner as it nearly is, beside the population (AlphaStar's main agents
play 35 % self-play).

A **table** (``tables``: a list of agent specs) is a member that seats a whole line-up: when a
game draws it for any seat, every other seat of that game is the table's, the seats after the
learner's in turn taking its specs in order (cycled), as a robustness field seats them; the
learner's result there counts for the table alone. Drawn per seat, a field like never + always
challenge hardly ever comes up as a whole; as a table it has a score and a PFSP weight of its
own. With per-seat draws a table of probability p seats about 1 − (1 − p)^k of the games that
have k other seats (the first table drawn, in seat order, is the one that sits).

With ``table_share`` t > 0 the tables together take t of the probability of every draw (split
among them as the sampling gives it them), the other members but the self-play snapshot share
what is left: a table that would be one member among some ninety then seats a fixed share of
the games, about 1 − (1 − t)^k of those with k other seats (per-seat draws).

Only the learner's own snapshots count towards ``max_snapshots``: league exploiters
(``exploiter@<k>``) stay in the pool.

Environments, possibly in other processes, get :meth:`OpponentPool.payload` (members and
probabilities) and draw from it with an :class:`Opponents` table of their own.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from agents.base import Agent, GameInfo
from agents.ppo.frozen_policy import FrozenPolicy

SAMPLING = ("uniform", "latest", "pfsp")
PFSP_FLOOR = 0.02  # every member keeps some chance, so its score stays current
SNAPSHOT = "snapshot@"  # the learner's own snapshots: snapshot@<step>


@dataclass(frozen=True)
class Member:
    """One opponent of the pool: a fixed agent spec, a table of specs (a whole line-up), a
    snapshot of the learner, or (in-process use: tests, custom opponents) a ready agent object
    that plays every seat it is drawn for."""

    id: str
    spec: str | None = None
    policy: FrozenPolicy | None = None
    step: int | None = None  # when the snapshot was taken
    agent: Agent | None = None
    table: tuple[str, ...] = ()  # a table's specs, for the seats after the learner's in turn

    @property
    def is_table(self) -> bool:
        return bool(self.table)

    @property
    def is_snapshot(self) -> bool:
        return self.policy is not None

    @property
    def is_learner(self) -> bool:
        """A snapshot of the learner itself (not a league exploiter)."""
        return self.is_snapshot and self.id.startswith(SNAPSHOT)


TABLE = "table:"  # a table's member id: table:<spec>+<spec>..., never a fixed agent's


def table_member(specs: Sequence[str]) -> Member:
    """The pool member that seats the line-up ``specs`` (see the module docstring)."""
    specs = tuple(specs)
    if not specs or not all(isinstance(s, str) and s for s in specs):
        raise ValueError(f"a table is a non-empty list of agent specs, not {list(specs)!r}")
    return Member(TABLE + "+".join(specs), table=specs)


def table_seats(opponent_seats: Sequence[int], learner: int, n: int, size: int) -> dict[int, int]:
    """Which of a table's ``size`` specs plays each opponent seat: the seats after the
    learner's in turn take specs 0, 1, ... (cycled)."""
    ordered = sorted(opponent_seats, key=lambda s: (s - learner) % n)
    return {s: j % size for j, s in enumerate(ordered)}


def exploiter_table_members(members: Sequence[Member]) -> tuple[list[int], int] | None:
    """Who sits at the exploiter's table (see :mod:`agents.training.learner_env`): the indices
    into ``members`` of the league exploiters, oldest first, and of the learner's newest
    snapshot; ``None`` until the pool holds both."""
    exploiters = [i for i, m in enumerate(members) if m.is_snapshot and not m.is_learner]
    own = [i for i, m in enumerate(members) if m.is_learner]
    return (exploiters, own[-1]) if exploiters and own else None


def score_of(reward: float) -> float:
    """The learner's result in one game as a PFSP score: win 1, draw 0.5, loss 0."""
    return 1.0 if reward > 0 else 0.0 if reward < 0 else 0.5


class OpponentPool:
    def __init__(
        self,
        fixed: Sequence[str] = ("random",),
        sampling: str = "uniform",
        *,
        latest_share: float = 0.5,
        pfsp_power: float = 2.0,
        max_snapshots: int = 10,
        results_window: int = 200,
        self_play_share: float = 0.0,
        tables: Sequence[Sequence[str]] = (),
        table_share: float = 0.0,
    ):
        if sampling not in SAMPLING:
            raise ValueError(f"opponent sampling {sampling!r} is not known; use one of {', '.join(SAMPLING)}")
        if not 0.0 <= latest_share <= 1.0:
            raise ValueError(f"latest_share={latest_share} must be between 0 and 1")
        if not 0.0 <= self_play_share < 1.0:
            raise ValueError(f"self_play_share={self_play_share} must be at least 0 and below 1")
        if not 0.0 <= table_share < 1.0 or self_play_share + table_share >= 1.0:
            raise ValueError(f"table_share={table_share} must be at least 0, and below 1 with self_play_share "
                             f"({self_play_share})")
        if table_share and not tables:
            raise ValueError(f"table_share={table_share} needs tables")
        if self_play_share and sampling == "latest":
            raise ValueError("self_play_share goes with uniform or pfsp sampling; with latest, set latest_share")
        if not fixed and not tables and max_snapshots < 1:
            raise ValueError("the opponent pool is empty: give fixed agents or allow snapshots")
        if len(set(fixed)) != len(fixed):
            raise ValueError(f"fixed opponents are listed twice: {list(fixed)}")
        self.sampling = sampling
        self.latest_share = latest_share
        self.pfsp_power = pfsp_power
        self.self_play_share = self_play_share
        self.table_share = table_share
        self.max_snapshots = max_snapshots
        self.results_window = results_window
        self.members: list[Member] = [Member(spec, spec=spec) for spec in fixed] + [table_member(t) for t in tables]
        if len({m.id for m in self.members}) != len(self.members):
            raise ValueError(f"tables are listed twice: {[list(t) for t in tables]}")
        self.results: dict[str, deque[float]] = {m.id: deque(maxlen=results_window) for m in self.members}

    # -- membership ---------------------------------------------------------------------------

    @property
    def snapshots(self) -> list[Member]:
        return [m for m in self.members if m.is_snapshot]

    def add_snapshot(self, policy: FrozenPolicy, step: int, member_id: str | None = None) -> Member:
        """Freeze the learner at ``step`` (or add a league exploiter, named ``member_id``); the
        oldest snapshot leaves beyond ``max_snapshots``."""
        member = Member(member_id or f"{SNAPSHOT}{step}", policy=policy, step=step)
        self.members = [m for m in self.members if m.id != member.id] + [member]
        self.results[member.id] = deque(maxlen=self.results_window)
        while len(own := [m for m in self.members if m.is_learner]) > self.max_snapshots:
            oldest = own[0]
            self.members.remove(oldest)
            del self.results[oldest.id]
        return member

    # -- results and sampling -----------------------------------------------------------------

    def record(self, member_ids: Iterable[str], reward: float) -> None:
        """The learner's final reward in a game against these members (those still in the pool)."""
        score = score_of(reward)
        for member_id in set(member_ids):
            if member_id in self.results:
                self.results[member_id].append(score)

    def score(self, member_id: str) -> float:
        results = self.results[member_id]
        return float(np.mean(results)) if results else 0.5

    def games(self, member_id: str) -> int:
        return len(self.results[member_id])

    def probabilities(self) -> np.ndarray:
        n = len(self.members)
        if n == 0:
            raise ValueError("the opponent pool is empty")
        if self.sampling == "pfsp":
            weights = np.array([(1.0 - self.score(m.id)) ** self.pfsp_power for m in self.members]) + PFSP_FLOOR
            return self._with_tables(self._with_self_play(weights / weights.sum()))
        probabilities = np.full(n, 1.0 / n)
        snapshots = [i for i, m in enumerate(self.members) if m.is_snapshot]
        if self.sampling == "latest" and snapshots and n > 1:
            probabilities[:] = (1.0 - self.latest_share) / (n - 1)
            probabilities[snapshots[-1]] = self.latest_share
        return self._with_tables(self._with_self_play(probabilities))

    def _with_tables(self, probabilities: np.ndarray) -> np.ndarray:
        """``table_share`` to the tables (as ``probabilities`` split it among them); the other
        members, but the newest snapshot's self-play share, rescaled to what is left."""
        tables = [i for i, m in enumerate(self.members) if m.is_table]
        own = [i for i, m in enumerate(self.members) if m.is_learner]
        kept = own[-1:] if self.self_play_share and own and len(self.members) > 1 else []
        others = [i for i in range(len(self.members)) if i not in tables and i not in kept]
        if not self.table_share or not tables or not others:
            return probabilities
        out = probabilities.copy()
        for group, share in ((tables, self.table_share), (others, 1.0 - self.table_share - probabilities[kept].sum())):
            weights = probabilities[group]  # all zero only where the sampling gave them nothing: then evenly
            out[group] = share * (weights / weights.sum() if weights.sum() > 0 else np.full(len(group), 1.0 / len(group)))
        return out

    def _with_self_play(self, probabilities: np.ndarray) -> np.ndarray:
        """``self_play_share`` to the learner's newest snapshot, the rest rescaled to 1 − share."""
        own = [i for i, m in enumerate(self.members) if m.is_learner]
        if not self.self_play_share or not own or len(self.members) == 1:
            return probabilities
        newest = own[-1]
        rest = probabilities.copy()
        rest[newest] = 0.0
        rest *= (1.0 - self.self_play_share) / rest.sum()
        rest[newest] = self.self_play_share
        return rest

    def payload(self) -> dict:
        """What an environment needs to draw opponents: members and their probabilities."""
        return {"members": list(self.members), "probabilities": self.probabilities().tolist()}

    # -- saving ---------------------------------------------------------------------------------

    def state(self) -> tuple[str, dict[str, np.ndarray]]:
        """The pool as JSON (members, recent results) and arrays (snapshot weights)."""
        arrays = {}
        entries = []
        for index, m in enumerate(self.members):
            entry = {"id": m.id, "spec": m.spec, "step": m.step, "results": list(self.results[m.id])}
            entries.append({**entry, "table": list(m.table)} if m.is_table else entry)
            if m.is_snapshot:
                arrays.update({f"s{index}_{key}": value for key, value in m.policy.to_arrays().items()})
        return json.dumps({"members": entries}), arrays

    def load_state(self, text: str, arrays: dict[str, np.ndarray]) -> None:
        """Restore members and results saved by :meth:`state` (the sampling settings stay)."""
        self.members, self.results = [], {}
        for index, entry in enumerate(json.loads(text)["members"]):
            if entry.get("table"):
                member = Member(entry["id"], table=tuple(entry["table"]))
            elif entry["spec"] is not None:
                member = Member(entry["id"], spec=entry["spec"])
            else:
                prefix = f"s{index}_"
                own = {k[len(prefix) :]: v for k, v in arrays.items() if k.startswith(prefix)}
                member = Member(entry["id"], policy=FrozenPolicy.from_arrays(own), step=entry["step"])
            self.members.append(member)
            self.results[member.id] = deque(entry["results"], maxlen=self.results_window)


class Opponents:
    """An environment's copy of the pool: draws members and builds (and keeps) their agents.

    Fixed members become agents through :func:`agents.make_agent`; snapshots become
    :class:`~agents.ppo.agent.PPOAgent` that sample from their policy. One agent is kept per
    member and seat (a table's: per spec and seat), each seeded from this copy's generator.
    """

    def __init__(self, game: GameInfo, payload: dict | Sequence[str], rng: np.random.Generator):
        self.game = game
        self.rng = rng
        self._agents: dict[tuple[str, int, int], Agent] = {}  # (member id, seat, table position)
        self.update(payload)

    def update(self, payload: dict | Sequence[str | Agent]) -> None:
        """New members and probabilities (a list of specs or agents means: these, uniformly)."""
        if not isinstance(payload, dict):
            members = [Member(a.name, agent=a) if isinstance(a, Agent) else Member(a, spec=a) for a in payload]
            payload = {"members": members, "probabilities": [1.0] * len(members)}
        if "members" in payload:  # otherwise: the same members, new probabilities
            self.members: list[Member] = list(payload["members"])
            if not self.members:
                raise ValueError("the opponent pool is empty")
            current = {m.id for m in self.members}
            self._agents = {key: agent for key, agent in self._agents.items() if key[0] in current}
        p = np.asarray(payload["probabilities"], np.float64)
        if len(p) != len(self.members) or not (p >= 0).all() or p.sum() <= 0:
            raise ValueError(f"opponent probabilities {p.tolist()} do not fit the {len(self.members)} pool members")
        self.cumulative = np.cumsum(p / p.sum())

    def draw(self) -> Member:
        index = int(np.searchsorted(self.cumulative, self.rng.random() * self.cumulative[-1], side="right"))
        return self.members[min(index, len(self.members) - 1)]

    def agent(self, member: Member, seat: int, position: int = 0) -> Agent:
        """The agent of ``member`` at ``seat`` (a table's: its spec number ``position``)."""
        if member.agent is not None:
            return member.agent
        key = (member.id, seat, position)
        agent = self._agents.get(key)
        if agent is None:
            seed = int(self.rng.integers(2**31))
            if member.is_snapshot:
                from agents.ppo.agent import PPOAgent

                agent = PPOAgent(self.game, member.policy, seed, sample=True, name=member.id)
            else:
                from agents.registry import make_agent

                agent = make_agent(member.table[position] if member.is_table else member.spec, self.game, seed)
            self._agents[key] = agent
        return agent
