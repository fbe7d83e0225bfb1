"""The numba kernels of the batched Seven Spades heuristics (``agents.batched.seven_spades``).

Each kernel reads one observation row straight from the float32 vector, decoding only the
fields it needs the way :meth:`bluff_envs.layout.ObservationLayout.decode` does (a count field
is ``rint(float64(x) * scale)``; a flag or one-hot field is read as it is), and then follows
the reference heuristic (``agents/heuristics/seven_spades.py``) step by step, in the same
float64 operations in the same order, so that every threshold comparison comes out the same.

Two small arrays describe a game, built once by :func:`config` and :func:`params`:

``cfg`` (int64)
    the table (``N`` players, ``DECKS``, ``TARGET``) and the offsets of the observation fields.
``params`` (float64)
    the heuristics' constants, read from the reference classes (not copied here: numba bakes
    module globals into its on-disk cache, which a change of the reference would not refresh).
"""

from __future__ import annotations

import inspect

import numpy as np
from numba import njit

from agents.heuristics import seven_spades as reference
from bluff_envs.cards import SPADES
from bluff_envs.seven_spades.actions import CHALLENGE, CHALLENGE_WINDOW, CLAIM, CLAIM_FACE_UP, DISCARD, PASS
from bluff_envs.seven_spades.view import HISTORY, NUM_CARDS

# the heuristics, as the kernels tell them apart
HONEST, COUNTER, BLUFFER, ALWAYS_CHALLENGE, NEVER_CHALLENGE, ALWAYS_CLAIM = range(6)
STYLES = {
    reference.Honest: HONEST,
    reference.Counter: COUNTER,
    reference.Bluffer: BLUFFER,
    reference.AlwaysChallenge: ALWAYS_CHALLENGE,
    reference.NeverChallenge: NEVER_CHALLENGE,
    reference.AlwaysClaim: ALWAYS_CLAIM,
}

# cfg entries
N, DECKS, TARGET = 0, 1, 2
O_DRAWN, O_MY_ROW, O_PHASE, O_CLAIMER, O_ROW, O_FACE_UP, O_IN_GAME, O_SEEN, O_HISTORY = range(3, 12)
RECORD, WINDOWS = 12, 13  # one history record's size (3n + 2), and how many records there are
CFG_SIZE = 14

# params entries
(COUNTER_THRESHOLD, COUNTER_CLOSING, COUNTER_CAUTION, BLUFFER_RATE, BLUFFER_THRESHOLD,
 PRIOR_BLUFF_RATE, STANDING_SPADES, PRIOR_WEIGHT) = range(8)
PARAMS_SIZE = 8


def config(game) -> np.ndarray:
    """``cfg`` for a game (a :class:`agents.base.GameInfo`)."""
    lay, c = game.layout, game.config
    cfg = np.zeros(CFG_SIZE, np.int64)
    cfg[N], cfg[DECKS], cfg[TARGET] = game.num_players, c.num_decks, c.target
    for entry, name in ((O_DRAWN, "drawn"), (O_MY_ROW, "my_row"), (O_PHASE, "phase"), (O_CLAIMER, "claimer"),
                        (O_ROW, "row_lengths"), (O_FACE_UP, "face_up_spades"), (O_IN_GAME, "in_game"),
                        (O_SEEN, "seen"), (O_HISTORY, "history")):
        cfg[entry] = lay[name].start
    cfg[RECORD] = 3 * game.num_players + 2
    cfg[WINDOWS] = HISTORY
    # the kernels decode with these scales; the layout must agree
    assert lay.scale("row_lengths") == lay.scale("face_up_spades") == c.target
    assert lay.scale("seen") == lay.scale("my_row") == c.num_decks
    assert all(lay.scale(name) == 1.0 for name in ("drawn", "phase", "claimer", "in_game", "history"))
    assert lay["history"].stop - lay["history"].start == HISTORY * cfg[RECORD]
    return cfg


def params() -> np.ndarray:
    """``params``: the reference heuristics' constants, and the defaults of
    :meth:`~agents.heuristics.seven_spades.Table.claim_false_probability` (which both
    ``counter`` and ``bluffer`` call with its defaults)."""
    signature = inspect.signature(reference.Table.claim_false_probability)
    defaults = {name: p.default for name, p in signature.parameters.items() if p.default is not inspect.Parameter.empty}
    out = np.zeros(PARAMS_SIZE, np.float64)
    out[COUNTER_THRESHOLD] = reference.Counter.threshold
    out[COUNTER_CLOSING] = reference.Counter.closing_threshold
    out[COUNTER_CAUTION] = reference.Counter.caution
    out[BLUFFER_RATE] = reference.Bluffer.bluff_rate
    out[BLUFFER_THRESHOLD] = reference.Bluffer.threshold
    out[PRIOR_BLUFF_RATE] = defaults["bluff_rate"]
    out[STANDING_SPADES] = defaults["standing_spades"]
    out[PRIOR_WEIGHT] = defaults["weight"]
    return out


