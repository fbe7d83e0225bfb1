"""The compiled kernels of the Tarneeb vector engine (see :mod:`bluff_envs.vector.tarneeb`).

Scalar code over one game at a time, written to follow ``bluff_envs/tarneeb/rules.py`` line by
line (the same names: declarer, contract, trick, trump), looped over the batch. The column
names below index ``st[i]``, the numbers of game ``i``; ``cards[i, c]`` (the engine's
``_card_state``) is card ``c``'s seat (bits 0-1) and place (bits 2-3: ``IN_HAND``,
``GATHERED``, ``IN_TRICK``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bluff_envs.tarneeb.actions import BIDDING, CARD0, DOUBLE, DOUBLING, MAX_BID, MIN_BID, NO_TRUMP, PASS, PLAY, TRUMP, TRUMP0
from bluff_envs.tarneeb.rules import NUM_TRICKS
from bluff_envs.tarneeb.scoring import GRAND, GRAND_FAILED, KABOOT

# -- columns of st: the match ------------------------------------------------------------------
DEALER = 0
SCORE0 = 1  # match score of partnership 0 (players 0 and 2); SCORE0 + 1 partnership 1
TURNS = 3  # decisions of every kind this episode, for max_turns
OVER = 4  # the episode is over (or nothing has been dealt yet)
TRUNCATED = 5
WINNER = 6  # the partnership that won the game, -1 if none
LAST0 = 7  # the last deal's score of partnership 0; LAST0 + 1 partnership 1
# -- the deal ----------------------------------------------------------------------------------
PHASE = 10
CURRENT = 11  # the player to act
HIGH = 12  # level of the highest bid so far (0 = the lowest bid), -1 if none
HIGH_BIDDER = 13  # who made it, -1 if none; the declarer once the bidding is over
SPOKEN = 14  # calls made this deal
PASSES_IN_ROW = 15
PASSED = 16  # bit p: Lebanese, p has passed (out); Egyptian, p's latest call was a pass
BID = 17  # the contract's tricks
STRAIN = 18  # the strain shown in the observation (Lebanese: the trump once named;
# Egyptian: the highest bid's), -1 if none
TRUMP_SUIT = 19  # the trump in play (NO_TRUMP: none)
DOUBLED = 20
LEAD_TRUMP_FIRST = 21  # first_lead_trump applies to this contract
LEADER = 22  # who leads (led) the current trick
LED = 23  # the suit led to the current trick, -1 before its first card
IN_TRICK_COUNT = 24  # cards in the current trick
TRICKS_PLAYED = 25
WON0 = 26  # tricks won this deal by partnership 0; WON0 + 1 partnership 1
SHOWN_OUT = 28  # bit 4 * p + s: player p failed to follow suit s this deal
TRICK = 29  # TRICK + k: the k-th card of the current trick
COUNT = 33  # COUNT + 4 * p + s: how many cards of suit s player p holds
NUM_BIDS = 49  # bids made this deal (every bid is higher than the last: 35 at most)
BID_LOG = 50  # BID_LOG + k: the k-th bid of this deal, as 4 * level + bidder
NUM_FIELDS = BID_LOG + 35

# places of a card (cards[i, c] >> 2)
IN_HAND, GATHERED, IN_TRICK = 0, 1, 2

# -- cfg: the options, and the offsets of the observation's fields -----------------------------
C_EGYPTIAN = 0
C_SINGLE_ROUND = 1
C_DEALER_BIDS_7 = 2
C_NUM_TRUMP_CALLS = 3  # 4, or 5 with allow_no_trump
C_FIRST_LEAD_TRUMP = 4
C_TRICKS_SCORING = 5
C_TARGET = 6
C_DEAL_EPISODE = 7
C_REDEAL_WEAK = 8
C_ALLOW_DOUBLE = 9
C_MULTIPLIER = 10
C_MAX_TURNS = 11
C_NUM_LEVELS = 12  # 7 bids (Lebanese) or 35 (Egyptian)
C_BID0 = 13  # the action of the lowest bid
O_PHASE = 14
O_HAND = 15
O_BIDS = 16
O_PASSED = 17
O_CONTRACT_TRICKS = 18
O_CONTRACT_STRAIN = 19
O_DECLARER = 20
O_DOUBLED = 21
O_TRICK_LEADER = 22
O_TRICK = 23
O_PLAYED = 24
O_SHOWN_OUT = 25
O_TRICKS_WON = 26
O_SCORE = 27  # score then score_deficit, two entries each
O_TARGET = 28
O_DEALER = 29
NUM_CFG = 30

# ftab: float32 constants made by numpy as the reference makes them
F_TRICKS_WON = 0  # F_TRICKS_WON + n: n / 13
F_TARGET = 14
NUM_FTAB = 15


# -- dealing ------------------------------------------------------------------------------------


@njit(cache=True)
def _is_weak(row, deck, seat):
    """A worthless hand (rules.is_weak_hand): no ace, no king in a suit of two or more cards,
    no queen in a suit of three or more, no jack in a suit of four or more. The seat's cards
    are every fourth card of the deck; ``row`` holds his suit lengths (just dealt)."""
    for j in range(seat, 52, 4):
        rank, n = deck[j] >> 2, row[COUNT + 4 * seat + (deck[j] & 3)]
        if rank == 12 or (rank == 11 and n >= 2) or (rank == 10 and n >= 3) or (rank == 9 and n >= 4):
            return False
    return True


@njit(cache=True)
def _new_deal(row, held, deck):
    """rules._deal after the deck is drawn: deck position j goes to player j % 4; the player
    after the dealer speaks first."""
    for j in range(16):
        row[COUNT + j] = 0
    for j in range(52):
        card, seat = deck[j], j & 3
        held[card] = seat  # IN_HAND
        row[COUNT + 4 * seat + (card & 3)] += 1
    first = (row[DEALER] + 1) & 3
    row[PHASE] = BIDDING
    row[CURRENT] = first
    row[HIGH] = -1
    row[HIGH_BIDDER] = -1
    row[SPOKEN] = 0
    row[PASSES_IN_ROW] = 0
    row[PASSED] = 0
    row[BID] = 0
    row[STRAIN] = -1
    row[TRUMP_SUIT] = NO_TRUMP
    row[DOUBLED] = 0
    row[LEAD_TRUMP_FIRST] = 0
    row[LEADER] = first
    row[LED] = -1
    row[IN_TRICK_COUNT] = 0
    row[TRICKS_PLAYED] = 0
    row[WON0] = 0
    row[WON0 + 1] = 0
    row[SHOWN_OUT] = 0
    row[NUM_BIDS] = 0


@njit(cache=True)
def _deal_one(i, deck, new_game, st, cards, sq, need, cfg):
    """Deal ``deck`` to game i: a new episode (``new_game``: player 3 deals, match scores 0) or
    the next deal of one. With ``redeal_weak_hands`` a deal holding a worthless hand is thrown
    in: ``need[i]`` asks for another deck for the same dealer. Returns ``need[i]``."""
    row = st[i]
    if new_game:
        row[DEALER] = 3
        row[SCORE0] = 0
        row[SCORE0 + 1] = 0
        row[TURNS] = 0
        row[OVER] = 0
        row[TRUNCATED] = 0
        row[WINNER] = -1
        row[LAST0] = 0
        row[LAST0 + 1] = 0
        for s in range(4):
            sq[i, s] = 0.0
    _new_deal(row, cards[i], deck)
    weak = False
    if cfg[C_REDEAL_WEAK]:
        for seat in range(4):
            if _is_weak(row, deck, seat):
                weak = True
                break
    need[i] = 1 if weak else 0
    return need[i]


@njit(cache=True)
def deal_games(indices, decks, new_game, st, cards, sq, need, cfg):
    """Deal ``decks[j]`` to game ``indices[j]`` (see _deal_one); returns how many games were
    thrown in and need another deck."""
    pending = 0
    for j in range(len(indices)):
        pending += _deal_one(indices[j], decks[j], new_game, st, cards, sq, need, cfg)
    return pending


@njit(cache=True)
def deal_from_stock(need, stock, stock_left, st, cards, sq, cfg):
    """Deal the next deal to every game flagged in ``need`` from its stock of decks drawn
    ahead (``stock[i]``, used in order; ``stock_left[i]`` remain). Returns how many games are
    still flagged: thrown in again, or out of stock (Python draws more for them)."""
    pending = 0
    size = stock.shape[1]
    for i in range(len(need)):
        if not need[i]:
            continue
        left = stock_left[i]
        if left == 0:
            pending += 1
            continue
        stock_left[i] = left - 1
        pending += _deal_one(i, stock[i, size - left], False, st, cards, sq, need, cfg)
    return pending


# -- the bidding --------------------------------------------------------------------------------


@njit(cache=True)
def _start_play(row, strain, cfg):
    row[TRUMP_SUIT] = strain
    row[LEAD_TRUMP_FIRST] = 1 if cfg[C_FIRST_LEAD_TRUMP] and strain != NO_TRUMP else 0
    row[PHASE] = PLAY
    row[LEADER] = row[HIGH_BIDDER]  # the declarer leads to the first trick
    row[CURRENT] = row[HIGH_BIDDER]


@njit(cache=True)
def _auction_won(row, cfg):
    """The highest bidder is the declarer: he names the trump (Lebanese), or his bid's strain
    is the trump and he may double (Egyptian)."""
    high = row[HIGH]
    row[CURRENT] = row[HIGH_BIDDER]
    if cfg[C_EGYPTIAN]:
        row[BID] = MIN_BID + high // 5
        if cfg[C_ALLOW_DOUBLE]:
            row[TRUMP_SUIT] = high % 5
            row[PHASE] = DOUBLING
        else:
            _start_play(row, high % 5, cfg)
    else:
        row[BID] = MIN_BID + high
        row[PHASE] = TRUMP


@njit(cache=True)
def _call(row, i, action, need, cfg):
    """rules._call: a pass or a bid. When all four have passed, ``need`` asks for a new deck
    (the same dealer deals again)."""
    p = row[CURRENT]
    row[SPOKEN] += 1
    if action == PASS:
        row[PASSED] |= 1 << p
        row[PASSES_IN_ROW] += 1
    else:
        level = action - cfg[C_BID0]
        row[HIGH] = level
        row[HIGH_BIDDER] = p
        row[PASSES_IN_ROW] = 0
        row[PASSED] &= ~(1 << p)
        row[BID_LOG + row[NUM_BIDS]] = 4 * level + p
        row[NUM_BIDS] += 1
        if cfg[C_EGYPTIAN]:
            row[STRAIN] = level % 5
    spoken, high = row[SPOKEN], row[HIGH]
    if cfg[C_EGYPTIAN]:
        if high >= 0 and row[PASSES_IN_ROW] == 3:
            _auction_won(row, cfg)
        elif high < 0 and spoken == 4:
            need[i] = 1  # all passed
        else:
            row[CURRENT] = (p + 1) & 3
        return
    if cfg[C_SINGLE_ROUND]:
        if spoken < 4:
            row[CURRENT] = (p + 1) & 3
        elif high >= 0:
            _auction_won(row, cfg)
        else:
            need[i] = 1
        return
    passed = row[PASSED]
    out = (passed & 1) + ((passed >> 1) & 1) + ((passed >> 2) & 1) + ((passed >> 3) & 1)
    if out == 4:
        need[i] = 1
    elif out == 3 and high >= 0:
        _auction_won(row, cfg)
    else:  # the next player still in the bidding
        q = (p + 1) & 3
        while (passed >> q) & 1:
            q = (q + 1) & 3
        row[CURRENT] = q


# -- the play -----------------------------------------------------------------------------------


@njit(cache=True)
def _playable(row, p):
    """rules.playable: the suit p must play, or 4 for any card of his hand."""
    if row[IN_TRICK_COUNT] > 0:
        led = row[LED]
        return led if row[COUNT + 4 * p + led] > 0 else 4
    trump = row[TRUMP_SUIT]
    if row[LEAD_TRUMP_FIRST] and row[TRICKS_PLAYED] == 0 and row[COUNT + 4 * p + trump] > 0:
        return trump
    return 4


@njit(cache=True)
def _deal_score(bid, taken, cfg, doubled):
    """scoring.lebanese_score / egyptian_score: (declarer's side, opponents)."""
    if bid == MAX_BID:
        mine, theirs = (GRAND, 0) if taken == NUM_TRICKS else (GRAND_FAILED, 2 * (NUM_TRICKS - taken))
    elif taken == NUM_TRICKS:
        mine, theirs = KABOOT, 0
    elif taken >= bid:
        mine, theirs = taken, 0
    elif cfg[C_EGYPTIAN]:
        mine, theirs = -bid, bid - taken
    elif cfg[C_TRICKS_SCORING]:
        mine, theirs = -bid, NUM_TRICKS - taken
    else:
        mine, theirs = 0, bid + (bid - taken)
    if cfg[C_EGYPTIAN] and doubled:
        mine, theirs = mine * cfg[C_MULTIPLIER], theirs * cfg[C_MULTIPLIER]
    return mine, theirs


@njit(cache=True)
def _squash(v, target):
    """The observation's match score: v / (v + target) in float64, then stored as float32."""
    return np.float32(v / (v + target))


@njit(cache=True)
def _score_deal(row, i, sq, need, cfg):
    """rules._score_deal: the deal's score; the game goes on with the next dealer unless a
    side has reached the target (or the episode is one deal)."""
    side = row[HIGH_BIDDER] & 1
    mine, theirs = _deal_score(row[BID], row[WON0 + side], cfg, row[DOUBLED])
    row[LAST0 + side] = mine
    row[LAST0 + 1 - side] = theirs
    if cfg[C_DEAL_EPISODE]:
        row[OVER] = 1
        return
    a = row[SCORE0] + row[LAST0]
    b = row[SCORE0 + 1] + row[LAST0 + 1]
    row[SCORE0], row[SCORE0 + 1] = a, b
    target = float(cfg[C_TARGET])
    sq[i, 0] = _squash(max(a, 0), target)
    sq[i, 1] = _squash(max(b, 0), target)
    sq[i, 2] = _squash(max(-a, 0), target)
    sq[i, 3] = _squash(max(-b, 0), target)
    if max(a, b) >= cfg[C_TARGET] and a != b:  # scoring.game_winner
        row[WINNER] = 0 if a > b else 1
        row[OVER] = 1
        return
    row[DEALER] = (row[DEALER] + 1) & 3
    need[i] = 1


@njit(cache=True)
def _gather(row, i, held, sq, need, cfg):
    """rules._gather: the fourth card is down; the highest trump, else the highest card of the
    suit led, wins the trick and leads the next."""
    led, trump = row[LED], row[TRUMP_SUIT]
    best, best_key = 0, -1
    for j in range(4):
        card = row[TRICK + j]
        suit = card & 3
        key = 100 + card if suit == trump else (card if suit == led else -1)
        if key > best_key:
            best, best_key = j, key
        held[card] = (held[card] & 3) | (GATHERED << 2)
    winner = (row[LEADER] + best) & 3
    row[WON0 + (winner & 1)] += 1
    row[IN_TRICK_COUNT] = 0
    row[LED] = -1
    row[LEADER] = winner
    row[CURRENT] = winner
    row[TRICKS_PLAYED] += 1
    if row[TRICKS_PLAYED] == NUM_TRICKS:
        _score_deal(row, i, sq, need, cfg)


@njit(cache=True)
def _play(row, i, action, held, sq, need, cfg):
    p = row[CURRENT]
    card = action - CARD0
    suit = card & 3
    held[card] = p | (IN_TRICK << 2)
    row[COUNT + 4 * p + suit] -= 1
    position = row[IN_TRICK_COUNT]
    row[TRICK + position] = card
    row[IN_TRICK_COUNT] = position + 1
    if position == 0:
        row[LED] = suit
    elif suit != row[LED]:
        row[SHOWN_OUT] |= 1 << (4 * p + row[LED])
    if position == 3:
        _gather(row, i, held, sq, need, cfg)
    else:
        row[CURRENT] = (p + 1) & 3


# -- the step -----------------------------------------------------------------------------------


@njit(cache=True)
def apply_actions(actions, active, rewards, terminated, truncated, st, cards, sq, need, cfg):
    """rules.apply for every active game, then the ending (max_turns truncation, the returns).
    ``need`` flags the games to be dealt a new deck; returns how many."""
    pending = 0
    for i in range(len(actions)):
        if not active[i]:
            continue
        row = st[i]
        action = actions[i]
        row[TURNS] += 1
        phase = row[PHASE]
        if phase == PLAY:
            _play(row, i, action, cards[i], sq, need, cfg)
        elif phase == BIDDING:
            _call(row, i, action, need, cfg)
        elif phase == TRUMP:
            row[STRAIN] = action - TRUMP0
            _start_play(row, action - TRUMP0, cfg)
        else:  # DOUBLING: the Egyptian declarer doubles his contract or not
            row[DOUBLED] = 1 if action == DOUBLE else 0
            _start_play(row, row[TRUMP_SUIT], cfg)
        if row[TURNS] >= cfg[C_MAX_TURNS] and not row[OVER]:
            row[OVER] = 1
            row[TRUNCATED] = 1
        if row[OVER]:  # state.returns(); a truncated game gets 0
            if row[TRUNCATED]:
                truncated[i] = True
            else:
                terminated[i] = True
                if cfg[C_DEAL_EPISODE]:
                    a, b = row[LAST0], row[LAST0 + 1]
                    mine, theirs = (a - b) / 26.0, (b - a) / 26.0
                else:
                    mine = 1.0 if row[WINNER] == 0 else -1.0
                    theirs = -mine
                rewards[i, 0] = mine
                rewards[i, 1] = theirs
                rewards[i, 2] = mine
                rewards[i, 3] = theirs
        pending += need[i]
    return pending


@njit(cache=True)
def actors(actor, st):
    for i in range(len(actor)):
        actor[i] = -1 if st[i, OVER] else st[i, CURRENT]


@njit(cache=True)
def observe(seats, obs, mask, st, cards, sq, cfg, ftab):
    """Row i: what seat ``seats[i]`` of game i sees (tarneeb/view.py, every field written
    from the state), and his legal actions (zeros unless he is to act)."""
    num_levels, bid0 = cfg[C_NUM_LEVELS], cfg[C_BID0]
    o_hand, o_bids, o_passed = cfg[O_HAND], cfg[O_BIDS], cfg[O_PASSED]
    o_trick, o_played, o_shown = cfg[O_TRICK], cfg[O_PLAYED], cfg[O_SHOWN_OUT]
    for i in range(len(seats)):
        v = seats[i]
        out = obs[i]
        legal = mask[i]
        legal[:] = 0
        if v < 0:
            out[:] = 0.0
            continue
        row = st[i]
        held = cards[i]
        # the card fields (most of the row) are written whole below, the others cleared here
        out[:o_hand] = 0.0
        out[o_bids:o_trick] = 0.0
        out[o_shown:] = 0.0
        phase = row[PHASE]
        out[cfg[O_PHASE] + phase] = 1.0
        # my hand, then by relative seat the cards played this deal and to the current trick;
        # held[c] == seat | place << 2, so each entry is one comparison (and the loops vectorize)
        # (int8 comparisons, so that the loops vectorize on bytes)
        mine_in_hand = np.int8(v)
        hand = out[o_hand : o_hand + 52]
        for c in range(52):
            hand[c] = 1.0 if held[c] == mine_in_hand else 0.0
        for r in range(4):
            p = (v + r) & 3
            in_trick, gathered = np.int8(p | (IN_TRICK << 2)), np.int8(p | (GATHERED << 2))
            trick = out[o_trick + 52 * r : o_trick + 52 * r + 52]
            played = out[o_played + 52 * r : o_played + 52 * r + 52]
            for c in range(52):
                x = held[c]
                trick[c] = 1.0 if x == in_trick else 0.0
                played[c] = 1.0 if (x == in_trick) | (x == gathered) else 0.0
        for j in range(row[NUM_BIDS]):  # every bid of the deal, by relative seat of the bidder
            bid = row[BID_LOG + j]
            out[o_bids + num_levels * ((bid - v) & 3) + (bid >> 2)] = 1.0
        shown = row[SHOWN_OUT]
        passed = row[PASSED]
        for p in range(4):
            r = (p - v) & 3
            if (passed >> p) & 1:
                out[o_passed + r] = 1.0
            suits = (shown >> (4 * p)) & 15
            if suits:
                for s in range(4):
                    if (suits >> s) & 1:
                        out[o_shown + 4 * r + s] = 1.0
        high = row[HIGH]
        if high >= 0:
            tricks = high // 5 if cfg[C_EGYPTIAN] else high
            out[cfg[O_CONTRACT_TRICKS] + tricks] = 1.0
            out[cfg[O_DECLARER] + ((row[HIGH_BIDDER] - v) & 3)] = 1.0
        if row[STRAIN] >= 0:
            out[cfg[O_CONTRACT_STRAIN] + row[STRAIN]] = 1.0
        if row[DOUBLED]:
            out[cfg[O_DOUBLED]] = 1.0
        if row[IN_TRICK_COUNT] > 0:
            out[cfg[O_TRICK_LEADER] + ((row[LEADER] - v) & 3)] = 1.0
        mine = v & 1
        out[cfg[O_TRICKS_WON]] = ftab[F_TRICKS_WON + row[WON0 + mine]]
        out[cfg[O_TRICKS_WON] + 1] = ftab[F_TRICKS_WON + row[WON0 + 1 - mine]]
        o_score = cfg[O_SCORE]
        out[o_score] = sq[i, mine]
        out[o_score + 1] = sq[i, 1 - mine]
        out[o_score + 2] = sq[i, 2 + mine]
        out[o_score + 3] = sq[i, 3 - mine]
        out[cfg[O_TARGET]] = ftab[F_TARGET]
        out[cfg[O_DEALER] + ((row[DEALER] - v) & 3)] = 1.0
        # the mask: only the player to act has legal actions
        if row[OVER] or v != row[CURRENT]:
            continue
        if phase == PLAY:
            suit = _playable(row, v)
            cards_legal = legal[CARD0 : CARD0 + 52]
            mine_in_hand = np.int8(v)
            if suit == 4:
                for c in range(52):
                    cards_legal[c] = 1 if held[c] == mine_in_hand else 0  # his, still in hand
            else:
                for c in range(52):
                    cards_legal[c] = 1 if (held[c] == mine_in_hand) & ((c & 3) == suit) else 0
        elif phase == BIDDING:
            if high < 0 and row[SPOKEN] == 3 and cfg[C_DEALER_BIDS_7]:
                lowest = 0  # the dealer may not pass: he must bid
            else:
                legal[PASS] = 1
                lowest = high + 1
            for level in range(lowest, num_levels):
                legal[bid0 + level] = 1
        elif phase == TRUMP:
            for s in range(cfg[C_NUM_TRUMP_CALLS]):
                legal[TRUMP0 + s] = 1
        else:
            legal[DOUBLE] = 1
            legal[DOUBLE + 1] = 1
