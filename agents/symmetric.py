"""``ppo:<checkpoint>@symmetric``: a policy played through its game's symmetry.

Believe It or Not's ranks are interchangeable (:mod:`bluff_envs.symmetry`), but a network that
reads one input per rank need not treat them alike, and a best response finds the rank it
trusts too much: the strongest kept exploiter of the zoo's agents names "10" in 40 % of its
leads, bluffs 83 % of its "10"s, and the agents believe a third of them. Played
``@symmetric``, every decision first draws a relabelling of the ranks, shows the policy the
relabelled observation and legal actions, and maps its choice back: the action's probability
is the policy's mean over all relabellings, the same for every rank. That closes the holes a
rank makes, not the others (``docs/robustness.md``, "The ranks' symmetry", measures both). A
network trained that way (``learner.symmetric``, :mod:`agents.training.symmetric_learner`)
meets every rank in every role. In the middle of a play being built the policy sees the legal
adds of the real game, relabelled: ranks are added in the order 2 … A, which the relabelled
game would order otherwise (a network trained through the symmetry knows such masks; one
trained without has met only ascending ones).

One uniform draw ``u`` decides a decision, as for every sampled agent: with ``K`` relabellings
(13! for 52 cards), relabelling ``⌊u·K⌋`` (numbered as
:meth:`~bluff_envs.symmetry.Relabelling.permutations` numbers them), and the policy samples its
softmax with ``u·K − ⌊u·K⌋``. A float64 draw leaves that second draw about 20 bits for 13!
relabellings (steps of 10⁻⁶), far finer than any probability that decides a game. The
reference agent and the batched form make the same choice for the same draw.
"""

from __future__ import annotations

import numpy as np

from bluff_envs.symmetry import Relabelling


class SymmetrizedPolicy:
    """``policy`` (anything with ``act_rows(observations, masks, u)``, e.g. a
    :class:`~agents.ppo.frozen_policy.FrozenPolicy`) played after a relabelling drawn per
    decision from ``symmetry``; it only samples (no draw, no relabelling)."""

    def __init__(self, policy, symmetry: Relabelling):
        if (policy.observation_size, policy.num_actions) != (symmetry.observation_size, symmetry.num_actions):
            raise ValueError(f"a policy of {policy.observation_size} inputs and {policy.num_actions} actions does not fit "
                             f"a symmetry of {symmetry.observation_size} inputs and {symmetry.num_actions} actions "
                             "(another game, or other options)")
        self.policy = policy
        self.symmetry = symmetry
        self.observation_size = policy.observation_size
        self.num_actions = policy.num_actions

    def split(self, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The relabelling each draw picks, and the draw left for the policy."""
        scaled = np.asarray(u, np.float64) * self.symmetry.count
        k = np.minimum(np.floor(scaled), self.symmetry.count - 1)
        return k.astype(np.int64), np.clip(scaled - k, 0.0, np.nextafter(1.0, 0.0))

    def act_rows(self, observations: np.ndarray, masks: np.ndarray, u: np.ndarray | None = None) -> np.ndarray:
        if u is None:
            raise ValueError("a symmetrized policy samples: it needs a draw per row (there is no @greedy @symmetric)")
        k, rest = self.split(u)
        shown, legal, back = self.symmetry.relabel_numbered(np.asarray(observations, np.float32), np.asarray(masks), k)
        chosen = self.policy.act_rows(shown, legal, rest)
        return np.take_along_axis(back, chosen[:, None], axis=1)[:, 0]

    def decide(self, observation: np.ndarray, mask: np.ndarray, u: float | None) -> int:
        if u is None:
            raise ValueError("a symmetrized policy samples: it needs a draw (there is no @greedy @symmetric)")
        return int(self.act_rows(np.asarray(observation, np.float32)[None], np.asarray(mask)[None], np.array([u]))[0])

    def __repr__(self) -> str:
        return f"SymmetrizedPolicy({self.policy!r}, {self.symmetry!r})"


def symmetrized(policy, game, spec: str):
    """``policy`` played through ``game``'s symmetry (a :class:`~agents.base.GameInfo`);
    ``ValueError`` naming the spec when the game has none."""
    if game.symmetry is None:
        raise ValueError(f"agent spec {spec[:200]!r}: @symmetric needs a game whose cards can be relabelled; "
                         f"{game.name} has no symmetry (games with one: {', '.join(games_with_symmetry())})")
    return SymmetrizedPolicy(policy, game.symmetry)


def games_with_symmetry() -> list[str]:
    """The registered games whose default game has a symmetry."""
    import bluff_envs
    from bluff_envs.registry import GAMES

    return [name for name in GAMES if getattr(bluff_envs.make(name, raw=True).unwrapped.game, "symmetry", None)]
