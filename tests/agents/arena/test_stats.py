"""The statistics against known values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bluff_envs.records import GameRecord
from agents.arena import stats
from agents.arena.stats import GameResult


def game(game_id, deal, seats, rewards):
    record = GameRecord("g", {}, 0, [], list(seats), [], list(rewards), 0, False)
    return GameResult(game_id, deal, record)


def test_wilson_interval_known_values():
    lo, hi = stats.wilson(8, 10)
    assert (lo, hi) == pytest.approx((0.4902, 0.9433), abs=5e-5)
    assert stats.wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=5e-5)
    assert stats.wilson(50, 100) == pytest.approx((0.4038, 0.5962), abs=5e-5)


def test_bradley_terry_two_players():
    # a beat b 3 times out of 4: strengths 3:1, i.e. 400·log10(3) = 190.8 Elo points apart
    p = stats.bradley_terry(np.array([[0, 3], [1, 0]]))
    assert p[0] / p[1] == pytest.approx(3.0)
    e = stats.elo(p)
    assert e[0] - e[1] == pytest.approx(400 * math.log10(3)) and e.mean() == pytest.approx(1500)


def test_bradley_terry_three_players_satisfies_the_likelihood_equations():
    wins = np.array([[0, 7, 9], [3, 0, 6], [1, 4, 0]], float)
    p = stats.bradley_terry(wins)
    games = wins + wins.T
    expected = (games * p[:, None] / (p[:, None] + p[None, :])).sum(axis=1)
    assert expected == pytest.approx(wins.sum(axis=1))  # the MLE: expected wins = actual wins
    assert p[0] > p[1] > p[2]


def test_bradley_terry_stays_finite_for_an_unbeaten_player_with_a_prior():
    p = stats.bradley_terry(np.array([[0, 5], [0, 0]]), prior=1.0)
    assert np.isfinite(p).all() and p[0] / p[1] == pytest.approx(5.5 / 0.5)


def test_openskill_matches_the_package_on_one_game():
    results = [game("a", 0, ["x", "y"], [1.0, -1.0])]
    r = stats.openskill_ratings(results, ["x", "y"], [(0,), (1,)])
    assert r["x"]["mu"] == pytest.approx(27.635389, abs=1e-5) and r["y"]["mu"] == pytest.approx(22.364611, abs=1e-5)
    assert r["x"]["sigma"] == pytest.approx(8.065901, abs=1e-5)


def test_openskill_rates_partnerships_as_teams():
    results = [game(f"g{i}", i, ["a", "b", "a", "b"], [1, -1, 1, -1]) for i in range(20)]
    r = stats.openskill_ratings(results, ["a", "b"], [(0, 2), (1, 3)])
    assert r["a"]["mu"] > 25 > r["b"]["mu"]


def test_standings_compare_with_the_parity_share():
    # 4 seats, one winner a game: parity 1/4; "h" wins 30 of 40
    results = []
    for i in range(40):
        rewards = [1, -1 / 3, -1 / 3, -1 / 3] if i < 30 else [-1 / 3, 1, -1 / 3, -1 / 3]
        results.append(game(f"g{i:02d}", i // 4, ["h", "r", "r", "r"], rewards))
    s = stats.standings(results, ["h", "r"], bootstrap=500)
    assert s["h"]["parity"] == pytest.approx(0.25) and s["h"]["win_rate"] == 0.75
    assert s["h"]["win_rate_ci"] == pytest.approx(list(stats.wilson(30, 40)))
    assert s["h"]["vs_parity"] == "above" and s["r"]["vs_parity"] == "below"
    lo, hi = s["h"]["mean_reward_ci"]
    assert lo <= s["h"]["mean_reward"] <= hi


def test_parity_is_one_half_with_partnerships_and_lower_when_games_are_drawn():
    results = [game("g0", 0, ["a", "b", "a", "b"], [1, -1, 1, -1]), game("g1", 1, ["a", "b", "a", "b"], [0, 0, 0, 0])]
    s = stats.standings(results, ["a", "b"], bootstrap=100)
    assert s["a"]["parity"] == pytest.approx(0.25)  # (2/4 + 0) / 2
    assert s["a"]["wins"] == 2 and s["a"]["draws"] == 2


def test_head_to_head_counts_finishing_order_between_opponents_only():
    results = [game("g0", 0, ["a", "b", "a", "b"], [1, -1, 1, -1])]
    h = stats.head_to_head(results, ["a", "b"], [(0, 2), (1, 3)])
    assert h["score"][0][1] == 1.0 and h["games"][0][1] == 4  # 2 x 2 seat pairs across the table
    results = [game("g0", 0, ["x", "y", "z"], [1, -0.5, -0.5])]
    h = stats.head_to_head(results, ["x", "y", "z"], [(0,), (1,), (2,)])
    assert h["score"][1][2] == 0.5 and h["score"][0][2] == 1.0


def test_two_player_ratings_are_bradley_terry_elo_with_an_interval():
    results = [game(f"g{i:02d}", i // 2, ["a", "b"] if i % 2 else ["b", "a"],
                    ([1, -1] if i % 2 else [-1, 1]) if i % 4 != 3 else [-1, 1]) for i in range(40)]
    h2h = stats.head_to_head(results, ["a", "b"], [(0,), (1,)])
    r = stats.ratings(results, ["a", "b"], [(0,), (1,)], h2h)
    assert r["method"].startswith("Bradley-Terry")
    a, b = r["agents"]["a"], r["agents"]["b"]
    wins = np.array(h2h["wins"]) + 0.5 * (np.ones((2, 2)) - np.eye(2))  # the prior: one drawn game
    assert a["elo"] - b["elo"] == pytest.approx(400 * math.log10(wins[0, 1] / wins[1, 0]))
    assert a["elo_ci"][0] <= a["elo"] <= a["elo_ci"][1] and a["elo"] > 1500 > b["elo"]


def test_a_partnership_s_interval_counts_games_not_seats():
    # 60 games of partnership a (seats 0, 2) against b: a wins 36; each game gives a two seats
    results = [game(f"g{i}", i, ["a", "b", "a", "b"], [1, -1, 1, -1] if i < 36 else [-1, 1, -1, 1]) for i in range(60)]
    row = stats.standings(results, ["a", "b"])["a"]
    assert row["seats"] == 120 and row["games"] == 60 and row["win_rate"] == pytest.approx(0.6)
    assert row["win_rate_ci"] == pytest.approx(list(stats.wilson(36, 60)))  # not wilson(72, 120): narrower
    single = stats.standings([game("s", 0, ["a", "b", "c"], [1, -0.5, -0.5])], ["a", "b", "c"])
    assert single["a"]["win_rate_ci"] == pytest.approx(list(stats.wilson(1, 1)))


def four_player_games(count=120, seed=0):
    """Games of four seats where "strong" tends to win and "weak" to lose."""
    rng = np.random.default_rng(seed)
    pool = ["strong", "mid", "weak", "other"]
    results = []
    for g in range(count):
        seats = [pool[(g + k) % 4] for k in range(4)]
        skill = {"strong": 3.0, "mid": 1.5, "other": 1.0, "weak": 0.5}
        p = np.array([skill[s] for s in seats])
        winner = rng.choice(4, p=p / p.sum())
        rewards = [1.0 if s == winner else -1 / 3 for s in range(4)]
        results.append(game(f"G{g:04d}", g // 4, seats, rewards))
    return results


def test_ratings_do_not_depend_on_the_order_of_the_games():
    results = four_player_games()
    agents = ["strong", "mid", "weak", "other"]
    teams = [(0,), (1,), (2,), (3,)]

    def rated(games):
        h2h = stats.head_to_head(games, agents, teams)
        r = stats.ratings(games, agents, teams, h2h)
        return {a: (round(v["elo"], 1), [round(x, 1) for x in v["elo_ci"]]) for a, v in r["agents"].items()}, r["nash"]

    forward = rated(results)
    shuffled = list(results)
    np.random.default_rng(3).shuffle(shuffled)
    assert rated(list(reversed(results))) == forward == rated(shuffled)
    elo = forward[0]
    assert elo["strong"][0] > elo["mid"][0] > elo["weak"][0]


def test_nash_averaging_of_rock_paper_scissors_and_of_a_dominant_agent():
    cycle = {"agents": ["rock", "paper", "scissors"],
             "score": [[None, 0.1, 0.9], [0.9, None, 0.1], [0.1, 0.9, None]]}
    nash = stats.nash_averaging(cycle)
    assert all(v["weight"] == pytest.approx(1 / 3, abs=1e-3) for v in nash.values())
    dominant = {"agents": ["best", "a", "b"], "score": [[None, 0.8, 0.8], [0.2, None, 0.5], [0.2, 0.5, None]]}
    nash = stats.nash_averaging(dominant)
    assert nash["best"]["weight"] == pytest.approx(1.0, abs=1e-3)
    assert nash["best"]["rating"] == pytest.approx(0.0, abs=1e-3) and nash["a"]["rating"] < -1



def test_parity_is_the_same_for_every_agent_when_truncations_fall_unevenly():
    results = [game("g0", 0, ["a", "b", "c"], [1, -0.5, -0.5]), game("g1", 1, ["a", "b", "d"], [0, 0, 0]),
               game("g2", 2, ["a", "c", "d"], [-0.5, 1, -0.5])]
    s = stats.standings(results, ["a", "b", "c", "d"], bootstrap=50)
    assert [row["parity"] for row in s.values()] == pytest.approx([2 / 9] * 4)


def test_reports_warn_when_more_than_one_percent_of_games_are_truncated():
    from experiments.tournament.report import truncation_warning

    assert truncation_warning({"games": 200, "truncated": 2}) == ""
    warning = truncation_warning({"games": 200, "truncated": 3})
    assert "3 of 200 games (1.5%) were truncated" in warning
