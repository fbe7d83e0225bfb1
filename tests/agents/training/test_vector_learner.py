"""The learner-seat environment on the vector engine is the reference learner environment.

``VectorLearnerEnv`` (B games on ``bluff_envs.vector``) and B ``LearnerEnv`` s in an SB3
``DummyVecEnv`` (the reference path of ``bluff train``) get the same seeds, seats and one
deterministic opponent; the learner's actions are the same random legal choices in both.
Every step, the observations, masks, rewards (shaped or not), ends, terminal observations and
self-play infos must be identical, across many episodes (the games after the first are dealt
from each game's own generator in both).
"""

from __future__ import annotations

import numpy as np
import pytest
from stable_baselines3.common.vec_env import VecEnv

from agents.batched import has_batched_form
from agents.ppo.vec import make_vec_env
from agents.training.pool import Member, OpponentPool, table_member
from agents.training.vector_learner import VectorLearnerEnv
from tests.agents.training.league_pool import league_pool, random_policy

CASES = [
    pytest.param("believe_it_or_not", {}, "counter", {}, {}, id="bion"),
    pytest.param("believe_it_or_not", {"num_players": 3, "deck": 36}, "bluffer",
                 {"shaping": {"hand_sizes[0]": -0.02}}, {}, id="bion-3p-36-shaped"),
    pytest.param("seven_spades", {}, "counter", {}, {}, id="seven-spades"),
    pytest.param("seven_spades", {"num_players": 3}, "honest", {"seat": 1}, {}, id="seven-spades-fixed-seat"),
    pytest.param("tarneeb", {}, "rule_based", {}, {}, id="tarneeb-partner-self"),
    pytest.param("tarneeb", {"episode": "deal"}, "rule_based", {"partner": "rule_based"}, {}, id="tarneeb-partner-spec"),
    pytest.param("i_doubt_it", {}, "honest", {"shaping": {"hand_sizes[0]": -0.02}}, {}, id="idi-shaped"),
    pytest.param("i_doubt_it", {"num_players": 3, "max_turns": 40}, "counter", {}, {}, id="idi-truncated"),
]


def play_both(game, options, opponent, settings, steps, B=6):
    """``opponent``: one spec, or a pool payload (its members' draws must not depend on chance)."""
    payload = opponent if isinstance(opponent, dict) else [opponent]
    specs = [spec for m in payload["members"] for spec in m.table] if isinstance(opponent, dict) else [opponent]
    for spec in specs:
        if not has_batched_form(spec, game):
            pytest.skip(f"{spec} has no batched form for {game} yet")
    seeds = [100 + 7 * i for i in range(B)]
    vector = VectorLearnerEnv(game, options, payload, num_envs=B, seeds=seeds, **settings)
    reference = make_vec_env(game, options, payload, num_envs=B, seeds=seeds, kind="dummy", **settings)
    assert isinstance(vector, VecEnv)
    rng = np.random.default_rng(5)
    obs_v, obs_r = vector.reset(), reference.reset()
    episodes = truncations = 0
    for t in range(steps):
        np.testing.assert_array_equal(obs_v, obs_r, err_msg=f"step {t}: observations")
        mask_v = np.stack(vector.env_method("action_masks"))
        mask_r = np.stack(reference.env_method("action_masks"))
        np.testing.assert_array_equal(mask_v, mask_r, err_msg=f"step {t}: masks")
        u = rng.random(B)
        legal = mask_v.sum(1)
        assert (legal > 0).all()
        k = np.minimum((u * legal).astype(int), legal - 1)
        actions = np.array([np.flatnonzero(m)[j] for m, j in zip(mask_v, k)])
        obs_v, rew_v, done_v, info_v = vector.step(actions)
        obs_r, rew_r, done_r, info_r = reference.step(actions)
        np.testing.assert_array_equal(done_v, done_r, err_msg=f"step {t}: dones")
        np.testing.assert_allclose(rew_v, rew_r, rtol=0, atol=1e-6, err_msg=f"step {t}: rewards")
        for i in np.flatnonzero(done_v):
            np.testing.assert_array_equal(info_v[i]["terminal_observation"], info_r[i]["terminal_observation"])
            assert info_v[i]["TimeLimit.truncated"] == info_r[i]["TimeLimit.truncated"]
            sv, sr = info_v[i]["selfplay"], info_r[i]["selfplay"]
            assert (sv["seat"], sv["reward"], sv["truncated"], sv["opponents"]) == (
                sr["seat"], sr["reward"], sr["truncated"], sr["opponents"]), f"step {t} game {i}"
            episodes += 1
            truncations += sv["truncated"]
    return episodes, truncations


