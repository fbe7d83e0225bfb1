"""The opponent pool: membership, the three sampling strategies, results and saving."""

from __future__ import annotations

import numpy as np
import pytest

from agents.ppo.frozen_policy import FrozenPolicy
from agents.training.pool import OpponentPool, Opponents, score_of, table_seats
from agents.base import GameInfo
import bluff_envs


def policy(seed: int) -> FrozenPolicy:
    rng = np.random.default_rng(seed)
    return FrozenPolicy([rng.normal(size=(5, 4)), rng.normal(size=(4, 3))], [np.zeros(4), np.zeros(3)])


def test_uniform_gives_every_member_the_same_chance():
    pool = OpponentPool(["random", "honest"], "uniform")
    pool.add_snapshot(policy(0), 100)
    assert pool.probabilities() == pytest.approx([1 / 3] * 3)


def test_latest_favours_the_newest_snapshot():
    pool = OpponentPool(["random"], "latest", latest_share=0.6)
    assert pool.probabilities() == pytest.approx([1.0])  # no snapshot yet
    pool.add_snapshot(policy(0), 100)
    pool.add_snapshot(policy(1), 200)
    assert [m.id for m in pool.members] == ["random", "snapshot@100", "snapshot@200"]
    assert pool.probabilities() == pytest.approx([0.2, 0.2, 0.6])


def test_pfsp_draws_most_the_members_the_learner_does_worst_against():
    pool = OpponentPool(["random", "honest", "counter"], "pfsp", pfsp_power=2.0)
    assert pool.probabilities() == pytest.approx([1 / 3] * 3)  # no results: all alike
    for _ in range(10):
        pool.record(["random"], +1.0)  # always beaten
        pool.record(["honest", "honest"], -1 / 3)  # never beaten (counted once per game)
        pool.record(["counter"], 0.0)  # draws
    assert pool.score("random") == 1.0 and pool.score("honest") == 0.0 and pool.score("counter") == 0.5
    assert pool.games("honest") == 10
    p = pool.probabilities()
    assert p[1] > p[2] > p[0] > 0  # the floor keeps the beaten member in play
    assert p.sum() == pytest.approx(1.0)
    assert [score_of(r) for r in (0.5, 0.0, -1.0)] == [1.0, 0.5, 0.0]


def test_old_snapshots_leave_beyond_the_limit():
    pool = OpponentPool(["random"], "uniform", max_snapshots=2)
    for step in (100, 200, 300):
        pool.add_snapshot(policy(step), step)
    assert [m.id for m in pool.members] == ["random", "snapshot@200", "snapshot@300"]
    pool.record(["snapshot@100"], 1.0)  # results for a member gone are dropped
    assert "snapshot@100" not in pool.results


def test_self_play_share_goes_to_the_learners_newest_snapshot():
    pool = OpponentPool(["random", "honest", "counter"], "pfsp", pfsp_power=1.0, self_play_share=0.4)
    assert pool.probabilities() == pytest.approx([1 / 3] * 3)  # no snapshot yet: the sampling alone
    pool.add_snapshot(policy(0), 100)
    pool.add_snapshot(policy(1), 200)
    pool.add_snapshot(policy(2), 300, "exploiter@1")  # an exploiter is not the learner
    for _ in range(10):
        pool.record(["random"], +1.0)
        pool.record(["honest"], -1.0)
    p = pool.probabilities()
    assert [m.id for m in pool.members][4] == "snapshot@200" and p[4] == pytest.approx(0.4)
    weights = np.array([0.0, 1.0, 0.5, 0.5, 0.5]) + 0.02  # pfsp over the others: 1 - score, plus the floor
    assert np.delete(p, 4) == pytest.approx(0.6 * weights / weights.sum())
    assert p.sum() == pytest.approx(1.0)
    uniform = OpponentPool(["random"], "uniform", self_play_share=0.5)
    uniform.add_snapshot(policy(0), 100)
    uniform.add_snapshot(policy(1), 200)
    assert uniform.probabilities() == pytest.approx([0.25, 0.25, 0.5])
    with pytest.raises(ValueError, match="self_play_share goes with uniform or pfsp"):
        OpponentPool(["random"], "latest", self_play_share=0.5)
    with pytest.raises(ValueError, match="below 1"):
        OpponentPool(["random"], "pfsp", self_play_share=1.0)


def test_league_exploiters_do_not_count_towards_the_snapshot_limit():
    pool = OpponentPool(["random"], "uniform", max_snapshots=2)
    pool.add_snapshot(policy(0), 100)
    pool.add_snapshot(policy(1), 150, "exploiter@1")
    for step in (200, 300):
        pool.add_snapshot(policy(step), step)
    assert [m.id for m in pool.members] == ["random", "exploiter@1", "snapshot@200", "snapshot@300"]


def test_the_pool_saves_and_restores_members_and_results():
    pool = OpponentPool(["random", "honest"], "pfsp")
    pool.add_snapshot(policy(7), 700)
    pool.record(["honest"], -1.0)
    pool.record(["snapshot@700"], 1.0)
    text, arrays = pool.state()
    again = OpponentPool(["random"], "pfsp")
    again.load_state(text, arrays)
    assert [m.id for m in again.members] == ["random", "honest", "snapshot@700"]
    assert again.probabilities() == pytest.approx(pool.probabilities())
    x = np.linspace(0, 1, 5, dtype=np.float32)
    assert np.array_equal(again.members[2].policy.logits(x), pool.members[2].policy.logits(x))


