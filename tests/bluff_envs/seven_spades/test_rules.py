"""docs/rules.md §3 scenario by scenario: a fixed stock, a few named actions, the expected outcome."""

import numpy as np
import pytest

from bluff_envs.cards import parse_card
from bluff_envs.seven_spades.config import SevenSpadesConfig
from tests.helpers import act, legal_names, view
from tests.bluff_envs.seven_spades.stocks import table


def seats(env, agent, field):
    """A per-seat field of ``agent``'s view, turned back from relative to absolute seats."""
    n = env.game.num_players
    me = int(agent.split("_")[1])
    values = view(env, agent)[field]
    return [values[(seat - me) % n] for seat in range(n)]


def rewards(env):
    return [env._cumulative_rewards[a] for a in env.possible_agents]


def drawn(env, agent):
    cards = np.flatnonzero(view(env, agent)["drawn"])
    return [int(c) for c in cards]


def test_a_turn_draws_first_and_offers_discard_or_claim():
    env = table("2H", "3C")
    assert env.agent_selection == "player_0"
    assert drawn(env, "player_0") == [parse_card("2H")]
    assert drawn(env, "player_1") == []  # nobody else sees the drawn card
    assert legal_names(env) == ["discard", "claim"]
    act(env, "discard")
    assert env.agent_selection == "player_1" and drawn(env, "player_1") == [parse_card("3C")]
    assert view(env, "player_3")["seen"][parse_card("2H")] == 1  # discards are face up
    assert view(env, "player_3")["discard_others"][0] == 1
    assert view(env, "player_3")["stock"][0] == 50


def test_bluff_caught_puts_the_claimer_out():
    env = table("2H", "3C")
    act(env, "claim")
    assert view(env, "player_1")["phase"].tolist() == [0, 1]
    assert seats(env, "player_1", "claimer") == [1, 0, 0, 0]
    act(env, "challenge", "pass", "pass")
    assert seats(env, "player_2", "in_game") == [0, 1, 1, 1]
    assert seats(env, "player_2", "row_lengths") == [0, 0, 0, 0]
    assert view(env, "player_2")["seen"][parse_card("2H")] == 1  # turned up for everyone
    assert env.agent_selection == "player_1" and legal_names(env) == ["discard", "claim"]
    assert env.game_state.out_face_up == [parse_card("2H")]  # his row left the game


def test_true_claim_challenged_puts_the_challenger_out_and_the_spade_counts_face_up():
    env = table("AS", "3C")
    act(env, "claim", "pass", "challenge", "pass")
    assert seats(env, "player_3", "in_game") == [1, 1, 0, 1]
    assert seats(env, "player_3", "row_lengths") == [1, 0, 0, 0]
    assert seats(env, "player_3", "face_up_spades") == [1, 0, 0, 0]
    assert view(env, "player_0")["my_row"].sum() == 0  # no longer a secret
    assert env.agent_selection == "player_1"


def test_several_challengers_the_nearest_to_the_claimers_left_is_official():
    env = table("2C", "KS", "3C")
    act(env, "discard")  # player_0
    act(env, "claim")  # player_1 claims a true spade
    act(env, "pass", "challenge", "challenge")  # player_2 passes, player_3 and player_0 challenge
    assert seats(env, "player_0", "in_game") == [1, 1, 1, 0]  # player_3, not player_0, is out
    history = view(env, "player_0")["history"][:14]  # newest record, seats relative to player_0
    assert history[:4].tolist() == [0, 1, 0, 0]  # claimer player_1
    assert history[4:8].tolist() == [1, 0, 0, 1]  # challengers player_0 and player_3
    assert history[8:12].tolist() == [0, 0, 0, 1]  # official: player_3
    assert history[12:].tolist() == [1, 0]  # a spade was turned up
    assert env.agent_selection == "player_2"


def test_the_decisions_stay_secret_until_the_window_closes():
    observed = []
    for first in ("challenge", "pass"):
        env = table("2H")
        act(env, "claim", first)
        observed.append(env.observe("player_2")["observation"])
    assert np.array_equal(*observed)


def test_no_challenge_the_claim_stands_face_down():
    env = table("2H", "3C")
    act(env, "claim", "pass", "pass", "pass")
    assert seats(env, "player_1", "row_lengths") == [1, 0, 0, 0]
    assert seats(env, "player_1", "face_up_spades") == [0, 0, 0, 0]
    assert seats(env, "player_1", "in_game") == [1, 1, 1, 1]
    assert view(env, "player_1")["seen"].sum() == 0  # nobody saw the 2H
    assert view(env, "player_0")["my_row"][parse_card("2H")] == 1  # but its owner knows it
    assert env.agent_selection == "player_1" and legal_names(env) == ["discard", "claim"]


