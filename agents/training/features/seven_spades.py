"""Seven Spades' derived features: what the heuristics work out before they claim or challenge.

A claim is impossible when every spade is accounted for (seen face up, in my row, in my hand),
and ``counter`` weighs the rest by the unplaced cards, the claims standing in the other rows and
how the recently challenged claims turned out; its thresholds move when the claimer, or I,
would reach target−1. An MLP reading the 52-card fields approximates those sums; these
features hand it the counts and the probability (:class:`~agents.heuristics.seven_spades.Table`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

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

    def __call__(self, x: np.ndarray) -> np.ndarray:
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
