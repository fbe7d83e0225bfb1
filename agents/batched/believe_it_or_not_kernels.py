"""The numba kernels of the batched Believe It or Not heuristics (``agents.batched.believe_it_or_not``).

Each kernel reads one observation row straight from the float32 vector, decoding only the
fields it needs the way :meth:`bluff_envs.layout.ObservationLayout.decode` does (a count field
is ``rint(float64(x) * scale)``; a flag or one-hot field is read as it is, its argmax the
first maximum), and then follows the reference heuristic
(``agents/heuristics/believe_it_or_not.py``) step by step, in the same float64 operations in
the same order, so that every threshold comparison comes out the same.

Three arrays describe a game, built once by :func:`config`, :func:`params` and :func:`pmf_table`:

``cfg`` (int64)
    the table (``N`` players, copies of a rank, deck size, the heuristics' cap, the lowest
    rank), ``bluffer``'s ``extra`` and the offsets and scales of the observation fields.
``params`` (float64)
    the heuristics' constants, read from the reference classes (not copied here: numba bakes
    module globals into its on-disk cache, which a change of the reference would not refresh).
``pmf`` (float64 ``[P+1, S+1, P+1, S+1]``)
    ``pmf[population, successes, draws, k]``: the reference's own
    :func:`~agents.heuristics.believe_it_or_not.hypergeometric` for every argument a game can
    give it (``P`` the deck size, ``S`` the copies of a rank). The reference divides exact
    integers (``math.comb``), a correctly rounded quotient that no float64 formula reproduces
    in general, so the kernels look its values up instead of computing them.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np
from numba import njit

from agents.heuristics import believe_it_or_not as reference
from bluff_envs.believe_it_or_not.actions import ADD0, BELIEVE, DISBELIEVE, DONE, NAME, NAME0, RESPOND
from bluff_envs.believe_it_or_not.view import HISTORY
from bluff_envs.cards import NUM_RANKS

# the heuristics, as the kernels tell them apart
HONEST, COUNTER, BLUFFER, ALWAYS_CHALLENGE, NEVER_CHALLENGE = range(5)
STYLES = {
    reference.Honest: HONEST,
    reference.Counter: COUNTER,
    reference.Bluffer: BLUFFER,
    reference.AlwaysChallenge: ALWAYS_CHALLENGE,
    reference.NeverChallenge: NEVER_CHALLENGE,
}
PLAY = -2  # respond's "start a play of plan()" (the reference's PLAY); -1 is "no action"

# cfg entries
N, COPIES, DECK_SIZE, CAP, LOWEST_RANK, BLUFFER_EXTRA = range(6)
(O_HAND, O_BUILDING, O_MINE, O_OUT_KNOWN, O_KNOWN, O_PHASE, O_RANK, O_PILE_SIZE, O_LAST_SIZE, O_LAST_BY,
 O_OUT_SIZE, O_HAND_SIZES, O_CALLS) = range(6, 19)
RECORD, RECORDS = 19, 20  # one call record's size (3n + 4), and how many records there are
LAST_SCALE = 21  # the scale of "last_play_size" (the cap, at most the deck)
CFG_SIZE = 22

# params entries
COUNTER_THRESHOLD, COUNTER_THRESHOLD_HOLDING, BLUFFER_THRESHOLD, BLUFF_WITHOUT, EXTRA_BLUFF, NUM_SIZES = range(6)
SIZES = 6  # bluff_sizes[0 …] from here on


def config(game) -> np.ndarray:
    """``cfg`` for a game (a :class:`agents.base.GameInfo`)."""
    lay, c = game.layout, game.config
    n = game.num_players
    copies, size = 4 * c.num_decks, c.deck * c.num_decks
    cfg = np.zeros(CFG_SIZE, np.int64)
    cfg[N], cfg[COPIES], cfg[DECK_SIZE], cfg[LOWEST_RANK] = n, copies, size, c.lowest_rank
    cfg[CAP] = c.max_cards_per_play if c.max_cards_per_play is not None else size  # the reference's cap
    cfg[BLUFFER_EXTRA] = reference.Bluffer.extra
    for entry, name in ((O_HAND, "hand"), (O_BUILDING, "building"), (O_MINE, "my_cards_in_pile"),
                        (O_OUT_KNOWN, "out_of_play_known"), (O_KNOWN, "known_cards"), (O_PHASE, "phase"),
                        (O_RANK, "round_rank"), (O_PILE_SIZE, "pile_size"), (O_LAST_SIZE, "last_play_size"),
                        (O_LAST_BY, "last_play_by"), (O_OUT_SIZE, "out_of_play_size"),
                        (O_HAND_SIZES, "hand_sizes"), (O_CALLS, "calls")):  # fmt: skip
        cfg[entry] = lay[name].start
    cfg[RECORD] = 3 * n + 4
    cfg[RECORDS] = HISTORY
    cfg[LAST_SCALE] = int(lay.scale("last_play_size"))
    # the kernels decode with these scales; the layout must agree
    for name in ("hand", "building", "my_cards_in_pile", "out_of_play_known", "known_cards"):
        assert lay.scale(name) == copies, name
    for name in ("pile_size", "out_of_play_size", "hand_sizes"):
        assert lay.scale(name) == size, name
    assert lay.scale("last_play_size") == cfg[LAST_SCALE]
    assert all(lay.scale(name) == 1.0 for name in ("phase", "round_rank", "last_play_by", "calls"))
    assert not any(lay.is_squashed(name) for name in reference.BelieveItOrNotHeuristic.FIELDS)
    assert lay["calls"].stop - lay["calls"].start == HISTORY * cfg[RECORD]
    assert lay["known_cards"].stop - lay["known_cards"].start == (n - 1) * NUM_RANKS
    return cfg


def params() -> np.ndarray:
    """``params``: the reference heuristics' constants, and the defaults of
    :meth:`~agents.heuristics.believe_it_or_not.Table.claim_false_probability` (which
    ``counter`` and ``bluffer`` call with its defaults)."""
    signature = inspect.signature(reference.Table.claim_false_probability)
    defaults = {name: p.default for name, p in signature.parameters.items() if p.default is not inspect.Parameter.empty}
    sizes = tuple(defaults["bluff_sizes"])
    out = np.zeros(SIZES + len(sizes), np.float64)
    out[COUNTER_THRESHOLD] = reference.Counter.threshold
    out[COUNTER_THRESHOLD_HOLDING] = reference.Counter.threshold_holding
    out[BLUFFER_THRESHOLD] = reference.Bluffer.threshold
    out[BLUFF_WITHOUT] = defaults["bluff_without"]
    out[EXTRA_BLUFF] = defaults["extra_bluff"]
    out[NUM_SIZES] = len(sizes)
    out[SIZES:] = sizes
    return out


@functools.lru_cache(maxsize=None)
def pmf_table(population: int, copies: int) -> np.ndarray:
    """``pmf[p, s, d, k]`` = ``hypergeometric(p, s, d)[k]`` (the reference function itself)
    for ``p <= population``, ``s <= min(copies, p)``, ``d <= p``, ``k <= min(s, d)``; zero
    elsewhere. Read-only, shared by every batched agent of such a game."""
    out = np.zeros((population + 1, copies + 1, population + 1, copies + 1), np.float64)
    for p in range(population + 1):
        for s in range(min(copies, p) + 1):
            for d in range(p + 1):
                values = reference.hypergeometric(p, s, d)
                out[p, s, d, : len(values)] = values
    out.flags.writeable = False
    return out


# -- reading one row (the reference's Table) -----------------------------------------------


@njit(cache=True)
def _count(x, scale):
    """A count field's entry, decoded as the layout does: rint(x · scale) in float64."""
    return int(np.rint(np.float64(x) * scale))


