"""Behaviour statistics from records: known scenarios, and consistency over random games."""

from __future__ import annotations

import pytest

import bluff_envs
from bluff_envs.records import GameRecord, deck_for
from bluff_envs.behaviour import agent_counts, module_for
from agents.arena.match import play_game
from agents.arena.schedule import schedule


def record_of(game, options, deck, actions, seats=None) -> GameRecord:
    """A finished game from a fixed deck and a list of action names."""
    env = bluff_envs.make(game, raw=True, **options)
    env.reset(seed=0, options={"deck": deck})
    ids = [env.unwrapped.action_names.index(a) for a in actions]
    for a in ids:
        env.step(a)
    rewards = [env._cumulative_rewards[a] for a in env.possible_agents]
    truncated = any(env.truncations.values())
    n = len(env.possible_agents)
    return GameRecord(game, options, 0, deck, seats or ["x"] * n, ids, rewards, len(ids), truncated)


def test_i_doubt_it_a_doubted_bluff_is_challenged_caught_and_a_right_doubt():
    env = bluff_envs.make("i_doubt_it", raw=True, num_players=3)
    deck = deck_for(env, 1)
    bluff_rank = next(card[:-1] for card in deck[0::3] if card[:-1] != "A")  # player 0 must name aces
    record = record_of("i_doubt_it", {"num_players": 3, "max_turns": 1}, deck,
                       [f"add {bluff_rank}", "done", "pass", "doubt"])
    player0, player1, player2 = module_for("i_doubt_it").count(record)
    assert (player0["plays"], player0["bluffs"], player0["bluffs_challenged"], player0["bluffs_caught"]) == (1, 1, 1, 1)
    assert (player1["windows"], player1["challenges"]) == (1, 0)
    assert (player2["windows"], player2["challenges"], player2["correct_challenges"]) == (1, 1, 1)


def test_seven_spades_a_challenged_bluff_decides_a_two_player_game():
    rest = [c for c in deck_for(bluff_envs.make("seven_spades", raw=True, num_players=2), 0) if c != "KH"]
    record = record_of("seven_spades", {"num_players": 2}, ["KH", *rest], ["claim", "challenge"])
    assert record.rewards == [-1.0, 1.0]
    claimer, challenger = module_for("seven_spades").count(record)
    assert (claimer["claims"], claimer["bluffs"], claimer["bluffs_caught"]) == (1, 1, 1)
    assert (challenger["challenges"], challenger["correct_challenges"]) == (1, 1)
    rates = module_for("seven_spades").rates(claimer)
    assert rates["bluff_rate"] == 1.0 and rates["challenge_rate"] is None


GAMES = [g for g in bluff_envs.available_games() if module_for(g) is not None]


@pytest.mark.parametrize("game", GAMES)
def test_counts_are_consistent_over_random_games(game):
    env = bluff_envs.make(game, raw=True)
    n = len(env.possible_agents)
    options = {"max_turns": 400} if game != "tarneeb" else {"target_score": 20}
    records = [play_game(t) for t in schedule(game, options, [("random",) * n], 2, seed=3)]
    module = module_for(game)
    totals = agent_counts(records, module)["random"]
    rates = module.rates(totals)
    assert set(rates) == {key for key, _ in module.COLUMNS}
    assert all(v is None or v >= 0 for v in rates.values())
    if game == "tarneeb":
        assert totals["declared"] * 4 == totals["deals"] > 0 and totals["made"] <= totals["declared"]
    else:
        for key in ("bluffs_challenged", "bluffs_caught", "challenge_accuracy"):
            assert rates[key] is None or 0 <= rates[key] <= 1
        assert totals["bluffs"] > 0 and totals["challenges"] > 0
