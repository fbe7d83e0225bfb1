"""The numba kernels of batched ``rule_based`` Tarneeb (``agents/heuristics/tarneeb.py``).

One kernel, :func:`rule_based_actions`, reads each observation row and its mask and makes the
reference's choice, rule for rule. The reference's lists and ``min``/``max`` become loops over
card ids in ascending order, with strict comparisons where Python's ``min``/``max`` keep the
first of equals; its ``None`` (no trump, no declarer, no contract yet) is ``-1`` here. Every
field the heuristic reads has scale 1 in the layout, so the raw float32 values are its decoded
view: a one-hot is read with ``argmax`` semantics (the first largest entry) and a flag by being
non-zero, exactly as the reference's ``np.argmax`` / ``.any()`` / ``np.flatnonzero`` read them.

Cards are ids ``rank * 4 + suit`` (ranks 0 = two … 12 = ace); seats are relative to the
acting player: 0 me, 1 my left-hand opponent, 2 my partner, 3 my right-hand opponent.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from agents.heuristics.tarneeb import ACE, AVERAGE_PARTNER, KING, QUEEN
from bluff_envs.tarneeb.actions import (
    BIDDING,
    CARD0,
    DOUBLE,
    NO_DOUBLE,
    NO_TRUMP,
    PASS,
    PLAY,
    STRAINS,
    TRUMP,
    TRUMP0,
)

NONE = -1  # the reference's None: no trump suit, no declarer, no card
NUM_STRAINS = len(STRAINS)

# offsets of the observation fields the heuristic reads, in ``offsets`` (see the class module)
F_PHASE, F_HAND, F_DECLARER, F_STRAIN, F_TRICKS, F_LEADER, F_TRICK, F_PLAYED, F_SHOWN_OUT = range(9)
NUM_OFFSETS = 9


# -- reading the observation ---------------------------------------------------------------


@njit(cache=True)
def _argmax(row, start, width):
    """``np.argmax(row[start:start + width])``: the first of the largest entries."""
    best = 0
    for j in range(1, width):
        if row[start + j] > row[start + best]:
            best = j
    return best


@njit(cache=True)
def _any(row, start, width):
    for j in range(width):
        if row[start + j] != 0:
            return True
    return False


@njit(cache=True)
def _one_hot_or_none(row, start, width):
    """The reference's ``int(np.argmax(field)) if field.any() else None``."""
    return _argmax(row, start, width) if _any(row, start, width) else NONE


# -- hands and estimates (the reference's ``losers``, ``suit_estimate``, ``no_trump_estimate``)


@njit(cache=True)
def _suit_shape(cards, length, top):
    """Length and highest rank (``NONE`` if void) of each suit of the set ``cards`` (bool [52])."""
    for s in range(4):
        length[s] = 0
        top[s] = NONE
    for c in range(52):
        if cards[c]:
            s = c & 3
            length[s] += 1
            top[s] = c >> 2  # ascending ids: the last one seen is the highest


@njit(cache=True)
def _losers(hand, length, suit):
    """Losing tricks of one suit: of its first (at most) three cards, those not matched by the
    A, K, Q in turn (an honour held is always among the first three)."""
    n = min(length[suit], 3)
    matched = 0
    if n >= 1 and hand[ACE * 4 + suit]:
        matched += 1
    if n >= 2 and hand[KING * 4 + suit]:
        matched += 1
    if n >= 3 and hand[QUEEN * 4 + suit]:
        matched += 1
    return n - matched


@njit(cache=True)
def _total_losers(hand, length):
    lost = 0
    for s in range(4):
        lost += _losers(hand, length, s)
    return lost


@njit(cache=True)
def _no_trump_estimate(hand, length):
    """Quick tricks, long-suit tricks in stopped suits, an average partner's share, and a heavy
    discount for each unguarded suit. Every term is a multiple of 0.5, so the float sums are
    exact and equal the reference's whatever the order."""
    quick = 0.0
    long = 0.0
    unguarded = 0
    for s in range(4):
        n = length[s]
        ace, king, queen = hand[ACE * 4 + s], hand[KING * 4 + s], hand[QUEEN * 4 + s]
        if ace:
            quick += 1.0 + (1.0 if king else 0.5 if queen else 0.0)
        elif king and n >= 2:
            quick += 1.0 if queen else 0.5
        stopped = ace or (king and n >= 2) or (queen and n >= 3)
        if stopped:
            long += max(0, n - 4)
        else:
            unguarded += 1
    return quick + long + 3.5 - 2.5 * unguarded


