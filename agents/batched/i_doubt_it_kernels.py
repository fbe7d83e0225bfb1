"""The numba kernels of the batched I Doubt It heuristics (``agents.batched.i_doubt_it``).

Each kernel reads one observation row straight from the float32 vector, decoding only the
fields it needs the way :meth:`bluff_envs.layout.ObservationLayout.decode` does (a count field
is ``rint(float64(x) * scale)``; a flag or one-hot field is read as it is, a one-hot's argmax
being its first maximum), and then follows the reference heuristic
(``agents/heuristics/i_doubt_it.py``) step by step, so that every choice comes out the same.

The one delicate part is the probability a claim is false (``counter`` and ``bluffer``). The
reference's hypergeometric terms are quotients of Python integers, ``comb(s, k) * comb(f, d - k)
/ comb(N, d)``, which Python rounds correctly (to the nearest double, ties to even) however
large the integers (``comb(208, 104)`` is about 2^203). The kernels get the same double by the
quickest road that is sure to (:func:`term_ratio`): a plain division of two doubles when the
denominator is below 2^53 (all of one deck); else a double-word quotient (about 100 bits) of
the binomials tabled by :func:`binomials` from ``math.comb``, kept when it lies clearly off
the midpoints between doubles (for up to four decks always so: checked once for every
term there is, none comes nearer a midpoint than 2^-76 of its value, the margin is 2^-90);
else big integers (32-bit digits in int64 arrays), the binomials exactly and the
quotient to 55 bits with a sticky bit. The float64 operations after that (Bayes' rule, the sum
of the tail) are the reference's, in its order; ``sum`` follows the running Python's (plain
left to right before 3.12, Neumaier's compensated sum from 3.12 on).

Two small arrays describe a game, built once by :func:`config` and :func:`params`:

``cfg`` (int64)
    the table (``N`` players, ``COPIES`` of each rank, ``DECK`` size, the ``CAP`` on a play,
    the ``STEP`` of the rank order, ``LAST_CHECKED``), the offsets of the observation fields,
    and ``COMPENSATED`` (whether this Python's ``sum`` of floats is compensated).
``params`` (float64)
    the heuristics' constants, read from the reference classes (not copied here: numba bakes
    module globals into its on-disk cache, which a change of the reference would not refresh).

and one table shared by all games, ``binomials`` (:func:`binomials`).
"""

from __future__ import annotations

import functools
import inspect
import math
import sys

import numpy as np
from numba import njit

from agents.heuristics import i_doubt_it as reference
from bluff_envs.cards import NUM_RANKS
from bluff_envs.i_doubt_it.actions import ADD0, DONE, DOUBT, DOUBT_WINDOW, PASS
from bluff_envs.i_doubt_it.view import record_size

R = NUM_RANKS

# the heuristics, as the kernels tell them apart
HONEST, COUNTER, BLUFFER, ALWAYS_CHALLENGE, NEVER_CHALLENGE = range(5)
STYLES = {
    reference.Honest: HONEST,
    reference.Counter: COUNTER,
    reference.Bluffer: BLUFFER,
    reference.AlwaysChallenge: ALWAYS_CHALLENGE,
    reference.NeverChallenge: NEVER_CHALLENGE,
}

# cfg entries
N, COPIES, DECK, CAP, STEP, LAST_CHECKED, COMPENSATED = range(7)
O_HAND, O_BUILDING, O_MINE, O_KNOWN, O_PHASE, O_REQUIRED, O_CLAIM_RANK, O_HAND_SIZES, O_HISTORY = range(7, 16)
CFG_SIZE = 16

# params entries
COUNTER_THRESHOLD, BLUFFER_THRESHOLD, SHED_CHANCE, EXTRA_CARD = range(4)
PARAMS_SIZE = 4

# the big integers: DIGITS digits of 32 bits, little end first. The largest number met is a
# binomial of at most 208 cards shifted left by 54 bits (under 2^260, 9 digits); the room is
# 2^448, and the loops may read one digit above the highest in use.
DIGITS = 14
MASK32 = (1 << 32) - 1
BIG_SCRATCH = 4  # big integers a row's probability needs at once (term_ratio's)


