"""docs/rules.md §2 scenario by scenario: a fixed deal, a few named actions, the expected outcome."""

import numpy as np
import pytest

from bluff_envs import believe_it_or_not_v0
from bluff_envs.cards import RANKS, parse_card
from tests.helpers import act, deck_of, legal_names, view

# three players, 36 cards: 12 each
SIXES_TO_EIGHTS = "6C 6D 6H 6S 7C 7D 7H 7S 8C 8D 8H 8S".split()
NINES_TO_JACKS = "9C 9D 9H 9S 10C 10D 10H 10S JC JD JH JS".split()
QUEENS_TO_ACES = "QC QD QH QS KC KD KH KS AC AD AH AS".split()

# six players, 36 cards: 6 each
SIX = [
    "6C 6D 6H 6S 7C 7D".split(),
    "8C 8D 8H 8S 9C 9D".split(),
    "10C 10D 10H 10S JC JD".split(),
    "QC QD QH QS KC KD".split(),
    "AC AD AH AS 7H 7S".split(),
    "9H 9S JH JS KH KS".split(),
]


def table(*hands, **options):
    options.setdefault("deck", 36)
    env = believe_it_or_not_v0.raw_env(num_players=len(hands), **options)
    env.reset(options={"deck": deck_of(*hands)})
    return env


def three(**options):
    return table(SIXES_TO_EIGHTS, NINES_TO_JACKS, QUEENS_TO_ACES, **options)


def lead(env, rank, *cards):
    """The leader names ``rank`` and plays cards of the given ranks."""
    act(env, f"name {rank}", *(f"add {r}" for r in cards), "done")


def add(env, *cards):
    act(env, *(f"add {r}" for r in cards), "done")


def known(env, viewer, seat):
    """What ``viewer`` knows ``seat`` holds, as {rank: count}."""
    n = env.game.num_players
    rel = (seat - viewer) % n
    rows = view(env, f"player_{viewer}")["known_cards"].reshape(n - 1, 13)[rel - 1]
    return {RANKS[r]: int(k) for r, k in enumerate(rows) if k}


def by_rank(env, viewer, field):
    values = view(env, f"player_{viewer}")[field]
    return {RANKS[r]: int(k) for r, k in enumerate(values) if k}


def sizes(env):
    return list(env.game_state.hand_sizes)


def to_act(env):
    return env.agent_selection


# -- §2.3, §2.4: a round --------------------------------------------------------------------


def test_the_leader_names_a_rank_then_builds_his_play_in_canonical_order():
    env = three()
    assert to_act(env) == "player_0" and legal_names(env)[0] == "name 6"
    act(env, "name 6")
    assert legal_names(env) == ["add 6", "add 7", "add 8"]  # no "done" before a card
    act(env, "add 7")
    assert legal_names(env) == ["add 7", "add 8", "done"]  # never a rank below the last one
    act(env, "add 7", "add 7", "add 7")
    assert legal_names(env) == ["add 8", "done"]  # no fifth seven
    assert by_rank(env, 0, "building") == {"7": 4}
    assert not by_rank(env, 1, "building")  # the others do not see the cards being chosen


def test_the_cap_limits_a_play():
    env = three(max_cards_per_play=3)
    act(env, "name 6", "add 6", "add 6", "add 6")
    assert legal_names(env) == ["done"]


def test_a_responder_believes_disbelieves_or_adds_and_the_round_goes_round():
    env = three()
    lead(env, "6", "6", "6")
    assert to_act(env) == "player_1"
    assert legal_names(env) == ["add 9", "add 10", "add J", "believe", "disbelieve"]
    add(env, "9")
    assert to_act(env) == "player_2"
    add(env, "Q")
    assert to_act(env) == "player_0"  # the leader may add again when his turn comes round
    v = view(env, "player_0")
    assert v["pile_size"][0] == 4 and v["last_play_size"][0] == 1
    assert list(v["last_play_by"]) == [0, 0, 1]  # player_2, two seats to his left
    assert list(v["pile_by_player"]) == [2, 1, 1]
    assert int(np.argmax(v["round_rank"])) == RANKS.index("6")  # the rank stays for the round
    assert list(v["phase"]) == [0, 0, 1]


