"""Tarneeb's derived features: what ``rule_based`` works out before it bids or plays a card.

Cards are numbered as in the observation, ``rank * 4 + suit`` (2C 2D 2H 2S 3C … AS), so a
(batch, 52) array reshapes to (batch, rank, suit). Every per-card feature is zero for cards not
in my hand, so that it lines up with the action of playing that card.

Frozen opponents ask for these features a few rows at a time, thousands of times per rollout,
so :meth:`CardPlay.__call__` runs the numba kernel :func:`_card_play_rows` (row by row, no
per-call numpy overhead); :meth:`CardPlay.reference` is the same computation in batched numpy,
the readable specification the kernel is tested against
(tests/agents/training/test_feature_kernels.py).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba import njit

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
        self._starts = np.array([fields[name].start for name in self.FIELDS], np.int64)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x, np.float32)
        out = np.empty((x.shape[0], self.size), np.float64)
        _card_play_rows(x, self._starts, out)
        return out

    def reference(self, x: np.ndarray) -> np.ndarray:
        """:meth:`__call__` in batched numpy: the specification of the kernel."""
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


_F32 = np.float32
# where CardPlay's features begin: six per-card blocks, eight per-suit blocks, then five single ones
_IS_TRUMP, _FOLLOWS, _MASTER, _WINS, _LOWEST, _CHEAPEST_WINNER = (k * CARDS for k in range(6))
_LENGTH, _UNSEEN, _OPPONENT_OUT, _PARTNER_OUT, _LOSERS, _ESTIMATE, _LED, _TRUMP = (
    6 * CARDS + k * SUITS for k in range(8))
_I_LEAD, _PARTNER_WINNING, _IN_TRICK, _TRUMPS_OUT, _OUR_CONTRACT = (6 * CARDS + 8 * SUITS + k for k in range(5))


@njit(cache=True)
def _one(flag):
    """A bool as the reference's arithmetic sees it: float32 1 or 0."""
    return _F32(1.0) if flag else _F32(0.0)


@njit(cache=True)
def _card_play_rows(x, starts, out):
    """:meth:`CardPlay.reference` one row at a time, in the same float32 / float64 operations.

    ``starts``: where the fields of ``CardPlay.FIELDS`` begin. The reference is float32
    throughout except the losing-trick count and the tricks expected (float64: an int count
    less float32 cards), so those two are float64 here and everything else has float32 operands.
    The cumulative sums up or down the ranks run in the reference's order; the other sums are
    of whole numbers, exact in any order."""
    phase, hand, played, trick, leader, strain, shown, declarer = (
        starts[0], starts[1], starts[2], starts[3], starts[4], starts[5], starts[6], starts[7])
    unseen = np.empty(CARDS, np.float32)
    in_trick = np.empty(CARDS, np.float32)
    key = np.empty(CARDS, np.float32)
    wins = np.empty(CARDS, np.float32)
    trump = np.empty(SUITS, np.float32)
    led = np.empty(SUITS, np.float32)
    losers = np.empty(SUITS, np.float64)
    length = np.empty(SUITS, np.float32)
    for i in range(x.shape[0]):
        row, o = x[i], out[i]
        playing = row[phase + PLAY_PHASE]
        for s in range(SUITS):
            trump[s] = row[strain + s] * playing  # zeros without trumps
            led[s] = _F32(0.0)
        cards_in_trick = _F32(0.0)
        for c in range(CARDS):
            seen = row[played + c]
            total = row[trick + c]
            led_card = row[leader] * row[trick + c]
            for seat in range(1, 4):
                seen = max(seen, row[played + seat * CARDS + c])
                total += row[trick + seat * CARDS + c]
                led_card += row[leader + seat] * row[trick + seat * CARDS + c]
            unseen[c] = min(max(_F32(1.0) - row[hand + c] - seen, _F32(0.0)), _F32(1.0))
            in_trick[c] = total
            cards_in_trick += total
            led[c % SUITS] += led_card

        # the trick as it stands: larger key wins (a trump, else the suit led by rank)
        best = _F32(-2.0)
        for c in range(CARDS):
            if trump[c % SUITS] > 0:
                key[c] = _F32(100.0) + _F32(c)
            elif led[c % SUITS] > 0:
                key[c] = _F32(c)
            else:
                key[c] = _F32(-1.0)
            if in_trick[c] > 0:
                best = max(best, key[c])
        started = cards_in_trick > 0
        partner_winning = _F32(0.0)
        cheapest_key = _F32(1e3)
        for c in range(CARDS):
            mine = row[hand + c]
            o[_IS_TRUMP + c] = trump[c % SUITS] * mine
            o[_FOLLOWS + c] = led[c % SUITS] * mine
            wins[c] = _one(key[c] > best) * mine * _one(started)
            o[_WINS + c] = wins[c]
            partner_winning += row[trick + PARTNER * CARDS + c] * _one(key[c] == best)
            if wins[c] > 0:
                cheapest_key = min(cheapest_key, key[c])
        for c in range(CARDS):
            o[_CHEAPEST_WINNER + c] = wins[c] * _one(key[c] == cheapest_key)

        trumps_out = _F32(0.0)
        for s in range(SUITS):
            # masters: no unseen card of the suit above
            above = _F32(0.0)
            for r in range(RANKS - 1, -1, -1):
                c = r * SUITS + s
                above += unseen[c]
                o[_MASTER + c] = _one(above - unseen[c] < 0.5) * row[hand + c]
            held = _F32(0.0)
            unseen_in_suit = _F32(0.0)
            for r in range(RANKS):
                c = r * SUITS + s
                held += row[hand + c]
                o[_LOWEST + c] = row[hand + c] * _one(held - row[hand + c] < 0.5)
                unseen_in_suit += unseen[c]
                trumps_out += unseen[c] * trump[s]
            length[s] = held
            # losing tricks: an int count of the top cards less the float32 honours held, so float64
            top = (held >= 1) + (held >= 2) + (held >= 3)
            losers[s] = (np.float64(top) - np.float64(row[hand + ACE * SUITS + s] * _one(held >= 1))
                         - np.float64(row[hand + KING * SUITS + s] * _one(held >= 2))
                         - np.float64(row[hand + QUEEN * SUITS + s] * _one(held >= 3)))
            o[_LENGTH + s] = held / _F32(RANKS)
            o[_UNSEEN + s] = unseen_in_suit / _F32(RANKS)
            o[_OPPONENT_OUT + s] = max(row[shown + SUITS + s], row[shown + 3 * SUITS + s])
            o[_PARTNER_OUT + s] = row[shown + PARTNER * SUITS + s]
            o[_LOSERS + s] = losers[s] / 3
            o[_LED + s] = led[s]
            o[_TRUMP + s] = trump[s]
        all_losers = 0.0
        for s in range(SUITS):
            all_losers += losers[s]
        for s in range(SUITS):
            long_suit = _F32(0.5) * max(length[s] - _F32(5.0), _F32(0.0))
            estimate = 15.0 - all_losers + np.float64(long_suit) - (1.0 if length[s] < 4 else 0.0)
            o[_ESTIMATE + s] = min(max(estimate, 0.0), float(RANKS)) / RANKS
        o[_I_LEAD] = playing * _one(not started)
        o[_PARTNER_WINNING] = partner_winning
        o[_IN_TRICK] = cards_in_trick / _F32(3.0)
        o[_TRUMPS_OUT] = 1.0 if trumps_out > 0 else 0.0
        o[_OUR_CONTRACT] = row[declarer] + row[declarer + PARTNER]
