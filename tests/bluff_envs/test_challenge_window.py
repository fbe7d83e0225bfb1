"""The doubt / challenge window and turn order, shared by I Doubt It and Seven Spades."""

from bluff_envs.challenge_window import ChallengeWindow
from bluff_envs.seats import next_seat, relative, seats_after


def test_deciders_are_asked_in_turn_from_the_claimers_left_and_the_nearest_challenger_is_official():
    window = ChallengeWindow(2, seats_after(2, [True] * 5))
    assert window.deciders == [3, 4, 0, 1] and window.current == 3
    assert window.decide(False) == 4
    assert window.decide(True) == 0
    assert window.decide(True) == 1
    assert window.decide(False) is None and window.is_closed
    assert window.official == 4 and window.challengers() == [4, 0]


def test_nobody_challenges():
    window = ChallengeWindow(0, [1, 2])
    window.decide(False)
    window.decide(False)
    assert window.official is None and window.challengers() == []


def test_turn_order_skips_players_who_are_out():
    in_game = [True, False, True, False]
    assert next_seat(0, in_game) == 2 and next_seat(2, in_game) == 0
    assert next_seat(0, [True, False]) == 0  # alone: himself
    assert seats_after(3, in_game) == [0, 2]
    assert [relative(2, s, 4) for s in range(4)] == [2, 3, 0, 1]