def test_an_environment_copy_draws_by_the_probabilities():
    game = GameInfo.of(bluff_envs.make("i_doubt_it", raw=True))
    pool = OpponentPool(["random", "honest"], "uniform")
    table = Opponents(game, {"members": pool.members, "probabilities": [0.25, 0.75]}, np.random.default_rng(0))
    drawn = [table.draw().id for _ in range(4000)]
    assert drawn.count("honest") / len(drawn) == pytest.approx(0.75, abs=0.03)
    assert table.agent(pool.members[1], 2) is table.agent(pool.members[1], 2)  # kept per seat


def test_a_table_is_one_member_that_seats_a_whole_line_up():
    pool = OpponentPool(["honest"], "pfsp", pfsp_power=1.0, tables=[["never_challenge", "always_challenge"]])
    table = pool.members[1]
    assert table.id == "table:never_challenge+always_challenge" and table.is_table and not table.is_snapshot
    pool.record([table.id], -1.0)  # a loss at that table: it comes up more often
    assert pool.probabilities()[1] > pool.probabilities()[0]
    text, arrays = pool.state()
    again = OpponentPool(["random"], "pfsp", pfsp_power=1.0)
    again.load_state(text, arrays)
    assert again.members == pool.members and again.probabilities() == pytest.approx(pool.probabilities())
    # the seats after the learner's take its specs in turn, cycled
    assert table_seats([0, 2, 3], 1, 4, 2) == {2: 0, 3: 1, 0: 0}
    assert table_seats([1, 3], 2, 4, 2) == {3: 0, 1: 1}
    game = GameInfo.of(bluff_envs.make("i_doubt_it", raw=True))
    copy = Opponents(game, pool.payload(), np.random.default_rng(0))
    assert copy.agent(table, 2, 0).name == "never_challenge" and copy.agent(table, 2, 1).name == "always_challenge"
    assert copy.agent(table, 2, 1) is copy.agent(table, 2, 1)


def test_bad_pool_settings_are_rejected():
    with pytest.raises(ValueError, match="sampling 'best'"):
        OpponentPool(["random"], "best")
    with pytest.raises(ValueError, match="listed twice"):
        OpponentPool(["random", "random"])
    alone = OpponentPool(["always_challenge"], tables=[["always_challenge"]])  # the agent, and a table of it
    assert [m.id for m in alone.members] == ["always_challenge", "table:always_challenge"]
    with pytest.raises(ValueError, match="tables are listed twice"):
        OpponentPool(["random"], tables=[["honest"], ["honest"]])
    with pytest.raises(ValueError, match="a table is a non-empty list of agent specs"):
        OpponentPool(["random"], tables=[[]])


def test_table_share_goes_to_the_tables_together():
    tables = [["always_challenge"], ["never_challenge", "honest"]]
    pool = OpponentPool(["random", "honest", "counter"], "pfsp", pfsp_power=1.0, self_play_share=0.3, tables=tables,
                        table_share=0.2)
    ids = [m.id for m in pool.members]
    for _ in range(10):
        pool.record([ids[3]], -1.0)  # the learner loses at the first table: it comes up more
        pool.record(["random"], +1.0)
    p = pool.probabilities()  # no snapshot yet: the tables 0.2, everyone else the rest
    assert p[3:5] == pytest.approx(0.2 * np.array([1.02, 0.52]) / 1.54)
    assert p[:3] == pytest.approx(0.8 * np.array([0.02, 0.52, 0.52]) / 1.06)
    pool.add_snapshot(policy(0), 100)
    pool.add_snapshot(policy(1), 200)
    p = pool.probabilities()
    assert ids[3:5] == [m.id for m in pool.members][3:5] and p.sum() == pytest.approx(1.0)
    assert p[6] == pytest.approx(0.3) and p[3:5].sum() == pytest.approx(0.2)
    assert np.array([p[0], p[1], p[2], p[5]]) == pytest.approx(0.5 * np.array([0.02, 0.52, 0.52, 0.52]) / 1.58)
    plain = OpponentPool(["random"], "uniform", tables=tables)  # without a share: members like any other
    assert plain.probabilities() == pytest.approx([1 / 3] * 3)
    with pytest.raises(ValueError, match="needs tables"):
        OpponentPool(["random"], "pfsp", table_share=0.2)
    with pytest.raises(ValueError, match="below 1 with self_play_share"):
        OpponentPool(["random"], "pfsp", tables=tables, self_play_share=0.5, table_share=0.5)


def test_table_share_splits_evenly_where_the_sampling_gives_the_tables_nothing():
    pool = OpponentPool(["random", "honest"], "latest", latest_share=1.0, tables=[["counter"], ["bluffer"]], table_share=0.4)
    pool.add_snapshot(policy(0), 100)  # "latest" with a share of 1: every other member 0
    assert pool.probabilities() == pytest.approx([0.0, 0.0, 0.2, 0.2, 0.6])
