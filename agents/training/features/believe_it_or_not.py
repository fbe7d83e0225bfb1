"""Believe It or Not's derived features: what the heuristics work out before they believe or not.

As in I Doubt It (:mod:`agents.training.features.i_doubt_it`), whether the most recent play can
be true is a count at the round's rank over five fields (my hand, my cards in the pile, the
cards known to be out of play, what each opponent certainly holds, the play's size), and how
likely it is false is ``counter``'s Bayes rule over the cards nobody has seen, weighed by how the
maker's plays fared when recent calls turned them up. A clone reading the raw fields gets those
rare, costly decisions wrong; these features hand it the count and the probability.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from agents.training.features.counting import hypergeometric, log_factorials

RESPOND = 2  # phase one-hot: name, build, respond
BLUFF_WITHOUT, EXTRA_BLUFF, BLUFF_SIZES = 0.25, 0.1, (0.6, 0.25, 0.1, 0.05)  # Table.claim_false_probability


class Doubt:
    """For the most recent play: I am to respond to it; its size; the copies of the round's
    rank accounted for (mine, out of play, held for certain by the opponents); what is left for
    the play; whether it is impossible; the maker's cards nobody has seen (a share of the deck);
    the probability that it is false by ``counter``'s rule (1 when impossible); it led the round;
    the pile (a share of the deck); its maker went out with it. All zero while no play is on
    the table."""

    FIELDS = ("phase", "hand", "my_cards_in_pile", "out_of_play_known", "known_cards", "round_rank", "pile_size",
              "last_play_size", "last_play_by", "out_of_play_size", "hand_sizes", "calls")
    size = 10

    def __init__(self, fields: Mapping[str, slice], scales: Mapping[str, float]):
        self.sl = {name: fields[name] for name in self.FIELDS}
        self.n = fields["hand_sizes"].stop - fields["hand_sizes"].start
        self.copies = int(round(scales["hand"]))
        self.deck = int(round(scales["hand_sizes"]))
        self.cap = int(round(scales["last_play_size"]))
        self.log_factorial = log_factorials(self.deck + 1)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        sl, n, b, copies = self.sl, self.n, x.shape[0], self.copies
        rank = x[:, sl["round_rank"]]
        maker = x[:, sl["last_play_by"]]  # relative seats; one-hot, or zeros before any play
        on = rank.any(axis=1) & maker.any(axis=1)
        count = np.rint(x[:, sl["last_play_size"]][:, 0] * self.cap)
        known = np.rint(x[:, sl["known_cards"]].reshape(b, n - 1, -1) * copies)
        mine_in_pile = np.rint(x[:, sl["my_cards_in_pile"]] * copies)
        out_known = np.rint(x[:, sl["out_of_play_known"]] * copies)
        at = lambda field: (field * rank).sum(axis=1)
        accounted = at(np.rint(x[:, sl["hand"]] * copies)) + at(mine_in_pile) + at(out_known) + at(known.sum(axis=1))
        left = copies - accounted - count
        impossible = on & (left < 0)
        sizes = np.rint(x[:, sl["hand_sizes"]] * self.deck)
        unseen_hands = np.clip(sizes[:, 1:] - known.sum(axis=2), 0, None)
        maker_unseen = (unseen_hands * maker[:, 1:]).sum(axis=1)
        pile = np.rint(x[:, sl["pile_size"]][:, 0] * self.deck)
        out_unseen = np.clip(np.rint(x[:, sl["out_of_play_size"]][:, 0] * self.deck) - out_known.sum(axis=1), 0, None)
        population = unseen_hands.sum(axis=1) + (pile - mine_in_pile.sum(axis=1)) + out_unseen
        draws = np.minimum(maker_unseen + count, population)
        successes = np.minimum(copies - accounted, population)  # copies_unplaced, capped
        lead = pile == count
        false = self._false_probability(population, successes, draws, count, lead, self._record(x, maker))
        return np.stack(
            [on * x[:, sl["phase"]][:, RESPOND], on * count / copies, on * accounted / copies, on * left / copies,
             impossible, on * maker_unseen / self.deck, np.where(impossible, 1.0, on * false), on * lead,
             on * (pile / self.deck), on * ((sizes[:, 1:] * maker[:, 1:]).sum(axis=1) == 0) * maker[:, 1:].any(axis=1)],
            axis=1,
        )

    def _record(self, x, maker):
        """2 ** (false - honest) over the maker's plays that the recent calls turned up."""
        n = self.n
        calls = x[:, self.sl["calls"]].reshape(x.shape[0], -1, 3 * n + 4)
        his = ((calls[:, :, n + 4 : 2 * n + 4] * maker[:, None, :]).sum(axis=2) > 0.5)
        honest = (calls[:, :, n + 2] * his).sum(axis=1)
        false = (calls[:, :, n + 3] * his).sum(axis=1)
        return 2.0 ** (false - honest)

    def _false_probability(self, population, successes, draws, count, lead, weight):
        bluff_without = np.minimum(0.95, BLUFF_WITHOUT * weight)
        extra = np.minimum(0.95, EXTRA_BLUFF * weight)
        successes = np.clip(successes, 0, None)
        holding = hypergeometric(self.log_factorial, population, successes, draws, self.copies)
        none = holding[:, 0]
        condition = lead & (np.minimum(successes, draws) >= 1) & (none < 1.0)
        scaled = holding / np.where(condition, 1.0 - none, 1.0)[:, None]
        holding = np.where(condition[:, None], np.concatenate([np.zeros((len(none), 1)), scaled[:, 1:]], axis=1), holding)
        c = count.astype(int)
        size = lambda k: np.where((k >= 1) & (k <= len(BLUFF_SIZES)),
                                  np.asarray(BLUFF_SIZES)[np.clip(k - 1, 0, len(BLUFF_SIZES) - 1)], 0.0)
        false = holding[:, 0] * bluff_without * size(c)
        true = np.zeros(len(c))
        for k in range(1, self.copies + 1):
            false += np.where(k < c, holding[:, k] * extra * size(c - k), 0.0)
            true += np.where(k >= c, holding[:, k] * (1.0 - extra) * np.where(k == c, 1.0, 0.5), 0.0)
        total = false + true
        return np.where(total > 0, false / np.where(total > 0, total, 1.0), 0.0)
