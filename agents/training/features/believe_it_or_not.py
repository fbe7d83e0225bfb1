"""Believe It or Not's derived features: what the heuristics work out before they believe or not.

As in I Doubt It (:mod:`agents.training.features.i_doubt_it`), whether the most recent play can
be true is a count at the round's rank over five fields (my hand, my cards in the pile, the
cards known to be out of play, what each opponent certainly holds, the play's size), and how
likely it is false is ``counter``'s Bayes rule over the cards nobody has seen, weighed by how the
maker's plays fared when recent calls turned them up. A clone reading the raw fields gets those
rare, costly decisions wrong; these features hand it the count and the probability.

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
        self._starts = np.array([fields[name].start for name in self.FIELDS], np.int64)
        self._ranks = fields["round_rank"].stop - fields["round_rank"].start
        self._calls = (fields["calls"].stop - fields["calls"].start) // (3 * self.n + 4)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x, np.float32)
        out = np.empty((x.shape[0], Doubt.size), np.float64)
        _doubt_rows(x, self._starts, self.n, self._ranks, self.copies, self.deck, self.cap, self._calls,
                    self.log_factorial, -1, -1, 0.0, out)
        return out

    def reference(self, x: np.ndarray) -> np.ndarray:
        """:meth:`__call__` in batched numpy: the specification of the kernel."""
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


class Record(Doubt):
    """The most recent play's maker's record over the whole game (the option ``call_record``):
    his plays that calls found honest and found false (squashed as the observation keeps them),
    the share of them found false (0 before any), and ``counter``'s probability that the play is
    false with that whole record as its weight (``doubt`` weighs only the last four calls; 1
    when impossible). All zero while no play is on the table. ``doubt`` hands the network the
    maker's recent calls only, and the record fields give every player's counts by seat: an
    MLP must learn to pick the maker's out of them, which the record step's agents had not."""

    FIELDS = Doubt.FIELDS + ("plays_found_honest", "plays_found_false")
    size = 4

    def __init__(self, fields: Mapping[str, slice], scales: Mapping[str, float]):
        super().__init__(fields, scales)
        self.scale = float(scales["plays_found_honest"])

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(x, np.float32)
        doubt = np.empty((x.shape[0], Doubt.size), np.float64)
        _doubt_rows(x, self._starts, self.n, self._ranks, self.copies, self.deck, self.cap, self._calls,
                    self.log_factorial, self.sl["plays_found_honest"].start, self.sl["plays_found_false"].start,
                    self.scale, doubt)
        return self._assemble(x, doubt[:, 6])

    def reference(self, x: np.ndarray) -> np.ndarray:
        return self._assemble(x, super().reference(x)[:, 6])

    def _counts(self, x, maker):
        """The maker's plays found honest and found false: as stored (squashed), and as counts."""
        stored = [(x[:, self.sl[name]] * maker).sum(axis=1) for name in ("plays_found_honest", "plays_found_false")]
        return stored, [np.rint(np.float32(self.scale) * v / (np.float32(1.0) - v)) for v in stored]

    def _record(self, x, maker):
        honest, false = self._counts(x, maker)[1]
        return 2.0 ** (false - honest)

    def _assemble(self, x, false_probability):
        sl = self.sl
        maker = x[:, sl["last_play_by"]]
        on = x[:, sl["round_rank"]].any(axis=1) & maker.any(axis=1)
        (honest_stored, false_stored), (honest, false) = self._counts(x, maker)
        seen = honest + false
        share = np.where(seen > 0, false / np.where(seen > 0, seen, 1.0), 0.0)
        return np.stack([on * honest_stored, on * false_stored, on * share, false_probability], axis=1)


_F32 = np.float32
_SIZES = np.array(BLUFF_SIZES, np.float64)


@njit(cache=True)
def _size(k):
    return _SIZES[k - 1] if 1 <= k <= len(_SIZES) else 0.0


