"""Blends of learned policies: ``blend:<ppo spec>+<ppo spec>+...`` plays, at every decision, the
mean of its members' masked action probabilities.

A mixture (``mix:``, :mod:`agents.mixture`) draws one member per game, and that member plays
the whole game: an opponent that learns to tell the members apart from their first moves can
answer each with its own best response. A blend is the behaviour strategy instead: every
decision draws its member anew, so nothing in a game tells the members apart, and whatever a
best response does in a spot meets the members' mean answer there. Where the members' holes
differ (one believes a bluff the other disbelieves), the blend believes it half the time.

Members are ``ppo:`` specs of one game's policies (a temperature may follow a member's path;
``@greedy`` may not: a blend samples). Members that play through the game's symmetry
(``@symmetric``, or networks trained through it, :mod:`agents.symmetric`) blend only with
each other: the blend of their networks is then played through the symmetry, which is the
mean of the members' symmetrized policies, with one relabelling per decision. ``blend:A+A+B``
weights A twice; ``blend:zoo/<name>`` plays a blend entry of the zoo. One uniform draw
``u`` decides a decision, as for a single policy: member ``m = floor(u·k)`` of ``k``, and that
member samples its masked softmax with the draw ``u·k − m``, so that the reference agent and
the batched form (:mod:`agents.batched.policy`) choose the same action for the same draw, and
the action's probability is exactly the members' mean (a blend through the symmetry first takes
its relabelling from ``u``, as :mod:`agents.symmetric` does, and the blend the draw left).
Greedy play (``act_rows`` without draws) takes the legal action of highest mean probability.
"""

from __future__ import annotations

import numpy as np

from agents.base import GREEDY, GameInfo

BLEND = "blend:"
SEPARATOR = "+"
PPO = "ppo:"
ZOO = "zoo/"  # blend:zoo/<name>: a blend entry of the zoo


def is_blend(spec: str | None) -> bool:
    return isinstance(spec, str) and spec.startswith(BLEND)


def members_of(spec: str) -> list[str]:
    """The member specs of ``blend:<ppo spec>+<ppo spec>...`` (``blend:zoo/<name>``: a blend entry
    of the zoo, :mod:`agents.ppo.zoo`); ``ValueError`` naming what is wrong."""
    rest = spec[len(BLEND):] if is_blend(spec) else spec
    if rest.startswith(ZOO) and SEPARATOR not in rest:
        from agents.ppo import zoo

        return zoo.mixture_members(rest[len(ZOO):], play="blend")
    members = rest.split(SEPARATOR)
    if not rest or any(not m for m in members):
        raise ValueError(f"agent spec {spec[:200]!r}: a blend is blend:<ppo spec>+<ppo spec>+..., with no empty "
                         "member (e.g. blend:ppo:zoo/a+ppo:zoo/b)")
    for m in members:
        if not m.startswith(PPO) or GREEDY in m or "#" in m:
            raise ValueError(f"agent spec {spec[:200]!r}: member {m[:120]!r} is not a sampled policy; allowed: "
                             "ppo:<checkpoint or run>, a temperature (@temperature=T), @symmetric or @plain may "
                             "follow, never @greedy or a label (label the blend: blend:a+b#name)")
    return members


def component_specs(spec: str) -> list[str]:
    """The specs an agent spec plays through: a blend's or a mixture's (:mod:`agents.mixture`)
    members, or the spec itself."""
    from agents.mixture import is_mixture
    from agents.mixture import members_of as mixture_members

    return members_of(spec) if is_blend(spec) else mixture_members(spec) if is_mixture(spec) else [spec]


