"""The derived features' numba kernels compute what their numpy references do.

Every feature set's ``__call__`` runs a row-by-row numba kernel (frozen opponents ask for a few
rows at a time, thousands of times per rollout); its ``reference`` is the same computation in
batched numpy, the readable specification. Along random games of every option set the kernel
gives the reference's features exactly as the network reads them (float32), and a row asked
for alone gives what it gives inside a batch.
"""

from __future__ import annotations

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo
from agents.training.features import make_features

CASES = [
    ("believe_it_or_not", "doubt", {}),
    ("believe_it_or_not", "doubt", {"num_players": 3, "deck": 36}),
    ("believe_it_or_not", "doubt", {"num_players": 5, "num_decks": 2}),
    ("believe_it_or_not", "doubt", {"num_players": 2, "discard_quads": True}),
    ("i_doubt_it", "doubt", {}),
    ("i_doubt_it", "doubt", {"num_players": 3}),
    ("i_doubt_it", "doubt", {"num_players": 6, "num_decks": 2}),
    ("seven_spades", "doubt", {}),
    ("seven_spades", "doubt", {"num_players": 2}),
    ("seven_spades", "doubt", {"num_players": 5, "num_decks": 2, "target": 5}),
    ("tarneeb", "card_play", {}),
    ("tarneeb", "card_play", {"variant": "egyptian"}),
]


def observations(game: str, options: dict, rows_wanted: int = 3000, seed: int = 11) -> np.ndarray:
    """Every acting player's observation along random games, until ``rows_wanted`` of them."""
    env = bluff_envs.make(game, raw=True, **options)
    rng = np.random.default_rng(seed)
    rows = []
    for episode in range(10 * rows_wanted):
        if len(rows) >= rows_wanted:
            break
        env.reset(seed=seed + episode)
        while env.agents and len(rows) < rows_wanted:
            observation = env.observe(env.agent_selection)
            if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                env.step(None)
                continue
            rows.append(observation["observation"])
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return np.asarray(rows, np.float32)


@pytest.mark.parametrize("game, name, options", CASES, ids=[f"{g}-{n}-{o}" for g, n, o in CASES])
def test_the_kernel_gives_the_reference_features(game, name, options):
    env = bluff_envs.make(game, raw=True, **options)
    features = make_features(game, GameInfo.of(env).layout, [name])
    feature_set = features.sets[0]
    x = observations(game, options)
    assert len(x) == 3000
    fast, reference = feature_set(x), feature_set.reference(x)
    assert fast.shape == reference.shape == (len(x), feature_set.size)
    np.testing.assert_array_equal(fast.astype(np.float32), reference.astype(np.float32))
    np.testing.assert_allclose(fast, reference, rtol=0, atol=1e-12)
    assert np.abs(reference).sum() > 0  # the positions exercise the features
    for i in range(0, len(x), 97):  # one row alone, as a frozen opponent asks
        np.testing.assert_array_equal(feature_set(x[i : i + 1])[0], fast[i])
