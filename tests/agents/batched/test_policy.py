"""A frozen policy chooses the same action for a row in a batch as for that row alone.

Rows of real observations (vector games played forward), with focus features or without, tanh
or relu, greedy and sampled with many draws (including the draws that land on the edges of an
action's share of the masked softmax), batched against :class:`PPOAgent.decide` row by row.
"""

from __future__ import annotations

import numpy as np
import pytest

import bluff_envs
import bluff_envs.vector
from agents.base import GameInfo
from agents.batched import batched_agent, has_batched_form
from agents.batched.policy import BatchedPolicy
from agents.ppo.agent import PPOAgent
from agents.ppo.frozen_policy import FrozenPolicy
from agents.training.focus import focus_pairs


def random_policy(game: GameInfo, activation: str, focus: dict | None, seed: int, scale: float = 1.0) -> FrozenPolicy:
    rng = np.random.default_rng(seed)
    pairs = focus_pairs(game.layout, focus) if focus else None
    d = game.layout.size + (0 if pairs is None else len(pairs[0]))
    sizes = [d, 32, 24, len(game.action_names)]
    weights = [rng.normal(0, scale / np.sqrt(a), (a, b)).astype(np.float32) for a, b in zip(sizes, sizes[1:])]
    biases = [rng.normal(0, 0.1, b).astype(np.float32) for b in sizes[1:]]
    return FrozenPolicy(weights, biases, activation, pairs)


def rows_of(game_name: str, B: int, steps: int, seed: int):
    venv = bluff_envs.vector.make(game_name, B)
    obs, mask, actor = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen_obs, seen_mask = [], []
    for _ in range(steps):
        live = actor >= 0
        seen_obs.append(obs[live].copy())
        seen_mask.append(mask[live].copy())
        actions = np.where(mask > 0, rng.random(mask.shape), -1).argmax(1)
        obs, mask, actor, *_ = venv.step(actions)
    return np.concatenate(seen_obs), np.concatenate(seen_mask)


@pytest.mark.parametrize("game_name, activation, focus", [
    ("i_doubt_it", "tanh", {"claim_rank": ["hand", "my_cards_in_pile", "known_cards"], "required_rank": ["hand"]}),
    ("seven_spades", "relu", None),
    ("believe_it_or_not", "tanh", None),
    ("tarneeb", "relu", None),
])
def test_a_batch_chooses_what_each_row_chooses_alone(game_name, activation, focus):
    game = GameInfo.of(bluff_envs.make(game_name, raw=True))
    obs, mask = rows_of(game_name, 64, 12, seed=3)
    rng = np.random.default_rng(1)
    for scale in (1.0, 6.0):  # soft and sharp policies
        policy = random_policy(game, activation, focus, seed=int(scale), scale=scale)
        agent = PPOAgent(game, policy, 0)
        sampled, greedy = BatchedPolicy(game, policy), BatchedPolicy(game, policy, sample=False)
        u = rng.random(len(obs))
        got = sampled.act(obs, mask, u)
        assert (mask[np.arange(len(obs)), got] == 1).all()
        for i in range(len(obs)):
            assert got[i] == agent.decide({"observation": obs[i], "action_mask": mask[i]}, float(u[i])), i
        best = greedy.act(obs, mask, u)
        masked = np.where(mask > 0, policy.logits(obs), -np.inf)
        np.testing.assert_array_equal(best, masked.argmax(1))
        # the edges of the first rows' shares: the draws just below and above each boundary
        logits = np.where(mask[:20] > 0, policy.logits(obs[:20]), np.float32(-1e8)).astype(np.float32)
        p = np.exp(logits - logits.max(1, keepdims=True)).astype(np.float32)
        cumulative = np.cumsum(p, axis=1, dtype=np.float32) / p.sum(1, dtype=np.float32)[:, None]
        for j in range(mask.shape[1]):
            for edge in (np.nextafter(cumulative[:, j], 0), cumulative[:, j]):
                draws = np.clip(edge.astype(np.float64), 0.0, np.nextafter(1.0, 0.0))
                got = sampled.act(obs[:20], mask[:20], draws)
                assert (mask[np.arange(20), got] == 1).all()
                for i in range(20):
                    assert got[i] == policy.decide(obs[i], mask[i], float(draws[i]))


