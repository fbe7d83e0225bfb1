"""Tarneeb by scenario: a fixed deal, a few named actions, the outcome docs/rules.md §4 prescribes."""

import numpy as np
import pytest

from bluff_envs import tarneeb_v0
from bluff_envs.cards import parse_card
from bluff_envs.tarneeb.actions import BIDDING, NO_TRUMP, PLAY, TRUMP
from bluff_envs.tarneeb.rules import is_weak_hand
from tests.helpers import act, deck_of, legal_names, view

# Each player holds one whole suit: whoever leads his own suit wins every trick he leads.
ONE_SUIT_EACH = deck_of(
    "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S".split(),
    "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H".split(),
    "AD KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D".split(),
    "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C".split(),
)
# Every player holds some of every suit; players 2 and 3 have worthless hands (§4.8).
MIXED = deck_of(
    "AS KS QS JS 10S AH KH AD KD AC KC QC JC".split(),
    "9S 8S 7S QH JH 10H 9H QD JD 10C 9C 8C 7C".split(),
    "6S 5S 8H 7H 6H 5H 10D 9D 8D 7D 6C 5C 4C".split(),
    "4S 3S 2S 4H 3H 2H 6D 5D 4D 3D 2D 3C 2C".split(),
)


def table(deck=ONE_SUIT_EACH, **options):
    env = tarneeb_v0.raw_env(**options)
    env.reset(seed=0, options={"deck": deck})
    return env


def hand_of(env, player):
    return sorted(env.game_state.hand_cards(player))


def cards(text):
    return sorted(parse_card(c) for c in text.split())


def play_out(env, leads_first=True):
    """Play the rest of the deal, each player playing his first legal card."""
    while env.agents and env.game_state.phase == PLAY and not env.game_state.is_over:
        deal = env.game_state.deals
        env.step(env.legal_actions()[-1 if leads_first else 0])
        if env.game_state.deals != deal:
            break


# -- bidding ----------------------------------------------------------------------------------


def test_lebanese_passers_drop_out_and_the_last_bidder_declares():
    env = table()
    assert env.agent_selection == "player_0"  # the dealer is player 3
    act(env, "bid 7", "bid 8", "pass", "pass")
    assert env.agent_selection == "player_0"
    assert legal_names(env) == ["pass", "bid 9", "bid 10", "bid 11", "bid 12", "bid 13"]
    act(env, "bid 9", "bid 10")
    assert env.agent_selection == "player_0"  # players 2 and 3 passed: never asked again
    act(env, "pass")
    assert env.game_state.contract.declarer == 1 and env.game_state.contract.bid == 10
    assert env.agent_selection == "player_1" and legal_names(env) == ["trump C", "trump D", "trump H", "trump S"]
    seen = view(env, "player_2")  # player 1 sits at relative seat 3 of player 2
    assert list(seen["declarer"]) == [0, 0, 0, 1] and list(seen["contract_tricks"]) == [0, 0, 0, 1, 0, 0, 0]
    bids = seen["bids"].reshape(4, 7)
    assert list(np.flatnonzero(bids[2])) == [0, 2]  # player 0 (relative 2) bid 7 and 9
    assert list(np.flatnonzero(bids[3])) == [1, 3]  # player 1 bid 8 and 10
    assert list(seen["passed"]) == [1, 1, 1, 0]  # players 2, 3 and 0 passed
    assert list(seen["phase"]) == [0, 1, 0, 0]


def test_egyptian_passers_may_bid_again_and_three_passes_in_a_row_end_it():
    env = table(variant="egyptian")
    act(env, "bid 7 H", "pass", "pass", "bid 7 S", "pass")
    assert env.agent_selection == "player_1"
    assert "bid 7 NT" in legal_names(env) and "bid 7 S" not in legal_names(env)
    act(env, "bid 8 C", "pass", "pass")
    assert env.game_state.phase == BIDDING  # only two passes since the last bid
    act(env, "pass")
    k = env.game_state.contract
    assert (k.declarer, k.bid, k.strain) == (1, 8, 0)
    assert env.agent_selection == "player_1" and legal_names(env) == ["double", "no double"]
    seen = view(env, "player_0")
    assert list(seen["contract_strain"]) == [1, 0, 0, 0, 0]  # clubs is trump
    assert list(seen["passed"]) == [1, 0, 1, 1]  # latest calls: me pass, player 1 bid, 2 and 3 pass
    act(env, "no double")
    assert env.game_state.phase == PLAY and env.game_state.trump == 0 and env.agent_selection == "player_1"