@njit(cache=True)
def _argmax(row, start, size):
    """np.argmax of a one-hot field (the first maximum), -1 when it is all zero (``any()``)."""
    best = 0
    nonzero = False
    for i in range(size):
        if row[start + i] != 0.0:
            nonzero = True
        if row[start + i] > row[start + best]:
            best = i
    return best if nonzero else -1


@njit(cache=True)
def read_counts(row, start, scale, out):
    """Thirteen counts by rank (a field scaled by ``scale``) into ``out``; returns their sum."""
    total = 0
    for r in range(NUM_RANKS):
        out[r] = _count(row[start + r], scale)
        total += out[r]
    return total


@njit(cache=True)
def phase_of(row, cfg):
    """np.argmax of the phase one-hot (the first maximum)."""
    o = cfg[O_PHASE]
    best = 0
    for p in range(1, 3):
        if row[o + p] > row[o + best]:
            best = p
    return best


@njit(cache=True)
def maker_of(row, cfg):
    return _argmax(row, cfg[O_LAST_BY], cfg[N])


@njit(cache=True)
def hand_size(row, seat, cfg):
    return _count(row[cfg[O_HAND_SIZES] + seat], np.float64(cfg[DECK_SIZE]))


@njit(cache=True)
def claim_count(row, cfg):
    return _count(row[cfg[O_LAST_SIZE]], np.float64(cfg[LAST_SCALE]))