@njit(cache=True)
def _best_strain(hand, length, top, no_trump_offered):
    """The strain to play in and the tricks it promises the partnership (``best_strain``): the
    suit of the best estimate (ties to the longer suit, then the higher top card, then the lower
    suit, as Python's ``max`` keeps the first), no trump only when a trick better."""
    lost = _total_losers(hand, length)
    best = NONE
    best_strength = 0.0
    for s in range(4):
        n = length[s]
        strength = AVERAGE_PARTNER - lost + 0.5 * max(0, n - 5) - (1.0 if n < 4 else 0.0)
        if (
            best == NONE
            or strength > best_strength
            or (strength == best_strength and (n > length[best] or (n == length[best] and top[s] > top[best])))
        ):
            best, best_strength = s, strength
    if no_trump_offered:
        no_trump = _no_trump_estimate(hand, length)
        if no_trump >= best_strength + 1.0:
            return NO_TRUMP, no_trump
    return best, best_strength


# -- the bid ladder (``bid_tricks`` / ``bid_strain``) -----------------------------------------


@njit(cache=True)
def _tricks_of(action, bid0, egyptian):
    level = action - bid0
    return 7 + (level // NUM_STRAINS if egyptian else level)


@njit(cache=True)
def _is_mine(action, bid0, egyptian, strain):
    """A bid in my strain: every Lebanese bid (it names none), an Egyptian one naming ``strain``."""
    return (not egyptian) or (action - bid0) % NUM_STRAINS == strain


# -- bidding, trump and double --------------------------------------------------------------


@njit(cache=True)
def _bid(mask, hand, length, top, declarer, egyptian, no_trump_offered, bid0):
    strain, estimate = _best_strain(hand, length, top, no_trump_offered)
    most = min(13, int(np.floor(estimate)))
    # the reference's lists, each reduced to its lowest action (``min`` / ``bids[0]``)
    first_bid = NONE
    lowest_mine = NONE  # the lowest bid in my strain
    lowest_grand = NONE  # ... for 13 tricks
    lowest_affordable = NONE  # ... for no more tricks than the estimate
    for a in range(mask.shape[0]):
        if mask[a] == 0 or a == PASS:
            continue
        if first_bid == NONE:
            first_bid = a
        if not _is_mine(a, bid0, egyptian, strain):
            continue
        tricks = _tricks_of(a, bid0, egyptian)
        if lowest_mine == NONE:
            lowest_mine = a
        if tricks == 13 and lowest_grand == NONE:
            lowest_grand = a
        if tricks <= most and lowest_affordable == NONE:
            lowest_affordable = a
    if mask[PASS] == 0:  # a dealer who must bid: the lowest he may
        return lowest_mine if lowest_mine != NONE else first_bid
    if _total_losers(hand, length) == 0 and strain != NO_TRUMP and lowest_grand != NONE:
        return lowest_grand  # every trick is mine: bid 13
    if declarer == 2:  # partner holds the highest bid: let it stand
        return PASS
    return lowest_affordable if lowest_affordable != NONE else PASS


@njit(cache=True)
def _double(mask, hand, length, top, contract_tricks, no_trump_offered):
    """Double when the estimate beats the contract by two (no contract read as 13)."""
    bid = contract_tricks if contract_tricks != NONE else 13
    estimate = _best_strain(hand, length, top, no_trump_offered)[1]
    return DOUBLE if mask[DOUBLE] != 0 and estimate >= bid + 2 else NO_DOUBLE


# -- play -----------------------------------------------------------------------------------


@njit(cache=True)
def _is_master(unseen, card):
    """No card of its suit still out (unseen: in the others' hands) is higher."""
    for higher in range(card + 4, 52, 4):
        if unseen[higher]:
            return False
    return True


@njit(cache=True)
def _trumps_out(unseen, trump):
    """Some trump is still in the others' hands."""
    for c in range(trump, 52, 4):
        if unseen[c]:
            return True
    return False


@njit(cache=True)
def _opponents_may_ruff(unseen, shown_out, trump, suit):
    """An opponent has shown out of ``suit`` while trumps are still out."""
    if trump == NONE or suit == trump or not _trumps_out(unseen, trump):
        return False
    return shown_out[1, suit] or shown_out[3, suit]


@njit(cache=True)
def _trick_key(card, led, trump):
    """Larger wins: a trump over anything, else the suit led by rank, else nothing."""
    suit = card & 3
    if suit == trump:
        return 100 + card
    return card if suit == led else -1


@njit(cache=True)
def _lead(legal, unseen, shown_out, trump, declarer, side_cards, length, top):
    declaring = declarer == 0 or declarer == 2
    if declaring and trump != NONE:
        top_trump = NONE
        for c in range(trump, 52, 4):
            if legal[c]:
                top_trump = c
        # draw the opponents' trumps with the top one
        if top_trump != NONE and _trumps_out(unseen, trump) and _is_master(unseen, top_trump):
            return top_trump
    # cash the highest master where no opponent can ruff
    for c in range(51, -1, -1):
        if legal[c] and (c & 3) != trump and _is_master(unseen, c):
            if not _opponents_may_ruff(unseen, shown_out, trump, c & 3):
                return c
    any_side = False
    highest = NONE
    for c in range(52):
        side_cards[c] = legal[c] and (c & 3) != trump
        any_side = any_side or side_cards[c]
        if legal[c]:
            highest = c
    if not any_side:  # only trumps: the highest
        return highest
    # low from the longest side suit (ties: the higher top card, then the lower suit)
    _suit_shape(side_cards, length, top)
    longest = 0
    for s in range(1, 4):
        if length[s] > length[longest] or (length[s] == length[longest] and top[s] > top[longest]):
            longest = s
    for c in range(longest, 52, 4):
        if side_cards[c]:
            return c
    return NONE  # unreachable: the longest side suit has a card


@njit(cache=True)
def _cheapest(legal, led, trump, discards, side_count):
    """The lowest card of the suit led; else a discard, a trump only when nothing else is left:
    the lowest rank, ties to the shorter suit, then the lower suit (``min`` keeps the first)."""
    for c in range(led, 52, 4):
        if legal[c]:
            return c
    any_side = False
    for c in range(52):
        discards[c] = legal[c] and (c & 3) != trump
        any_side = any_side or discards[c]
    for s in range(4):
        side_count[s] = 0
    for c in range(52):
        if not any_side:  # only trumps are left
            discards[c] = legal[c]
        if discards[c]:
            side_count[c & 3] += 1
    best = NONE
    for c in range(52):
        if not discards[c]:
            continue
        rank, best_rank = c >> 2, best >> 2
        if best == NONE or rank < best_rank or (rank == best_rank and side_count[c & 3] < side_count[best & 3]):
            best = c
    return best


@njit(cache=True)
def _holds(unseen, shown_out, trump, card, led):
    """Partner's winning card stands against the one player still to come after me (seat 1): it
    is the master of its suit and, if not a trump, he cannot ruff it."""
    if (card & 3) == trump or trump == NONE:
        return _is_master(unseen, card)
    return _is_master(unseen, card) and not (shown_out[1, led] and _trumps_out(unseen, trump))


@njit(cache=True)
def _follow(legal, unseen, shown_out, trump, trick_seat, trick_card, trick_len, discards, side_count):
    led = trick_card[0] & 3
    best = 0
    best_key = _trick_key(trick_card[0], led, trump)
    for i in range(1, trick_len):
        key = _trick_key(trick_card[i], led, trump)
        if key > best_key:
            best, best_key = i, key
    last_to_play = trick_len == 3
    if trick_seat[best] == 2 and (last_to_play or _holds(unseen, shown_out, trump, trick_card[best], led)):
        return _cheapest(legal, led, trump, discards, side_count)  # partner is winning: follow cheaply
    cheapest_win = NONE  # the winning card of the lowest key
    lowest_master = NONE  # the lowest winning master of the suit led
    for c in range(52):
        if not legal[c]:
            continue
        key = _trick_key(c, led, trump)
        if key <= best_key:
            continue
        if cheapest_win == NONE or key < _trick_key(cheapest_win, led, trump):
            cheapest_win = c
        if lowest_master == NONE and (c & 3) == led and _is_master(unseen, c):
            lowest_master = c
    if cheapest_win != NONE:
        # before the last seat a master of the suit led wins for sure, unless it can be ruffed
        if not last_to_play and lowest_master != NONE and not _opponents_may_ruff(unseen, shown_out, trump, led):
            return lowest_master
        return cheapest_win
    return _cheapest(legal, led, trump, discards, side_count)


# -- the kernel -----------------------------------------------------------------------------


@njit(cache=True)
def rule_based_actions(obs, mask, offsets, egyptian, no_trump_offered, bid0, out):
    """``out[i]``: the action ``rule_based`` takes for observation ``obs[i]`` with mask
    ``mask[i]``; ``-1`` for a row whose mask allows nothing (a game that is over)."""
    o_phase, o_hand, o_declarer = offsets[F_PHASE], offsets[F_HAND], offsets[F_DECLARER]
    o_strain, o_tricks, o_leader = offsets[F_STRAIN], offsets[F_TRICKS], offsets[F_LEADER]
    o_trick, o_played, o_shown = offsets[F_TRICK], offsets[F_PLAYED], offsets[F_SHOWN_OUT]
    # scratch, reused row after row
    hand = np.zeros(52, np.bool_)
    unseen = np.zeros(52, np.bool_)
    legal = np.zeros(52, np.bool_)  # legal cards, by card id
    side_cards = np.zeros(52, np.bool_)  # legal cards outside the trump suit (leads, discards)
    shown_out = np.zeros((4, 4), np.bool_)
    length = np.zeros(4, np.int64)
    top = np.zeros(4, np.int64)
    side_count = np.zeros(4, np.int64)
    trick_seat = np.zeros(4, np.int64)
    trick_card = np.zeros(4, np.int64)
    for i in range(obs.shape[0]):
        row, row_mask = obs[i], mask[i]
        num_legal = 0
        for a in range(row_mask.shape[0]):
            num_legal += row_mask[a] != 0
        if num_legal == 0:
            out[i] = NONE
            continue
        for c in range(52):
            hand[c] = row[o_hand + c] != 0
        _suit_shape(hand, length, top)
        phase = _argmax(row, o_phase, 4)
        declarer = _one_hot_or_none(row, o_declarer, 4)
        if phase == BIDDING:
            out[i] = _bid(row_mask, hand, length, top, declarer, egyptian, no_trump_offered, bid0)
            continue
        if phase == TRUMP:
            strain = _best_strain(hand, length, top, no_trump_offered)[0]
            if row_mask[TRUMP0 + strain] != 0:
                out[i] = TRUMP0 + strain
            else:  # the first legal action
                for a in range(row_mask.shape[0]):
                    if row_mask[a] != 0:
                        out[i] = a
                        break
            continue
        if phase != PLAY:  # the double
            contract_tricks = _one_hot_or_none(row, o_tricks, 7)
            if contract_tricks != NONE:
                contract_tricks += 7
            out[i] = _double(row_mask, hand, length, top, contract_tricks, no_trump_offered)
            continue
        # the play
        if num_legal == 1:  # nothing to choose: the one legal card
            for a in range(row_mask.shape[0]):
                if row_mask[a] != 0:
                    out[i] = a
            continue
        for c in range(52):
            legal[c] = row_mask[CARD0 + c] != 0
        strain = _one_hot_or_none(row, o_strain, 5)
        trump = NONE if strain == NO_TRUMP else strain  # the trump suit; NONE without trumps
        for c in range(52):
            played = False
            for seat in range(4):
                played = played or row[o_played + seat * 52 + c] != 0
            unseen[c] = not played and not hand[c]
        for seat in range(4):
            for s in range(4):
                shown_out[seat, s] = row[o_shown + seat * 4 + s] > 0.5
        # the current trick in play order, from its leader to the first seat yet to play
        trick_len = 0
        if _any(row, o_leader, 4):
            leader = _argmax(row, o_leader, 4)
            for k in range(4):
                seat = (leader + k) % 4
                if not _any(row, o_trick + seat * 52, 52):
                    break
                trick_seat[trick_len] = seat
                trick_card[trick_len] = _argmax(row, o_trick + seat * 52, 52)
                trick_len += 1
        if trick_len == 0:
            out[i] = CARD0 + _lead(legal, unseen, shown_out, trump, declarer, side_cards, length, top)
        else:
            out[i] = CARD0 + _follow(
                legal, unseen, shown_out, trump, trick_seat, trick_card, trick_len, side_cards, side_count
            )
