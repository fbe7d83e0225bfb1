"""Small helpers that let tests read like the rules: a fixed deal, a few named actions."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


def act(env, *names: str) -> None:
    """Step the acting agent(s) through actions given by name (``"add K"``, ``"done"``, …)."""
    raw = env.unwrapped
    for name in names:
        raw.step(raw.game.action_names.index(name))


def legal_names(env) -> list[str]:
    raw = env.unwrapped
    return [raw.game.action_names[a] for a in raw.legal_actions()]


def view(env, agent: str) -> dict[str, np.ndarray]:
    return env.unwrapped.public_view(agent)


def play_random(env, seed: int, max_steps: int = 10**6, on_step=None) -> int:
    """Play one whole episode with masked uniform random actions; returns the steps taken."""
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in env.agent_iter(max_steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.integers(len(legal))])
        env.step(action)
        steps += 1
        if on_step is not None and env.agents:
            on_step(env)
    return steps


def deck_of(*hands: Iterable[str], rest: Iterable[str] = ()) -> list[str]:
    """A deck that deals ``hands`` (one list per player, dealt one card at a time from player 0),
    followed by ``rest`` (cards left over, e.g. a stock). Hands must be dealt evenly or the
    first ones one card longer, as real dealing does."""
    hands = [list(h) for h in hands]
    deck = []
    for i in range(max(map(len, hands))):
        for h in hands:
            if i < len(h):
                deck.append(h[i])
    return deck + list(rest)