def test_believe_honest_the_pile_goes_out_of_play_and_the_believer_leads():
    env = three()
    lead(env, "6", "6", "6")
    act(env, "believe")
    assert sizes(env) == [10, 12, 12]
    assert env.game_state.pile == [] and len(env.game_state.out_of_play) == 2
    assert to_act(env) == "player_1" and legal_names(env)[0] == "name 6"
    for viewer in range(3):  # the two sixes were turned up for everyone
        assert by_rank(env, viewer, "out_of_play_known") == {"6": 2}
        assert by_rank(env, viewer, "last_revealed") == {"6": 2}
        assert view(env, f"player_{viewer}")["out_of_play_size"][0] == 2
    calls = view(env, "player_2")["calls"][:13]  # caller (3), 4 flags, maker (3), taker (3)
    assert list(calls[:3]) == [0, 0, 1] and list(calls[3:7]) == [1, 0, 1, 0]
    assert list(calls[7:10]) == [0, 1, 0] and not calls[10:13].any()


def test_believe_false_the_believer_takes_and_his_left_leads():
    env = three()
    lead(env, "6", "7")
    act(env, "believe")
    assert sizes(env) == [11, 13, 12]
    assert to_act(env) == "player_2"
    assert known(env, 0, 1) == {"7": 1} and known(env, 2, 1) == {"7": 1}


def test_disbelieve_false_the_player_who_made_it_takes_and_the_doubter_leads():
    env = three()
    lead(env, "6", "7", "8")
    act(env, "disbelieve")
    assert sizes(env) == [12, 12, 12]
    assert to_act(env) == "player_1"
    assert known(env, 1, 0) == {"7": 1, "8": 1} and known(env, 2, 0) == {"7": 1, "8": 1}


def test_disbelieve_honest_the_doubter_takes_and_his_left_leads():
    env = three()
    lead(env, "6", "6")
    act(env, "disbelieve")
    assert sizes(env) == [11, 13, 12]
    assert to_act(env) == "player_2"
    assert known(env, 0, 1) == {"6": 1} and known(env, 2, 1) == {"6": 1}


def test_only_the_most_recent_play_is_turned_up_and_only_it_becomes_known():
    env = three()
    lead(env, "6", "7", "7")  # a bluff that will never be seen
    add(env, "9", "9")  # player_1 bluffs too
    act(env, "disbelieve")  # player_2 turns up player_1's play: false
    assert sizes(env) == [10, 14, 12]
    assert to_act(env) == "player_2"
    # player_0 knows his own sevens went to player_1 as well; player_2 saw only the nines
    assert known(env, 0, 1) == {"7": 2, "9": 2}
    assert known(env, 2, 1) == {"9": 2}
    # and player_1 knows nothing new about anyone: the cards came from his and player_0's hands
    assert known(env, 1, 0) == {} and known(env, 1, 2) == {}


def test_what_is_known_of_a_hand_shrinks_when_he_plays_and_returns_when_it_is_turned_up():
    env = three()
    lead(env, "6", "7", "8")
    act(env, "disbelieve")  # player_0 takes back a seven and an eight; player_1 leads
    assert known(env, 2, 0) == {"7": 1, "8": 1}
    lead(env, "9", "9")
    add(env, "Q")  # player_2
    add(env, "6")  # player_0 plays one card: either known card may have gone
    assert known(env, 2, 0) == {}
    act(env, "believe")  # player_1 turns it up: a six, not a nine, and he takes the pile
    # so the seven and the eight are still in player_0's hand, and the six is player_1's now
    assert known(env, 2, 0) == {"7": 1, "8": 1}
    assert known(env, 1, 0) == {"7": 1, "8": 1}
    assert known(env, 2, 1) == {"6": 1, "Q": 1}  # the six turned up, and his own queen
    assert known(env, 0, 1) == {"6": 1}