def test_sampling_follows_the_masked_softmax():
    game = GameInfo.of(bluff_envs.make("seven_spades", raw=True))
    obs, mask = rows_of("seven_spades", 8, 3, seed=0)
    policy = random_policy(game, "tanh", None, seed=2, scale=3.0)
    row = 0
    logits = np.where(mask[row] > 0, policy.logits(obs[row]), -np.inf)
    expected = np.exp(logits - logits.max())
    expected /= expected.sum()
    draws = (np.arange(20000) + 0.5) / 20000
    got = BatchedPolicy(game, policy).act(np.repeat(obs[row:row + 1], len(draws), 0), np.repeat(mask[row:row + 1], len(draws), 0), draws)
    share = np.bincount(got, minlength=len(expected)) / len(draws)
    np.testing.assert_allclose(share, expected, atol=1e-3)


def test_ppo_specs_have_a_batched_form(tmp_path):
    assert has_batched_form("ppo:runs/x#copy", "tarneeb") and has_batched_form("ppo:runs/x@greedy", "i_doubt_it")
    with pytest.raises(ValueError, match="no batched form"):
        batched_agent("no_such_agent", GameInfo.of(bluff_envs.make("seven_spades", raw=True)))
    game = GameInfo.of(bluff_envs.make("tarneeb", raw=True))
    other = GameInfo.of(bluff_envs.make("seven_spades", raw=True))
    with pytest.raises(ValueError):
        BatchedPolicy(game, random_policy(other, "tanh", None, 0))


def test_a_tempered_policy_samples_the_softmax_of_its_logits_over_the_temperature():
    game = GameInfo.of(bluff_envs.make("seven_spades", raw=True))
    obs, mask = rows_of("seven_spades", 8, 3, seed=0)
    policy = random_policy(game, "tanh", None, seed=2, scale=3.0)
    hot = policy.tempered(2.5)
    row = 0
    np.testing.assert_allclose(hot.logits(obs[row]), policy.logits(obs[row]) / 2.5, rtol=1e-5, atol=1e-6)
    logits = np.where(mask[row] > 0, policy.logits(obs[row]) / 2.5, -np.inf)
    expected = np.exp(logits - logits.max())
    expected /= expected.sum()
    draws = (np.arange(20000) + 0.5) / 20000
    got = BatchedPolicy(game, hot).act(np.repeat(obs[row:row + 1], len(draws), 0), np.repeat(mask[row:row + 1], len(draws), 0), draws)
    np.testing.assert_allclose(np.bincount(got, minlength=len(expected)) / len(draws), expected, atol=1e-3)
    assert hot.decide(obs[row], mask[row], None) == policy.decide(obs[row], mask[row], None)  # the same greedy choice


def test_a_temperature_is_a_play_mode_of_ppo_specs():
    from agents import make_agent
    from agents.base import play_mode

    assert play_mode("runs/x@temperature=1.5") == ("runs/x", False, 1.5, False, False)
    assert play_mode("runs/x@greedy") == ("runs/x", True, 1.0, False, False)
    assert play_mode("runs/x") == ("runs/x", False, 1.0, False, False)
    for bad in ("0", "-1", "abc", "nan", "1e9", ""):
        with pytest.raises(ValueError, match="the temperature must be a number above 0 and at most 100"):
            play_mode(f"runs/x@temperature={bad}")
    env = bluff_envs.make("seven_spades", raw=True, num_players=3)
    game = GameInfo.of(env)
    plain = make_agent("ppo:zoo/seven_spades_league_seed0", game, 0)
    hot = make_agent("ppo:zoo/seven_spades_league_seed0@temperature=2", game, 0)
    assert hot.name.endswith("@temperature=2") and hot.sample
    env.reset(seed=0)
    observation = env.observe(env.agent_selection)["observation"]
    np.testing.assert_allclose(hot.policy.logits(observation), plain.policy.logits(observation) / 2, rtol=1e-5, atol=1e-5)
    batched = batched_agent("ppo:zoo/seven_spades_league_seed0@temperature=2", game)  # the vector engine's form
    np.testing.assert_array_equal(batched.policy.logits(observation), hot.policy.logits(observation))
