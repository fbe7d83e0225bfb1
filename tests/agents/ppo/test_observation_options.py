"""Options that only append observation fields (Believe It or Not's ``call_record``): a policy
trained without them plays a game with them, reading the new fields through zero weights, and
chooses exactly as before; the other way round is refused."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import bluff_envs
from agents import make_agent
from agents.base import GameInfo
from agents.ppo import checkpoint
from agents.ppo.warm_start import teacher_policy

MEMBER = "zoo/mixtures/believe_it_or_not_symmetric_slow_seventh_blend_seed0/2_step_0001503232.zip"


def _tables():
    plain = bluff_envs.make("believe_it_or_not", raw=True)
    recorded = bluff_envs.make("believe_it_or_not", raw=True, call_record=True)
    return plain, recorded


def test_a_policy_reads_appended_fields_through_zero_weights():
    plain, recorded = _tables()
    policy = checkpoint.read_policy(checkpoint.resolve(MEMBER))
    assert policy.focus is not None and policy.features is not None  # inserted before both
    wide = policy.with_observation(recorded.observation_layout.size)
    assert wide.observation_size == recorded.observation_layout.size and policy.with_observation(policy.observation_size) is policy
    rng = np.random.default_rng(0)
    rows, wide_rows = [], []
    for env in (plain, recorded):
        env.reset(seed=2)
    while not plain.game_state.is_over and len(rows) < 300:
        agent = plain.agent_selection
        rows.append(plain.observe(agent)["observation"])
        wide_rows.append(recorded.observe(agent)["observation"])
        legal = plain.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        for env in (plain, recorded):
            env.step(action)
    rows, wide_rows = np.array(rows), np.array(wide_rows)
    assert wide_rows[:, rows.shape[1]:].any()  # the record is not all zeros
    assert np.array_equal(policy.logits(rows), wide.logits(wide_rows))
    with pytest.raises(ValueError, match="cannot read"):
        wide.with_observation(policy.observation_size)


@pytest.mark.parametrize("spec", [f"ppo:{MEMBER}", "blend:zoo/believe_it_or_not_symmetric_slow_seventh_blend_seed1"])
def test_an_agent_trained_without_the_record_plays_the_same_at_a_table_with_it(spec):
    plain, recorded = _tables()
    agents = [make_agent(spec, GameInfo.of(env), seed=7) for env in (plain, recorded)]
    for env in (plain, recorded):
        env.reset(seed=4)
    decisions = 0
    while not plain.game_state.is_over and decisions < 400:
        agent = plain.agent_selection
        actions = [a.act(env.observe(agent)) for a, env in zip(agents, (plain, recorded))]
        assert actions[0] == actions[1], f"decision {decisions}"
        for env in (plain, recorded):
            env.step(actions[0])
        decisions += 1
    assert decisions >= 100


def test_a_teacher_without_the_record_warm_starts_a_learner_with_it():
    _, recorded = _tables()
    policy, meta = teacher_policy(f"ppo:{MEMBER}", GameInfo.of(recorded))
    assert policy.observation_size == recorded.observation_layout.size and not meta["options"].get("call_record")


def test_an_observation_option_never_takes_fields_away_and_other_options_still_differ():
    plain, recorded = _tables()
    meta = checkpoint.read_metadata(checkpoint.resolve(MEMBER))
    assert checkpoint.check_compatible(meta, GameInfo.of(plain)) == 0
    assert checkpoint.check_compatible(meta, GameInfo.of(recorded)) == 16  # 4 fields x 4 players
    trained_with = copy.deepcopy(meta)
    trained_with["options"]["call_record"] = True
    trained_with["observation_layout"] = checkpoint.game_metadata(GameInfo.of(recorded))["observation_layout"]
    with pytest.raises(ValueError, match="option call_record=True .*never take them away"):
        checkpoint.check_compatible(trained_with, GameInfo.of(plain), source="the test's checkpoint")
    other = copy.deepcopy(meta)
    other["options"]["discard_quads"] = True
    with pytest.raises(ValueError, match="option discard_quads=True"):
        checkpoint.check_compatible(other, GameInfo.of(recorded))
