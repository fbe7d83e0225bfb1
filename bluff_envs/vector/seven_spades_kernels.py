"""The compiled kernels of the Seven Spades vector engine (see ``seven_spades.py``).

Each kernel loops over the games of the batch and runs, for each, scalar code that follows
``bluff_envs/seven_spades/rules.py`` (the state machine) and ``view.py`` (what every seat
knows) event by event. The state arrays are described in ``seven_spades.py``; their column
numbers are the module constants below, which numba freezes into the compiled code.

Like the reference's view, a game keeps its public knowledge once, in absolute seat order
(``public``), and each seat's private part apart (``my_row``; the ``drawn`` one-hot is the
current player's ``DRAWN`` card); an observation puts them together, the public part rotated
to the seat's relative seats through the reference's own rotation table.

Arithmetic mirrors the reference exactly, since observations must be bit-identical:

* a count the view *accumulates* (``+=`` / ``-=`` on a float32 entry: ``seen``, ``my_row``,
  the discard pile) is accumulated here in float32 with the same float32 step: with three
  decks ``1/3`` is inexact, so the sum depends on the order of the operations, which is
  therefore replayed, not recomputed from the count;
* a value the view *assigns* as ``count * inv`` (row lengths, face-up spades, stock, turns)
  is computed in float64 and rounded once to float32, as numpy's assignment does.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

# -- actions and phases (rules.py) ---------------------------------------------------------
DISCARD, CLAIM, CLAIM_FACE_UP, CHALLENGE, PASS = 0, 1, 2, 3, 4
PLAY, CHALLENGE_WINDOW = 0, 1
SPADES = 3
NUM_CARDS = 52

# -- columns of ``games`` [B, GAME_COLS] (int64): one game's scalars ------------------------
TOP = 0  # index of the stock's top card in ``stock``
DRAWN = 1  # the card the current player drew and holds, -1 for none
CURRENT = 2  # the seat whose decision is awaited (the drawer, or the decider in a window)
PHASE = 3  # PLAY or CHALLENGE_WINDOW
PLAYERS_IN = 4  # players still in
CLAIMER = 5  # the claimer of the open challenge window
CLAIMED = 6  # the card he put face down (the one a challenge turns up)
OFFICIAL = 7  # the first seat to challenge in the window (nearest his left), -1 for none
TURNS = 8  # completed turns, one draw each
WINNER = 9  # the winner, -1 for none yet
OVER = 10  # 1 once the game has ended (termination or truncation)
TRUNCATED = 11  # 1 if it ended at max_turns
GAME_COLS = 12

# -- rows of ``seats`` [B, SEAT_ROWS, n] (int64): one entry per seat -----------------------
IN_GAME = 0  # 1 while the player is in
ROW_LENGTH = 1  # cards in his row (face down and face up)
FACE_UP = 2  # spades face up in his row
CHALLENGED = 3  # 1 if he challenged in the open window
SEAT_ROWS = 4

# -- entries of ``cfg`` (int64): the options and the observation's offsets -----------------
N = 0  # players
DECK_SIZE = 1
FINAL_LENGTH = 2  # target - 1: a row this long may only take a face-up spade
MAX_TURNS = 3
FREE_TURN = 4
# offsets of the fields: ``my_row`` in an observation (``drawn`` is at 0), the public ones in
# ``public`` (in an observation they are ``cfg[PUBLIC]`` further on)
O_MY_ROW, O_PHASE, O_CLAIMER, O_ROW, O_FACE_UP, O_IN_GAME, O_SEEN = 5, 6, 7, 8, 9, 10, 11
O_DISCARD_SPADES, O_DISCARD_OTHERS, O_STOCK, O_TURNS, O_HISTORY = 12, 13, 14, 15, 16
RECORD = 17  # size of one challenge window in the history: 3n + 2
HISTORY = 18  # challenge windows kept in the history
PUBLIC = 19  # where the public part of an observation starts (``phase``); it runs to the end
CFG_SIZE = 20

# -- entries of ``scale64`` (float64): factors of the assigned values ----------------------
INV_TARGET, INV_SIZE, INV_TURNS, LOSS = 0, 1, 2, 3  # LOSS: a loser's reward, -1/(n-1)
# -- entries of ``step32`` (float32): steps of the accumulated values ----------------------
INV_DECKS, INV_SPADES, INV_OTHERS = 0, 1, 2


# -- seats ---------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def next_seat(seat, in_game, n):
    """The next seat after ``seat`` (wrapping) still in; ``seat`` itself if alone (seats.py)."""
    s = seat
    for _ in range(n):
        s += 1
        if s == n:
            s = 0
        if in_game[s]:
            return s
    return seat


# -- dealing -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def draw(g, stock, pub, player, cfg, scale64):
    """``player`` draws the top card of the stock (the DREW event; only he sees it: ``DRAWN``)."""
    g[DRAWN] = stock[g[TOP]]
    g[TOP] += 1
    g[CURRENT] = player
    pub[cfg[O_STOCK]] = np.float32((cfg[DECK_SIZE] - g[TOP]) * scale64[INV_SIZE])
    pub[cfg[O_TURNS]] = np.float32(g[TURNS] * scale64[INV_TURNS])


@njit(cache=True, inline="always")
def start_game(i, deck, opening, games, seats, stock, public, my_row, cfg, scale64):
    """Game ``i`` starts from ``deck`` (top card first); player 0 draws the top card at once.
    ``opening`` is the reference's opening public vector (everybody in, phase play, the stock
    less that card): the draw writes the same stock and turns again."""
    for j in range(cfg[DECK_SIZE]):
        stock[i, j] = deck[j]
    g = games[i]
    for c in range(GAME_COLS):
        g[c] = 0
    g[DRAWN] = -1
    g[CLAIMER] = -1
    g[CLAIMED] = -1
    g[OFFICIAL] = -1
    g[WINNER] = -1
    g[PLAYERS_IN] = cfg[N]
    s = seats[i]
    for seat in range(cfg[N]):
        s[IN_GAME, seat] = 1
        s[ROW_LENGTH, seat] = 0
        s[FACE_UP, seat] = 0
        s[CHALLENGED, seat] = 0
        for c in range(NUM_CARDS):
            my_row[i, seat, c] = 0.0
    pub = public[i]
    for j in range(pub.shape[0]):
        pub[j] = opening[j]
    draw(g, stock[i], pub, 0, cfg, scale64)


@njit(cache=True)
def deal(indices, decks, opening, games, seats, stock, public, my_row, cfg, scale64):
    """Start new games at ``indices`` from ``decks``."""
    for k in range(indices.shape[0]):
        start_game(indices[k], decks[k], opening, games, seats, stock, public, my_row, cfg, scale64)


@intrinsic
def next_uint32(typingctx, function, state):
    """``function(state)``: a bit generator's ``next_uint32`` called through its C pointer
    (numpy's ``bit_generator.ctypes``), as numba's own ``Generator`` support does."""
    sig = types.uint32(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        function, state = args
        void_p = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.IntType(32), [void_p])
        return builder.call(builder.inttoptr(function, fnty.as_pointer()), [builder.inttoptr(state, void_p)])

    return sig, codegen


@njit(cache=True, inline="always")
def shuffle_into(deck, cards, function, state):
    """``deck[:] = cards[generator.permutation(len(cards))]``, drawing the same numbers from
    the generator: numpy's shuffle (Fisher-Yates from the end, each index by its
    ``random_interval``: masked 32-bit draws, rejected until in range) on a copy of ``cards``."""
    size = cards.shape[0]
    for j in range(size):
        deck[j] = cards[j]
    for top in range(size - 1, 0, -1):
        mask = top  # the smallest all-ones mask >= top (decks are far below 2**32 cards)
        mask |= mask >> 1
        mask |= mask >> 2
        mask |= mask >> 4
        mask |= mask >> 8
        mask |= mask >> 16
        j = next_uint32(function, state) & mask
        while j > top:
            j = next_uint32(function, state) & mask
        deck[top], deck[j] = deck[j], deck[top]


@njit(cache=True)
def deal_shuffled(indices, cards, functions, states, decks, opening, games, seats, stock, public, my_row,
                  cfg, scale64):
    """Start new games at ``indices``, each from the next deck of its own generator (written to
    ``decks[i]``, the record of its deck)."""
    for k in range(indices.shape[0]):
        i = indices[k]
        shuffle_into(decks[i], cards, functions[i], states[i])
        start_game(i, decks[i], opening, games, seats, stock, public, my_row, cfg, scale64)


# -- playing -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def end_turn(g, stock, pub, next_player, cfg, scale64):
    """A turn is over: the game ends (a winner, an empty stock, max_turns) or the next draws."""
    g[TURNS] += 1
    if g[WINNER] >= 0 or g[TOP] == cfg[DECK_SIZE]:
        g[OVER] = 1
    elif g[TURNS] >= cfg[MAX_TURNS]:
        g[OVER] = 1
        g[TRUNCATED] = 1
    else:
        draw(g, stock, pub, next_player, cfg, scale64)
        return
    pub[cfg[O_TURNS]] = np.float32(g[TURNS] * scale64[INV_TURNS])  # no draw, but a turn more


@njit(cache=True, inline="always")
def resolve(g, s, stock, pub, mine, cfg, scale64, step32):
    """The challenge window closes: turn the claimed card up if anybody challenged, put the
    loser out, record the window in the history, and pass the turn on. ``mine``: the game's
    ``my_row`` rows, one per seat."""
    n = cfg[N]
    claimer, challenger = g[CLAIMER], g[OFFICIAL]
    ph, h, rec = cfg[O_PHASE], cfg[O_HISTORY], cfg[RECORD]
    pub[ph] = 1.0
    pub[ph + 1] = 0.0
    pub[cfg[O_CLAIMER] + claimer] = 0.0
    # the history moves one window older (copied from the end: source and target overlap)
    for k in range(h + cfg[HISTORY] * rec - 1, h + rec - 1, -1):
        pub[k] = pub[k - rec]
    for k in range(h, h + rec):
        pub[k] = 0.0
    pub[h + claimer] = 1.0
    spade_turned = False
    if challenger >= 0:
        card = g[CLAIMED]
        spade = card & 3 == SPADES
        for seat in range(n):
            if s[CHALLENGED, seat]:
                pub[h + n + seat] = 1.0
        pub[h + 2 * n + challenger] = 1.0
        pub[h + 3 * n + (0 if spade else 1)] = 1.0
        pub[cfg[O_SEEN] + card] += step32[INV_DECKS]
        if spade:  # the challenger is out; the spade stays face up in the row and counts
            s[FACE_UP, claimer] += 1
            mine[claimer, card] -= step32[INV_DECKS]  # public now, no longer his secret
            pub[cfg[O_FACE_UP] + claimer] = np.float32(s[FACE_UP, claimer] * scale64[INV_TARGET])
            loser = challenger
            spade_turned = True
        else:  # the claimer is out, and the card turned up leaves with his row
            loser = claimer
        # the loser is out: his row leaves the game
        s[IN_GAME, loser] = 0
        s[ROW_LENGTH, loser] = 0
        s[FACE_UP, loser] = 0
        g[PLAYERS_IN] -= 1
        if g[PLAYERS_IN] == 1:
            for seat in range(n):
                if s[IN_GAME, seat]:
                    g[WINNER] = seat
                    break
        pub[cfg[O_IN_GAME] + loser] = 0.0
        pub[cfg[O_ROW] + loser] = 0.0
        pub[cfg[O_FACE_UP] + loser] = 0.0
        for c in range(NUM_CARDS):
            mine[loser, c] = 0.0
    if cfg[FREE_TURN] and challenger >= 0 and not spade_turned:
        next_player = challenger  # his challenge succeeded: he takes the next turn
    else:
        next_player = next_seat(claimer, s[IN_GAME], n)
    g[PHASE] = PLAY
    end_turn(g, stock, pub, next_player, cfg, scale64)


@njit(cache=True)
def apply(actions, active, rewards, terminated, truncated, games, seats, stock, public, my_row,
          cfg, scale64, step32):
    """Play ``actions[i]`` in every active game (legal already: the base class checked)."""
    n = cfg[N]
    for i in range(actions.shape[0]):
        if not active[i]:
            continue
        g, s, pub = games[i], seats[i], public[i]
        action = actions[i]
        if g[PHASE] == CHALLENGE_WINDOW:
            decider = g[CURRENT]
            if action == CHALLENGE:
                s[CHALLENGED, decider] = 1
                if g[OFFICIAL] < 0:  # the first to challenge sits nearest the claimer's left
                    g[OFFICIAL] = decider
            # the deciders are the other seats still in, from the claimer's left: nobody goes
            # out during a window, so the window closes when the turn comes round to him
            following = next_seat(decider, s[IN_GAME], n)
            if following == g[CLAIMER]:
                resolve(g, s, stock[i], pub, my_row[i], cfg, scale64, step32)
            else:
                g[CURRENT] = following
        else:
            p, card = g[CURRENT], g[DRAWN]
            g[DRAWN] = -1  # no longer in his hand
            if action == DISCARD:
                pub[cfg[O_SEEN] + card] += step32[INV_DECKS]
                if card & 3 == SPADES:
                    pub[cfg[O_DISCARD_SPADES]] += step32[INV_SPADES]
                else:
                    pub[cfg[O_DISCARD_OTHERS]] += step32[INV_OTHERS]
                end_turn(g, stock[i], pub, next_seat(p, s[IN_GAME], n), cfg, scale64)
            elif action == CLAIM_FACE_UP:  # the final spade: no challenge, he wins at once
                s[ROW_LENGTH, p] += 1
                s[FACE_UP, p] += 1
                g[WINNER] = p
                pub[cfg[O_SEEN] + card] += step32[INV_DECKS]
                pub[cfg[O_ROW] + p] = np.float32(s[ROW_LENGTH, p] * scale64[INV_TARGET])
                pub[cfg[O_FACE_UP] + p] = np.float32(s[FACE_UP, p] * scale64[INV_TARGET])
                end_turn(g, stock[i], pub, -1, cfg, scale64)
            else:  # a face-down claim opens the challenge window
                s[ROW_LENGTH, p] += 1
                my_row[i, p, card] += step32[INV_DECKS]
                pub[cfg[O_ROW] + p] = np.float32(s[ROW_LENGTH, p] * scale64[INV_TARGET])
                pub[cfg[O_PHASE]] = 0.0
                pub[cfg[O_PHASE] + 1] = 1.0
                pub[cfg[O_CLAIMER] + p] = 1.0
                g[PHASE] = CHALLENGE_WINDOW
                g[CLAIMER] = p
                g[CLAIMED] = card
                g[OFFICIAL] = -1
                for seat in range(n):
                    s[CHALLENGED, seat] = 0
                g[CURRENT] = next_seat(p, s[IN_GAME], n)
        if g[OVER]:
            if g[TRUNCATED]:  # all rewards 0
                truncated[i] = True
            else:
                terminated[i] = True
                winner = g[WINNER]
                if winner >= 0:  # else the stock ran out: a draw, 0 for all
                    loss = scale64[LOSS]
                    for seat in range(n):
                        rewards[i, seat] = 1.0 if seat == winner else loss


# -- observing -----------------------------------------------------------------------------


@njit(cache=True)
def actors(actor, games):
    """The seat to act in every game, -1 once a game is over."""
    for i in range(actor.shape[0]):
        actor[i] = -1 if games[i, OVER] else games[i, CURRENT]


@njit(cache=True, inline="always")
def write_row(i, seat, obs, mask, games, seats, public, my_row, rotation, cfg):
    """Row ``i`` of ``obs`` and ``mask``: what ``seat`` knows in game ``i``, and his legal
    actions if it is his decision. ``seat == -1``: a row of zeros.
    (Loops, not slices: numba's slice assignment may copy through a temporary.)"""
    for a in range(mask.shape[1]):
        mask[i, a] = 0
    if seat < 0:
        for k in range(obs.shape[1]):
            obs[i, k] = 0.0
        return
    g, row = games[i], obs[i]
    for c in range(NUM_CARDS):
        row[c] = 0.0
    if g[DRAWN] >= 0 and seat == g[CURRENT]:  # only the drawer holds a card, until he plays
        row[g[DRAWN]] = 1.0
    mine, mine_start = my_row[i, seat], cfg[O_MY_ROW]
    for c in range(NUM_CARDS):
        row[mine_start + c] = mine[c]
    # the public vector, rotated to the seat's relative seats (view.py's `take`)
    pub, rot, start = public[i], rotation[seat], cfg[PUBLIC]
    for k in range(rot.shape[0]):
        row[start + k] = pub[rot[k]]
    if g[OVER] or seat != g[CURRENT]:
        return
    if g[PHASE] == CHALLENGE_WINDOW:
        mask[i, CHALLENGE] = 1
        mask[i, PASS] = 1
    else:
        mask[i, DISCARD] = 1
        if seats[i, ROW_LENGTH, seat] != cfg[FINAL_LENGTH]:
            mask[i, CLAIM] = 1
        elif g[DRAWN] & 3 == SPADES:  # at target-1 only a real spade, face up
            mask[i, CLAIM_FACE_UP] = 1


@njit(cache=True)
def observe(wanted, obs, mask, games, seats, public, my_row, rotation, cfg):
    """Observation and mask of seat ``wanted[i]`` in every game ``i``."""
    for i in range(wanted.shape[0]):
        write_row(i, wanted[i], obs, mask, games, seats, public, my_row, rotation, cfg)


@njit(cache=True)
def refresh(actor, obs, mask, games, seats, public, my_row, rotation, cfg):
    """``actors`` and the actor's observation and mask, in one pass."""
    for i in range(actor.shape[0]):
        seat = -1 if games[i, OVER] else games[i, CURRENT]
        actor[i] = seat
        write_row(i, seat, obs, mask, games, seats, public, my_row, rotation, cfg)