@njit(cache=True)
def copies_unplaced(row, rank, hand, cfg):
    """Table.copies_unplaced: the copies of ``rank`` not in my hand, my pile cards, the cards
    known out of play or the cards an opponent certainly holds."""
    copies = np.float64(cfg[COPIES])
    count = cfg[COPIES] - hand[rank] - _count(row[cfg[O_MINE] + rank], copies)
    count -= _count(row[cfg[O_OUT_KNOWN] + rank], copies)
    for j in range(cfg[N] - 1):
        count -= _count(row[cfg[O_KNOWN] + j * NUM_RANKS + rank], copies)
    return count


@njit(cache=True)
def claim_impossible(row, rank, hand, cfg):
    return claim_count(row, cfg) > copies_unplaced(row, rank, hand, cfg)


@njit(cache=True)
def maker_went_out(row, cfg):
    maker = maker_of(row, cfg)
    return maker > 0 and hand_size(row, maker, cfg) == 0


@njit(cache=True)
def maker_record(row, maker, cfg):
    """(honest, false): the maker's plays among the recent calls, as they were turned up. Every
    entry is 0 or 1, so the float sums of the reference are these counts exactly."""
    n, o, size = cfg[N], cfg[O_CALLS], cfg[RECORD]
    honest = false = 0
    if maker < 0:
        return 0, 0
    for i in range(cfg[RECORDS]):
        record = o + i * size
        if row[record + n + 4 + maker] > 0.5:
            honest += int(row[record + n + 2])
            false += int(row[record + n + 3])
    return honest, false


@njit(cache=True)
def claim_false_probability(row, rank, hand, cfg, params, pmf, holding):
    """Table.claim_false_probability with its defaults, operation for operation: the prior
    (Table.maker_holding, the hypergeometric looked up in ``pmf``), the maker's record, and
    Bayes' rule summed in the same order. ``holding`` is scratch (at least copies + 1)."""
    c = claim_count(row, cfg)
    unplaced = copies_unplaced(row, rank, hand, cfg)
    if c > unplaced:
        return 1.0
    n = cfg[N]
    maker = maker_of(row, cfg)
    copies = np.float64(cfg[COPIES])
    size = np.float64(cfg[DECK_SIZE])
    # Table.maker_holding
    unseen_total = 0
    maker_unseen = 0
    for seat in range(1, n):
        known = 0
        for r in range(NUM_RANKS):
            known += _count(row[cfg[O_KNOWN] + (seat - 1) * NUM_RANKS + r], copies)
        unseen = max(hand_size(row, seat, cfg) - known, 0)
        unseen_total += unseen
        if seat == maker:
            maker_unseen = unseen
    draws = maker_unseen + c  # his play came out of his unseen cards
    pile_size = _count(row[cfg[O_PILE_SIZE]], size)
    mine = 0
    out_known = 0
    for r in range(NUM_RANKS):
        mine += _count(row[cfg[O_MINE] + r], copies)
        out_known += _count(row[cfg[O_OUT_KNOWN] + r], copies)
    pile_unseen = pile_size - mine
    out_unseen = max(_count(row[cfg[O_OUT_SIZE]], size) - out_known, 0)
    population = unseen_total + pile_unseen + out_unseen
    successes = min(unplaced, population)
    draws = min(draws, population)
    if population >= pmf.shape[0] or successes >= pmf.shape[1] or successes < 0:
        raise ValueError("believe_it_or_not kernel: a hypergeometric outside the table")
    length = min(successes, draws) + 1
    for k in range(length):
        holding[k] = pmf[population, successes, draws, k]
    if pile_size == c and length > 1 and holding[0] < 1.0:  # a lead: he holds at least one
        h0 = holding[0]
        holding[0] = 0.0
        for k in range(1, length):
            holding[k] = holding[k] / (1.0 - h0)
    # the maker's record: a maker caught bluffing lately bluffs more likely, one found honest less
    honest, false_plays = maker_record(row, maker, cfg)
    weight = 2.0 ** (false_plays - honest)  # a power of two, exact however computed
    bluff_without = min(0.95, params[BLUFF_WITHOUT] * weight)
    extra_bluff = min(0.95, params[EXTRA_BLUFF] * weight)
    num_sizes = int(params[NUM_SIZES])
    false = true = 0.0
    for x in range(length):
        prior = holding[x]
        if x == 0:
            s = params[SIZES + c - 1] if c <= num_sizes else 0.0
            false += prior * bluff_without * s
        elif x < c:
            s = params[SIZES + c - x - 1] if c - x <= num_sizes else 0.0
            false += prior * extra_bluff * s
        else:
            true += prior * (1.0 - extra_bluff) * (1.0 if x == c else 0.5)
    return false / (false + true) if false + true > 0 else 0.0


