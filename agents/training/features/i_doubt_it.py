"""I Doubt It's derived features: what ``honest`` and ``counter`` work out before they doubt.

Whether to doubt the latest claim is a count over four fields at the claimed rank (my hand, my
own cards in the pile, what each opponent certainly holds, the claim's count) and then, for
``counter``, a hypergeometric sum over the cards nobody has seen. An MLP reading the raw fields
approximates the count, and a clone of the heuristic then doubts at the wrong claims: it agrees
on 99 % of its choices and still doubts wrongly a third of the time, because doubts are rare and
each costs the pile. These features hand it the count and the probability. Counts are read in
the observation's units (a rank's count divided by the copies of a rank, hand sizes divided by
the deck), so the copies per rank come from the layout's scales.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from agents.training.features.counting import hypergeometric, log_factorials

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

    def __call__(self, x: np.ndarray) -> np.ndarray:
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