class BlendedPolicy:
    """The mean of ``policies`` (frozen policies of one game), decision by decision, with the part
    of :class:`~agents.ppo.frozen_policy.FrozenPolicy` that agents play through (``decide``,
    ``act_rows``); a member's temperature is its own (``ppo:<path>@temperature=T``)."""

    def __init__(self, policies: list):
        if not policies:
            raise ValueError("a blend needs at least one policy")
        shapes = {(p.observation_size, p.num_actions) for p in policies}
        if len(shapes) != 1:
            raise ValueError(f"the blend's policies do not fit one game: (observation, actions) sizes {sorted(shapes)}")
        self.policies = list(policies)
        (self.observation_size, self.num_actions), = shapes

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The mean masked softmax (float64 ``[B, actions]``) of the members for each row."""
        masks = np.asarray(masks, bool)
        total = np.zeros(masks.shape, np.float64)
        for policy in self.policies:
            logits = np.where(masks, policy.logits(np.asarray(observations, np.float32)).astype(np.float64), -np.inf)
            top = logits.max(axis=1, keepdims=True)
            e = np.exp(logits - np.where(np.isfinite(top), top, 0.0))
            total += e / np.maximum(e.sum(axis=1, keepdims=True), 1e-300)
        return total / len(self.policies)

    def act_rows(self, observations: np.ndarray, masks: np.ndarray, u: np.ndarray | None = None) -> np.ndarray:
        """As :meth:`FrozenPolicy.act_rows`: with draws ``u``, row ``i`` is played by member
        ``floor(u[i]·k)`` with the draw ``u[i]·k`` minus that; without, the most likely legal
        action of the mean; ``-1`` for a row with no legal action."""
        observations = np.asarray(observations, np.float32)
        masks = np.ascontiguousarray(masks)
        if u is None:
            out = np.argmax(self.probabilities(observations, masks), axis=1).astype(np.int64)
            out[~np.asarray(masks, bool).any(axis=1)] = -1
            return out
        k = len(self.policies)
        scaled = np.asarray(u, np.float64) * k
        member = np.minimum(np.floor(scaled).astype(np.int64), k - 1)
        draws = np.clip(scaled - member, 0.0, np.nextafter(1.0, 0.0))
        out = np.empty(len(observations), np.int64)
        for m, policy in enumerate(self.policies):
            rows = np.flatnonzero(member == m)
            if len(rows):
                out[rows] = policy.act_rows(observations[rows], masks[rows], draws[rows])
        return out

    def decide(self, observation: np.ndarray, mask: np.ndarray, u: float | None) -> int:
        rows = np.asarray(observation, np.float32)[None]
        return int(self.act_rows(rows, np.asarray(mask)[None], None if u is None else np.array([u]))[0])

    def __repr__(self) -> str:
        return f"BlendedPolicy({', '.join(map(repr, self.policies))})"


def load(rest: str, game: GameInfo, seed: int | None = None):
    """The agent of spec ``blend:<rest>``: a :class:`~agents.ppo.agent.PPOAgent` playing the
    blend of its members (each loaded, and checked against ``game``, as its ``ppo:`` spec is)."""
    from agents.ppo.agent import PPOAgent
    from agents.ppo.agent import load as load_ppo
    from agents.symmetric import SymmetrizedPolicy

    specs = members_of(BLEND + rest)
    members = [load_ppo(m[len(PPO):], game) for m in specs]
    through = [isinstance(m.policy, SymmetrizedPolicy) for m in members]
    name = BLEND + SEPARATOR.join(m.name for m in members)
    if any(through) and not all(through):
        plays = ", ".join(f"{s[:80]} ({'through the symmetry' if t else 'alone'})" for s, t in zip(specs, through))
        raise ValueError(f"agent spec {name[:200]!r}: its members play through the game's symmetry and without it "
                         f"({plays}); allowed: all through it (@symmetric, or trained so) or none (@plain)")
    if all(through):  # the mean of the symmetrized members is the symmetrized mean: one relabelling a decision
        policy = SymmetrizedPolicy(BlendedPolicy([m.policy.policy for m in members]), members[0].policy.symmetry)
    else:
        policy = BlendedPolicy([m.policy for m in members])
    return PPOAgent(game, policy, seed, sample=True, name=name)