@njit(cache=True)
def _doubt_rows(x, starts, n, ranks, copies, deck, cap, calls, lf, honest_at, false_at, scale, out):
    """:meth:`Doubt.reference` one row at a time, in the same float32 / float64 operations;
    with ``honest_at`` >= 0 (:class:`Record`) the maker's record is read from the squashed
    counts at ``honest_at`` / ``false_at`` (``v / (v + scale)``) instead of the recent calls.

    ``starts``: where the fields of ``Doubt.FIELDS`` begin; ``ranks`` the deck's ranks, ``calls``
    the recent calls the observation keeps. Counts are whole numbers, exact in
    either precision; the float32 steps of the reference (its weights, ``1 - extra``) are
    rounded to float32 here too."""
    phase, hand, mine, out_known, known, round_rank = starts[0], starts[1], starts[2], starts[3], starts[4], starts[5]
    pile_size, last_size, last_by, out_size, hand_sizes, call_start = (starts[6], starts[7], starts[8], starts[9],
                                                                       starts[10], starts[11])
    for i in range(x.shape[0]):
        row = x[i]
        rank_on = False
        for r in range(ranks):
            rank_on = rank_on or row[round_rank + r] != 0
        maker_on = False
        for s in range(n):
            maker_on = maker_on or row[last_by + s] != 0
        on = rank_on and maker_on
        onf = np.float32(1.0) if on else np.float32(0.0)
        count = np.rint(row[last_size] * _F32(cap))
        accounted = np.float32(0.0)
        mine_total = np.float32(0.0)
        out_known_total = np.float32(0.0)
        for r in range(ranks):
            at = row[round_rank + r]
            held = np.rint(row[hand + r] * _F32(copies))
            placed = np.rint(row[mine + r] * _F32(copies))
            gone = np.rint(row[out_known + r] * _F32(copies))
            seen = np.float32(0.0)
            for s in range(n - 1):
                seen += np.rint(row[known + s * ranks + r] * _F32(copies))
            accounted += held * at + placed * at + gone * at + seen * at
            mine_total += placed
            out_known_total += gone
        left = _F32(copies) - accounted - count
        impossible = on and left < 0
        maker_unseen = np.float32(0.0)
        unseen_total = np.float32(0.0)
        maker_size = np.float32(0.0)
        maker_any = False
        for s in range(1, n):
            size = np.rint(row[hand_sizes + s] * _F32(deck))
            shown = np.float32(0.0)
            for r in range(ranks):
                shown += np.rint(row[known + (s - 1) * ranks + r] * _F32(copies))
            unseen = max(size - shown, np.float32(0.0))
            unseen_total += unseen
            maker_unseen += unseen * row[last_by + s]
            maker_size += size * row[last_by + s]
            maker_any = maker_any or row[last_by + s] != 0
        pile = np.rint(row[pile_size] * _F32(deck))
        out_unseen = max(np.rint(row[out_size] * _F32(deck)) - out_known_total, np.float32(0.0))
        population = unseen_total + (pile - mine_total) + out_unseen
        draws = min(maker_unseen + count, population)
        successes = min(_F32(copies) - accounted, population)
        lead = pile == count
        # the maker's record over the recent calls: 2 ** (false - honest), in float32
        honest = np.float32(0.0)
        false_calls = np.float32(0.0)
        width = 3 * n + 4
        for c in range(calls):
            base = call_start + c * width
            his = np.float32(0.0)
            for s in range(n):
                his += row[base + n + 4 + s] * row[last_by + s]
            if his > 0.5:
                honest += row[base + n + 2]
                false_calls += row[base + n + 3]
        if honest_at >= 0:  # Record: the maker's whole-game record in place of the recent calls
            honest = np.float32(0.0)
            false_calls = np.float32(0.0)
            for s in range(n):
                honest += row[honest_at + s] * row[last_by + s]
                false_calls += row[false_at + s] * row[last_by + s]
            honest = np.rint(np.float32(scale) * honest / (np.float32(1.0) - honest))
            false_calls = np.rint(np.float32(scale) * false_calls / (np.float32(1.0) - false_calls))
        weight = np.float32(2.0 ** np.float64(false_calls - honest))
        false = _false_probability(float(population), float(successes), float(draws), int(count), lead, weight,
                                   copies, lf)
        out[i, 0] = onf * row[phase + 2]
        out[i, 1] = onf * count / _F32(copies)
        out[i, 2] = onf * accounted / _F32(copies)
        out[i, 3] = onf * left / _F32(copies)
        out[i, 4] = 1.0 if impossible else 0.0
        out[i, 5] = onf * maker_unseen / _F32(deck)
        out[i, 6] = 1.0 if impossible else float(onf) * false
        out[i, 7] = 1.0 if on and lead else 0.0
        out[i, 8] = onf * (pile / _F32(deck))
        out[i, 9] = 1.0 if on and maker_size == 0 and maker_any else 0.0


@njit(cache=True)
def _false_probability(population, successes, draws, count, lead, weight, copies, lf):
    """``Doubt._false_probability`` for one row (``weight`` a float32)."""
    bluff_without = np.float64(min(np.float32(0.95), np.float32(BLUFF_WITHOUT) * weight))
    extra32 = min(np.float32(0.95), np.float32(EXTRA_BLUFF) * weight)
    extra = np.float64(extra32)
    keep = np.float64(np.float32(1.0) - extra32)
    successes = max(successes, 0.0)
    holding = np.zeros(copies + 1)
    log_total = log_comb_one(lf, population, draws)
    for k in range(copies + 1):
        if k <= successes and k <= draws and draws - k <= population - successes:
            holding[k] = np.exp(log_comb_one(lf, successes, k) + log_comb_one(lf, population - successes, draws - k)
                                - log_total)
    none = holding[0]
    if lead and min(successes, draws) >= 1 and none < 1.0:
        for k in range(1, copies + 1):
            holding[k] = holding[k] / (1.0 - none)
        holding[0] = 0.0
    false = holding[0] * bluff_without * _size(count)
    true = 0.0
    for k in range(1, copies + 1):
        if k < count:
            false += holding[k] * extra * _size(count - k)
        else:
            true += holding[k] * keep * (1.0 if k == count else 0.5)
    total = false + true
    return false / total if total > 0 else 0.0