def config(game) -> np.ndarray:
    """``cfg`` for a game (a :class:`agents.base.GameInfo`)."""
    lay, c, n = game.layout, game.config, game.num_players
    copies, size = 4 * c.num_decks, 52 * c.num_decks
    cfg = np.zeros(CFG_SIZE, np.int64)
    cfg[N], cfg[COPIES], cfg[DECK] = n, copies, size
    cfg[CAP] = c.max_cards_per_play if c.max_cards_per_play is not None else size  # as the reference
    cfg[STEP] = -1 if c.rank_order == "descending" else 1
    cfg[LAST_CHECKED] = bool(c.last_play_checked)
    cfg[COMPENSATED] = sys.version_info >= (3, 12)
    for entry, name in ((O_HAND, "hand"), (O_BUILDING, "building"), (O_MINE, "my_cards_in_pile"),
                        (O_KNOWN, "known_cards"), (O_PHASE, "phase"), (O_REQUIRED, "required_rank"),
                        (O_CLAIM_RANK, "claim_rank"), (O_HAND_SIZES, "hand_sizes"), (O_HISTORY, "history")):
        cfg[entry] = lay[name].start
    # the kernels decode with these scales; the layout must agree
    assert all(lay.scale(name) == copies for name in ("hand", "building", "my_cards_in_pile", "known_cards"))
    assert lay.scale("hand_sizes") == size
    assert all(lay.scale(name) == 1.0 for name in ("phase", "required_rank", "claim_rank"))
    record = lay.scale("history")[: record_size(n)]
    assert record[n] == size and (np.delete(record, n) == 1.0).all()
    assert lay["known_cards"].stop - lay["known_cards"].start == (n - 1) * R
    assert size <= 208  # the binomials' table and the big integers' room (see DIGITS)
    return cfg


def params() -> np.ndarray:
    """``params``: the reference heuristics' constants, and the default of
    :meth:`~agents.heuristics.i_doubt_it.Table.claim_false_probability` (which both
    ``counter`` and ``bluffer`` call with its default)."""
    signature = inspect.signature(reference.Table.claim_false_probability)
    out = np.zeros(PARAMS_SIZE, np.float64)
    out[COUNTER_THRESHOLD] = reference.Counter.threshold
    out[BLUFFER_THRESHOLD] = reference.Bluffer.threshold
    out[SHED_CHANCE] = reference.Bluffer.shed_chance
    out[EXTRA_CARD] = signature.parameters["extra_card"].default
    return out


@functools.cache
def binomials(size: int = 208) -> np.ndarray:
    """``[2, size + 1, size + 1]``: C(n, k) as a double-word hi + lo (hi the nearest double, lo
    the nearest double to the rest), from Python's exact ``math.comb``; 0 for k > n."""
    out = np.zeros((2, size + 1, size + 1), np.float64)
    for n in range(size + 1):
        for k in range(n + 1):
            c = math.comb(n, k)
            out[0, n, k] = h = float(c)
            out[1, n, k] = float(c - int(h))
    out.setflags(write=False)
    return out


def scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Work arrays for :func:`act`: plans and counts (int64), hypergeometric terms (float64),
    big integers (int64 digits)."""
    return (np.zeros((8, R), np.int64), np.zeros(4 * R + 1, np.float64),
            np.zeros((BIG_SCRATCH, DIGITS), np.int64))


# -- big unsigned integers (32-bit digits in int64, little end first) ------------------------
# Loops run over the digits in use only: most binomials met are a few digits long.


@njit(cache=True)
def big_used(x):
    """How many digits are in use (up to the highest nonzero one)."""
    for i in range(x.shape[0] - 1, -1, -1):
        if x[i] != 0:
            return i + 1
    return 0


@njit(cache=True)
def big_set(x, v):
    x[:] = 0
    x[0] = v


@njit(cache=True)
def big_copy(src, dst):
    dst[:] = src


@njit(cache=True)
def big_mul_small(x, m):
    """x *= m, for 0 <= m < 2^31."""
    used = big_used(x)
    carry = 0
    for i in range(used):
        t = x[i] * m + carry
        x[i] = t & MASK32
        carry = t >> 32
    while carry:
        x[used] = carry & MASK32
        carry >>= 32
        used += 1


@njit(cache=True)
def big_div_small(x, m):
    """x //= m, for 1 <= m < 2^31 (the binomials divide exactly)."""
    rem = 0
    for i in range(big_used(x) - 1, -1, -1):
        t = (rem << 32) | x[i]
        x[i] = t // m
        rem = t % m


