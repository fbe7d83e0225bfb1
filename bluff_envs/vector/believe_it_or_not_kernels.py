"""The compiled kernels of the Believe It or Not vector engine (docs/rules.md §2).

Scalar numba code over the state arrays of all games, written to follow
``bluff_envs/believe_it_or_not/rules.py`` (the rules) and ``view.py`` (what each player knows)
step for step; :mod:`bluff_envs.vector.believe_it_or_not` describes the arrays and owns them.

Only ranks matter here: the reference keeps card ids, but nothing a player sees (the pile is
face down, a call turns up counts by rank, complete sets put out face up are encoded by rank)
nor any rule depends on suits, so every hand, pile and piece of knowledge is a count by rank.

What a viewer knows by rank is kept, per viewer, in the order of his observation (``head``:
hand, building, my cards in the pile, out of play, each opponent by relative seat; ``tail``:
the cards last turned up and the last calls), so that writing an observation is two
contiguous int8 -> float32 conversions (which the compiler vectorizes) plus a few scalars.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bluff_envs.believe_it_or_not.actions import ADD0, BELIEVE, BUILD, DISBELIEVE, DONE, NAME, NAME0, RESPOND
from bluff_envs.believe_it_or_not.view import HISTORY
from bluff_envs.cards import NUM_RANKS

# Columns of ``game`` (int32[num_envs, NUM_GAME_FIELDS]): one game's scalars.
PHASE = 0  # name / build / respond, as the view shows it (name again once a call ended the game)
CURRENT = 1  # the player to act
ROUND_RANK = 2  # the rank named for this round; -1 until named
CHOSEN_COUNT = 3  # cards chosen so far for the play being built
LOWEST = 4  # canonical order: no rank below the last one added
PILE_SIZE = 5  # cards face down in the middle this round
MAKER = 6  # who made the most recent play; -1: none this round
PLAY_SIZE = 7  # cards in the most recent play (0 once a call turned it up)
TURNS = 8  # completed plays
PLAYERS_IN = 9  # players still in the game
OUT_OF_PLAY = 10  # cards out of play: piles believed honest and complete sets
OVER = 11  # 1 once the game has ended (terminated or truncated)
LOSER = 12  # the loser; -1: none (not over, a draw, or truncated)
NUM_GAME_FIELDS = 13

# A viewer's ``head`` row (int8[num_envs, n, KNOWN + (n - 1) * 13]): the observation's first
# fields, in counts. BUILDING is non-zero only in the row of the player building a play.
HAND = 0  # his cards by rank: the rules read hands from here too
BUILDING = NUM_RANKS  # the play he is building: the rules' "chosen"
MINE = 2 * NUM_RANKS  # his own cards in this round's pile
OUT_KNOWN = 3 * NUM_RANKS  # cards he knows to be out of play
KNOWN = 4 * NUM_RANKS  # what he is sure each opponent holds, by relative seat 1 .. n-1

# A viewer's ``tail`` row (int8[num_envs, n, CALLS + HISTORY * (3n + 4) + 2 * HISTORY]): from
# "last_revealed" to "call_piles", in counts: the cards the last call turned up (the same for
# everyone), then HISTORY call records newest first (caller one-hot, believe, disbelieve,
# honest, false, maker one-hot, taker one-hot; seats relative to the viewer), the cards each
# call turned up, the pile at each call (at most 104 cards: an int8 holds them).
REVEALED = 0
CALLS = NUM_RANKS

# Rows of ``tally`` (int32[num_envs, 4, n], absolute seats), with the option ``call_record``:
# each player's record of calls this game, in the order of the view's ``RECORD_FIELDS``. A call
# counts once for its maker (found honest or false) and once for its caller (Believe or Don't
# believe). Without the option the kernels are passed ``tally=None``: numba then prunes every
# ``if tally is not None`` branch when it compiles, so that version does no extra work at all.
FOUND_HONEST, FOUND_FALSE, BELIEVE_CALLS, DISBELIEVE_CALLS = range(4)

# Where the public fields between the head and the tail start: the ``at`` array holds the
# reference layout's offsets in this order (built from ``game.layout``).
LAYOUT_FIELDS = (
    "phase", "round_rank", "pile_size", "pile_by_player", "last_play_size", "last_play_by",
    "out_of_play_size", "hand_sizes", "out", "empty_handed", "last_revealed", "turns",
)  # fmt: skip
(
    F_PHASE, F_ROUND_RANK, F_PILE_SIZE, F_PILE_BY, F_PLAY_SIZE, F_PLAY_BY, F_OUT_SIZE, F_HAND_SIZES, F_OUT,
    F_EMPTY, F_REVEALED, F_TURNS,
) = range(len(LAYOUT_FIELDS))  # fmt: skip


# The helpers below are inlined (``inline="always"``) into the kernels that use them: a call
# that passes arrays costs more than what most of them do.


@njit(cache=True, inline="always")
def relative(seat, viewer, n):
    """``seat`` as ``viewer`` sees it: 0 is himself, 1 the player to his left, …"""
    d = seat - viewer
    return d + n if d < 0 else d  # not `%`: an integer division per entry costs more than the rest


@njit(cache=True, inline="always")
def known_at(seat, viewer, n):
    """Where, in ``viewer``'s head row, what he knows of ``seat``'s hand starts (seat != viewer)."""
    return KNOWN + (relative(seat, viewer, n) - 1) * NUM_RANKS


@njit(cache=True, inline="always")
def next_seat(in_game, i, seat):
    """The next seat after ``seat`` (wrapping) still in game ``i``; ``seat`` itself if alone."""
    n = in_game.shape[1]
    s = seat
    for _ in range(n - 1):
        s = s + 1 if s + 1 < n else 0
        if in_game[i, s]:
            return s
    return seat


@njit(cache=True)
def deal_games(indices, decks, game, head, tail, hand_size, in_game, pile_by, maker_known, pile, last_play,
               actor, tally):  # fmt: skip
    """New games at ``indices``: card ``j`` of a deck goes to the players in turn from player 0
    (rules ``deal``); player 0 leads the first round; nobody knows anything yet."""
    n = head.shape[1]
    for k in range(indices.shape[0]):
        i = indices[k]
        head[i] = 0
        tail[i] = 0
        maker_known[i] = 0
        pile[i] = 0
        last_play[i] = 0
        if tally is not None:
            tally[i] = 0
        p = 0
        for j in range(decks.shape[1]):
            head[i, p, HAND + (decks[k, j] >> 2)] += 1
            p = p + 1 if p + 1 < n else 0
        for p in range(n):
            size = 0
            for r in range(NUM_RANKS):
                size += head[i, p, HAND + r]
            hand_size[i, p] = size
            in_game[i, p] = 1
            pile_by[i, p] = 0
        game[i] = 0
        game[i, PHASE] = NAME
        game[i, CURRENT] = 0
        game[i, ROUND_RANK] = -1
        game[i, MAKER] = -1
        game[i, PLAYERS_IN] = n
        game[i, LOSER] = -1
        actor[i] = 0


@njit(cache=True, inline="always")
def _put_down(i, game, head, hand_size, in_game, pile_by, maker_known, pile, last_play):
    """"done": the chosen cards go face down on the pile (rules ``_play``, view ``_played``)."""
    n = head.shape[1]
    p = game[i, CURRENT]
    count = game[i, CHOSEN_COUNT]
    for r in range(NUM_RANKS):
        k = head[i, p, BUILDING + r]
        head[i, p, HAND + r] -= k
        head[i, p, MINE + r] += k  # his own record of what he put in this round's pile
        head[i, p, BUILDING + r] = 0
        pile[i, r] += k
        last_play[i, r] = k  # what a call would turn up
    hand_size[i, p] -= count
    pile_by[i, p] += count
    game[i, PILE_SIZE] += count
    game[i, MAKER] = p
    game[i, PLAY_SIZE] = count
    game[i, CHOSEN_COUNT] = 0
    game[i, LOWEST] = 0
    game[i, TURNS] += 1
    game[i, PHASE] = RESPOND
    game[i, CURRENT] = next_seat(in_game, i, p)
    # What each other player is sure he holds: any `count` of his cards may be the ones played.
    # The knowledge from before the play is kept: a call turns up exactly which cards left.
    for v in range(n):
        if v == p:
            continue
        at = known_at(p, v, n)
        for r in range(NUM_RANKS):
            before = head[i, v, at + r]
            maker_known[i, v, r] = before
            head[i, v, at + r] = max(before - count, 0)


@njit(cache=True, inline="always")
def _leave(i, game, in_game, seat):
    in_game[i, seat] = 0
    game[i, PLAYERS_IN] -= 1


@njit(cache=True, inline="always")
def _record_call(i, tail, caller, believed, maker, taker, honest, count, pile_size):
    """Each viewer's call history moves down one record; the new call becomes the newest."""
    n = tail.shape[1]
    record = 3 * n + 4
    counts_at = CALLS + HISTORY * record
    piles_at = counts_at + HISTORY
    for v in range(n):
        for x in range(CALLS + HISTORY * record - 1, CALLS + record - 1, -1):
            tail[i, v, x] = tail[i, v, x - record]
        for x in range(CALLS, CALLS + record):
            tail[i, v, x] = 0
        tail[i, v, CALLS + relative(caller, v, n)] = 1
        tail[i, v, CALLS + n + (0 if believed else 1)] = 1
        tail[i, v, CALLS + n + (2 if honest else 3)] = 1
        tail[i, v, CALLS + n + 4 + relative(maker, v, n)] = 1
        if taker >= 0:
            tail[i, v, CALLS + 2 * n + 4 + relative(taker, v, n)] = 1
        for k in range(HISTORY - 1, 0, -1):
            tail[i, v, counts_at + k] = tail[i, v, counts_at + k - 1]
            tail[i, v, piles_at + k] = tail[i, v, piles_at + k - 1]
        tail[i, v, counts_at] = count
        tail[i, v, piles_at] = pile_size