@pytest.mark.parametrize("game, options, opponent, settings, extra", CASES)
def test_the_vector_learner_env_is_the_reference_learner_env(game, options, opponent, settings, extra):
    steps = {"tarneeb": 500, "i_doubt_it": 500}.get(game, 300)
    episodes, truncations = play_both(game, options, opponent, settings, steps)
    assert episodes >= 6  # every game went on past its first episode
    if options.get("max_turns"):
        assert truncations > 0


@pytest.mark.parametrize("game, options, table, settings", [
    pytest.param("i_doubt_it", {}, ["never_challenge", "always_challenge"], {}, id="idi"),
    pytest.param("believe_it_or_not", {"num_players": 3}, ["honest", "counter"], {"seat": 2}, id="bion-3p"),
    pytest.param("tarneeb", {}, ["rule_based"], {"partner": "pool"}, id="tarneeb-partner-pool"),
])
def test_a_table_seats_the_same_players_in_both_envs(game, options, table, settings):
    payload = {"members": [table_member(table)], "probabilities": [1.0]}
    episodes, _ = play_both(game, options, payload, settings, 300)
    assert episodes >= 6


def test_snapshots_and_specs_without_a_batched_form_play_in_the_vector_env():
    """A pool of a heuristic, a frozen snapshot and a ready agent object (played row by row):
    each is met, and the self-play infos name them."""
    from agents.ppo.frozen_policy import FrozenPolicy
    from agents.random_agent import RandomAgent
    from agents.base import GameInfo
    import bluff_envs

    info = GameInfo.of(bluff_envs.make("seven_spades", raw=True))
    rng = np.random.default_rng(0)
    d, A = info.layout.size, len(info.action_names)
    policy = FrozenPolicy([rng.normal(0, 0.1, (d, 16)).astype(np.float32), rng.normal(0, 0.1, (16, A)).astype(np.float32)],
                          [np.zeros(16, np.float32), np.zeros(A, np.float32)])
    pool = OpponentPool(["honest"], "uniform")
    pool.add_snapshot(policy, 10)
    payload = pool.payload()
    payload["members"].append(Member("object", agent=RandomAgent(info, 3)))
    payload["probabilities"].append(1.0)
    env = VectorLearnerEnv("seven_spades", {}, payload, num_envs=8, seeds=list(range(8)))
    env.reset()
    met = set()
    for _ in range(400):
        m = env.action_masks()
        _, _, dones, infos = env.step(np.array([np.flatnonzero(row)[0] for row in m]))
        for i in np.flatnonzero(dones):
            met.update(infos[i]["selfplay"]["opponents"])
    assert met == {"honest", "snapshot@10", "object"}
    env.set_opponents({"probabilities": [1.0, 0.0, 0.0]})
    for _ in range(200):  # the games in play finish with their opponents, then only honest
        m = env.action_masks()
        _, _, dones, infos = env.step(np.array([np.flatnonzero(row)[0] for row in m]))
    later = set()
    for _ in range(200):
        m = env.action_masks()
        _, _, dones, infos = env.step(np.array([np.flatnonzero(row)[0] for row in m]))
        for i in np.flatnonzero(dones):
            later.update(infos[i]["selfplay"]["opponents"])
    assert later == {"honest"}


def test_bad_settings_and_illegal_actions_are_refused():
    with pytest.raises(ValueError, match="one seed per game"):
        VectorLearnerEnv("seven_spades", {}, ["honest"], num_envs=4, seeds=[1, 2])
    with pytest.raises(ValueError, match="seat"):
        VectorLearnerEnv("seven_spades", {}, ["honest"], num_envs=2, seeds=[1, 2], seat=9)
    env = VectorLearnerEnv("seven_spades", {}, ["honest"], num_envs=2, seeds=[1, 2])
    env.reset()
    illegal = np.array([int(np.flatnonzero(row == 0)[0]) for row in env.action_masks()])
    with pytest.raises(ValueError, match="illegal action .* in game 0"):
        env.step(illegal)