@njit(cache=True)
def big_comb(x, n, k):
    """x = C(n, k) (0 when k < 0 or k > n), exactly: C(n, i + 1) = C(n, i) (n - i) / (i + 1)."""
    if k < 0 or k > n:
        big_set(x, 0)
        return
    k = min(k, n - k)
    big_set(x, 1)
    for i in range(k):
        big_mul_small(x, n - i)
        big_div_small(x, i + 1)


@njit(cache=True)
def big_bit_length(x):
    used = big_used(x)
    if used == 0:
        return 0
    v, bits = x[used - 1], 0
    while v:
        v >>= 1
        bits += 1
    return 32 * (used - 1) + bits


@njit(cache=True)
def big_to_float(x):
    """float(x) for x < 2^53 (exact)."""
    return float(x[1]) * 4294967296.0 + float(x[0])


@njit(cache=True)
def big_shift_left(src, s, dst):
    """dst = src << s (dst must not be src)."""
    q, r = s // 32, s % 32
    dst[:] = 0
    for i in range(big_used(src)):
        v = src[i] << r  # below 2^63
        dst[i + q] |= v & MASK32
        dst[i + q + 1] |= v >> 32


@njit(cache=True)
def big_true_divide(a, b, big):
    """a / b rounded to the nearest double, ties to even, as Python divides two ints (a >= 0,
    b > 0, the quotient a normal double). Uses big[0] and big[1]."""
    la, lb = big_bit_length(a), big_bit_length(b)
    if la == 0:
        return 0.0
    if la <= 53 and lb <= 53:  # both exact as doubles: one correctly rounded division
        return big_to_float(a) / big_to_float(b)
    num, den = big[0], big[1]
    # scale so that the quotient q = floor(num / den) has 54 or 55 bits
    shift = lb - la + 54
    if shift >= 0:
        big_shift_left(a, shift, num)
        big_shift_left(b, 54, den)
    else:
        big_copy(a, num)
        big_shift_left(b, 54 - shift, den)
    used = max(big_used(num), big_used(den))
    q = 0
    for j in range(54, -1, -1):  # den is b << (j [- shift]) at step j
        # num >= den ?
        bigger = True
        for i in range(used - 1, -1, -1):
            if num[i] != den[i]:
                bigger = num[i] > den[i]
                break
        if bigger:  # num -= den
            borrow = 0
            for i in range(used):
                t = num[i] - den[i] - borrow
                borrow = 1 if t < 0 else 0
                num[i] = t + (borrow << 32)
            q |= 1 << j
        for i in range(used):  # den >>= 1
            den[i] = (den[i] >> 1) | ((den[i + 1] & 1) << 31)
    sticky = big_used(num) != 0
    drop = 2 if q >= (1 << 54) else 1
    low, half = q & ((1 << drop) - 1), 1 << (drop - 1)
    q >>= drop
    if low > half or (low == half and (sticky or (q & 1) == 1)):
        q += 1
    return math.ldexp(float(q), drop - shift)


# -- double-word arithmetic (a value as an unevaluated sum hi + lo of two doubles) ------------
# Joldes, Muller & Popescu, "Tight and rigorous error bounds for basic building blocks of
# double-word arithmetic" (ACM TOMS 2017): Fast2Sum, 2Sum, 2Prod (Dekker's, no FMA needed),
# DWTimesFP1 (relative error <= 1.5u^2 + 4u^3) and DWDivDW1 (<= 15u^2 + 56u^3), u = 2^-53.


