"""The play builder shared by I Doubt It and Believe It or Not: "add r" … "done", ranks in the
canonical order 2 … A, "done" only once a card is chosen, nothing past the cap."""

from bluff_envs.cards import NUM_RANKS, card_str, parse_card, rank_index
from bluff_envs.play_builder import PlayBuilder

ADD0, DONE = 100, 200  # any ids: the builder only offsets ranks and names "done"


def hand_of(*cards: str) -> list[list[int]]:
    hand = [[] for _ in range(NUM_RANKS)]
    for card in cards:
        c = parse_card(card)
        hand[c >> 2].append(c)
    return hand


def adds(*ranks: str) -> list[int]:
    return [ADD0 + rank_index(r) for r in ranks]


CALLS = (DONE + 1, DONE + 2)


def builder(*hands, cap: int = 4, ranks=range(NUM_RANKS)) -> PlayBuilder:
    return PlayBuilder(list(hands), ranks=ranks, cap=cap, add0=ADD0, done=DONE, then=CALLS)


def hand() -> list[list[int]]:
    return hand_of("2C", "5C", "5D", "5H", "9S", "KC", "KD")


def test_a_play_starts_with_any_rank_held_and_done_only_after_a_card():
    b = builder(hand())
    assert list(b.legal(0)) == adds("2", "5", "9", "K")
    b.add(rank_index("9"))
    assert list(b.legal(0)) == adds("K") + [DONE]


def test_ranks_are_added_in_canonical_order_the_last_one_while_he_has_more():
    b = builder(hand())
    b.add(rank_index("5"))
    assert list(b.legal(0)) == adds("5", "9", "K") + [DONE]  # never a 2 after a 5
    b.add(rank_index("5"))
    b.add(rank_index("5"))
    assert list(b.legal(0)) == adds("9", "K") + [DONE]  # no fourth 5
    assert b.chosen[rank_index("5")] == 3 and b.count == 3


def test_at_the_cap_only_done():
    b = builder(hand(), cap=2)
    b.add(rank_index("K"))
    assert list(b.legal(0)) == adds("K") + [DONE]
    b.add(rank_index("K"))
    assert b.legal(0) == (DONE,)


def test_done_takes_the_last_cards_of_each_rank_ranks_ascending_and_starts_afresh():
    mine = hand()
    b = builder(mine)
    for rank in ("2", "5", "5", "K"):
        b.add(rank_index(rank))
    cards, counts = b.take(0)
    assert [card_str(c) for c in cards] == ["2C", "5D", "5H", "KD"]
    assert counts[rank_index("5")] == 2 and sum(counts) == 4
    assert [card_str(c) for held in mine for c in held] == ["5C", "9S", "KC"]
    assert b.count == 0 and not any(b.chosen) and b.added == []
    assert list(b.legal(0)) == adds("5", "9", "K")  # his new hand, and no "done" again


def test_only_the_ranks_of_the_deck_are_offered():
    b = builder(hand_of("2C"), hand_of("6C", "AS"), ranks=range(4, NUM_RANKS))
    assert list(b.legal(1)) == adds("6", "A")


def test_an_opening_offers_the_other_choices_after_the_adds():
    b = builder(hand(), hand_of())
    assert list(b.opening(0)) == adds("2", "5", "9", "K") + list(CALLS)
    assert b.opening(1) == CALLS  # an empty hand can only call


def test_the_same_situation_gives_the_same_tuple_until_the_hand_changes():
    mine = hand_of("2C", "5C", "5D")
    b = builder(mine)
    first, opening = b.legal(0), b.opening(0)
    assert b.legal(0) is first and b.opening(0) is opening
    b.add(rank_index("5"))
    after = b.legal(0)
    assert b.legal(0) is after
    mine[rank_index("9")].append(parse_card("9H"))  # he took a pile
    b.hand_changed(0)
    assert list(b.legal(0)) == adds("5", "9") + [DONE]
    assert list(b.opening(0)) == adds("2", "5", "9") + list(CALLS)


def test_each_player_has_his_own_hand_and_cache():
    b = builder(hand_of("2C"), hand_of("AS"))
    assert list(b.legal(0)) == adds("2")
    assert list(b.legal(1)) == adds("A")
