"""Batched random play makes the reference random agent's choice for the same draw."""

import numpy as np

import bluff_envs
from agents import GameInfo, RandomAgent
from agents.batched import batched_agent, has_batched_form


def test_batched_random_equals_the_reference_for_the_same_draws():
    rng = np.random.default_rng(0)
    for game in bluff_envs.available_games():
        env = bluff_envs.make(game, raw=True)
        info = GameInfo.of(env)
        reference, batched = RandomAgent(info, 0), batched_agent("random", info)
        masks = (rng.random((500, len(info.action_names))) < 0.3).astype(np.int8)
        masks[np.arange(500), rng.integers(len(info.action_names), size=500)] = 1
        u = rng.random(500)
        u[:3] = [0.0, 0.999999999, 0.5]
        obs = np.zeros((500, info.layout.size), np.float32)
        chosen = batched.act(obs, masks, u)
        expected = [reference.decide({"observation": obs[i], "action_mask": masks[i]}, u[i]) for i in range(500)]
        assert chosen.tolist() == expected and all(masks[np.arange(500), chosen])


def test_which_specs_have_a_batched_form():
    assert has_batched_form("random", "i_doubt_it") and has_batched_form("random#copy", "tarneeb")
    assert has_batched_form("ppo:somewhere", "i_doubt_it")  # a checkpoint's policy: agents.batched.policy
    assert not has_batched_form("rllib:somewhere", "i_doubt_it") and not has_batched_form("nobody", "seven_spades")