def test_single_round_gives_each_player_one_call():
    env = table(bidding="single_round")
    act(env, "bid 8", "pass", "bid 9", "pass")
    assert env.game_state.contract.declarer == 2 and env.game_state.contract.bid == 9
    assert env.game_state.phase == TRUMP and env.agent_selection == "player_2"


def test_single_round_all_pass_deals_again():
    second = list(reversed(ONE_SUIT_EACH))
    env = table(deck=[ONE_SUIT_EACH, second], bidding="single_round")
    act(env, "pass", "pass", "pass", "pass")
    assert env.game_state.redeals == 1 and env.game_state.dealer == 3 and env.agent_selection == "player_0"


def test_all_pass_redeals_by_the_same_dealer():
    second = deck_of(*reversed([ONE_SUIT_EACH[p::4] for p in range(4)]))  # the hands rotated
    env = table(deck=[ONE_SUIT_EACH, second])
    act(env, "pass", "pass", "pass", "pass")
    state = env.game_state
    assert state.redeals == 1 and state.dealer == 3 and state.deals == 0
    assert env.agent_selection == "player_0" and state.phase == BIDDING and not state.calls
    assert hand_of(env, 0) == cards("AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C")
    seen = view(env, "player_0")
    assert not seen["passed"].any() and not seen["bids"].any()
    assert list(seen["hand"][np.arange(52) % 4 == 0]) == [1] * 13  # the clubs are now his
    assert list(seen["dealer"]) == [0, 0, 0, 1]


def test_redeals_after_the_given_decks_are_shuffled_from_the_seed():
    env = table()
    act(env, "pass", "pass", "pass", "pass")
    first = [hand_of(env, p) for p in range(4)]
    env.reset(seed=0, options={"deck": ONE_SUIT_EACH})
    act(env, "pass", "pass", "pass", "pass")
    assert [hand_of(env, p) for p in range(4)] == first != [sorted(ONE_SUIT_EACH[p::4]) for p in range(4)]


@pytest.mark.parametrize("variant, bids", [("lebanese", 7), ("egyptian", 35)])
def test_dealer_must_bid_when_the_first_three_pass(variant, bids):
    env = table(variant=variant, all_pass="dealer_bids_7")
    act(env, "pass", "pass", "pass")
    assert env.agent_selection == "player_3"
    names = legal_names(env)
    assert "pass" not in names and len(names) == bids and names[0] in ("bid 7", "bid 7 C")
    with pytest.raises(ValueError, match="illegal action"):
        act(env, "pass")
    act(env, names[0])
    if variant == "egyptian":  # passing did not drop them out: they may still outbid him
        assert env.agent_selection == "player_0" and env.game_state.contract is None
        act(env, "pass", "pass", "pass")
    assert env.game_state.contract.declarer == 3 and env.game_state.contract.bid == 7


def test_no_higher_bid_than_13():
    env = table()
    act(env, "bid 13")
    assert legal_names(env) == ["pass"]


# -- play -------------------------------------------------------------------------------------