# -- plans ------------------------------------------------------------------------------


@njit(cache=True)
def add_spare_cards(hand, plan, k):
    """BelieveItOrNotHeuristic.spare_cards, added to ``plan``: up to ``k`` cards of the hand
    not in it, the ranks with the fewest spare cards first (ties: the lower rank), each rank's
    spare cards taken together. The spare counts are those before any is added."""
    spare = hand - plan
    picked = 0
    last_spare, last_rank = -1, -1  # the key (spare, rank) of the last rank taken
    while picked < k:
        best = -1
        for r in range(NUM_RANKS):
            if spare[r] <= 0:
                continue
            if spare[r] < last_spare or (spare[r] == last_spare and r <= last_rank):
                continue  # taken already, it sorts at or before the last one
            if best < 0 or spare[r] < spare[best]:
                best = r  # the first of equal counts is the lowest rank
        if best < 0:
            break
        take = min(spare[best], k - picked)
        plan[best] += take
        picked += take
        last_spare, last_rank = spare[best], best


@njit(cache=True)
def honest_plan(hand, rank, cap, plan):
    """BelieveItOrNotHeuristic.honest_plan into ``plan``: all my cards of the round's rank (up
    to the cap), or else one card of the rank I hold fewest of."""
    plan[:] = 0
    held = hand[rank]
    if held:
        plan[rank] = min(held, cap)
    else:
        add_spare_cards(hand, plan, 1)


@njit(cache=True)
def make_plan(style, hand, rank, cfg, plan):
    """The style's plan(table) into ``plan``: honest_plan, or bluffer's (one ``extra`` card
    of the ranks it holds fewest of, kept honest when it would empty the hand)."""
    cap = cfg[CAP]
    if style != BLUFFER:
        honest_plan(hand, rank, cap, plan)
        return
    plan[:] = 0
    plan[rank] = min(hand[rank], cap)
    room = min(cfg[BLUFFER_EXTRA], cap - plan.sum())
    add_spare_cards(hand, plan, room)
    if plan.sum() == hand.sum() and plan[rank] < plan.sum():
        honest_plan(hand, rank, cap, plan)  # going out on a bluff: certainly checked


@njit(cache=True)
def continues(plan, hand, building, cap):
    """BelieveItOrNotHeuristic._continues: whether ``plan`` can still be completed from the
    cards chosen so far (ranks go in order, so nothing may be missing below the highest)."""
    total = 0
    highest = -1
    for r in range(NUM_RANKS):
        if building[r] > plan[r] or plan[r] > hand[r]:
            return False
        total += plan[r]
        if building[r] > 0:
            highest = r
    if total == 0 or total > cap:
        return False
    for r in range(max(highest, 0)):
        if plan[r] != building[r]:
            return False
    return True


@njit(cache=True)
def next_addition(style, hand, building, rank, cfg, plan):
    """BelieveItOrNotHeuristic._next_addition: the next rank of plan() (the plan of the table
    as decided: the hand is the whole hand until "done", and a plan reads nothing else that
    moves during a play), or "done"; a play that plan cannot complete is finished as it stands."""
    make_plan(style, hand, rank, cfg, plan)
    if not continues(plan, hand, building, cfg[CAP]):
        return DONE
    for r in range(NUM_RANKS):
        if building[r] < plan[r]:
            return ADD0 + r
    return DONE


# -- the heuristics ---------------------------------------------------------------------


