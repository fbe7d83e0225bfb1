"""Cards, decks and dealing, shared by every game."""

import numpy as np
import pytest

from bluff_envs.cards import DeckSpec, card_str, deal, make_card, parse_card, rank_index, rank_of, suit_of


def test_a_card_is_rank_times_four_plus_suit_and_reads_rank_then_suit():
    assert make_card(rank_index("10"), 2) == parse_card("10H") == 8 * 4 + 2
    assert (rank_of(parse_card("AS")), suit_of(parse_card("AS"))) == (12, 3)
    assert [card_str(parse_card(c)) for c in ("2C", "10h", "qd", "AS")] == ["2C", "10H", "QD", "AS"]


@pytest.mark.parametrize("text", ["", "A", "1S", "AX", "11H", None, 12])
def test_malformed_cards_are_refused(text):
    with pytest.raises(ValueError, match="malformed card"):
        parse_card(text)


def test_unknown_rank():
    with pytest.raises(ValueError, match="unknown rank 'Z'; ranks are 2, 3"):
        rank_index("Z")


def test_a_36_card_deck_holds_six_to_ace_and_copies_repeat_with_more_decks():
    short = DeckSpec(lowest_rank=4)
    assert short.size == 36 and min(map(rank_of, short.cards())) == 4
    double = DeckSpec(num_decks=2)
    assert double.size == 104 and double.cards().count(parse_card("AS")) == 2
    assert short.describe() == "1 x 36-card deck" and double.describe() == "2 x 52-card decks"


def test_shuffling_is_reproducible_from_the_generator():
    deck = DeckSpec()
    a, b = deck.shuffled(np.random.default_rng(5)), deck.shuffled(np.random.default_rng(5))
    assert a == b and sorted(a) == sorted(deck.cards()) and a != deck.cards()


@pytest.mark.parametrize(
    "cards, words",
    [
        ("AS KH", "must be a list"),
        (["AS"], "has 1 cards; this game uses 36"),
        (["2C"] + [card_str(c) for c in DeckSpec(lowest_rank=4).cards()][1:], "holds 2C, not in 1 x 36-card deck"),
        (["AS"] * 36, "too many copies of AS"),
    ],
)
def test_a_given_deck_is_checked(cards, words):
    with pytest.raises(ValueError, match=words):
        DeckSpec(lowest_rank=4).parse(cards)


def test_dealing_goes_one_card_at_a_time_from_player_0():
    assert deal(list(range(7)), 3) == [[0, 3, 6], [1, 4], [2, 5]]
