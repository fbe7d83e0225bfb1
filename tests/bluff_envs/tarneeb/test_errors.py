"""Clear ValueErrors for bad options, bad decks and illegal actions; nothing silently clamped."""

import pytest

from bluff_envs import tarneeb_v0
from bluff_envs.tarneeb.config import TarneebConfig
from tests.helpers import act


@pytest.mark.parametrize(
    "options, message",
    [
        ({"players": 4}, "unknown option"),
        ({"variant": "syrian"}, "variant"),
        ({"bidding": "auction"}, "bidding"),
        ({"all_pass": "dealer_bids_8"}, "all_pass"),
        ({"allow_no_trump": 1}, "allow_no_trump"),
        ({"first_lead_trump": "yes"}, "first_lead_trump"),
        ({"scoring": "bonus"}, "scoring"),
        ({"target_score": 0}, "target_score"),
        ({"target_score": 501}, "target_score"),
        ({"target_score": 31.0}, "target_score"),
        ({"episode": "hand"}, "episode"),
        ({"redeal_weak_hands": None}, "redeal_weak_hands"),
        ({"max_turns": 0}, "max_turns"),
        ({"variant": "egyptian", "double_multiplier": 5}, "double_multiplier"),
        ({"variant": "egyptian", "allow_double": "no"}, "allow_double"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        tarneeb_v0.raw_env(**options)


@pytest.mark.parametrize("option, value", [("bidding", "single_round"), ("allow_no_trump", True), ("scoring", "tricks")])
def test_lebanese_options_are_errors_in_the_egyptian_game(option, value):
    with pytest.raises(ValueError, match=f"{option} belong to variant='lebanese' only"):
        tarneeb_v0.raw_env(variant="egyptian", **{option: value})


@pytest.mark.parametrize("option, value", [("allow_double", False), ("double_multiplier", 4)])
def test_egyptian_options_are_errors_in_the_lebanese_game(option, value):
    with pytest.raises(ValueError, match=f"{option} belong to variant='egyptian' only"):
        tarneeb_v0.raw_env(**{option: value})


def test_defaults_follow_the_variant():
    assert TarneebConfig.from_options().target_score == 31
    egyptian = TarneebConfig.from_options(variant="egyptian")
    assert egyptian.target_score == 41 and egyptian.allow_double and egyptian.double_multiplier == 2


def _deck():
    return [f"{r}{s}" for s in "SHDC" for r in ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]]


@pytest.mark.parametrize(
    "deck, message",
    [
        (_deck()[:51], "51 cards"),
        (_deck()[:51] + ["AS"], "too many copies of AS"),
        (_deck()[:51] + ["1X"], "malformed card"),
        ("AS KS", "list of card strings"),
        ([_deck(), _deck()[:50]], "deck 1 of reset option 'deck'"),
    ],
)
def test_bad_decks(deck, message):
    env = tarneeb_v0.raw_env()
    with pytest.raises(ValueError, match=message):
        env.reset(options={"deck": deck})


def test_bad_reset_options():
    env = tarneeb_v0.raw_env()
    with pytest.raises(ValueError, match="reset options must be a dict"):
        env.reset(options=["AS"])


@pytest.mark.parametrize(
    "setup, action",
    [
        ((), "bid 7 S"),  # an Egyptian bid in the Lebanese game
        ((), "play AS"),  # no card before the bidding is over
        (("bid 9",), "bid 8"),  # not higher than the last bid
        (("bid 9",), "bid 9"),
        (("bid 7", "pass", "pass", "pass"), "trump NT"),  # no trump not allowed by default
        (("bid 7", "pass", "pass", "pass"), "double"),  # no doubling in the Lebanese game
        (("bid 7", "pass", "pass", "pass", "trump S"), "play AH"),  # player 0 holds only spades
        (("bid 7", "pass", "pass", "pass", "trump S", "play AS"), "play KS"),  # not player 1's card
        (("bid 7", "pass", "pass", "pass", "trump S", "play AS"), "pass"),
    ],
)
def test_illegal_actions(setup, action):
    env = tarneeb_v0.raw_env()
    env.reset(options={"deck": [c for i in range(13) for c in (_deck()[i], _deck()[13 + i], _deck()[26 + i], _deck()[39 + i])]})
    act(env, *setup)
    with pytest.raises(ValueError, match="illegal action .* legal actions now"):
        act(env, action)


@pytest.mark.parametrize(
    "action, error, message",
    [
        (-1, ValueError, "illegal action"),
        (102, ValueError, "illegal action"),
        (None, ValueError, "illegal action"),
        # not integers at all: a type error (CONVENTIONS.md), never read as an action id
        (3.5, TypeError, "not an action id"),
        ("bid 7", TypeError, "not an action id"),
    ],
)
def test_actions_that_are_not_actions(action, error, message):
    env = tarneeb_v0.raw_env()
    env.reset(seed=0)
    with pytest.raises(error, match=message):
        env.step(action)


def test_not_following_suit_is_illegal():
    env = tarneeb_v0.raw_env()
    env.reset(options={"deck": _deck()})  # dealt in turn: everybody holds some of every suit
    act(env, "bid 7", "pass", "pass", "pass", "trump H", "play AS")
    assert env.game_state.hand_suits[1][3]  # player 1 holds spades ...
    with pytest.raises(ValueError, match="illegal action .* legal actions now: 65 .play 5S., 81 .play 9S., 97 .play KS."):
        act(env, "play AH")  # ... so he may not trump
    act(env, "play 5S")