def test_the_pile_out_of_play_is_known_as_far_as_each_one_saw_it():
    env = three()
    lead(env, "9", "7")  # player_0's seven stays face down
    add(env, "9")  # player_1's nine is the play turned up
    act(env, "believe")  # player_2 believes: honest, the pile goes out of play
    assert env.game_state.out_of_play and sizes(env) == [11, 11, 12]
    assert by_rank(env, 0, "out_of_play_known") == {"7": 1, "9": 1}
    assert by_rank(env, 1, "out_of_play_known") == {"9": 1}
    assert by_rank(env, 2, "out_of_play_known") == {"9": 1}
    assert to_act(env) == "player_2"


# -- §2.5: going out ------------------------------------------------------------------------


def six(rank="6"):
    """Six players with six cards each. player_0 first plays his two sevens (believed: out of
    play); player_1 then leads ``rank`` with an eight and the others add one card each, so
    that the round comes back to player_0 holding his four sixes."""
    env = table(*SIX)
    lead(env, "7", "7", "7")
    act(env, "believe")
    lead(env, rank, "8")
    for cards in ("10", "Q", "A", "9"):
        add(env, cards)
    assert to_act(env) == "player_0" and sizes(env)[0] == 4
    return env


def test_checked_and_honest_he_leaves_the_game():
    env = six()
    add(env, "6", "6", "6", "6")  # his last cards
    assert view(env, "player_1")["empty_handed"][5] == 1  # player_0 sits five seats to his left
    act(env, "believe")
    assert env.game_state.in_game[0] is False and not env.game_state.is_over
    assert to_act(env) == "player_1"  # the believer leads
    assert view(env, "player_3")["out"][3] == 1  # player_0 sits three seats to player_3's left
    assert not view(env, "player_3")["empty_handed"].any()
    # he is never asked again: the round goes from player_5 straight to player_1
    lead(env, "9", "9")
    for cards in ("10", "Q", "A", "9"):
        add(env, cards)
    assert to_act(env) == "player_1"


def test_checked_honest_by_a_wrong_disbelieve_he_leaves_and_the_doubter_takes():
    env = six()
    add(env, "6", "6", "6", "6")
    act(env, "disbelieve")
    assert env.game_state.in_game[0] is False
    assert sizes(env)[1] == 5 + 9  # player_1 takes the pile of nine cards
    assert to_act(env) == "player_2"


@pytest.mark.parametrize("call, leader", [("disbelieve", "player_1"), ("believe", "player_2")])
def test_checked_and_false_he_takes_the_pile_and_stays_in(call, leader):
    env = table("6C 6D 6H 7S 7C 7D".split(), *SIX[1:4], "AC AD AH AS 7H 6S".split(), SIX[5])
    lead(env, "7", "7", "7")
    act(env, "believe")
    lead(env, "6", "8")
    for cards in ("10", "Q", "A", "9"):
        add(env, cards)
    add(env, "6", "6", "6", "7")  # his last four cards, one of them not a six
    act(env, call)
    assert env.game_state.in_game[0] is True
    assert sizes(env)[0] == 9  # whichever call turned it up, he takes the pile (§2.5)
    assert to_act(env) == leader  # the lead follows the table


def test_not_checked_he_stays_in_empty_handed_and_can_only_believe_or_not():
    env = six()
    add(env, "6", "6", "6", "6")
    add(env, "8")  # player_1 adds instead of checking
    assert env.game_state.in_game[0] is True and sizes(env)[0] == 0
    assert view(env, "player_2")["empty_handed"][4] == 1
    for cards in ("10", "Q", "A", "9"):
        add(env, cards)
    assert to_act(env) == "player_0"
    assert legal_names(env) == ["believe", "disbelieve"]


def test_empty_handed_he_leaves_when_due_to_lead_as_the_doubter():
    env = six()
    add(env, "6", "6", "6", "6")
    add(env, "8")
    for cards in ("10", "Q", "A", "9"):
        add(env, cards)
    act(env, "disbelieve")  # right: player_5 takes, and the doubter, player_0, is to lead
    assert env.game_state.in_game[0] is False and sizes(env)[5] > 0
    assert to_act(env) == "player_1" and legal_names(env)[0] == "name 6"
    assert env.game_state.last_call.left == (0,)
    assert view(env, "player_1")["out"][5] == 1