# -- reading one row (the reference's Table) -----------------------------------------------


@njit(cache=True)
def _count(x, scale):
    """A count field's entry, decoded as the layout does: rint(x · scale) in float64."""
    return int(np.rint(np.float64(x) * scale))


@njit(cache=True)
def in_window(row, cfg):
    return row[cfg[O_PHASE] + CHALLENGE_WINDOW] > 0.5


@njit(cache=True)
def drawn_card(row, cfg):
    """The card in my hand (the first nonzero of ``drawn``), -1 for none."""
    o = cfg[O_DRAWN]
    for card in range(NUM_CARDS):
        if row[o + card] != 0.0:
            return card
    return -1


@njit(cache=True)
def row_length(row, seat, cfg):
    return _count(row[cfg[O_ROW] + seat], np.float64(cfg[TARGET]))


@njit(cache=True)
def players_in(row, cfg):
    count = 0
    for seat in range(cfg[N]):
        if row[cfg[O_IN_GAME] + seat] > 0.5:
            count += 1
    return count


@njit(cache=True)
def opponents_best(row, cfg):
    """The longest row among the opponents still in (0 when none is)."""
    best = 0
    for seat in range(1, cfg[N]):
        if row[cfg[O_IN_GAME] + seat] > 0.5:
            best = max(best, row_length(row, seat, cfg))
    return best


@njit(cache=True)
def claimer(row, cfg):
    """The claimer's relative seat: the argmax of the ``claimer`` one-hot (first maximum)."""
    o = cfg[O_CLAIMER]
    best = 0
    for seat in range(1, cfg[N]):
        if row[o + seat] > row[o + best]:
            best = seat
    return best


@njit(cache=True)
def unplaced_spades_and_cards(row, cfg):
    """(cards, spades) whose place I do not know: the deck less the cards seen face up, my
    face-down row and the card in my hand. Every term is a whole number, so summing them as
    integers gives the reference's float sums exactly."""
    decks = np.float64(cfg[DECKS])
    drawn = drawn_card(row, cfg)
    known = known_spades = 0
    for card in range(NUM_CARDS):
        k = _count(row[cfg[O_SEEN] + card], decks) + _count(row[cfg[O_MY_ROW] + card], decks)
        if card == drawn:
            k += 1
        known += k
        if card & 3 == SPADES:
            known_spades += k
    return NUM_CARDS * cfg[DECKS] - known, 13 * cfg[DECKS] - known_spades


@njit(cache=True)
def claim_impossible(row, cfg):
    return unplaced_spades_and_cards(row, cfg)[1] == 0


@njit(cache=True)
def standing_claims(row, cfg):
    """Face-down cards in the opponents' rows, the claim under challenge excepted."""
    target = np.float64(cfg[TARGET])
    face_down = 0
    for seat in range(1, cfg[N]):
        face_down += row_length(row, seat, cfg) - _count(row[cfg[O_FACE_UP] + seat], target)
    if in_window(row, cfg):
        face_down -= 1
    return max(face_down, 0)


@njit(cache=True)
def recent_challenges(row, cfg):
    """(claims challenged, claims) among the challenge windows of the history: a record is a
    window when its claimer one-hot is set, challenged when someone in it challenged."""
    n, h, size = cfg[N], cfg[O_HISTORY], cfg[RECORD]
    challenged = windows = 0
    for k in range(cfg[WINDOWS]):
        record = h + k * size
        claimers = challengers = 0.0
        for seat in range(n):
            claimers += row[record + seat]
            challengers += row[record + n + seat]
        if claimers > 0:
            windows += 1
            if challengers > 0:
                challenged += 1
    return challenged, windows


