"""``mix:<spec>+<spec>...``: one member per game, drawn from the agent's seed, in the arena and
in both learner environments."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo, make_agent
from agents.arena.match import Table, play_game
from agents.arena.schedule import schedule
from agents.mixture import MixtureAgent
from agents.training.learner_env import LearnerEnv
from agents.training.vector_learner import VectorLearnerEnv

BION = GameInfo.of(bluff_envs.make("believe_it_or_not", raw=True))


def test_a_mixture_draws_its_member_alike_from_each_seed():
    agent = make_agent("mix:honest+bluffer+counter+counter", BION, 0)
    assert isinstance(agent, MixtureAgent) and agent.name == "mix:honest+bluffer+counter+counter"
    drawn = Counter()
    for seed in range(4000):
        agent.seed(seed)
        drawn[agent.playing.name] += 1
    assert set(drawn) == {"honest", "bluffer", "counter"}
    assert abs(drawn["counter"] / 4000 - 0.5) < 0.03 and abs(drawn["honest"] / 4000 - 0.25) < 0.03
    agent.seed(7)
    first = agent.index
    agent.seed(7)
    assert agent.index == first  # the same seed, the same member
    assert make_agent("mix:honest+bluffer", BION, 7).index == make_agent("mix:honest+bluffer", BION, 7).index


def test_mixture_specs_are_checked():
    for spec, message in [
        ("mix:", "no empty member"),
        ("mix:honest++bluffer", "no empty member"),
        ("mix:mix:honest+bluffer", "is a mixture"),
        ("mix:honest#a+bluffer", "label on the whole mixture only"),
        ("mix:honest+nobody", "unknown agent 'nobody'"),
    ]:
        with pytest.raises(ValueError, match=message):
            make_agent(spec, BION, 0)
    assert make_agent("mix:honest+bluffer#both", BION, 0).name == "mix:honest+bluffer"  # a label on the whole


def test_in_the_arena_each_game_draws_its_members_and_replays_the_same():
    """The arena re-seeds its agents before each game, so the member of a seat changes from
    game to game and a game's record depends only on its task."""
    tasks = schedule("believe_it_or_not", {}, [("mix:honest+bluffer", "mix:honest+bluffer", "counter", "counter")],
                     deals=12, seed=3, seating="rotations")
    table = Table()
    records = [play_game(task, table) for task in tasks]
    members = set()
    for task in tasks:
        for seat, spec in enumerate(task.seats):
            if spec.startswith("mix:"):
                members.add(make_agent(spec, BION, task.agent_seeds[seat]).playing.name)
    assert members == {"honest", "bluffer"}
    again = [play_game(task) for task in reversed(tasks)][::-1]  # fresh agents, another order
    assert [r.actions for r in again] == [r.actions for r in records]


def _actions(mask_rows, rng):
    return np.array([np.flatnonzero(m)[int(rng.random() * m.sum())] for m in mask_rows])


def test_a_mixture_of_one_agent_plays_as_that_agent_in_both_learner_envs():
    """``mix:counter+counter`` is counter: the draws it adds change nothing that counter plays."""
    def vector(opponent):
        env = VectorLearnerEnv("believe_it_or_not", {}, [opponent], num_envs=4, seeds=[1, 2, 3, 4])
        rng, seen = np.random.default_rng(0), [env.reset()]
        for _ in range(200):
            seen.append(env.step(_actions(env.action_masks(), rng))[0])
        return np.array(seen)

    def reference(opponent):
        env = LearnerEnv("believe_it_or_not", {}, [opponent], seed=5)
        rng, seen = np.random.default_rng(0), []
        for _ in range(6):
            seen.append(env.reset()[0])
            done = False
            while not done:
                observation, _, terminated, truncated, _ = env.step(_actions([env.action_masks()], rng)[0])
                seen.append(observation)
                done = terminated or truncated
        return np.array(seen)

    np.testing.assert_array_equal(vector("mix:counter+counter"), vector("counter"))
    np.testing.assert_array_equal(reference("mix:counter+counter"), reference("counter"))


def test_a_mixture_in_the_pool_draws_a_member_for_every_seat_and_game_in_both_learner_envs():
    payload = ["mix:honest+bluffer"]
    env = VectorLearnerEnv("believe_it_or_not", {}, payload, num_envs=8, seeds=list(range(8)))
    members = {env._index["honest"], env._index["bluffer"]}
    env.reset()
    vector, lineups = Counter(), set()
    for _ in range(600):
        _, _, dones, infos = env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
        for i in np.flatnonzero(dones):  # game i starts its next episode: its new line-up
            seated = env._plays[i][~env._learns[i]]
            assert set(seated.tolist()) <= members  # never the mixture itself
            vector.update(seated.tolist())
            lineups.add(tuple(seated.tolist()))
            assert infos[i]["selfplay"]["opponents"] == ["mix:honest+bluffer"] * 3  # counted as the pool member
    assert len(lineups) > 2 and 0.35 < vector[env._index["honest"]] / sum(vector.values()) < 0.65

    reference = Counter()
    learner = LearnerEnv("believe_it_or_not", {}, payload, seed=2)
    for _ in range(40):
        learner.reset()
        reference.update(agent.playing.name for agent in learner._seat_agents.values())
    assert 0.35 < reference["honest"] / sum(reference.values()) < 0.65


def test_a_run_trains_and_evaluates_against_a_mixture(tmp_path):
    """As an exploiter's target: a pool member and the evaluation's field."""
    import json

    from agents.ppo import checkpoint
    from agents.ppo.train import Trainer
    from agents.training.config import config_from_dict

    config = {
        "game": {"name": "seven_spades", "options": {"num_players": 3}},
        "total_steps": 512,
        "num_envs": 8,
        "ppo": {"n_steps": 32, "batch_size": 128, "n_epochs": 1},
        "network": {"pi": [16], "vf": [16]},
        "opponents": {"fixed": ["mix:honest+counter"], "snapshot_every": 0},
        "eval": {"every": 0, "deals": 1, "final_deals": 4, "opponents": ["mix:honest+counter"]},
        "checkpoint": {"every": 512},
    }
    run = tmp_path / "run"
    final = Trainer(config_from_dict(config), run, resume=False, echo=lambda line: None).run()
    pool = json.loads(checkpoint.read_extra(final, "pool.json"))
    assert [m["id"] for m in pool["members"]] == ["mix:honest+counter"]
    result = json.loads((run / "result.json").read_text())
    assert result["eval"]["games"] > 0
