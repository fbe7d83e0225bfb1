"""Cards, decks and dealing, shared by every game.

A card is an ``int``: ``rank * 4 + suit`` with ranks ``0..12`` for 2..A and suits ``0..3`` for
clubs, diamonds, hearts, spades. With several decks shuffled together the same card id occurs
several times; copies are indistinguishable, as at a real table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
NUM_RANKS = 13
NUM_SUITS = 4
SPADES = 3

_RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


def rank_of(card: int) -> int:
    return card >> 2


def suit_of(card: int) -> int:
    return card & 3


def make_card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def card_str(card: int) -> str:
    """``"10H"``, ``"AS"``: rank then suit."""
    return RANKS[card >> 2] + SUITS[card & 3]


def rank_index(name: str) -> int:
    """Rank index of ``"2"`` … ``"A"``; ``ValueError`` for anything else."""
    try:
        return _RANK_INDEX[str(name).upper()]
    except KeyError:
        raise ValueError(f"unknown rank {name!r}; ranks are {', '.join(RANKS)}") from None


def parse_card(text: str) -> int:
    """Parse ``"AS"``, ``"10h"``, ``"QD"`` into a card id."""
    if not isinstance(text, str) or len(text) < 2:
        raise ValueError(f"malformed card {text!r}: expected rank then suit, e.g. 'AS', '10H'")
    rank, suit = text[:-1].upper(), text[-1].upper()
    if rank not in _RANK_INDEX or suit not in _SUIT_INDEX:
        raise ValueError(
            f"malformed card {text!r}: ranks are {', '.join(RANKS)}, suits are {', '.join(SUITS)}"
        )
    return make_card(_RANK_INDEX[rank], _SUIT_INDEX[suit])


@dataclass(frozen=True)
class DeckSpec:
    """Which cards a game is played with: the lowest rank used and how many decks."""

    lowest_rank: int = 0  # 0 for a 52-card deck, 4 ("6") for a 36-card deck
    num_decks: int = 1

    @property
    def ranks(self) -> range:
        return range(self.lowest_rank, NUM_RANKS)

    @property
    def size(self) -> int:
        return len(self.ranks) * NUM_SUITS * self.num_decks

    def cards(self) -> list[int]:
        """Every card of the deck in a fixed order (the order before shuffling)."""
        one = [make_card(r, s) for r in self.ranks for s in range(NUM_SUITS)]
        return one * self.num_decks

    def shuffled(self, rng: np.random.Generator) -> list[int]:
        cards = self.cards()
        return [cards[i] for i in rng.permutation(len(cards))]

    def parse(self, deck: Sequence[str]) -> list[int]:
        """Validate a whole deck given as card strings, top card first."""
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
            raise ValueError("reset option 'deck' must be a list of card strings such as ['AS', '10H', …]")
        if len(deck) != self.size:
            raise ValueError(
                f"reset option 'deck' has {len(deck)} cards; this game uses {self.size} "
                f"({self.describe()})"
            )
        cards = [parse_card(c) for c in deck]
        low = [card_str(c) for c in cards if rank_of(c) < self.lowest_rank]
        if low:
            raise ValueError(
                f"reset option 'deck' holds {', '.join(sorted(set(low)))}, not in {self.describe()}"
            )
        extra = [card_str(c) for c, k in Counter(cards).items() if k > self.num_decks]
        if extra:
            raise ValueError(
                f"reset option 'deck' holds too many copies of {', '.join(sorted(extra))}: each card "
                f"occurs {self.num_decks} time(s) in {self.describe()}"
            )
        return cards

    def describe(self) -> str:
        size = len(self.ranks) * NUM_SUITS
        return f"{self.num_decks} x {size}-card deck" + ("s" if self.num_decks > 1 else "")


def counts_text(counts) -> str:
    """Cards counted by rank, as read aloud: ``"2 x K, 1 x 7"`` (``"nothing"`` for none)."""
    return ", ".join(f"{k} x {RANKS[r]}" for r, k in enumerate(counts) if k) or "nothing"


def deal(cards: Sequence[int], num_players: int) -> list[list[int]]:
    """Deal every card, one at a time, starting with player 0."""
    return [list(cards[p::num_players]) for p in range(num_players)]