def test_following_suit_is_masked_and_tricks_go_to_the_led_suit_or_a_trump():
    env = table(deck=MIXED)
    act(env, "bid 7", "pass", "pass", "pass", "trump H")
    assert env.agent_selection == "player_0" and len(legal_names(env)) == 13  # any lead
    act(env, "play AD")
    assert legal_names(env) == ["play JD", "play QD"]  # player 1 must follow diamonds
    act(env, "play QD", "play 7D", "play 2D")
    assert env.game_state.tricks[-1][2] == 0  # the ace of the suit led wins
    act(env, "play KD", "play JD", "play 8D", "play 3D")
    act(env, "play AC", "play 7C", "play 4C", "play 2C")
    act(env, "play KC", "play 8C", "play 5C", "play 3C")
    act(env, "play QC", "play 9C", "play 6C")
    assert env.agent_selection == "player_3"
    assert len(legal_names(env)) == 9  # out of clubs: any card
    act(env, "play 2H")  # a trump
    assert env.game_state.tricks[-1][2] == 3 and env.game_state.tricks_won == [4, 1]
    assert env.agent_selection == "player_3"  # the winner leads
    seen = view(env, "player_1")  # player 3 is relative seat 2 of player 1
    assert list(seen["shown_out"].reshape(4, 4)[2]) == [1, 0, 0, 0]  # clubs
    assert list(seen["tricks_won"]) == [1, 4]
    assert not seen["trick"].any()
    played = seen["played"].reshape(4, 52)
    assert played[2, parse_card("2H")] == 1 and played[3, parse_card("AD")] == 1


def test_the_current_trick_by_relative_seat():
    env = table(deck=MIXED)
    act(env, "bid 7", "pass", "pass", "pass", "trump S", "play AH", "play 9H")
    seen = view(env, "player_2")
    trick = seen["trick"].reshape(4, 52)
    assert trick[2, parse_card("AH")] == 1 and trick[3, parse_card("9H")] == 1 and trick.sum() == 2
    assert list(seen["trick_leader"]) == [0, 0, 1, 0]
    assert list(seen["contract_strain"]) == [0, 0, 0, 1, 0]
    assert not view(env, "player_2")["hand"][parse_card("AH")]
    assert view(env, "player_2")["hand"][parse_card("8H")] == 1


def test_first_lead_must_be_a_trump_when_the_option_says_so():
    env = table(deck=MIXED, first_lead_trump=True)
    act(env, "bid 7", "pass", "pass", "pass", "trump C")
    assert legal_names(env) == ["play JC", "play QC", "play KC", "play AC"]
    act(env, "play AC", "play 7C", "play 4C", "play 2C")
    assert len(legal_names(env)) == 12  # only the first lead
    plain = table(deck=MIXED)
    act(plain, "bid 7", "pass", "pass", "pass", "trump C")
    assert len(legal_names(plain)) == 13


def test_first_lead_is_free_without_a_trump_to_lead():
    env = table(first_lead_trump=True)  # player 0 holds only spades
    act(env, "bid 7", "pass", "pass", "pass", "trump H")
    assert len(legal_names(env)) == 13


def test_no_trump_the_led_suit_always_wins():
    env = table(allow_no_trump=True, episode="deal")
    act(env, "bid 7", "pass", "pass", "pass")
    assert legal_names(env)[-1] == "trump NT"
    act(env, "trump NT")
    assert env.game_state.trump == NO_TRUMP
    act(env, "play 2S", "play AH", "play AD", "play AC")
    assert env.game_state.tricks[-1][2] == 0  # three aces, but only the 2 of the suit led


def test_no_trump_is_not_offered_by_default():
    env = table()
    act(env, "bid 7", "pass", "pass", "pass")
    assert "trump NT" not in legal_names(env)


# -- scoring and rewards ----------------------------------------------------------------------


def test_kaboot_without_bidding_13_scores_16():
    env = table(episode="deal")
    act(env, "bid 7", "pass", "pass", "pass", "trump S")
    play_out(env)
    assert env.game_state.is_over and env.game_state.tricks_won == [13, 0]
    assert env.game_state.last_deal_score == (16, 0)
    assert env.rewards == {"player_0": 16 / 26, "player_1": -16 / 26, "player_2": 16 / 26, "player_3": -16 / 26}


def test_kaboot_with_a_13_bid_scores_26():
    env = table()
    act(env, "bid 13", "pass", "pass", "pass", "trump S")
    play_out(env)
    assert env.game_state.last_deal_score == (26, 0) and env.game_state.scores == [26, 0]
    assert not env.game_state.is_over  # the game goes on to 31
    assert env.game_state.dealer == 0 and env.agent_selection == "player_1"  # the next dealer
    assert list(view(env, "player_2")["score"]) == [26, 0]
    assert list(view(env, "player_1")["score"]) == [0, 26]


