"""I Doubt It's derived features: what ``honest`` and ``counter`` work out before they doubt.

Whether to doubt the latest claim is a count over four fields at the claimed rank (my hand, my
own cards in the pile, what each opponent certainly holds, the claim's count) and then, for
``counter``, a hypergeometric sum over the cards nobody has seen. An MLP reading the raw fields
approximates the count, and a clone of the heuristic then doubts at the wrong claims: it agrees
on 99 % of its choices and still doubts wrongly a third of the time, because doubts are rare and
each costs the pile. These features hand it the count and the probability. Counts are read in
the observation's units (a rank's count divided by the copies of a rank, hand sizes divided by
the deck), so the copies per rank come from the layout's scales.

Frozen opponents ask for these features a few rows at a time, thousands of times per rollout,
so :meth:`Doubt.__call__` runs the numba kernel :func:`_doubt_rows` (row by row, no per-call
numpy overhead); :meth:`Doubt.reference` is the same computation in batched numpy, the readable
specification the kernel is tested against (tests/agents/training/test_feature_kernels.py).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba import njit

from agents.training.features.counting import hypergeometric, log_comb_one, log_factorials

RANKS = 13
EXTRA_CARD = 0.1  # the heuristics' chance that a true claim carries one extra card (Table.claim_false_probability)
WINDOW = 1  # phase one-hot: play, doubt window


class Doubt:
    """For the latest claim: I may doubt it now; its count; the copies of its rank accounted
    for (in my hand, my cards in the pile, held for certain by the opponents other than the
    claimer, and by all of them); what is left for the claim after each count; whether it is
    impossible by each count; the claimer's cards nobody has seen (a share of the deck); and
    the probability that it is false by ``counter``'s Bayes rule (1 when impossible)."""

    FIELDS = ("hand", "my_cards_in_pile", "known_cards", "phase", "claim_rank", "hand_sizes", "history")
    size = 10

    def __init__(self, fields: Mapping[str, slice], scales: Mapping[str, float]):
        self.sl = {name: fields[name] for name in self.FIELDS}
        self.n = fields["hand_sizes"].stop - fields["hand_sizes"].start
        self.copies = int(round(scales["hand"]))  # copies of a rank: the hand's scale
        self.deck = int(round(scales["hand_sizes"]))  # cards in the deck
        self.log_factorial = log_factorials(self.deck + 1)
        self._starts = np.array([fields[name].start for name in self.FIELDS], np.int64)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x, np.float32)
        out = np.empty((x.shape[0], self.size), np.float64)
        _doubt_rows(x, self._starts, self.n, self.copies, self.deck, self.log_factorial, out)
        return out

    def reference(self, x: np.ndarray) -> np.ndarray:
        """:meth:`__call__` in batched numpy: the specification of the kernel."""
        sl, n, b, copies = self.sl, self.n, x.shape[0], self.copies
        rank = x[:, sl["claim_rank"]]
        history = x[:, sl["history"]]
        claimer = history[:, :n]  # relative seats; 0 (me) never claims while I may doubt
        count = np.rint(history[:, n] * self.deck)
        known = np.rint(x[:, sl["known_cards"]].reshape(b, n - 1, RANKS) * copies)
        at_rank = (known * rank[:, None, :]).sum(axis=2)  # [b, opponents]
        claimer_known = (at_rank * claimer[:, 1:]).sum(axis=1)
        mine = np.rint(((x[:, sl["hand"]] + x[:, sl["my_cards_in_pile"]]) * rank).sum(axis=1) * copies)
        by_others = mine + at_rank.sum(axis=1) - claimer_known
        by_all = by_others + claimer_known
        left_others, left_all = copies - by_others - count, copies - by_all - count
        sizes = np.rint(x[:, sl["hand_sizes"]] * self.deck)
        unseen = np.clip(sizes[:, 1:] - known.sum(axis=2), 0, None)  # [b, opponents]
        unseen += claimer[:, 1:] * count[:, None]  # his play came out of his unseen cards
        false = self._false_probability(unseen, claimer[:, 1:], copies - by_all, count)
        return np.stack(
            [x[:, sl["phase"]][:, WINDOW], count / copies, by_others / copies, by_all / copies,
             left_others / copies, left_all / copies, left_others < 0, left_all < 0,
             (unseen * claimer[:, 1:]).sum(axis=1) / self.deck, np.where(left_all < 0, 1.0, false)],
            axis=1,
        )

    def _false_probability(self, unseen, claimer, unplaced, count):
        """P(false) of ``Table.claim_false_probability`` for every row, in float64 (a feature,
        not a decision: log-factorials rather than the heuristic's exact integers)."""
        population = unseen.sum(axis=1)
        draws = (unseen * claimer).sum(axis=1)
        successes = np.minimum(unplaced, population)
        holding = hypergeometric(self.log_factorial, population, successes, draws, self.copies)  # [b, k]
        c = count.astype(int)
        rows = np.arange(len(c))
        at = lambda k: np.where((k >= 0) & (k <= self.copies), holding[rows, np.clip(k, 0, self.copies)], 0.0)
        false = np.where(c == 1, at(np.zeros_like(c)), 0.0) + EXTRA_CARD * np.where(c - 1 >= 1, at(c - 1), 0.0)
        true = (1.0 - EXTRA_CARD) * (holding * (np.arange(self.copies + 1)[None, :] >= c[:, None])).sum(axis=1)
        total = false + true
        return np.where(total > 0, false / np.where(total > 0, total, 1.0), 1.0)


