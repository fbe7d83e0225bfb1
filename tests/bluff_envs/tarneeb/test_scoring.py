"""Deal scores: every row and worked example of docs/rules.md §4.6 and the Egyptian section."""

import pytest

from bluff_envs.tarneeb.scoring import egyptian_score, game_winner, lebanese_score


@pytest.mark.parametrize(
    "bid, taken, expected",
    [
        (7, 7, (7, 0)),  # made: + taken
        (9, 11, (11, 0)),  # overtricks count
        (12, 12, (12, 0)),
        (10, 13, (16, 0)),  # kaboot without bidding 13
        (7, 13, (16, 0)),
        (13, 13, (26, 0)),  # bid 13 and made it
        (10, 7, (0, 13)),  # worked example: failed, opponents + bid + (bid - taken)
        (8, 7, (0, 9)),
        (12, 0, (0, 24)),
        (13, 10, (-16, 6)),  # worked example: bid 13 failed, opponents + 2 x (13 - taken)
        (13, 12, (-16, 2)),
        (13, 0, (-16, 26)),
    ],
)
def test_lebanese_table(bid, taken, expected):
    assert lebanese_score(bid, taken) == expected


@pytest.mark.parametrize(
    "bid, taken, expected",
    [
        (10, 7, (-10, 6)),  # failed: - bid, opponents the tricks they took
        (7, 0, (-7, 13)),
        (9, 9, (9, 0)),  # "the rest is the same"
        (9, 13, (16, 0)),
        (13, 13, (26, 0)),
        (13, 10, (-16, 6)),
    ],
)
def test_lebanese_tricks_table(bid, taken, expected):
    assert lebanese_score(bid, taken, "tricks") == expected


@pytest.mark.parametrize(
    "bid, taken, multiplier, expected",
    [
        (9, 10, 1, (10, 0)),  # made: + taken
        (8, 13, 1, (16, 0)),  # kaboot
        (13, 13, 1, (26, 0)),  # bid 13 made
        (8, 13, 2, (32, 0)),  # doubled kaboot 32
        (13, 13, 2, (52, 0)),
        (10, 8, 1, (-10, 2)),  # failed: - bid, opponents + (bid - taken)
        (10, 8, 2, (-20, 4)),  # worked example: 10 spades doubled, taken 8
        (10, 8, 4, (-40, 8)),  # double_multiplier = 4
        (13, 10, 1, (-16, 6)),  # bid 13 failed
        (13, 10, 2, (-32, 12)),
        (7, 9, 2, (18, 0)),
    ],
)
def test_egyptian_table(bid, taken, multiplier, expected):
    assert egyptian_score(bid, taken, multiplier) == expected


@pytest.mark.parametrize(
    "scores, target, winner",
    [
        ((26, 0), 31, None),
        ((31, 0), 31, 0),  # reaching the target is enough
        ((-16, 42), 31, 1),
        ((35, 32), 31, 0),  # both over it: the higher total wins
        ((32, 35), 31, 1),
        ((33, 33), 31, None),  # both over it and equal: play goes on
        ((30, 30), 31, None),
    ],
)
def test_game_winner_and_the_tie_rule(scores, target, winner):
    assert game_winner(scores, target) == winner


@pytest.mark.parametrize("bid, taken", [(6, 3), (14, 13), (7, -1), (7, 14)])
def test_impossible_contracts_are_rejected(bid, taken):
    with pytest.raises(ValueError):
        lebanese_score(bid, taken)
    with pytest.raises(ValueError):
        egyptian_score(bid, taken)


def test_unknown_scoring_is_rejected():
    with pytest.raises(ValueError, match="scoring"):
        lebanese_score(9, 9, "bonus")