def test_a_failed_13_costs_16_and_gives_the_opponents_twice_their_tricks():
    env = table(episode="deal")
    act(env, "bid 13", "pass", "pass", "pass", "trump H")  # player 1 holds every heart
    play_out(env)
    assert env.game_state.tricks_won == [0, 13]
    assert env.game_state.last_deal_score == (-16, 26)
    assert env.rewards["player_0"] == -42 / 26 and env.rewards["player_3"] == 42 / 26


@pytest.mark.parametrize("scoring, expected", [("standard", (0, 20)), ("tricks", (-10, 13))])
def test_a_failed_contract_below_13(scoring, expected):
    env = table(episode="deal", scoring=scoring)
    act(env, "bid 10", "pass", "pass", "pass", "trump H")
    play_out(env)
    assert env.game_state.last_deal_score == expected


def test_a_made_contract_scores_the_tricks_taken():
    env = table(deck=MIXED, episode="deal")
    act(env, "pass", "pass", "pass", "bid 7", "trump D")  # player 3, worthless, declares
    play_out(env)
    taken = env.game_state.tricks_won[1]
    assert sum(env.game_state.tricks_won) == 13
    expected = (0, taken) if taken >= 7 else (7 + 7 - taken, 0)
    assert env.game_state.last_deal_score == expected


def test_doubled_kaboot_and_doubled_failure_egyptian():
    env = table(variant="egyptian", episode="deal")
    act(env, "bid 7 S", "pass", "pass", "pass", "double")
    assert view(env, "player_1")["doubled"][0] == 1
    play_out(env)
    assert env.game_state.last_deal_score == (32, 0)  # doubled kaboot
    env = table(variant="egyptian", episode="deal", double_multiplier=4)
    act(env, "bid 10 H", "pass", "pass", "pass", "double")
    play_out(env)
    assert env.game_state.tricks_won == [0, 13] and env.game_state.last_deal_score == (-40, 40)
    env = table(variant="egyptian", episode="deal")
    act(env, "bid 10 H", "pass", "pass", "pass", "no double")
    play_out(env)
    assert env.game_state.last_deal_score == (-10, 10)


def test_egyptian_without_doubling_goes_straight_to_play():
    env = table(variant="egyptian", allow_double=False)
    act(env, "bid 9 NT", "pass", "pass", "pass")
    assert env.game_state.phase == PLAY and env.game_state.trump == NO_TRUMP and env.agent_selection == "player_0"


def test_the_game_ends_when_a_side_reaches_the_target():
    second = deck_of(*[ONE_SUIT_EACH[p::4] for p in range(4)])  # the same hands again
    env = table(deck=[ONE_SUIT_EACH, second])
    act(env, "bid 13", "pass", "pass", "pass", "trump S")
    play_out(env)
    assert env.game_state.scores == [26, 0] and env.agents
    # deal 2: player 0 deals, player 1 speaks first; player 2 bids and takes every trick
    act(env, "pass", "bid 7", "pass", "pass", "trump D")
    play_out(env)
    assert env.game_state.scores == [42, 0] and env.game_state.is_over and env.game_state.winner == 0
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0, "player_2": 1.0, "player_3": -1.0}
    assert all(env.terminations.values())


def test_a_lower_target_ends_the_game_sooner():
    env = table(target_score=16)
    act(env, "bid 7", "pass", "pass", "pass", "trump S")
    play_out(env)
    assert env.game_state.is_over and env.game_state.winner == 0 and env.game_state.scores == [16, 0]


def test_the_opponents_can_win_on_a_failed_contract():
    env = table(target_score=20)
    act(env, "bid 10", "pass", "pass", "pass", "trump H")
    play_out(env)
    assert env.game_state.scores == [0, 20] and env.game_state.winner == 1
    assert env.rewards["player_1"] == env.rewards["player_3"] == 1.0