@njit(cache=True)
def _doubt_rows(x, starts, n, copies, deck, lf, out):
    """:meth:`Doubt.reference` one row at a time, in the same float32 / float64 operations.

    ``starts``: where the fields of ``Doubt.FIELDS`` begin. The counts are whole numbers, exact
    in float32 whatever the order of their sums; the one sum of fractions (my copies of the
    claimed rank) has a single nonzero term, the claimed rank's."""
    hand, my_pile, known, phase, claim_rank, hand_sizes, history = (starts[0], starts[1], starts[2], starts[3],
                                                                    starts[4], starts[5], starts[6])
    c32, d32 = np.float32(copies), np.float32(deck)
    holding = np.empty(copies + 1)
    for i in range(x.shape[0]):
        row = x[i]
        count = np.rint(row[history + n] * d32)
        mine = np.float32(0.0)
        for r in range(RANKS):
            mine += (row[hand + r] + row[my_pile + r]) * row[claim_rank + r]
        mine = np.rint(mine * c32)
        seen = np.float32(0.0)  # at the claimed rank, held for certain by the opponents
        claimer_known = np.float32(0.0)
        population = np.float32(0.0)  # the opponents' cards nobody has seen
        draws = np.float32(0.0)  # the claimer's
        for s in range(n - 1):
            claimer = row[history + 1 + s]  # seat s + 1 made the claim
            at_rank = np.float32(0.0)
            shown = np.float32(0.0)
            for r in range(RANKS):
                held = np.rint(row[known + s * RANKS + r] * c32)
                at_rank += held * row[claim_rank + r]
                shown += held
            seen += at_rank
            claimer_known += at_rank * claimer
            unseen = max(np.rint(row[hand_sizes + 1 + s] * d32) - shown, np.float32(0.0)) + claimer * count
            population += unseen
            draws += unseen * claimer
        by_others = mine + seen - claimer_known
        by_all = by_others + claimer_known
        left_others, left_all = c32 - by_others - count, c32 - by_all - count
        out[i, 0] = row[phase + WINDOW]
        out[i, 1] = count / c32
        out[i, 2] = by_others / c32
        out[i, 3] = by_all / c32
        out[i, 4] = left_others / c32
        out[i, 5] = left_all / c32
        out[i, 6] = 1.0 if left_others < 0 else 0.0
        out[i, 7] = 1.0 if left_all < 0 else 0.0
        out[i, 8] = draws / d32
        out[i, 9] = 1.0 if left_all < 0 else _false_probability(
            float(population), float(min(c32 - by_all, population)), float(draws), int(count), copies, lf, holding)


@njit(cache=True)
def _false_probability(population, successes, draws, count, copies, lf, holding):
    """``Doubt._false_probability`` for one row; ``holding`` is scratch of ``copies + 1``."""
    successes = max(successes, 0.0)
    log_total = log_comb_one(lf, population, draws)
    for k in range(copies + 1):
        ok = k <= successes and k <= draws and draws - k <= population - successes
        holding[k] = np.exp(log_comb_one(lf, successes, k) + log_comb_one(lf, population - successes, draws - k)
                            - log_total) if ok else 0.0
    false = ((holding[0] if count == 1 else 0.0)
             + EXTRA_CARD * (holding[count - 1] if 1 <= count - 1 <= copies else 0.0))
    for k in range(min(count, copies + 1)):
        holding[k] = 0.0  # the claimer holds at least the count: true
    true = (1.0 - EXTRA_CARD) * _numpy_sum(holding)
    total = false + true
    return false / total if total > 0 else 1.0


@njit(cache=True)
def _numpy_sum(a):
    """``a.sum()`` in numpy's order (pairwise: eight running sums, then the rest; up to 128 terms)."""
    if len(a) < 8:
        total = 0.0
        for v in a:
            total += v
        return total
    r = a[:8].copy()
    i = 8
    while i + 8 <= len(a):
        r += a[i : i + 8]
        i += 8
    total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    for j in range(i, len(a)):
        total += a[j]
    return total