def test_empty_handed_he_leaves_when_the_lead_passes_to_him():
    env = six(rank="A")
    add(env, "6", "6", "6", "6")  # false, but nobody will check it
    for cards in ("8", "10", "Q", "A"):  # player_4's ace is honest
        add(env, cards)
    act(env, "disbelieve")  # player_5 is wrong: he takes, and his left (player_0) is to lead
    assert env.game_state.in_game[0] is False
    assert to_act(env) == "player_1"


def test_empty_handed_he_takes_a_pile_and_is_back_in_play():
    env = six()
    add(env, "6", "6", "6", "6")
    for cards in ("8", "10", "Q", "A", "K"):  # player_5's king is not a six
        add(env, cards)
    act(env, "believe")  # player_0 is wrong: the believer takes the pile
    assert env.game_state.in_game[0] is True and sizes(env)[0] == 14
    assert view(env, "player_1")["empty_handed"][5] == 0
    assert to_act(env) == "player_1"  # the lead passes to the believer's left


def test_empty_handed_he_takes_a_pile_by_a_wrong_disbelieve():
    env = six()
    add(env, "6", "6", "6", "6")
    for cards in ("8", "10", "Q", "A"):
        add(env, cards)
    act(env, "disbelieve")  # player_5: right, player_4 takes and player_5 leads
    assert to_act(env) == "player_5"
    lead(env, "J", "J")
    act(env, "disbelieve")  # player_0, empty-handed: wrong, he takes the pile and is back
    assert env.game_state.in_game[0] is True and sizes(env)[0] == 1
    assert to_act(env) == "player_1"


# -- §2.6: the end ---------------------------------------------------------------------------


def test_the_last_player_holding_cards_loses():
    p0 = "6C 6D 6H 6S 7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S 10C 10D".split()
    p1 = "10H 10S JC JD JH JS QC QD QH QS KC KD KH KS AC AD AH AS".split()
    env = table(p0, p1)
    for mine, theirs in (("6", "A"), ("7", "K"), ("8", "Q"), ("9", "J")):
        lead(env, mine, mine, mine, mine, mine)
        act(env, "believe")
        lead(env, theirs, theirs, theirs, theirs, theirs)
        act(env, "believe")
    assert sizes(env) == [2, 2] and to_act(env) == "player_0"
    lead(env, "10", "10", "10")
    act(env, "disbelieve")  # honest: player_1 takes the pile and player_0 leaves
    assert env.game_state.is_over and env.game_state.loser == 1
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    for agent in ("player_0", "player_1"):
        assert not env.observe(agent)["action_mask"].any()


def two_cards_each(**options):
    """Two players who have put out everything but two tens each; player_0 is to lead."""
    p0 = "6C 6D 6H 6S 7C 7D 7H 7S 8C 8D 8H 8S 9C 9D 9H 9S 10C 10D".split()
    p1 = "10H 10S JC JD JH JS QC QD QH QS KC KD KH KS AC AD AH AS".split()
    env = table(p0, p1, **options)
    for mine, theirs in (("6", "A"), ("7", "K"), ("8", "Q"), ("9", "J")):
        lead(env, mine, mine, mine, mine, mine)
        act(env, "believe")
        lead(env, theirs, theirs, theirs, theirs, theirs)
        act(env, "believe")
    assert sizes(env) == [2, 2] and to_act(env) == "player_0"
    return env


def test_the_last_hands_emptied_together_is_a_draw():
    env = two_cards_each()
    lead(env, "10", "10", "10")  # player_0 plays his last cards, honestly
    add(env, "10", "10")  # player_1 adds his last cards instead of checking
    act(env, "believe")  # player_0, empty-handed, believes: honest, player_1 leaves
    assert env.game_state.is_over and env.game_state.loser is None and sizes(env) == [0, 0]
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert "a draw" in env.game_state.render_text(0)


def test_quads_that_empty_the_last_takers_hand_make_a_draw():
    env = two_cards_each(discard_quads=True)
    lead(env, "10", "10", "10")  # player_0's last cards, honest
    act(env, "disbelieve")  # wrong: player_1 takes them, and with his own two tens puts out all four
    assert sorted(env.game_state.quads) == sorted(map(parse_card, ["10C", "10D", "10H", "10S"]))
    assert env.game_state.is_over and env.game_state.loser is None and sizes(env) == [0, 0]
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}