@pytest.mark.parametrize("draw", ["newest", "all"])
def test_at_the_exploiters_table_the_learner_is_rewarded_with_its_copies_mean(draw):
    """``exploiter_tables``: about that share of the games seats the newest exploiter (or, with
    ``draw="all"``, any of them) in one other seat and the learner's newest snapshot in the rest;
    there the learner's reward is minus the exploiter's over n - 1 (its copies' mean), elsewhere
    its own; those games name no member."""
    import bluff_envs
    from agents.base import GameInfo

    info = GameInfo.of(bluff_envs.make("believe_it_or_not", raw=True))
    n = info.num_players
    pool = league_pool(info)
    B = 8
    env = VectorLearnerEnv("believe_it_or_not", {}, pool.payload(), num_envs=B, seeds=list(range(B)), exploiter_tables=0.5,
                           exploiter_table_draw=draw)
    copy = env._index["snapshot@30"]
    exploiters = {env._index[e] for e in (["exploiter@1", "exploiter@2"] if draw == "all" else ["exploiter@2"])}
    seated = set()
    final = np.zeros((B, n))
    at_end = np.full(B, -1)
    step = env.engine.step

    def recording(actions, where):  # each game's last rewards, and whether it was at the exploiter's table
        out = step(actions, where=where)
        ended = where & (out[4] | out[5])
        final[ended] = out[3][ended]
        at_end[ended] = env._exploiter_seat[ended]
        return out

    env.engine.step = recording
    env.reset()
    tables = others = 0
    for _ in range(3000):
        for i in np.flatnonzero(env._exploiter_seat >= 0):  # the line-up of a game at the exploiter's table
            seat = env._exploiter_seat[i]
            assert env._plays[i, seat] in exploiters and not env._learns[i, seat]
            seated.add(int(env._plays[i, seat]))
            rest = [s for s in range(n) if s != seat and not env._learns[i, s]]
            assert (env._plays[i, rest] == copy).all()
        m = env.action_masks()
        _, rewards, dones, infos = env.step(np.array([np.flatnonzero(row)[0] for row in m]))
        for i in np.flatnonzero(dones):
            me, seat = infos[i]["selfplay"]["seat"], at_end[i]
            assert infos[i]["selfplay"]["reward"] == pytest.approx(final[i, me])  # the game's own, as always
            if seat >= 0:
                tables += 1
                assert rewards[i] == pytest.approx(-final[i, seat] / (n - 1))
                assert rewards[i] == pytest.approx(np.mean(np.delete(final[i], seat)))
                assert infos[i]["selfplay"]["opponents"] == []
            else:
                others += 1
                assert rewards[i] == pytest.approx(final[i, me])
                assert infos[i]["selfplay"]["opponents"]
    assert tables + others >= 60 and 0.3 < tables / (tables + others) < 0.7, (tables, others)
    assert seated == exploiters


def test_exploiter_tables_wait_for_an_exploiter_and_refuse_partnerships():
    import bluff_envs
    from agents.base import GameInfo

    info = GameInfo.of(bluff_envs.make("believe_it_or_not", raw=True))
    pool = OpponentPool(["honest"], "uniform")
    pool.add_snapshot(random_policy(info, 1), 10)  # no exploiter yet: every game is drawn from the pool
    env = VectorLearnerEnv("believe_it_or_not", {}, pool.payload(), num_envs=4, seeds=[1, 2, 3, 4], exploiter_tables=0.9)
    env.reset()
    for _ in range(300):
        assert (env._exploiter_seat == -1).all()
        env.step(np.array([np.flatnonzero(row)[0] for row in env.action_masks()]))
    with pytest.raises(ValueError, match="partnership game"):
        VectorLearnerEnv("tarneeb", {}, ["rule_based"], num_envs=2, seeds=[1, 2], exploiter_tables=0.3)
    with pytest.raises(ValueError, match="'newest' or 'all'"):
        VectorLearnerEnv("seven_spades", {}, ["honest"], num_envs=2, seeds=[1, 2], exploiter_table_draw="oldest")
    with pytest.raises(ValueError, match="below 1"):
        VectorLearnerEnv("seven_spades", {}, ["honest"], num_envs=2, seeds=[1, 2], exploiter_tables=1.0)