@njit(cache=True)
def respond(style, row, rank, hand, cfg, params, pmf, plan, holding):
    """The style's respond(table) (the hand holds cards): BELIEVE, DISBELIEVE or PLAY."""
    if style == ALWAYS_CHALLENGE:
        return DISBELIEVE
    if style == NEVER_CHALLENGE:
        return PLAY if hand[rank] else BELIEVE
    if claim_impossible(row, rank, hand, cfg):
        return DISBELIEVE
    if style == COUNTER:
        if maker_went_out(row, cfg):
            return PLAY if hand[rank] else BELIEVE
        false = claim_false_probability(row, rank, hand, cfg, params, pmf, holding)
        if hand[rank]:
            return DISBELIEVE if false > params[COUNTER_THRESHOLD_HOLDING] else PLAY
        return DISBELIEVE if false > params[COUNTER_THRESHOLD] else BELIEVE
    if style == BLUFFER:
        if maker_went_out(row, cfg) and not hand[rank]:
            return BELIEVE
        if claim_false_probability(row, rank, hand, cfg, params, pmf, holding) >= params[BLUFFER_THRESHOLD]:
            return DISBELIEVE
        make_plan(style, hand, rank, cfg, plan)
        if plan[rank] == 0 and plan.sum() >= hand.sum():
            return BELIEVE  # a bluff with my last cards would be checked
        return PLAY
    # honest
    return PLAY if hand[rank] else BELIEVE  # (an impossible claim is disbelieved above)


@njit(cache=True)
def call(style, row, rank, hand, cfg, params, pmf, holding):
    """The style's call(table): believe or not, with no cards to add."""
    if style == ALWAYS_CHALLENGE:
        return DISBELIEVE
    if style == NEVER_CHALLENGE:
        return BELIEVE
    if claim_impossible(row, rank, hand, cfg):
        return DISBELIEVE
    if style == COUNTER:
        if maker_went_out(row, cfg):
            return BELIEVE
        return DISBELIEVE if claim_false_probability(row, rank, hand, cfg, params, pmf, holding) > params[
            COUNTER_THRESHOLD] else BELIEVE  # fmt: skip
    if style == BLUFFER:
        if not maker_went_out(row, cfg) and claim_false_probability(
            row, rank, hand, cfg, params, pmf, holding
        ) >= params[BLUFFER_THRESHOLD]:
            return DISBELIEVE
        return BELIEVE
    return BELIEVE  # honest


@njit(cache=True)
def decide(style, row, mask, u, cfg, params, pmf, hand, building, plan, holding):
    """BelieveItOrNotHeuristic.decide for one row: -1 when the mask allows nothing. ``hand``,
    ``building``, ``plan`` (13 each) and ``holding`` are scratch."""
    legal = False
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            legal = True
            break
    if not legal:
        return -1
    copies = np.float64(cfg[COPIES])
    held = read_counts(row, cfg[O_HAND], copies, hand)
    phase = phase_of(row, cfg)
    if phase == NAME:
        # lead_rank: the rank held most of, ties the higher rank
        best, most = cfg[LOWEST_RANK], -1
        for r in range(cfg[LOWEST_RANK], NUM_RANKS):
            if hand[r] >= most:
                best, most = r, hand[r]
        action = NAME0 + best
    else:
        rank = _argmax(row, cfg[O_RANK], NUM_RANKS)
        read_counts(row, cfg[O_BUILDING], copies, building)
        if phase == RESPOND:
            if held > 0:
                choice = respond(style, row, rank, hand, cfg, params, pmf, plan, holding)
            else:
                choice = call(style, row, rank, hand, cfg, params, pmf, holding)
        else:
            choice = PLAY  # BUILD: a play under way, go on with it
        action = next_addition(style, hand, building, rank, cfg, plan) if choice == PLAY else choice
    if mask[action] == 0:  # the reference's guard: the last legal action if "done" is, else the first
        first = last = -1
        for a in range(mask.shape[0]):
            if mask[a] != 0:
                if first < 0:
                    first = a
                last = a
        action = last if mask[DONE] != 0 else first
    return action


@njit(cache=True)
def act(style, obs, mask, u, cfg, params, pmf, out):
    hand = np.zeros(NUM_RANKS, np.int64)
    building = np.zeros(NUM_RANKS, np.int64)
    plan = np.zeros(NUM_RANKS, np.int64)
    holding = np.zeros(pmf.shape[3], np.float64)
    for i in range(obs.shape[0]):
        out[i] = decide(style, obs[i], mask[i], u[i], cfg, params, pmf, hand, building, plan, holding)

