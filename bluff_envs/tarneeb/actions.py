"""The actions and phases of Tarneeb: one table for both variants, and the bid ladder.

The action table is documented in ``bluff_envs/tarneeb_v0.py``. A bid *level* orders the bids
of one variant, 0 the lowest: Lebanese bids name tricks only (7 levels, 7 … 13), Egyptian bids
tricks and strain in ladder order (35 levels, 7 C, 7 D, 7 H, 7 S, 7 NT, 8 C, … 13 NT).
"""

from __future__ import annotations

from bluff_envs.cards import SUITS, card_str

NO_TRUMP = 4  # the fifth strain
STRAINS = (*SUITS, "NT")  # clubs < diamonds < hearts < spades < no trump
MIN_BID, MAX_BID = 7, 13
LEBANESE_LEVELS = MAX_BID - MIN_BID + 1
EGYPTIAN_LEVELS = LEBANESE_LEVELS * len(STRAINS)

PASS = 0
LEBANESE_BID0 = 1  # bid 7 … bid 13
EGYPTIAN_BID0 = 8  # bid 7 C … bid 13 NT, in the order of the strain ladder
TRUMP0 = 43  # trump C, D, H, S, NT
DOUBLE, NO_DOUBLE = 48, 49
CARD0 = 50  # play <card>, card id = rank * 4 + suit
NUM_ACTIONS = CARD0 + 52
ACTION_NAMES = (
    ("pass",)
    + tuple(f"bid {t}" for t in range(MIN_BID, MAX_BID + 1))
    + tuple(f"bid {t} {s}" for t in range(MIN_BID, MAX_BID + 1) for s in STRAINS)
    + tuple(f"trump {s}" for s in STRAINS)
    + ("double", "no double")
    + tuple(f"play {card_str(c)}" for c in range(52))
)
assert len(ACTION_NAMES) == NUM_ACTIONS
assert ACTION_NAMES[EGYPTIAN_BID0 - 1] == "bid 13" and ACTION_NAMES[TRUMP0 - 1] == "bid 13 NT"

DOUBLE_OR_NOT = (DOUBLE, NO_DOUBLE)  # one object, so the adapter can reuse its mask

# Phases: whose decision it is (the one-hot "phase" of the observation).
BIDDING, TRUMP, DOUBLING, PLAY = 0, 1, 2, 3
PHASE_NAMES = ("bidding", "trump", "double", "play")


def first_bid(egyptian: bool) -> int:
    """The action of the lowest bid (level 0) of a variant."""
    return EGYPTIAN_BID0 if egyptian else LEBANESE_BID0


def num_levels(egyptian: bool) -> int:
    """How many bids a variant has."""
    return EGYPTIAN_LEVELS if egyptian else LEBANESE_LEVELS


def bid_tricks(level: int, egyptian: bool) -> int:
    """The tricks (7 … 13) a bid of ``level`` contracts for."""
    return MIN_BID + (level // len(STRAINS) if egyptian else level)


def bid_strain(level: int, egyptian: bool) -> int | None:
    """The strain (a suit or ``NO_TRUMP``) an Egyptian bid names; ``None`` for a Lebanese one."""
    return level % len(STRAINS) if egyptian else None
