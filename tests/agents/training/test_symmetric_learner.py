"""``learner.symmetric``: the learner's games, seen through a relabelling drawn per decision, are
the same games; its snapshots, evaluations and league targets play ``@symmetric``; its best
responses never do."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents.ppo.warm_start import Demonstrations, relabelled
from agents.training.config import config_from_dict
from agents.training.exploit import exploiter_config
from agents.training.pool import Member
from agents.training.symmetric_learner import SymmetricLearner
from agents.training.vector_learner import VectorLearnerEnv
from tests.agents.training.league_pool import random_policy

TINY = {"game": {"name": "believe_it_or_not"}, "total_steps": 512, "num_envs": 4, "seed": 3,
        "ppo": {"n_steps": 128, "batch_size": 256, "n_epochs": 1}, "network": {"pi": [32], "vf": [32]},
        "learner": {"symmetric": True},
        "opponents": {"fixed": ["counter"], "snapshot_every": 256, "self_play_share": 0.5},
        "eval": {"every": 0, "deals": 1, "opponents": ["counter"]}, "checkpoint": {"every": 100_000, "keep": 0},
        "warm_start": {"teacher": "counter", "decisions": 300, "epochs": 1}}


def test_the_learner_sees_its_games_relabelled_and_plays_them_as_they_are():
    B, seeds = 5, [11 * i + 1 for i in range(5)]
    make = lambda: VectorLearnerEnv("believe_it_or_not", {"num_players": 3}, ["counter"], num_envs=B, seeds=seeds)
    plain, seen = make(), SymmetricLearner(make(), make().game.symmetry, seed=9)
    symmetry = plain.game.symmetry
    rng = np.random.default_rng(4)
    obs_p, obs_s = plain.reset(), seen.reset()
    relabellings, endings = set(), 0
    for t in range(400):
        src, back = seen._obs_src.copy(), seen._back.copy()
        np.testing.assert_array_equal(obs_s, np.take_along_axis(obs_p, src, axis=1), err_msg=f"step {t}")
        mask_p, mask_s = np.stack(plain.env_method("action_masks")), seen.action_masks()
        np.testing.assert_array_equal(mask_s, np.take_along_axis(mask_p, back, axis=1))
        relabellings.update(tuple(row) for row in back)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask_p])  # the game's own actions
        shown = np.argsort(back, axis=1)[np.arange(B), actions]  # the same choices as the learner sees them
        assert mask_s[np.arange(B), shown].all()
        obs_p, rew_p, done_p, info_p = plain.step(actions)
        obs_s, rew_s, done_s, info_s = seen.step(shown)
        np.testing.assert_array_equal(rew_s, rew_p)
        np.testing.assert_array_equal(done_s, done_p)
        for i in np.flatnonzero(done_p):
            np.testing.assert_array_equal(info_s[i]["terminal_observation"], info_p[i]["terminal_observation"][src[i]])
            endings += 1
        for i in range(B):
            np.testing.assert_array_equal(info_s[i]["action_mask"], info_p[i]["action_mask"][seen._back[i]])
    assert endings > 5 and len(relabellings) > 100 and symmetry.count == 362_880  # 9! for the 36-card deck


def test_demonstrations_are_relabelled_with_their_actions():
    obs = np.random.default_rng(0).random((50, 216)).astype(np.float32)
    masks = np.zeros((50, 29), bool)
    masks[:, 13:26] = np.random.default_rng(1).random((50, 13)) < 0.5
    masks[:, 26] = True
    actions = np.array([np.random.default_rng(i).choice(np.flatnonzero(m)) for i, m in enumerate(masks)])
    from agents.base import GameInfo
    import bluff_envs

    symmetry = GameInfo.of(bluff_envs.make("believe_it_or_not", raw=True)).symmetry
    data = relabelled(Demonstrations(obs, masks, actions, np.zeros(50, np.float32), 3), symmetry, seed=2)
    assert data.masks[np.arange(50), data.actions].all() and data.games == 3
    assert (data.actions != actions).mean() > 0.5  # "add r" moved to another rank ("done" stays)
    assert (data.actions[actions == 26] == 26).all()
    assert sorted(data.observations[0].tolist()) == sorted(obs[0].tolist())


def test_snapshots_of_the_learner_play_symmetric_and_exploiters_as_trained():
    env = VectorLearnerEnv("believe_it_or_not", {}, ["counter"], num_envs=2, seeds=[1, 2], symmetric_snapshots=True)
    policy = random_policy(env.game, 0)
    snapshot = env._agents[env._agent_for(Member("snapshot@100", policy=policy, step=100))]
    exploiter = env._agents[env._agent_for(Member("exploiter@1", policy=policy, step=100))]
    assert type(snapshot.policy).__name__ == "SymmetrizedPolicy" and exploiter.policy is policy


def test_a_symmetric_learner_trains_evaluates_symmetric_and_its_best_responses_do_not(tmp_path):
    from agents.ppo.train import Trainer

    trainer = Trainer(config_from_dict(TINY), tmp_path, resume=False, echo=lambda line: None)
    assert trainer.play_suffix == "@symmetric"
    trainer.run()
    log = (tmp_path / "train.log").read_text()
    assert "warm start: cloned counter" in log and "done: 512 steps" in log
    recipe = exploiter_config(config_from_dict(TINY), ["ppo:x.zip@symmetric"], seed=1)
    assert recipe.learner.symmetric is False


def test_its_checkpoints_and_league_members_play_as_they_learned(tmp_path):
    """The final checkpoint and the league's learner members say ``symmetric`` in their metadata,
    so ``ppo:<run>`` plays through the symmetry; the exploiters and their snapshots play alone."""
    import json

    from agents import GameInfo, make_agent
    from agents.ppo import checkpoint
    from agents.ppo.league import LEAGUE, exploiter_dir
    from agents.ppo.train import Trainer
    from agents.symmetric import SymmetrizedPolicy

    config = config_from_dict({**TINY, "total_steps": 1536, "league": {"every": 512, "exploiter_steps": 512,
                                                                       "kinds": ["main", "league"]}})
    final = Trainer(config, tmp_path, resume=False, echo=lambda line: None).run()
    assert checkpoint.read_metadata(final)[checkpoint.SYMMETRIC] is True
    game = GameInfo.of(__import__("bluff_envs").make("believe_it_or_not", raw=True))
    assert isinstance(make_agent(f"ppo:{tmp_path}", game).policy, SymmetrizedPolicy)
    assert not isinstance(make_agent(f"ppo:{tmp_path}@plain", game).policy, SymmetrizedPolicy)
    members = sorted((tmp_path / LEAGUE).glob("population_*/*.zip"))
    assert {m.name for m in members} >= {"main.zip", "exploiter_1.zip"}
    for member in members:
        learner = not member.name.startswith("exploiter")
        assert checkpoint.read_metadata(member)[checkpoint.SYMMETRIC] is learner, member
        assert isinstance(make_agent(f"ppo:{member}", game).policy, SymmetrizedPolicy) is learner
    exploiter = json.loads((exploiter_dir(tmp_path, 1) / "result.json").read_text())["checkpoint"]
    assert checkpoint.read_metadata(Path(exploiter))[checkpoint.SYMMETRIC] is False


@pytest.mark.parametrize("change, message", [
    ({"game": {"name": "i_doubt_it"}}, "learner.symmetric: true, but i_doubt_it has no symmetry"),
    ({"engine": "reference"}, "learner.symmetric: true with engine 'reference'; allowed: true only on the vector"),
])
def test_symmetric_learning_where_it_cannot_be_is_refused(change, message):
    with pytest.raises(ValueError, match=message):
        config_from_dict({**TINY, **change})