@njit(cache=True, inline="always")
def _call(i, believed, discard_quads, copies, lowest_rank, game, head, tail, hand_size, in_game, pile_by,
          maker_known, pile, last_play):  # fmt: skip
    """"believe" / "disbelieve": turn up the most recent play and end the round (rules
    ``_call`` and ``_take_pile``, view ``_called``)."""
    n = head.shape[1]
    caller = game[i, CURRENT]
    maker = game[i, MAKER]
    count = game[i, PLAY_SIZE]
    honest = last_play[i, game[i, ROUND_RANK]] == count
    # the §2.4 table: who takes the pile (-1: out of play), and whether the caller leads next
    if believed:
        if honest:
            taker, caller_leads = -1, True
        else:
            taker, caller_leads = caller, False
    else:
        if honest:
            taker, caller_leads = caller, False
        else:
            taker, caller_leads = maker, True
    if hand_size[i, maker] == 0:  # his last cards, checked
        if honest:  # §2.5: found honest: he leaves
            _leave(i, game, in_game, maker)
        else:  # §2.5: found false: he takes the pile and stays in
            taker = maker
    pile_size = game[i, PILE_SIZE]

    # What everyone learns. Now all know which cards left the maker's hand:
    for v in range(n):
        if v != maker:
            at = known_at(maker, v, n)
            for r in range(NUM_RANKS):
                head[i, v, at + r] = max(maker_known[i, v, r] - last_play[i, r], 0)
    # and each viewer learns where his own cards in the pile and the cards turned up went (the
    # maker's share of the pile already holds the cards turned up).
    if taker < 0:
        for v in range(n):
            shown = 0 if v == maker else 1
            for r in range(NUM_RANKS):
                head[i, v, OUT_KNOWN + r] += head[i, v, MINE + r] + shown * last_play[i, r]
        game[i, OUT_OF_PLAY] += pile_size
    else:
        for v in range(n):
            if v != taker:  # nobody keeps knowledge of himself
                shown = 0 if v == maker else 1
                at = known_at(taker, v, n)
                for r in range(NUM_RANKS):
                    head[i, v, at + r] += head[i, v, MINE + r] + shown * last_play[i, r]
        # the taker adds the pile to his hand without showing it
        for r in range(NUM_RANKS):
            head[i, taker, HAND + r] += pile[i, r]
        hand_size[i, taker] += pile_size
        if discard_quads:  # §2.7: every complete set he now holds goes out of play, face up
            for r in range(lowest_rank, NUM_RANKS):
                if head[i, taker, HAND + r] == copies:
                    head[i, taker, HAND + r] = 0
                    hand_size[i, taker] -= copies
                    game[i, OUT_OF_PLAY] += copies
                    for v in range(n):  # every copy is out of play, and all have seen it
                        if v != taker:
                            head[i, v, known_at(taker, v, n) + r] = 0
                        head[i, v, OUT_KNOWN + r] = copies
    for v in range(n):
        pile_by[i, v] = 0
        for r in range(NUM_RANKS):
            head[i, v, MINE + r] = 0
            tail[i, v, REVEALED + r] = last_play[i, r]
    for r in range(NUM_RANKS):
        pile[i, r] = 0

    # who leads the next round
    leader = -1
    if game[i, PLAYERS_IN] > 1:
        leader = caller if caller_leads else next_seat(in_game, i, caller)
        # §2.5: an empty-handed player due to lead leaves, and the lead passes to his left
        while hand_size[i, leader] == 0:
            _leave(i, game, in_game, leader)
            if game[i, PLAYERS_IN] == 1:
                leader = -1
                break
            leader = next_seat(in_game, i, leader)
    if leader < 0:
        # §2.6: the one player still in loses; if he holds no cards either, nobody holds cards
        # any more: a draw
        last = 0
        while not in_game[i, last]:
            last += 1
        game[i, LOSER] = last if hand_size[i, last] else -1
        game[i, OVER] = 1
    else:
        game[i, CURRENT] = leader
    game[i, PHASE] = NAME
    _record_call(i, tail, caller, believed, maker, taker, honest, count, pile_size)
    game[i, PILE_SIZE] = 0
    game[i, MAKER] = -1
    game[i, PLAY_SIZE] = 0
    game[i, ROUND_RANK] = -1