@njit(cache=True)
def _fast_two_sum(a, b):
    s = a + b
    return s, b - (s - a)


@njit(cache=True)
def _split(a):
    t = 134217729.0 * a  # 2^27 + 1
    hi = t - (t - a)
    return hi, a - hi


@njit(cache=True)
def _two_prod(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


@njit(cache=True)
def _dw_times_fp(xh, xl, y):
    ch, cl1 = _two_prod(xh, y)
    cl2 = xl * y
    th, tl1 = _fast_two_sum(ch, cl2)
    return _fast_two_sum(th, tl1 + cl1)


@njit(cache=True)
def _dw_div_dw(xh, xl, yh, yl):
    th = xh / yh
    rh, rl = _dw_times_fp(yh, yl, th)
    delta = (xh - rh) + (xl - rl)
    return _fast_two_sum(th, delta / yh)


# a double-word quotient is trusted to round like the exact one only when it lies farther than
# CERTAIN (relative) from the midpoints between doubles: some 2^10 times its error bound
CERTAIN = 2.0**-90


@njit(cache=True)
def term_ratio(small, failures, j, population, draws, binomials, big, exact):
    """C(s, k) C(failures, j) / C(population, draws) as Python divides the two ints, with
    ``small`` = C(s, k): directly when the denominator is below 2^53 (then every numerator is
    too, and both are exact doubles); else as a double-word quotient of the tabled binomials,
    when that settles the rounding; else (or with ``exact``) by big-integer division."""
    if j > failures:
        return 0.0
    hi, lo = binomials[0], binomials[1]
    bh, bl = hi[population, draws], lo[population, draws]
    if not exact:
        if bl == 0.0 and bh < 9007199254740992.0:  # 2^53: one correctly rounded division
            return (small * hi[failures, j]) / bh
        ah, al = _dw_times_fp(hi[failures, j], lo[failures, j], float(small))
        s, err = _dw_div_dw(ah, al, bh, bl)
        margin = CERTAIN * s
        above = np.nextafter(s, np.inf) - s  # the gaps to the neighbouring doubles
        below = s - np.nextafter(s, 0.0)
        if err + margin < 0.5 * above and err - margin > -0.5 * below:
            return s
    a, b = big[2], big[3]
    big_comb(a, failures, j)
    big_mul_small(a, small)
    big_comb(b, population, draws)
    return big_true_divide(a, b, big)


@njit(cache=True)
def hypergeometric(population, successes, draws, binomials, out, big, exact=False):
    """Fills out[k] = P(X = k), k = 0 … min(successes, draws), X ~ Hypergeometric(population,
    successes, draws), each term as the reference computes it; returns how many terms.
    Uses big[0] … big[3]; ``exact`` takes the big-integer road for every term."""
    kmax = min(successes, draws)
    failures = population - successes
    small = 1  # C(successes, k) for k = kmax, going down: C(s, k - 1) = C(s, k) k / (s - k + 1)
    for i in range(kmax):
        small = small * (successes - i) // (i + 1)
    for j in range(draws - kmax, draws + 1):  # j = draws - k: the failures drawn
        k = draws - j
        out[k] = term_ratio(small, failures, j, population, draws, binomials, big, exact)
        small = small * k // (successes - k + 1)
    return kmax + 1


@njit(cache=True)
def python_sum(values, start, stop, compensated):
    """``sum(values[start:stop])`` of Python floats, as the running Python adds them: the int 0
    plus the first term, then left to right (compensated from Python 3.12 on, Neumaier)."""
    if stop <= start:
        return 0.0
    total = values[start]
    if not compensated:
        for i in range(start + 1, stop):
            total += values[i]
        return total
    c = 0.0
    for i in range(start + 1, stop):
        x = values[i]
        t = total + x
        if abs(total) >= abs(x):
            c += (total - t) + x
        else:
            c += (x - t) + total
        total = t
    if c != 0.0 and math.isfinite(c):
        total += c
    return total


# -- reading one row (the reference's Table) -----------------------------------------------


@njit(cache=True)
def _count(x, scale):
    """A count field's entry, decoded as the layout does: rint(x · scale) in float64."""
    return int(np.rint(np.float64(x) * scale))


@njit(cache=True)
def _argmax(row, start, size):
    """np.argmax of a field: the first maximum."""
    best = 0
    for i in range(1, size):
        if row[start + i] > row[start + best]:
            best = i
    return best


@njit(cache=True)
def in_window(row, cfg):
    return row[cfg[O_PHASE] + DOUBT_WINDOW] > 0.5


@njit(cache=True)
def read_ranks(row, start, scale, out):
    for r in range(R):
        out[r] = _count(row[start + r], scale)


@njit(cache=True)
def claimer(row, cfg):
    """The newest play's claimer (relative seat): the argmax of its one-hot."""
    return _argmax(row, cfg[O_HISTORY], cfg[N])


@njit(cache=True)
def claim_count(row, cfg):
    return _count(row[cfg[O_HISTORY] + cfg[N]], np.float64(cfg[DECK]))


@njit(cache=True)
def hand_size(row, seat, cfg):
    return _count(row[cfg[O_HAND_SIZES] + seat], np.float64(cfg[DECK]))


@njit(cache=True)
def copies_unplaced(row, rank, cfg):
    """Table.copies_unplaced: copies of ``rank`` not in my hand, not among my pile cards, not
    certainly held by any opponent."""
    copies = np.float64(cfg[COPIES])
    left = cfg[COPIES] - _count(row[cfg[O_HAND] + rank], copies) - _count(row[cfg[O_MINE] + rank], copies)
    for o in range(cfg[N] - 1):
        left -= _count(row[cfg[O_KNOWN] + o * R + rank], copies)
    return left


@njit(cache=True)
def claim_impossible(row, cfg):
    rank = _argmax(row, cfg[O_CLAIM_RANK], R)
    return claim_count(row, cfg) > copies_unplaced(row, rank, cfg)


@njit(cache=True)
def claim_false_probability(row, cfg, params, binomials, terms, big):
    """Table.claim_false_probability with its default ``extra_card``, operation for operation."""
    if claim_impossible(row, cfg):
        return 1.0
    n, copies = cfg[N], np.float64(cfg[COPIES])
    c = claim_count(row, cfg)
    # claimer_holding: the opponents' unseen cards, the claimer's with his play put back
    who = claimer(row, cfg) - 1
    if who < 0:  # the reference's index -1: the last opponent
        who += n - 1
    population = draws = 0
    for o in range(n - 1):
        known = 0
        for r in range(R):
            known += _count(row[cfg[O_KNOWN] + o * R + r], copies)
        unseen = max(hand_size(row, o + 1, cfg) - known, 0)
        if o == who:
            unseen += c
            draws = unseen
        population += unseen
    rank = _argmax(row, cfg[O_CLAIM_RANK], R)
    successes = min(copies_unplaced(row, rank, cfg), population)
    size = hypergeometric(population, successes, draws, binomials, terms, big)
    extra = params[EXTRA_CARD]
    false = (terms[0] if c == 1 else 0.0) + (extra * terms[c - 1] if 1 <= c - 1 < size else 0.0)
    true = (1.0 - extra) * python_sum(terms, c, size, cfg[COMPENSATED] != 0)
    return false / (false + true) if false + true > 0 else 1.0


# -- the heuristics ---------------------------------------------------------------------


@njit(cache=True)
def doubts(style, row, cfg, params, binomials, terms, big):
    """Whether ``style`` says "I doubt it" to the claim under doubt."""
    if style == ALWAYS_CHALLENGE:
        return True
    if style == NEVER_CHALLENGE:
        return False
    if claim_impossible(row, cfg):
        return True
    if style == COUNTER:
        if hand_size(row, claimer(row, cfg), cfg) == 0:
            return True  # he goes out unless somebody doubts (last_play_checked=False)
        return claim_false_probability(row, cfg, params, binomials, terms, big) > params[COUNTER_THRESHOLD]
    if style == BLUFFER:
        return claim_false_probability(row, cfg, params, binomials, terms, big) >= params[BLUFFER_THRESHOLD]
    return False  # honest: impossible claims only


@njit(cache=True)
def turns_until_named(rank, required, cfg):
    """Table.turns_until_named: how many of my turns until I must name ``rank``."""
    for k in range(1, R + 1):
        if ((required + k * cfg[N] * cfg[STEP]) % R + R) % R == rank:
            return k
    return R


@njit(cache=True)
def least_needed_one(hand, plan, required, cfg):
    """least_needed(table, plan, 1): the spare rank I must name last (the first in rank order
    among equals, as a stable sort keeps them), -1 when nothing is spare."""
    best, best_turns = -1, -1
    for r in range(R):
        if hand[r] - plan[r] > 0:
            turns = turns_until_named(r, required, cfg)
            if turns > best_turns:
                best, best_turns = r, turns
    return best


@njit(cache=True)
def continues(plan, hand, building, cfg):
    """IDoubtItHeuristic._continues: can ``plan`` still be completed from ``building``?"""
    total, highest = 0, -1
    for r in range(R):
        if building[r] > plan[r] or plan[r] > hand[r]:
            return False
        total += plan[r]
        if building[r] > 0:
            highest = r
    if total > cfg[CAP]:
        return False
    for r in range(highest if highest > 0 else 0):
        if plan[r] != building[r]:
            return False
    return True


@njit(cache=True)
def next_step(plan, building):
    for r in range(R):
        if building[r] < plan[r]:
            return ADD0 + r
    return DONE


@njit(cache=True)
def next_addition(style, row, u, cfg, params, work):
    """IDoubtItHeuristic._next_addition: the plans from the table at the play's first step
    (``hand`` still holds the cards chosen so far), the next step of those still possible."""
    hand, building, honest, shed = work[0], work[1], work[2], work[3]
    copies = np.float64(cfg[COPIES])
    read_ranks(row, cfg[O_HAND], copies, hand)
    read_ranks(row, cfg[O_BUILDING], copies, building)
    required = _argmax(row, cfg[O_REQUIRED], R)
    # honest_plan: all my cards of the named rank; without any, the single card I need last
    honest[:] = 0
    held = hand[required]
    if held > 0:
        honest[required] = min(held, cfg[CAP])
    else:
        r = least_needed_one(hand, honest, required, cfg)
        if r < 0:
            return DONE  # no card at all (the reference has no plan either): "done" if legal
        honest[r] += 1
    # Bluffer.shed_plan: one more card, the one it needs last
    has_shed = False
    if style == BLUFFER and honest[required] > 0 and honest.sum() < cfg[CAP]:
        r = least_needed_one(hand, honest, required, cfg)
        if r >= 0:
            shed[:] = honest
            shed[r] += 1
            has_shed = not (cfg[LAST_CHECKED] != 0 and shed.sum() == hand.sum())
    honest_live = continues(honest, hand, building, cfg)
    shed_live = has_shed and continues(shed, hand, building, cfg)
    if honest_live and shed_live:
        a, b = next_step(honest, building), next_step(shed, building)
        if a == b:
            return a
        return b if u < params[SHED_CHANCE] else a
    if honest_live:
        return next_step(honest, building)
    if shed_live:
        return next_step(shed, building)
    return DONE  # a play consistent with no plan: finish it as it stands


@njit(cache=True)
def decide(style, row, mask, u, cfg, params, binomials, work, terms, big):
    """IDoubtItHeuristic.decide for one row: -1 when the mask allows nothing."""
    first = -1
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            first = a
            break
    if first < 0:
        return -1
    if in_window(row, cfg):
        action = DOUBT if doubts(style, row, cfg, params, binomials, terms, big) else PASS
    else:
        action = next_addition(style, row, u, cfg, params, work)
    if mask[action] == 0:  # the reference's fallback: the first legal action
        action = first
    return action


@njit(cache=True)
def act(style, obs, mask, u, cfg, params, binomials, work, terms, big, out):
    for i in range(obs.shape[0]):
        out[i] = decide(style, obs[i], mask[i], u[i], cfg, params, binomials, work, terms, big)
