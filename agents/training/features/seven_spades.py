"""Seven Spades' derived features: what the heuristics work out before they claim or challenge.

A claim is impossible when every spade is accounted for (seen face up, in my row, in my hand),
and ``counter`` weighs the rest by the unplaced cards, the claims standing in the other rows and
how the recently challenged claims turned out; its thresholds move when the claimer, or I,
would reach target−1. An MLP reading the 52-card fields approximates those sums; these
features hand it the counts and the probability (:class:`~agents.heuristics.seven_spades.Table`).

``pace`` (:class:`Pace`) is evidence no heuristic uses: how fast a row grew against its owner's
draws. A player who claims every card he draws gives himself away by the length of his row long
before any of his claims is challenged; the features say how unlikely that row is for a player
who claims only real spades.

Frozen opponents ask for these features a few rows at a time, thousands of times per rollout,
so :meth:`Doubt.__call__` runs the numba kernel :func:`_doubt_rows` (row by row, no per-call
numpy overhead; :meth:`Pace.__call__` :func:`_pace_rows`); each ``reference`` is the same computation in batched numpy, the readable
specification the kernel is tested against (tests/agents/training/test_feature_kernels.py).
"""

from __future__ import annotations

import math
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


SPADE_SHARE = 0.25  # 13 spades in each 52 cards


def honest_tail(draws: int, claims: int, p: float = SPADE_SHARE) -> float:
    """P(X ≥ ``claims``) for X ~ Binomial(``draws``, ``p``): the chance that a player who
    claims only real spades has at least ``claims`` cards in his row after ``draws`` draws."""
    if claims <= 0:
        return 1.0
    if claims > draws:
        return 0.0
    below = sum(math.comb(draws, j) * p**j * (1 - p) ** (draws - j) for j in range(claims))
    return max(0.0, 1.0 - below)


class Pace:
    """How fast a row has grown against its owner's draws: the evidence a claim rate gives.

    A player who claims only real spades holds about a quarter of his draws in his row; one who
    bluffs at every draw holds them all, in plain view (row lengths and the turn count are
    public). In a challenge window: the chance that an honest player's row would be as long as
    the claimer's is now (``tail``: P(Binomial(draws, 1/4) ≥ row)), and its surprise
    −ln(tail)/ln(1000) capped at 1. In play: the same two for my own row if I claim the card I
    drew. A player's draws are ⌈(completed turns + 1) / players in⌉, exact while everybody is
    in (the one deciding, claimer or drawer, is the player of the turn under way), and an upper
    bound once someone is out (the survivors drew less often before), so the surprise then errs
    low. The tails come from one table (draws × row), so the kernel and the reference agree
    exactly."""

    FIELDS = ("phase", "claimer", "row_lengths", "in_game", "turns")
    size = 4

    def __init__(self, fields: Mapping[str, slice], scales: Mapping[str, float]):
        self.sl = {name: fields[name] for name in self.FIELDS}
        self.n = fields["in_game"].stop - fields["in_game"].start
        self.target = int(round(scales["row_lengths"]))
        self.max_turns = int(round(scales["turns"]))
        self.draws = int(round(scales["stock"]))  # nobody draws more than the deck holds
        self._starts = np.array([fields[name].start for name in self.FIELDS], np.int64)
        self.tail = np.array([[honest_tail(d, k) for k in range(self.target + 2)] for d in range(self.draws + 2)])
        self.surprise = np.minimum(-np.log(np.maximum(self.tail, 1e-300)) / np.log(1000.0), 1.0)

    def _draws(self, turns: np.ndarray, players_in: np.ndarray) -> np.ndarray:
        return np.minimum(-((-(turns + 1)) // np.maximum(players_in, 1)), self.draws + 1).astype(np.int64)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x, np.float32)
        out = np.empty((x.shape[0], self.size), np.float64)
        _pace_rows(x, self._starts, self.n, self.target, self.max_turns, self.draws, self.tail, self.surprise, out)
        return out

    def reference(self, x: np.ndarray) -> np.ndarray:
        """:meth:`__call__` in batched numpy: the specification of the kernel."""
        sl = self.sl
        phase = x[:, sl["phase"]]
        window = phase[:, WINDOW] > 0.5
        play = phase[:, 0] > 0.5
        rows = np.rint(x[:, sl["row_lengths"]] * np.float32(self.target)).astype(np.int64)
        turns = np.rint(x[:, sl["turns"]][:, 0] * np.float32(self.max_turns)).astype(np.int64)
        players_in = (x[:, sl["in_game"]] > 0.5).sum(axis=1)
        draws = self._draws(turns, players_in)
        claimer = (rows * (x[:, sl["claimer"]] > 0.5)).sum(axis=1)
        mine = np.minimum(rows[:, 0] + 1, self.target + 1)
        claimer = np.minimum(claimer, self.target + 1)
        return np.stack(
            [np.where(window, self.tail[draws, claimer], 0.0), np.where(window, self.surprise[draws, claimer], 0.0),
             np.where(play, self.tail[draws, mine], 0.0), np.where(play, self.surprise[draws, mine], 0.0)],
            axis=1,
        )


@njit(cache=True)
def _pace_rows(x, starts, n, target, max_turns, max_draws, tail, surprise, out):
    """:meth:`Pace.reference` one row at a time."""
    phase, claimer, row_lengths, in_game, turns_at = starts[0], starts[1], starts[2], starts[3], starts[4]
    for i in range(x.shape[0]):
        row = x[i]
        window = row[phase + WINDOW] > 0.5
        play = row[phase] > 0.5
        players_in = 0
        claimed = 0
        for s in range(n):
            if row[in_game + s] > 0.5:
                players_in += 1
            if row[claimer + s] > 0.5:
                claimed += int(np.rint(row[row_lengths + s] * _F32(target)))
        turns = int(np.rint(row[turns_at] * _F32(max_turns)))
        draws = min(-((-(turns + 1)) // max(players_in, 1)), max_draws + 1)
        claimed = min(claimed, target + 1)
        mine = min(int(np.rint(row[row_lengths] * _F32(target))) + 1, target + 1)
        out[i, 0] = tail[draws, claimed] if window else 0.0
        out[i, 1] = surprise[draws, claimed] if window else 0.0
        out[i, 2] = tail[draws, mine] if play else 0.0
        out[i, 3] = surprise[draws, mine] if play else 0.0
