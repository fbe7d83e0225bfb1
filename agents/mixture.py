"""Mixtures of agents: ``mix:<spec>+<spec>+...`` plays one of its agents, drawn anew every game.

In a game of bluffing a distribution over policies is a strategy of its own, and the one that
population methods end with: fictitious play's average strategy and PSRO's meta-strategy draw
one member of the population per game. That is neither the mean of the members' action
probabilities decision by decision nor the mean of their weights (``bluff average``): a member
drawn once plays consistently all game, and an opponent who cannot tell which one sits there
must answer them all at once. ``mix:A+B+C`` plays A, B or C alike; repeat a spec to weight it
(``mix:A+A+B``: A in two games of three). Members are any specs but mixtures, without labels
(label the mixture: ``mix:A+B#name``); ``+`` separates them, so it cannot appear in a member.
``mix:zoo/<name>`` plays a mixture entry of the zoo (:mod:`agents.ppo.zoo`).

Where the member is drawn:

* in tournaments (and so evaluations, robustness matrices and exploiters' final evaluations)
  the arena re-seeds every agent before each game (:mod:`agents.arena.match`), and
  :class:`MixtureAgent` draws its member from that seed: a game's record still depends only on
  its task. On the vector engine (a batched form for every member) the seat is its member's,
  with the member's seed, game by game (:mod:`agents.arena.vector_match`): the same records;
* in training, a pool member ``mix:...`` (an exploiter's target, a fixed opponent, a table's
  seat) draws one of its members for each seat it is drawn for, every game: the reference
  learner env re-seeds its mixtures each deal, the vector one draws among its members' batched
  forms (:mod:`agents.training.learner_env`, :mod:`agents.training.vector_learner`).
"""

from __future__ import annotations

import numpy as np

from agents.base import Agent, GameInfo

MIX = "mix:"
SEPARATOR = "+"
ZOO = "zoo/"  # mix:zoo/<name>: a mixture entry of the zoo (agents.ppo.zoo)


def is_mixture(spec: str | None) -> bool:
    return isinstance(spec, str) and spec.startswith(MIX)


def members_of(spec: str) -> list[str]:
    """The member specs of ``mix:<spec>+<spec>...``; ``ValueError`` naming what is wrong."""
    from agents.registry import LABEL

    rest = spec[len(MIX):] if is_mixture(spec) else spec
    if rest.startswith(ZOO) and SEPARATOR not in rest:  # a mixture entry of the zoo
        from agents.ppo import zoo

        return zoo.mixture_members(rest[len(ZOO):])
    members = rest.split(SEPARATOR)
    if not rest or any(not m for m in members):
        raise ValueError(f"agent spec {spec!r}: a mixture is mix:<spec>+<spec>+..., with no empty member "
                         "(e.g. mix:ppo:zoo/a+ppo:zoo/b)")
    for m in members:
        if is_mixture(m):
            raise ValueError(f"agent spec {spec!r}: member {m!r} is a mixture; allowed: any spec but a mixture")
        if LABEL in m:
            raise ValueError(f"agent spec {spec!r}: member {m!r} has a label; allowed: a label on the whole "
                             f"mixture only ({MIX}a+b{LABEL}name)")
    return members


def member_and_seed(count: int, seed: int | None) -> tuple[int, int]:
    """The member a mixture of ``count`` plays for ``seed``, and the seed that member gets."""
    rng = np.random.default_rng(seed)
    return int(rng.integers(count)), int(rng.integers(2**63))


class MixtureAgent(Agent):
    """One of ``members`` for each game, drawn (alike) when the agent is seeded."""

    def __init__(self, game: GameInfo, specs: list[str], seed: int | None = None):
        from agents.registry import make_agent

        self.specs = list(specs)
        self.agents = [make_agent(spec, game, None) for spec in self.specs]
        self.name = MIX + SEPARATOR.join(self.specs)
        super().__init__(game, seed)
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        """A new game: a member drawn from ``seed``, and seeded from it."""
        self.rng = np.random.default_rng(seed)
        self.index, member_seed = member_and_seed(len(self.agents), seed)
        self.playing = self.agents[self.index]
        self.playing.seed(member_seed)

    def act(self, observation, view=None) -> int:
        return self.playing.act(observation, view)


def load(rest: str, game: GameInfo, seed: int | None = None) -> MixtureAgent:
    """The agent of spec ``mix:<rest>``."""
    return MixtureAgent(game, members_of(MIX + rest), seed)