@njit(cache=True)
def apply_actions(actions, active, rewards, terminated, truncated, max_turns, discard_quads, copies, lowest_rank,
                  game, head, tail, hand_size, in_game, pile_by, maker_known, pile, last_play, actor,
                  tally):  # fmt: skip
    """Play ``actions[i]`` (legal, checked by the caller) in every game with ``active[i]``;
    with ``tally`` (``call_record``), a call also counts for its maker and its caller."""
    n = head.shape[1]
    win = 1.0 / (n - 1)
    for i in range(actions.shape[0]):
        if not active[i]:
            continue
        a = actions[i]
        if ADD0 <= a < DONE:  # one more card for the play being built (or a responder's first)
            r = a - ADD0
            head[i, game[i, CURRENT], BUILDING + r] += 1
            game[i, CHOSEN_COUNT] += 1
            game[i, LOWEST] = r
            game[i, PHASE] = BUILD
        elif a == DONE:
            _put_down(i, game, head, hand_size, in_game, pile_by, maker_known, pile, last_play)
            if game[i, TURNS] >= max_turns:
                game[i, OVER] = 1
                truncated[i] = True  # all rewards 0
        elif game[i, PHASE] == NAME:  # the leader names the round's rank
            game[i, ROUND_RANK] = a - NAME0
            game[i, PHASE] = BUILD
        else:
            if tally is not None:  # each player's record of calls (view ``_record_call``), read
                # before the call ends the round: the maker, the caller, what the play turned up
                rank, count = game[i, ROUND_RANK], game[i, PLAY_SIZE]
                found = FOUND_HONEST if last_play[i, rank] == count else FOUND_FALSE
                tally[i, found, game[i, MAKER]] += 1
                tally[i, BELIEVE_CALLS if a == BELIEVE else DISBELIEVE_CALLS, game[i, CURRENT]] += 1
            _call(i, a == BELIEVE, discard_quads, copies, lowest_rank, game, head, tail, hand_size, in_game,
                  pile_by, maker_known, pile, last_play)  # fmt: skip
            if game[i, OVER]:
                terminated[i] = True
                loser = game[i, LOSER]
                if loser >= 0:  # a draw leaves every reward 0
                    for p in range(n):
                        rewards[i, p] = -1.0 if p == loser else win
        actor[i] = -1 if game[i, OVER] else game[i, CURRENT]