@njit(cache=True)
def claim_false_probability(row, cfg, params):
    """P(the claim under challenge is false), Table.claim_false_probability with its
    defaults, operation for operation (the same roundings, so the same comparisons)."""
    cards, spades = unplaced_spades_and_cards(row, cfg)
    if spades == 0:
        return 1.0
    standing = standing_claims(row, cfg)
    free_cards = max(cards - standing, 1)
    p = min(max(spades - params[STANDING_SPADES] * standing, 0.5) / free_cards, 1.0)
    bluff_rate = params[PRIOR_BLUFF_RATE]
    estimate = (1 - p) * bluff_rate / ((1 - p) * bluff_rate + p)
    # how the recently challenged claims turned out: each is 0 or 1, so the float sums are exact
    n, h, size = cfg[N], cfg[O_HISTORY], cfg[RECORD]
    true_claims = false_claims = 0.0
    for k in range(cfg[WINDOWS]):
        true_claims += row[h + k * size + 3 * n]
        false_claims += row[h + k * size + 3 * n + 1]
    weight = params[PRIOR_WEIGHT]
    return (weight * estimate + false_claims) / (weight + true_claims + false_claims)


@njit(cache=True)
def bluffer_bluff_probability(challenged, windows, players, params):
    """Bluffer.bluff_probability: bluff_rate · (1 − s)², s the (smoothed) share of recent
    claims challenged; with two players in, the history shows none (s = ½)."""
    if players == 2:
        challenged = windows = 0
    share = (challenged + 0.5) / (windows + 1.0)
    keep = 1.0 - share
    # The reference squares with Python's ``** 2`` (libm's pow), numba's ``** 2`` multiplies;
    # the two can differ in the last bit for some doubles. The share takes only the few values
    # (c + ½)/(w + 1), w <= HISTORY, and for each of them pow and the product agree (the tests
    # check every one), so the product is written out here, where it says what it computes.
    return params[BLUFFER_RATE] * (keep * keep)


# -- the heuristics ---------------------------------------------------------------------


@njit(cache=True)
def claims(style, row, u, cfg, params):
    """Whether ``style`` claims its drawn card face down (the mask allows it)."""
    drawn = drawn_card(row, cfg)
    if drawn >= 0 and drawn & 3 == SPADES:
        return True  # every heuristic claims a real spade
    if style == COUNTER:
        best = opponents_best(row, cfg)
        if best >= cfg[TARGET] - 1 and row_length(row, 0, cfg) < best:
            return True  # he wins with his next spade: a caught bluff costs little more
        challenged, windows = recent_challenges(row, cfg)
        return windows == cfg[WINDOWS] and challenged == 0 and players_in(row, cfg) > 2
    if style == BLUFFER:
        challenged, windows = recent_challenges(row, cfg)
        return u < bluffer_bluff_probability(challenged, windows, players_in(row, cfg), params)
    return style == ALWAYS_CLAIM  # honest and the two challenge diagnostics bluff never


@njit(cache=True)
def challenges(style, row, cfg, params):
    """Whether ``style`` challenges the claim under challenge."""
    if style == ALWAYS_CHALLENGE:
        return True
    if style == NEVER_CHALLENGE:
        return False
    if claim_impossible(row, cfg):
        return True
    if style == COUNTER:
        target = cfg[TARGET]
        limit = params[COUNTER_THRESHOLD]
        if row_length(row, claimer(row, cfg), cfg) >= target - 1:
            limit = params[COUNTER_CLOSING]
        if row_length(row, 0, cfg) >= target - 1:
            limit += params[COUNTER_CAUTION]
        return claim_false_probability(row, cfg, params) > limit
    if style == BLUFFER:
        closing = row_length(row, claimer(row, cfg), cfg) >= cfg[TARGET] - 1
        return closing and claim_false_probability(row, cfg, params) >= params[BLUFFER_THRESHOLD]
    return False  # honest: impossible claims only


@njit(cache=True)
def decide(style, row, mask, u, cfg, params):
    """SevenSpadesHeuristic.decide for one row: -1 when the mask allows nothing."""
    if in_window(row, cfg):
        action = CHALLENGE if challenges(style, row, cfg, params) else PASS
    elif mask[CLAIM_FACE_UP] != 0:
        action = CLAIM_FACE_UP  # a real spade at target-1: it wins at once
    elif mask[CLAIM] != 0 and claims(style, row, u, cfg, params):
        action = CLAIM
    else:
        action = DISCARD
    if mask[action] == 0:  # the reference's fallback: the first legal action
        action = -1
        for a in range(mask.shape[0]):
            if mask[a] != 0:
                action = a
                break
    return action


@njit(cache=True)
def act(style, obs, mask, u, cfg, params, out):
    for i in range(obs.shape[0]):
        out[i] = decide(style, obs[i], mask[i], u[i], cfg, params)
