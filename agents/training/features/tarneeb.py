"""Tarneeb's derived features: what ``rule_based`` works out before it bids or plays a card.

Cards are numbered as in the observation, ``rank * 4 + suit`` (2C 2D 2H 2S 3C … AS), so a
(batch, 52) array reshapes to (batch, rank, suit). Every per-card feature is zero for cards not
in my hand, so that it lines up with the action of playing that card.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

RANKS, SUITS, CARDS = 13, 4, 52
ACE, KING, QUEEN = 12, 11, 10
PLAY_PHASE = 3
PARTNER = 2  # relative seats: 0 me, 1 my left, 2 my partner, 3 my right
_CARD_IDS = np.arange(CARDS, dtype=np.float32)


class CardPlay:
    """Per card in my hand (52 each): it is a trump; it follows the suit led; it is a master
    (no unseen card of its suit is higher); it would win the trick as it stands; it is my lowest
    of its suit; it is my cheapest winner. Per suit (4 each): my length, unseen cards, an opponent
    has shown out, my partner has shown out, my losing-trick count, the tricks the partnership
    may expect with it as trump (the heuristic's estimate), the suit led, the trump. Then: I lead,
    my partner is winning the trick, cards already in the trick, trumps are still out, my side
    holds the contract."""

    FIELDS = ("phase", "hand", "played", "trick", "trick_leader", "contract_strain", "shown_out", "declarer")

    def __init__(self, fields: Mapping[str, slice], scales: Mapping[str, float] | None = None):
        self.sl = {name: fields[name] for name in self.FIELDS}
        self.size = 6 * CARDS + 8 * SUITS + 5

    def __call__(self, x: np.ndarray) -> np.ndarray:
        sl, b = self.sl, x.shape[0]
        hand = x[:, sl["hand"]]
        played = x[:, sl["played"]].reshape(b, 4, CARDS).max(axis=1)
        unseen = np.clip(1.0 - hand - played, 0.0, 1.0)
        trick = x[:, sl["trick"]].reshape(b, 4, CARDS)
        in_trick = trick.sum(axis=1)
        led_card = np.einsum("bs,bsc->bc", x[:, sl["trick_leader"]], trick)
        led = led_card.reshape(b, RANKS, SUITS).sum(axis=1)
        playing = x[:, sl["phase"]][:, PLAY_PHASE : PLAY_PHASE + 1]
        trump = x[:, sl["contract_strain"]][:, :SUITS] * playing  # zeros without trumps
        is_trump, follows = np.tile(trump, RANKS), np.tile(led, RANKS)

        # masters: no unseen card of the same suit above
        u = unseen.reshape(b, RANKS, SUITS)
        above = np.cumsum(u[:, ::-1], axis=1)[:, ::-1] - u
        master = (above.reshape(b, CARDS) < 0.5) * hand
        # the trick as it stands: larger key wins (a trump, else the suit led by rank)
        key = np.where(is_trump > 0, 100.0 + _CARD_IDS, np.where(follows > 0, _CARD_IDS, -1.0))
        started = in_trick.sum(axis=1, keepdims=True) > 0
        best = np.where(in_trick > 0, key, -2.0).max(axis=1, keepdims=True)
        wins = (key > best) * hand * started
        partner_winning = (trick[:, PARTNER] * (key == best)).sum(axis=1, keepdims=True)
        cheapest_key = np.where(wins > 0, key, 1e3).min(axis=1, keepdims=True)
        cheapest_winner = wins * (key == cheapest_key)
        h = hand.reshape(b, RANKS, SUITS)
        lowest = (h * ((np.cumsum(h, axis=1) - h) < 0.5)).reshape(b, CARDS)

        # per suit, the heuristic's bidding arithmetic
        length = h.sum(axis=1)
        top = [length >= n for n in (1, 2, 3)]
        losers = sum(top) - h[:, ACE] * top[0] - h[:, KING] * top[1] - h[:, QUEEN] * top[2]
        estimate = 15.0 - losers.sum(axis=1, keepdims=True) + 0.5 * np.maximum(length - 5, 0) - (length < 4)
        shown = x[:, sl["shown_out"]].reshape(b, 4, SUITS)
        declarer = x[:, sl["declarer"]]
        return np.concatenate(
            [
                is_trump * hand, follows * hand, master, wins, lowest, cheapest_winner,
                length / RANKS, u.sum(axis=1) / RANKS, np.maximum(shown[:, 1], shown[:, 3]), shown[:, PARTNER],
                losers / 3, np.clip(estimate, 0, RANKS) / RANKS, led, trump,
                playing * ~started, partner_winning, in_trick.sum(axis=1, keepdims=True) / 3,
                (u * trump[:, None, :]).sum(axis=(1, 2))[:, None] > 0, declarer[:, [0]] + declarer[:, [PARTNER]],
            ],
            axis=1,
        )
