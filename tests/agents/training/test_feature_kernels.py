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
from tests.helpers import play_random

CASES = [
    ("believe_it_or_not", "doubt", {}),
    ("believe_it_or_not", "doubt", {"num_players": 3, "deck": 36}),
    ("believe_it_or_not", "doubt", {"num_players": 5, "num_decks": 2}),
    ("believe_it_or_not", "doubt", {"num_players": 2, "discard_quads": True}),
    ("believe_it_or_not", "record", {"call_record": True}),
    ("believe_it_or_not", "record", {"num_players": 3, "discard_quads": True, "call_record": True}),
    ("i_doubt_it", "doubt", {}),
    ("i_doubt_it", "doubt", {"num_players": 3}),
    ("i_doubt_it", "doubt", {"num_players": 6, "num_decks": 2}),
    ("seven_spades", "doubt", {}),
    ("seven_spades", "doubt", {"num_players": 2}),
    ("seven_spades", "doubt", {"num_players": 5, "num_decks": 2, "target": 5}),
    ("seven_spades", "pace", {}),
    ("seven_spades", "pace", {"num_players": 2}),
    ("seven_spades", "pace", {"num_players": 3}),
    ("seven_spades", "pace", {"num_players": 5, "num_decks": 2, "target": 5}),
    ("tarneeb", "card_play", {}),
    ("tarneeb", "card_play", {"variant": "egyptian"}),
]


def observations(game: str, options: dict, rows_wanted: int = 3000, seed: int = 11) -> tuple[np.ndarray, np.ndarray]:
    """Every acting player's observation and mask along random games, the first ``rows_wanted``."""
    env = bluff_envs.make(game, raw=True, **options)
    rows, masks = [], []

    def keep(env):
        agent = env.agent_selection
        if len(rows) < rows_wanted and not (env.terminations[agent] or env.truncations[agent]):
            observation = env.observe(agent)
            rows.append(observation["observation"])
            masks.append(observation["action_mask"])

    episode = 0
    while len(rows) < rows_wanted:
        env.reset(seed=seed + episode)
        keep(env)
        play_random(env, seed + episode, on_step=keep)
        episode += 1
    return np.asarray(rows, np.float32), np.asarray(masks, np.int8)


@pytest.mark.parametrize("game, name, options", CASES, ids=[f"{g}-{n}-{o}" for g, n, o in CASES])
def test_the_kernel_gives_the_reference_features(game, name, options):
    env = bluff_envs.make(game, raw=True, **options)
    features = make_features(game, GameInfo.of(env).layout, [name])
    feature_set = features.sets[0]
    x, _ = observations(game, options)
    assert len(x) == 3000
    fast, reference = feature_set(x), feature_set.reference(x)
    assert fast.shape == reference.shape == (len(x), feature_set.size)
    np.testing.assert_array_equal(fast.astype(np.float32), reference.astype(np.float32))
    np.testing.assert_allclose(fast, reference, rtol=0, atol=1e-12)
    assert np.abs(reference).sum() > 0  # the positions exercise the features
    for i in range(0, len(x), 97):  # one row alone, as a frozen opponent asks
        np.testing.assert_array_equal(feature_set(x[i : i + 1])[0], fast[i])
