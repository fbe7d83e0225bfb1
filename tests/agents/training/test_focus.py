"""Focus features: per-rank fields read at the rank a one-hot field names, the same in the SB3
policy (torch) and in the frozen numpy policy that plays checkpoints and snapshots."""

from __future__ import annotations

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo
from agents.training.focus import apply_focus, focus_pairs
from agents.ppo.frozen_policy import FrozenPolicy

FOCUS = {"claim_rank": ["hand", "my_cards_in_pile", "known_cards"], "required_rank": ["hand"]}


def observations(count: int = 60, seed: int = 5) -> np.ndarray:
    """Observations of the acting players along a random I Doubt It game."""
    env = bluff_envs.make("i_doubt_it", raw=True)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rows = []
    while len(rows) < count and not any(env.terminations.values()):
        obs = env.observe(env.agent_selection)
        rows.append(obs["observation"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return np.asarray(rows)


def test_each_feature_is_the_field_read_at_the_named_rank():
    env = bluff_envs.make("i_doubt_it", raw=True)
    layout = GameInfo.of(env).layout
    left, right = focus_pairs(layout, FOCUS)
    assert left.shape == right.shape == (1 + 1 + 3 + 1, 13)  # known_cards: one row per opponent
    x = observations()
    features = apply_focus(x, left, right)[:, layout.size :]
    for row, obs in zip(features, x):
        view = layout.decode(obs)
        claim, required = view["claim_rank"], view["required_rank"]  # one-hot (all 0 before any claim)
        known = view["known_cards"].reshape(3, 13)
        expected = [view["hand"] @ claim, view["my_cards_in_pile"] @ claim, *(known @ claim), view["hand"] @ required]
        np.testing.assert_allclose(row * 4, expected, atol=1e-5)  # the observation holds counts / 4 copies
    assert (features[:, 0] > 0).sum() > 5 and (features[:, -1] > 0).sum() > 5


@pytest.mark.parametrize("focus", [{}, FOCUS], ids=["plain", "focus"])
def test_the_frozen_policy_computes_what_the_sb3_policy_does(focus):
    import torch
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from agents.ppo.focus_extractor import FocusExtractor

    env = bluff_envs.make("i_doubt_it", raw=True)
    layout = GameInfo.of(env).layout
    kwargs = {}
    if focus:
        left, right = focus_pairs(layout, focus)
        kwargs = {"features_extractor_class": FocusExtractor,
                  "features_extractor_kwargs": {"left": left.tolist(), "right": right.tolist()}}
    torch.manual_seed(0)
    policy = MaskableActorCriticPolicy(
        env.observation_space("player_0")["observation"], env.action_space("player_0"), lambda _: 1e-3,
        net_arch={"pi": [32, 16], "vf": [8]}, activation_fn=torch.nn.Tanh, **kwargs,
    )
    frozen = FrozenPolicy.from_sb3(policy, "tanh")
    assert frozen.observation_size == layout.size and (frozen.focus is not None) == bool(focus)
    x = observations()
    with torch.no_grad():
        expected = policy.action_net(policy.mlp_extractor.forward_actor(policy.extract_features(torch.as_tensor(x))))
    np.testing.assert_allclose(frozen.logits(x), expected.numpy(), rtol=1e-4, atol=1e-5)
    again = FrozenPolicy.from_arrays(frozen.to_arrays())  # as checkpoints and snapshots store it
    np.testing.assert_allclose(again.logits(x), frozen.logits(x))