@njit(cache=True, inline="always")
def _legal_mask(i, mask, cap, lowest_rank, game, head):
    """Row ``i`` of ``mask``: the acting player's legal actions (rules ``legal_actions``).

    Branch-free over the phases, since they differ from game to game: naming is open only in
    the name phase; otherwise "add r" is open for each rank he still has cards of that are not
    chosen yet, from the last rank added on (canonical order; the chosen ranks all lie at or
    below it, and a responder or a leader who has just named has chosen nothing: every rank
    he holds), unless the play is at the cap; "done" once he has chosen a card; the calls
    only in the respond phase."""
    p = game[i, CURRENT]
    phase = game[i, PHASE]
    naming = phase == NAME
    count = game[i, CHOSEN_COUNT]
    adding = (not naming) and count < cap
    low = game[i, LOWEST]
    names = mask[i, NAME0 : NAME0 + NUM_RANKS]
    adds = mask[i, ADD0 : ADD0 + NUM_RANKS]
    hand = head[i, p, HAND : HAND + NUM_RANKS]
    chosen = head[i, p, BUILDING : BUILDING + NUM_RANKS]
    for r in range(NUM_RANKS):
        names[r] = naming and r >= lowest_rank
        adds[r] = adding and r >= low and chosen[r] < hand[r]
    mask[i, DONE] = (not naming) and count > 0
    responding = phase == RESPOND
    mask[i, BELIEVE] = responding
    mask[i, DISBELIEVE] = responding