def test_the_reward_rule_with_four_players():
    env = believe_it_or_not_v0.raw_env(num_players=4)
    env.reset(seed=0)
    env.game_state.loser = 2  # returns() is the whole reward rule
    assert env.game_state.returns() == [1 / 3, 1 / 3, -1.0, 1 / 3]
    assert sum(env.game_state.returns()) == pytest.approx(0.0)


def test_max_turns_truncates_after_that_many_completed_plays():
    env = three(max_turns=2)
    lead(env, "6", "6")
    assert not env.game_state.is_over
    add(env, "9")
    assert env.game_state.is_over and env.game_state.truncated
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert set(env.rewards.values()) == {0.0}


# -- §2.7: complete sets ---------------------------------------------------------------------


def test_quads_a_player_who_takes_a_pile_puts_out_every_complete_set_face_up():
    p0 = "6C 6D 6H 6S 7C 7D 7H 8S 8C 8D 8H 9S".split()
    p1 = "9C 9D 9H 7S 10C 10D 10H JC JD JH QC QD".split()
    p2 = "10S JS QH QS KC KD KH KS AC AD AH AS".split()
    env = table(p0, p1, p2, discard_quads=True)
    lead(env, "6", "9")  # player_0 claims a six with the nine of spades
    act(env, "believe")  # player_1 takes it: now he holds all four nines
    assert sizes(env)[1] == 12 + 1 - 4
    assert sorted(env.game_state.quads) == sorted(map(parse_card, ["9C", "9D", "9H", "9S"]))
    for viewer in range(3):
        assert by_rank(env, viewer, "out_of_play_known") == {"9": 4}
        assert view(env, f"player_{viewer}")["out_of_play_size"][0] == 4
    assert known(env, 0, 1) == {} and known(env, 2, 1) == {}
    assert "face up: 9C 9D 9H 9S" in env.game_state.render_text(0)
    # a complete set from the deal stays until its holder takes a pile (player_0's sixes)
    assert len(env.game_state.hands[0][RANKS.index("6")]) == 4


def test_quads_keep_the_cards_without_the_option():
    p0 = "6C 6D 6H 6S 7C 7D 7H 8S 8C 8D 8H 9S".split()
    p1 = "9C 9D 9H 7S 10C 10D 10H JC JD JH QC QD".split()
    p2 = "10S JS QH QS KC KD KH KS AC AD AH AS".split()
    env = table(p0, p1, p2)
    lead(env, "6", "9")
    act(env, "believe")
    assert sizes(env)[1] == 13 and not env.game_state.quads


def test_quads_with_two_decks_need_all_eight_copies():
    nines = ["9C", "9D", "9H", "9S", "9C", "9D", "9H"]
    p0 = nines + ["6C", "6D", "6H", "6S", "6C", "6D", "6H"] + ["7C", "7D", "7H", "7S", "7C", "7D", "7H"]
    p0 += ["8C", "8D", "8H", "8S", "8C", "8D", "8H"] + ["10C", "10D", "10H", "10S", "JC", "JD", "JH", "JS"]
    p1 = ["9S", "6S", "7S", "8S", "10C", "10D", "10H", "10S", "JC", "JD", "JH", "JS"]
    p1 += 2 * ["QC", "QD", "QH", "QS", "KC", "KD", "KH", "KS", "AC", "AD", "AH", "AS"]
    env = table(p0, p1, num_decks=2, discard_quads=True)
    assert sizes(env) == [36, 36]
    lead(env, "9", "6")  # player_0 bluffs with a six
    add(env, "9")  # player_1 plays the eighth nine, honestly
    act(env, "disbelieve")  # player_0 is wrong: he takes the pile and now holds all eight nines
    assert sizes(env)[0] == 36 - 1 + 2 - 8
    assert len(env.game_state.quads) == 8 and all(RANKS[c >> 2] == "9" for c in env.game_state.quads)
    assert by_rank(env, 1, "out_of_play_known") == {"9": 8}