def test_a_player_who_is_out_is_never_asked_again():
    env = table("2H", "3C")
    act(env, "claim", "challenge", "pass", "pass")  # player_0 is out
    act(env, "claim")  # player_1
    asked = []
    while env.game_state.phase == 1:
        asked.append(env.agent_selection)
        act(env, "pass")
    assert asked == ["player_2", "player_3"]
    assert env.agent_selection == "player_2"


def test_the_final_spade_goes_face_up_and_wins_at_once():
    env = table("AS", "2C", "3C", "4C", "KS", target=2)
    act(env, "claim", "pass", "pass", "pass")
    act(env, "discard", "discard", "discard")
    assert env.agent_selection == "player_0"
    assert legal_names(env) == ["discard", "claim face up"]  # no face-down claim at target-1
    act(env, "claim face up")
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert rewards(env) == [1.0, -1 / 3, -1 / 3, -1 / 3]
    assert env.game_state.winner == 0 and env.game_state.row_length[0] == 2


def test_a_non_spade_at_target_minus_one_must_be_discarded():
    env = table("AS", "2C", "3C", "4C", "KH", target=2)
    act(env, "claim", "pass", "pass", "pass", "discard", "discard", "discard")
    assert legal_names(env) == ["discard"]
    with pytest.raises(ValueError, match="illegal action 1 \\(claim\\)"):
        act(env, "claim")
    with pytest.raises(ValueError, match="illegal action 2 \\(claim face up\\)"):
        act(env, "claim face up")
    act(env, "discard")
    assert env.agent_selection == "player_1" and not env.game_state.is_over


def test_the_last_player_standing_wins():
    env = table("2H", "3H", num_players=3)
    act(env, "claim", "challenge", "pass")  # player_0 bluffed and is out
    act(env, "claim", "challenge")  # player_1 bluffed, player_2 is the only one left
    assert all(env.terminations.values())
    assert env.game_state.winner == 2
    assert rewards(env) == [-0.5, -0.5, 1.0]


@pytest.mark.parametrize("card, winner", [("AS", 0), ("AH", 1)])
def test_two_players_are_decided_by_the_first_challenge(card, winner):
    env = table(card, num_players=2)
    act(env, "claim", "challenge")
    assert all(env.terminations.values()) and env.game_state.winner == winner
    assert rewards(env)[winner] == 1.0 and rewards(env)[1 - winner] == -1.0


@pytest.mark.parametrize(
    "free_turn, card, next_players",
    [
        (True, "2H", ["player_2", "player_3", "player_1"]),  # the successful challenger plays next
        (False, "2H", ["player_1", "player_2", "player_3"]),
        (True, "AS", ["player_1", "player_3", "player_0"]),  # no free turn for a failed challenge
    ],
)
def test_free_turn_after_a_successful_challenge(free_turn, card, next_players):
    env = table(card, "2C", "3C", "4C", free_turn=free_turn)
    act(env, "claim", "pass", "challenge", "challenge")
    order = []
    for _ in next_players:
        order.append(env.agent_selection)
        act(env, "discard")
    assert order == next_players


def test_an_empty_stock_when_a_player_must_draw_is_a_draw():
    env = table()
    for _ in range(52):
        assert not env.game_state.is_over
        act(env, "discard")
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert rewards(env) == [0.0, 0.0, 0.0, 0.0]
    assert env.game_state.winner is None and view(env, "player_0")["stock"][0] == 0


def test_max_turns_truncates_with_no_reward():
    env = table(max_turns=10)
    for _ in range(10):
        act(env, "discard")
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert rewards(env) == [0.0, 0.0, 0.0, 0.0]
    assert view(env, "player_0")["turns"][0] == 10


@pytest.mark.parametrize(
    "options, decks, target",
    [
        ({"num_players": 2}, 1, 7),
        ({"num_players": 3}, 1, 5),
        ({"num_players": 4}, 1, 4),
        ({"num_players": 5}, 1, 3),
        ({"num_players": 4, "num_decks": 2}, 2, 8),
        ({"num_players": 2, "num_decks": 3}, 3, 21),
        ({"num_players": 6}, 2, 5),
        ({"num_players": 8}, 2, 4),
        ({"num_players": 10}, 2, 3),
        ({"num_players": 11}, 3, 4),
        ({"num_players": 12, "num_decks": 3}, 3, 4),
        ({"num_players": 4, "target": 9}, 1, 9),
    ],
)
def test_default_decks_and_targets(options, decks, target):
    c = SevenSpadesConfig.from_options(**options)
    assert (c.num_decks, c.target) == (decks, target)
    n = c.num_players
    if n > 5 and "target" not in options:  # the largest T with n·(T−1)+1 ≤ 13·num_decks
        assert n * (target - 1) + 1 <= 13 * decks < n * target + 1
