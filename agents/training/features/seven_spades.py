"""Seven Spades' derived features: what the heuristics work out before they claim or challenge.

A claim is impossible when every spade is accounted for (seen face up, in my row, in my hand),
and ``counter`` weighs the rest by the unplaced cards, the claims standing in the other rows and
how the recently challenged claims turned out; its thresholds move when the claimer, or I,
would reach target−1. An MLP reading the 52-card fields approximates those sums; these
features hand it the counts and the probability (:class:`~agents.heuristics.seven_spades.Table`).

Frozen opponents ask for these features a few rows at a time, thousands of times per rollout,
so :meth:`Doubt.__call__` runs the numba kernel :func:`_doubt_rows` (row by row, no per-call
numpy overhead); :meth:`Doubt.reference` is the same computation in batched numpy, the readable
specification the kernel is tested against (tests/agents/training/test_feature_kernels.py).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba import njit

SPADE_IDS = np.arange(3, 52, 4)  # cards are rank * 4 + suit; spades are suit 3
WINDOW = 1  # phase one-hot: turn, challenge window
BLUFF_RATE, STANDING_SPADES, WEIGHT = 0.35, 0.7, 3.0  # Table.claim_false_probability


class Doubt:
    """In a challenge window: I may challenge; the claim is impossible; the probability that it
    is false by ``counter``'s rule (1 when impossible); it brings the claimer to target−1. At
    any time: unplaced spades and cards (shares of the deck's); my row is at target−1; an
    opponent is at target−1 with a longer row than mine; my drawn card is a spade; the share of
    recent claims that were challenged (half a pseudo-claim each way); every recent window let
    its claim stand; more than two players are in."""

    FIELDS = ("drawn", "my_row", "phase", "claimer", "row_lengths", "face_up_spades", "in_game", "seen", "history")
    size = 11

    def __init__(self, fields: Mapping[str, slice], scales: Mapping[str, float]):
        self.sl = {name: fields[name] for name in self.FIELDS}
        self.n = fields["in_game"].stop - fields["in_game"].start
        self.target = int(round(scales["row_lengths"]))
        self.decks = int(round(scales["stock"] / 52))
        self._starts = np.array([fields[name].start for name in self.FIELDS], np.int64)
        self._windows = (fields["history"].stop - fields["history"].start) // (3 * self.n + 2)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x, np.float32)
        out = np.empty((x.shape[0], self.size), np.float64)
        _doubt_rows(x, self._starts, self.n, self.target, self.decks, self._windows, out)
        return out

    def reference(self, x: np.ndarray) -> np.ndarray:
        """:meth:`__call__` in batched numpy: the specification of the kernel."""
        sl, n, b = self.sl, self.n, x.shape[0]
        window = x[:, sl["phase"]][:, WINDOW]
        known = (x[:, sl["seen"]] + x[:, sl["my_row"]]) * self.decks + x[:, sl["drawn"]]  # counts per card
        cards = 52 * self.decks - np.rint(known.sum(axis=1))
        spades = 13 * self.decks - np.rint(known[:, SPADE_IDS].sum(axis=1))
        impossible = spades == 0
        rows = np.rint(x[:, sl["row_lengths"]] * self.target)
        face_up = np.rint(x[:, sl["face_up_spades"]] * self.target)
        standing = np.maximum((rows[:, 1:] - face_up[:, 1:]).sum(axis=1) - window, 0)
        p = np.minimum(np.maximum(spades - STANDING_SPADES * standing, 0.5) / np.maximum(cards - standing, 1), 1.0)
        estimate = (1 - p) * BLUFF_RATE / ((1 - p) * BLUFF_RATE + p)
        history = x[:, sl["history"]].reshape(b, -1, 3 * n + 2)
        true_claims, false_claims = history[:, :, 3 * n].sum(axis=1), history[:, :, 3 * n + 1].sum(axis=1)
        false = np.where(impossible, 1.0, (WEIGHT * estimate + false_claims) / (WEIGHT + true_claims + false_claims))
        claimer = x[:, sl["claimer"]]
        closing = (rows * claimer).sum(axis=1) >= self.target - 1
        in_game = x[:, sl["in_game"]] > 0.5
        best = np.where(in_game[:, 1:], rows[:, 1:], 0).max(axis=1)
        windows = history[:, :, :n].sum(axis=2) > 0
        challenged = (windows & (history[:, :, n : 2 * n].sum(axis=2) > 0)).sum(axis=1)
        windows = windows.sum(axis=1)
        more = in_game.sum(axis=1) > 2
        share = np.where(more, (challenged + 0.5) / (windows + 1.0), 0.5)
        drawn_spade = x[:, sl["drawn"]][:, SPADE_IDS].sum(axis=1) > 0
        return np.stack(
            [window, window * impossible, window * false, window * closing,
             spades / (13 * self.decks), cards / (52 * self.decks), rows[:, 0] >= self.target - 1,
             (best >= self.target - 1) & (rows[:, 0] < best), drawn_spade, share,
             (windows == history.shape[1]) & (challenged == 0)],
            axis=1,
        )


_F32 = np.float32


@njit(cache=True)
def _doubt_rows(x, starts, n, target, decks, windows, out):
    """:meth:`Doubt.reference` one row at a time, in the same float32 / float64 operations.

    ``starts``: where the fields of ``Doubt.FIELDS`` begin; ``windows`` the recent challenge
    windows the history keeps. The reference's arithmetic is float32 throughout except the
    challenged share (float64), so every step here has float32 operands."""
    drawn, my_row, phase, claimer, row_lengths, face_up_spades, in_game, seen, history = (
        starts[0], starts[1], starts[2], starts[3], starts[4], starts[5], starts[6], starts[7], starts[8])
    width = 3 * n + 2
    goal = target - 1
    for i in range(x.shape[0]):
        row = x[i]
        window = row[phase + WINDOW]
        known_cards = _F32(0.0)
        known_spades = _F32(0.0)
        drawn_spades = _F32(0.0)
        for card in range(52):
            known = (row[seen + card] + row[my_row + card]) * _F32(decks) + row[drawn + card]
            known_cards += known
            if card % 4 == 3:  # SPADE_IDS
                known_spades += known
                drawn_spades += row[drawn + card]
        cards = _F32(52 * decks) - np.rint(known_cards)
        spades = _F32(13 * decks) - np.rint(known_spades)
        impossible = spades == 0
        my_length = np.rint(row[row_lengths] * _F32(target))
        face_down = _F32(0.0)  # the opponents' face-down cards
        closing = my_length * row[claimer]
        best = _F32(0.0)
        players_in = 1 if row[in_game] > 0.5 else 0
        for s in range(1, n):
            length = np.rint(row[row_lengths + s] * _F32(target))
            face_down += length - np.rint(row[face_up_spades + s] * _F32(target))
            closing += length * row[claimer + s]
            playing = row[in_game + s] > 0.5
            players_in += 1 if playing else 0
            reach = length if playing else _F32(0.0)
            best = reach if s == 1 else max(best, reach)
        standing = max(face_down - window, _F32(0.0))
        p = min(max(spades - _F32(STANDING_SPADES) * standing, _F32(0.5)) / max(cards - standing, _F32(1.0)),
                _F32(1.0))
        bluff = (_F32(1.0) - p) * _F32(BLUFF_RATE)
        estimate = bluff / (bluff + p)
        true_claims = _F32(0.0)
        false_claims = _F32(0.0)
        opened = 0
        challenged = 0
        for w in range(windows):
            base = history + w * width
            true_claims += row[base + 3 * n]
            false_claims += row[base + 3 * n + 1]
            claimers = _F32(0.0)
            challengers = _F32(0.0)
            for s in range(n):
                claimers += row[base + s]
                challengers += row[base + n + s]
            if claimers > 0:
                opened += 1
                challenged += 1 if challengers > 0 else 0
        if impossible:
            false = _F32(1.0)
        else:
            false = (_F32(WEIGHT) * estimate + false_claims) / (_F32(WEIGHT) + true_claims + false_claims)
        out[i, 0] = window
        out[i, 1] = window * (_F32(1.0) if impossible else _F32(0.0))
        out[i, 2] = window * false
        out[i, 3] = window * (_F32(1.0) if closing >= goal else _F32(0.0))
        out[i, 4] = spades / _F32(13 * decks)
        out[i, 5] = cards / _F32(52 * decks)
        out[i, 6] = 1.0 if my_length >= goal else 0.0
        out[i, 7] = 1.0 if best >= goal and my_length < best else 0.0
        out[i, 8] = 1.0 if drawn_spades > 0 else 0.0
        out[i, 9] = (challenged + 0.5) / (opened + 1.0) if players_in > 2 else 0.5
        out[i, 10] = 1.0 if opened == windows and challenged == 0 else 0.0