def test_max_turns_truncates_with_zero_rewards():
    env = table(max_turns=6)
    act(env, "bid 7", "pass", "pass", "pass", "trump S", "play AS")
    assert env.game_state.is_over and all(env.truncations.values()) and set(env.rewards.values()) == {0.0}


@pytest.mark.parametrize("variant, target, turns", [("lebanese", 31, 3100), ("egyptian", 41, 4100), ("lebanese", 61, 6100)])
def test_max_turns_defaults_to_100_decisions_a_point_so_that_passing_forever_ends(variant, target, turns):
    env = tarneeb_v0.raw_env(variant=variant, target_score=target)
    assert env.game.config.max_turns == turns
    env.reset(seed=1)
    pass_action = env.game.action_names.index("pass")
    decisions = 0
    while not env.game_state.is_over:  # all pass: the same dealer deals again, for ever
        env.step(pass_action)
        decisions += 1
    assert decisions == turns and all(env.truncations.values())


@pytest.mark.parametrize("scores", [(-128, -82), (-82, 0), (0, 250), (1000, -1000), (62, 63)])
def test_match_scores_are_observed_without_loss(scores):
    """CONVENTIONS: every public quantity keeps every value distinct (squashed, not clipped)."""
    env = table()
    env.game_state.scores = list(scores)
    env.view._write_scores()  # what the view writes after every deal
    for p in range(4):
        mine, theirs = (scores if p % 2 == 0 else scores[::-1])
        decoded = view(env, f"player_{p}")
        assert list(decoded["score"]) == [max(mine, 0), max(theirs, 0)]
        assert list(decoded["score_deficit"]) == [max(-mine, 0), max(-theirs, 0)]
        obs = env.observe(f"player_{p}")["observation"]
        assert 0.0 <= obs.min() and obs.max() <= 1.0


# -- weak hands -------------------------------------------------------------------------------


def test_a_worthless_hand_is_thrown_in_and_dealt_again_by_the_same_dealer():
    env = table(deck=[MIXED, ONE_SUIT_EACH], redeal_weak_hands=True)
    assert env.game_state.redeals == 1 and env.game_state.dealer == 3 and env.agent_selection == "player_0"
    assert hand_of(env, 0) == cards("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S")
    assert view(env, "player_0")["hand"][parse_card("AC")] == 0
    kept = table(deck=MIXED)
    assert kept.game_state.redeals == 0 and hand_of(kept, 0) == sorted(parse_card(c) for c in MIXED[0::4])


@pytest.mark.parametrize(
    "hand, weak",
    [
        ("4S 3S 2S 4H 3H 2H 6D 5D 4D 3D 2D 3C 2C", True),
        ("KS 3S 2S 4H 3H 2H 6D 5D 4D 3D 2D 3C 2C", False),  # a king with two more
        ("KS 4H 3H 2H 6D 5D 4D 3D 2D 5C 4C 3C 2C", True),  # a bare king
        ("QS 3S 2S 4H 3H 2H 6D 5D 4D 3D 2D 3C 2C", False),  # a queen in a suit of three
        ("QS 3S 4H 3H 2H 7D 6D 5D 4D 3D 2D 3C 2C", True),  # a queen in a suit of two
        ("JS 4S 3S 2S 4H 3H 2H 6D 5D 4D 3D 3C 2C", False),  # a jack in a suit of four
        ("JS 3S 2S 5H 4H 3H 2H 6D 5D 4D 3D 3C 2C", True),  # a jack in a suit of three
        ("AC 3S 2S 5H 4H 3H 2H 6D 5D 4D 3D 4S 2C", False),  # an ace
    ],
)
def test_worthless_hands(hand, weak):
    assert is_weak_hand(cards(hand)) is weak


# -- several decks ----------------------------------------------------------------------------


def test_a_list_of_decks_deals_them_in_order():
    second = deck_of(*[ONE_SUIT_EACH[p::4] for p in range(4)][1:], ONE_SUIT_EACH[0::4])
    env = table(deck=[ONE_SUIT_EACH, second])
    act(env, "bid 7", "pass", "pass", "pass", "trump S")
    play_out(env)
    assert env.game_state.deals == 1 and hand_of(env, 0) == cards("AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H")
