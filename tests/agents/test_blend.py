"""``blend:<ppo spec>+<ppo spec>...``: the members' mean policy, decision by decision; one draw
per decision, the same choice on the reference agent and the batched form."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo, make_agent
from agents.arena import match, vector_match
from agents.arena.schedule import schedule
from agents.batched import batched_agent, has_batched_form
from agents.blend import BlendedPolicy

BION = GameInfo.of(bluff_envs.make("believe_it_or_not", raw=True))
A, B = "ppo:zoo/believe_it_or_not_population_seed0", "ppo:zoo/believe_it_or_not_population_seed1"
BLEND = f"blend:{A}+{B}"


def states(count: int = 200, seed: int = 1):
    """Observations and masks of the decisions of a few games of the blend against itself."""
    env, agent, rows = bluff_envs.make("believe_it_or_not", raw=True), make_agent(BLEND, BION, seed), []
    game = 0
    while len(rows) < count:
        env.reset(seed=seed + game)
        for _ in env.agent_iter():
            observation, _, done, truncated, _ = env.last()
            if done or truncated:
                env.step(None)
                continue
            rows.append((observation["observation"], observation["action_mask"]))
            env.step(agent.act(observation))
        game += 1
    obs, masks = map(np.array, zip(*rows[:count]))
    return obs, masks


def softmax(policy, obs, masks):
    logits = np.where(masks.astype(bool), policy.logits(obs).astype(np.float64), -np.inf)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_the_blend_plays_its_members_mean_and_both_forms_choose_alike():
    obs, masks = states()
    agent, batched = make_agent(BLEND, BION, 0), batched_agent(BLEND, BION)
    assert has_batched_form(BLEND, "believe_it_or_not") and agent.name == BLEND
    members = [make_agent(s, BION).policy for s in (A, B)]
    mean = (softmax(members[0], obs, masks) + softmax(members[1], obs, masks)) / 2
    assert np.allclose(agent.policy.probabilities(obs, masks), mean)
    u = np.random.default_rng(0).random(len(obs))
    reference = [agent.decide({"observation": o, "action_mask": m}, x) for o, m, x in zip(obs, masks, u)]
    assert batched.act(obs, masks, u).tolist() == reference
    assert all(masks[i, a] for i, a in enumerate(reference))
    # a draw below 1/2 is member A's with the draw doubled, above it B's
    low, high = u / 2, 0.5 + u / 2
    assert batched.act(obs, masks, low).tolist() == members[0].act_rows(obs, masks, u).tolist()
    assert batched.act(obs, masks, high).tolist() == members[1].act_rows(obs, masks, u).tolist()
    # the frequencies of many draws at one decision are the mean's probabilities
    row = int(np.argmax((masks.sum(axis=1) > 2) & (np.abs(softmax(members[0], obs, masks)
                                                        - softmax(members[1], obs, masks)).max(axis=1) > 0.2)))
    draws = np.random.default_rng(1).random(40_000)
    chosen = batched.act(np.repeat(obs[row:row + 1], len(draws), 0), np.repeat(masks[row:row + 1], len(draws), 0), draws)
    assert np.abs(np.bincount(chosen, minlength=masks.shape[1]) / len(draws) - mean[row]).max() < 0.01
    # greedy: the most likely legal action of the mean
    assert agent.policy.act_rows(obs, masks).tolist() == np.argmax(mean, axis=1).tolist()


def test_a_blend_of_one_policy_is_that_policy_and_weights_repeat():
    obs, masks = states(60)
    u = np.random.default_rng(2).random(len(obs))
    assert batched_agent(f"blend:{A}", BION).act(obs, masks, u).tolist() == batched_agent(A, BION).act(obs, masks, u).tolist()
    weighted = make_agent(f"blend:{A}+{A}+{B}", BION).policy
    members = [make_agent(s, BION).policy for s in (A, B)]
    expected = (2 * softmax(members[0], obs, masks) + softmax(members[1], obs, masks)) / 3
    assert np.allclose(weighted.probabilities(obs, masks), expected)
    tempered = make_agent(f"blend:{A}@temperature=2+{B}", BION).policy
    assert np.allclose(tempered.probabilities(obs, masks),
                       (softmax(members[0].tempered(2.0), obs, masks) + softmax(members[1], obs, masks)) / 2)


def test_blend_specs_are_checked():
    for spec, message in [
        ("blend:", "no empty member"),
        (f"blend:{A}++{B}", "no empty member"),
        (f"blend:{A}+counter", "'counter' is not a sampled policy"),
        (f"blend:{A}@greedy+{B}", "never @greedy"),
        (f"blend:mix:{A}+{B}", "is not a sampled policy"),
        (f"blend:{A}#a+{B}", "label on the whole mixture only"),
        (f"blend:{A}+ppo:zoo/i_doubt_it_league_seed0", "i_doubt_it"),
        ("blend:ppo:no/such/run", "no/such/run"),
    ]:
        with pytest.raises(ValueError, match=message):
            make_agent(spec, BION, 0)
    assert make_agent(f"{BLEND}#both", BION, 0).name == BLEND
    with pytest.raises(ValueError, match="do not fit one game"):
        BlendedPolicy([make_agent(A, BION).policy, make_agent("ppo:zoo/i_doubt_it_league_seed0",
                                                                 GameInfo.of(bluff_envs.make("i_doubt_it", raw=True))).policy])


def test_a_blend_plays_the_reference_games_on_the_vector_engine():
    tasks = schedule("believe_it_or_not", {}, [(BLEND, f"{BLEND}#copy", "counter", "bluffer")], 3, 5, "rotations",
                     "reference")
    assert vector_match.can_play(tasks)
    reference = [json.dumps(x, sort_keys=True) for x in match.play_batch(tasks)]
    vector = [dataclasses.replace(t, engine="vector") for t in tasks]
    records = vector_match.play_tasks(vector, vector_match.VectorTable(3))
    assert [json.dumps(match.result_line(t, r), sort_keys=True) for t, r in zip(vector, records)] == reference


def test_a_blend_teaches_a_clone_but_lends_no_weights(tmp_path):
    """A blend as ``warm_start.teacher`` is cloned as any teacher is: its batched form plays the
    learner's seats, one draw per decision, so the clone fits the members' mean. It has no one
    network whose weights ``copy_weights`` could take: refused when the config is read."""
    from agents.ppo.train import Trainer
    from agents.training.config import config_from_dict

    tiny = {"game": {"name": "believe_it_or_not"}, "total_steps": 256, "num_envs": 2,
            "ppo": {"n_steps": 128, "batch_size": 128, "n_epochs": 1}, "network": {"pi": [32], "vf": [32]},
            "opponents": {"fixed": ["counter"], "snapshot_every": 0},
            "eval": {"every": 0, "deals": 1, "opponents": ["counter"]}, "checkpoint": {"every": 100_000, "keep": 0},
            "warm_start": {"teacher": BLEND, "decisions": 400, "epochs": 2}}
    Trainer(config_from_dict(tiny), tmp_path, resume=False, echo=lambda line: None).run()
    log = (tmp_path / "train.log").read_text()
    assert f"warm start: cloned {BLEND} from " in log
    with pytest.raises(ValueError, match=r"warm_start.copy_weights: true with teacher 'blend:.*allowed: true only with a ppo: teacher"):
        config_from_dict({**tiny, "warm_start": {"teacher": BLEND, "copy_weights": True}})