@njit(cache=True)
def observe_rows(seats, obs, mask, at, tail_scale, cap, lowest_rank, inv_copies, inv_size, inv_cap, inv_turns,
                 record_scale, game, head, tail, hand_size, in_game, pile_by, tally):  # fmt: skip
    """Row ``i``: the observation of ``seats[i]`` in game ``i`` (view ``observation``), and his
    legal actions if he is to act; ``seats[i] == -1``: zeros.

    Counts are scaled exactly as the view scales them: float64 ``count * (1 / scale)``, then
    rounded to float32. Where the scale is a power of two (the copies of a rank: 4 or 8) or 1,
    float32 ``count * scale`` is exact and so the same number; the head and most of the tail
    are converted that way, through slices (contiguous loops, which vectorize). The public
    fields between them are written from the game's scalars, branch-free (a one-hot is written
    as a 0/1 value at a position that is harmless when it is 0), since games differ in phase.

    With ``tally`` (``call_record``) the four record fields follow "turns", n entries each,
    seats relative to him; a count ``c`` is squashed as the view does it: float64
    ``c / (c + record_scale)``, then rounded to float32."""
    n = head.shape[1]
    head_width, num_actions = head.shape[2], mask.shape[1]
    exact_width = tail_scale.shape[0]  # the tail's entries before the call counts and piles
    phase_at, round_rank_at, pile_size_at = at[F_PHASE], at[F_ROUND_RANK], at[F_PILE_SIZE]
    pile_by_at, play_size_at, play_by_at = at[F_PILE_BY], at[F_PLAY_SIZE], at[F_PLAY_BY]
    out_size_at, hand_sizes_at, out_at = at[F_OUT_SIZE], at[F_HAND_SIZES], at[F_OUT]
    empty_at, revealed_at, turns_at = at[F_EMPTY], at[F_REVEALED], at[F_TURNS]
    counts_at = revealed_at + exact_width  # "call_counts", then "call_piles"
    per_copy = np.float32(inv_copies)  # 1/4 or 1/8: exact
    for i in range(seats.shape[0]):
        v = seats[i]
        if v < 0:  # the game is over
            row = obs[i]
            for x in range(row.shape[0]):
                row[x] = 0.0
            for a in range(num_actions):
                mask[i, a] = 0
            continue
        # what he knows by rank: his hand, his play being built, his cards in the pile, out
        # of play, each opponent's
        out = obs[i, :head_width]
        known = head[i, v]
        for x in range(head_width):
            out[x] = np.float32(known[x]) * per_copy
        # the public record, seats relative to him
        public = obs[i, phase_at:revealed_at]
        for x in range(public.shape[0]):
            public[x] = 0.0
        obs[i, phase_at + game[i, PHASE]] = 1.0
        rank = game[i, ROUND_RANK]  # -1 until named
        obs[i, round_rank_at + max(rank, 0)] = rank >= 0
        obs[i, pile_size_at] = np.float32(game[i, PILE_SIZE] * inv_size)
        obs[i, play_size_at] = np.float32(game[i, PLAY_SIZE] * inv_cap)
        maker = game[i, MAKER]  # -1: no play this round
        obs[i, play_by_at + relative(max(maker, 0), v, n)] = maker >= 0
        obs[i, out_size_at] = np.float32(game[i, OUT_OF_PLAY] * inv_size)
        s = v
        for j in range(n):
            size = hand_size[i, s]
            obs[i, pile_by_at + j] = np.float32(pile_by[i, s] * inv_size)
            obs[i, hand_sizes_at + j] = np.float32(size * inv_size)
            obs[i, out_at + j] = not in_game[i, s]
            obs[i, empty_at + j] = in_game[i, s] and size == 0
            s = s + 1 if s + 1 < n else 0
        # the cards last turned up and the last calls
        out = obs[i, revealed_at:counts_at]
        record = tail[i, v]
        for x in range(exact_width):
            out[x] = np.float32(record[x]) * tail_scale[x]
        for k in range(HISTORY):
            obs[i, counts_at + k] = np.float32(record[exact_width + k] * inv_cap)
            obs[i, counts_at + HISTORY + k] = np.float32(record[exact_width + HISTORY + k] * inv_size)
        obs[i, turns_at] = np.float32(game[i, TURNS] * inv_turns)
        if tally is not None:  # each player's record of calls, seats relative to him
            x = turns_at + 1
            for f in range(tally.shape[1]):
                s = v
                for j in range(n):
                    c = np.float64(tally[i, f, s])
                    obs[i, x] = np.float32(c / (c + record_scale))
                    x += 1
                    s = s + 1 if s + 1 < n else 0
        if v == game[i, CURRENT] and not game[i, OVER]:
            _legal_mask(i, mask, cap, lowest_rank, game, head)
        else:  # not to act: no legal actions
            for a in range(num_actions):
                mask[i, a] = 0
