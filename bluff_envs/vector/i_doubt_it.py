"""I Doubt It (docs/rules.md §1) for ``num_envs`` games at once: arrays and numba kernels.

The same game as ``bluff_envs.i_doubt_it`` (rules.py is the specification, view.py the
encoder), played on arrays: game ``b`` is row ``b`` of every array below.

Rules state (integers):

* ``table[b, F]``: the game's scalars, one column per field ``F`` (``PHASE``, ``CURRENT`` the
  seat to act, ``REQUIRED`` the rank the next play names, ``CHOSEN_COUNT`` and
  ``LOWEST_ADDABLE`` for the play being built, ``CLAIMER`` / ``CLAIM_COUNT`` / ``CLAIM_RANK``
  for the claim on the pile, ``WINDOW_NEXT`` and ``OFFICIAL`` for the doubt window (deciders
  asked so far, the official doubter or -1), ``TURNS``, ``WINNER`` (-1 for none), ``OVER``,
  ``TRUNCATED``, ``PILE_COUNT`` and ``HAS_CLAIMER_KNOWN``);
* ``hands[b, p, r]``: how many cards of rank ``r`` player ``p`` holds, ``hand_sizes[b, p]``;
* ``pile[b, r]``: the face-down pile by rank, ``claim[b, r]``: the cards of the latest claim,
  ``chosen[b, r]``: the play being built;
* ``doubted[b, p]``: who said "I doubt it" in the current (or last) window.

Hands are kept as counts by rank. The reference keeps the physical cards (``_discard`` takes
``held[-k:]``), but nothing it decides or shows depends on a suit: legality, honesty and every
observation field are by rank, so the counts are the whole state.

What each seat knows, kept incrementally exactly as ``IDoubtItView`` does (float32, with the
same operations in the same order, so the observations are bit-identical even where
``1 / (4 * num_decks)`` is not a power of two):

* ``private[b, v, :]``: seat ``v``'s own part of its row: hand, building, my_cards_in_pile and
  known_cards (opponents by relative seat);
* ``public[b, :]``: the public part once, in absolute seats; a seat's row gets it through the
  reference's own gather table (absolute seats -> relative ones);
* ``known_of[b, p]``: does anybody know a card of ``p``'s hand; ``claimer_known[b, v, :]``:
  what viewer ``v`` knew of the claimer's hand before his play (used when it is turned up).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from bluff_envs.cards import NUM_RANKS
from bluff_envs.i_doubt_it.actions import DONE, DOUBT, DOUBT_WINDOW, PASS, PLAY
from bluff_envs.i_doubt_it.rules import ACE
from bluff_envs.i_doubt_it.view import HISTORY, public_gather, record_size
from bluff_envs.vector.base import VectorGame

R = NUM_RANKS

# columns of ``table``
PHASE, CURRENT, REQUIRED, CHOSEN_COUNT, LOWEST_ADDABLE = 0, 1, 2, 3, 4
CLAIMER, CLAIM_COUNT, CLAIM_RANK, WINDOW_NEXT, OFFICIAL = 5, 6, 7, 8, 9
TURNS, WINNER, OVER, TRUNCATED, PILE_COUNT, HAS_CLAIMER_KNOWN = 10, 11, 12, 13, 14, 15
NUM_FIELDS = 16

# the private part of a row (offsets in the observation)
HAND, BUILDING, MINE, KNOWN = 0, R, 2 * R, 3 * R
# the public part (offsets in ``public``, i.e. from the layout's "phase"); the seat fields
# follow at HAND_SIZES, HAND_SIZES + n (last_doubts) and HAND_SIZES + 2n (history)
PUB_PHASE, PUB_REQUIRED, PUB_CLAIM_RANK = 0, 2, 2 + R
PUB_PILE_SIZE, PUB_TURNS, PUB_HAND_SIZES = 2 + 2 * R, 3 + 2 * R, 4 + 2 * R


# -- the view's updates ---------------------------------------------------------------------


@njit(cache=True)
def _known_at(viewer, seat, n):
    """Where ``seat``'s known cards start in ``viewer``'s row (opponents by relative seat)."""
    return KNOWN + ((seat - viewer + n) % n - 1) * R


@njit(cache=True)
def _refresh_hand(b, p, hands, hand_sizes, private, public, inv_copies, inv_size):
    """A player's own hand, recounted (float64 product then float32, as the reference)."""
    for r in range(R):
        private[b, p, HAND + r] = np.float32(hands[b, p, r] * inv_copies)
    public[b, PUB_HAND_SIZES + p] = np.float32(hand_sizes[b, p] * inv_size)


@njit(cache=True)
def _view_claimed(b, n, table, hand_sizes, known_of, private, public, claimer_known, inv_copies, inv_size):
    """``IDoubtItView._claimed``: read after the rules have applied the whole action."""
    p, count, rank = table[b, CLAIMER], table[b, CLAIM_COUNT], table[b, CLAIM_RANK]
    # the cards discarded (exactly "building") leave the hand and join my pile share
    for r in range(R):
        built = private[b, p, BUILDING + r]
        private[b, p, HAND + r] = private[b, p, HAND + r] - built
        private[b, p, BUILDING + r] = np.float32(0.0)
        private[b, p, MINE + r] = private[b, p, MINE + r] + built
    public[b, PUB_HAND_SIZES + p] = np.float32(hand_sizes[b, p] * inv_size)
    public[b, PUB_PHASE + PLAY] = 0.0
    public[b, PUB_PHASE + DOUBT_WINDOW] = 1.0
    for r in range(R):
        public[b, PUB_CLAIM_RANK + r] = 0.0
    public[b, PUB_CLAIM_RANK + rank] = 1.0
    public[b, PUB_PILE_SIZE] = np.float32(table[b, PILE_COUNT] * inv_size)
    # history: the older records move one place down, the newest goes first
    h, rs = PUB_HAND_SIZES + 2 * n, 2 * n + 4
    for j in range((HISTORY - 1) * rs - 1, -1, -1):
        public[b, h + rs + j] = public[b, h + j]
    for j in range(rs):
        public[b, h + j] = 0.0
    public[b, h + p] = 1.0
    public[b, h + n] = np.float32(count * inv_size)
    # what the others are sure he holds: any `count` of his cards may be the ones discarded
    table[b, HAS_CLAIMER_KNOWN] = known_of[b, p]
    if known_of[b, p]:
        less = np.float32(count * inv_copies)
        left_any = False
        for v in range(n):
            if v == p:
                continue
            at = _known_at(v, p, n)
            for r in range(R):
                known = private[b, v, at + r]
                claimer_known[b, v, r] = known
                left = known - less
                if left < 0:
                    left = np.float32(0.0)
                private[b, v, at + r] = left
                left_any |= left != 0
        known_of[b, p] = left_any


@njit(cache=True)
def _view_resolved(b, n, window, doubter, checked, honest, taker, table, hands, hand_sizes, claim,
                   doubted, known_of, private, public, claimer_known, inv_copies, inv_size, inv_turns):
    """``IDoubtItView._resolved``: what the close of a claim shows everybody."""
    public[b, PUB_PHASE + PLAY] = 1.0
    public[b, PUB_PHASE + DOUBT_WINDOW] = 0.0
    for r in range(R):
        public[b, PUB_REQUIRED + r] = 0.0
    public[b, PUB_REQUIRED + table[b, REQUIRED]] = 1.0
    public[b, PUB_TURNS] = np.float32(table[b, TURNS] * inv_turns)
    doubts = PUB_HAND_SIZES + n
    if window:  # the decisions become public when the window closes
        for s in range(n):
            public[b, doubts + s] = 1.0 if doubted[b, s] else 0.0
    if not checked:
        return
    h = PUB_HAND_SIZES + 2 * n + n  # the newest record, after its claimer one-hot
    public[b, h + 1] = 1.0 if doubter >= 0 else 0.0
    public[b, h + 2 + (0 if honest else 1)] = 1.0
    if doubter >= 0:
        public[b, h + 4 + doubter] = 1.0
    if taker < 0:
        return
    # everyone now sees which cards left the discarder's hand, and where the pile went;
    # the turned-up counts are float32(count) * float32(1 / copies), as the reference's array
    f_inv = np.float32(inv_copies)
    d = table[b, CLAIMER]
    if table[b, HAS_CLAIMER_KNOWN]:
        left_any = False
        for v in range(n):
            if v == d:
                continue
            at = _known_at(v, d, n)
            for r in range(R):
                left = claimer_known[b, v, r] - np.float32(claim[b, r]) * f_inv
                if left < 0:
                    left = np.float32(0.0)
                private[b, v, at + r] = left
                left_any |= left != 0
        known_of[b, d] = left_any
    for v in range(n):
        if v == taker:
            continue
        at = _known_at(v, taker, n)
        for r in range(R):
            shown = np.float32(claim[b, r]) * f_inv
            gained = private[b, v, MINE + r] + shown
            if v == d:  # the discarder knew his own cards already: they are in his pile share
                gained = gained - shown
            private[b, v, at + r] = private[b, v, at + r] + gained
    known_of[b, taker] = True
    for v in range(n):
        for r in range(R):
            private[b, v, MINE + r] = 0.0
    public[b, PUB_PILE_SIZE] = 0.0
    _refresh_hand(b, taker, hands, hand_sizes, private, public, inv_copies, inv_size)


# -- the rules ------------------------------------------------------------------------------


@njit(cache=True)
def _resolve(b, n, window, step_rank, max_turns, table, hands, hand_sizes, pile, claim):
    """``IDoubtItState._resolve`` (the rules' half): returns doubter, checked, honest, taker."""
    d = table[b, CLAIMER]
    doubter = table[b, OFFICIAL] if window else -1
    checked = (not window) or doubter >= 0
    honest = False
    taker = -1
    if checked:
        honest = claim[b, table[b, CLAIM_RANK]] == table[b, CLAIM_COUNT]
        taker = doubter if honest else d
    if hand_sizes[b, d] == 0 and (honest or not checked):
        table[b, WINNER] = d
    if taker >= 0:  # the whole pile goes into the taker's hand
        for r in range(R):
            hands[b, taker, r] += pile[b, r]
            pile[b, r] = 0
        hand_sizes[b, taker] += table[b, PILE_COUNT]
        table[b, PILE_COUNT] = 0
    table[b, PHASE] = PLAY
    table[b, TURNS] += 1
    table[b, REQUIRED] = (table[b, REQUIRED] + step_rank + R) % R
    table[b, CURRENT] = (d + 1) % n  # play continues to the discarder's left, whatever happened
    if table[b, WINNER] >= 0:
        table[b, OVER] = 1
    elif table[b, TURNS] >= max_turns:
        table[b, OVER] = 1
        table[b, TRUNCATED] = 1
    return doubter, checked, honest, taker


@njit(cache=True)
def _apply_kernel(actions, active, n, step_rank, last_play_checked, max_turns, inv_copies, inv_size,
                  inv_turns, table, hands, hand_sizes, pile, chosen, claim, doubted, known_of, private,
                  public, claimer_known, rewards, terminated, truncated):
    f_inv = np.float32(inv_copies)
    loser = -1.0 / (n - 1)
    for b in range(actions.shape[0]):
        if not active[b]:
            continue
        a = actions[b]
        p = table[b, CURRENT]
        if table[b, PHASE] == DOUBT_WINDOW:
            # one decider's secret decision; the first doubter asked is the official one
            if a == DOUBT:
                doubted[b, p] = True
                if table[b, OFFICIAL] < 0:
                    table[b, OFFICIAL] = p
            asked = table[b, WINDOW_NEXT] + 1
            table[b, WINDOW_NEXT] = asked
            if asked < n - 1:
                table[b, CURRENT] = (table[b, CLAIMER] + 1 + asked) % n
            else:
                doubter, checked, honest, taker = _resolve(b, n, True, step_rank, max_turns, table, hands,
                                                           hand_sizes, pile, claim)
                _view_resolved(b, n, True, doubter, checked, honest, taker, table, hands, hand_sizes, claim,
                               doubted, known_of, private, public, claimer_known, inv_copies, inv_size,
                               inv_turns)
        elif a != DONE:
            # one more card of rank `a` for the play being built (private to the builder)
            chosen[b, a] += 1
            table[b, CHOSEN_COUNT] += 1
            table[b, LOWEST_ADDABLE] = a
            private[b, p, BUILDING + a] = private[b, p, BUILDING + a] + f_inv
        else:
            # "done": the chosen cards go face down on the pile, claiming the required rank
            count = table[b, CHOSEN_COUNT]
            for r in range(R):
                k = chosen[b, r]
                claim[b, r] = k
                hands[b, p, r] -= k
                pile[b, r] += k
                chosen[b, r] = 0
            hand_sizes[b, p] -= count
            table[b, PILE_COUNT] += count
            table[b, CHOSEN_COUNT] = 0
            table[b, LOWEST_ADDABLE] = 0
            table[b, CLAIMER] = p
            table[b, CLAIM_COUNT] = count
            table[b, CLAIM_RANK] = table[b, REQUIRED]
            if hand_sizes[b, p] == 0 and last_play_checked:
                # the last play is turned up at once: the view records the claim after the
                # rules resolved it, as the reference's events are recorded after apply()
                doubter, checked, honest, taker = _resolve(b, n, False, step_rank, max_turns, table, hands,
                                                           hand_sizes, pile, claim)
                _view_claimed(b, n, table, hand_sizes, known_of, private, public, claimer_known,
                              inv_copies, inv_size)
                _view_resolved(b, n, False, doubter, checked, honest, taker, table, hands, hand_sizes, claim,
                               doubted, known_of, private, public, claimer_known, inv_copies, inv_size,
                               inv_turns)
            else:
                table[b, PHASE] = DOUBT_WINDOW
                table[b, WINDOW_NEXT] = 0
                table[b, OFFICIAL] = -1
                for s in range(n):
                    doubted[b, s] = False
                table[b, CURRENT] = (p + 1) % n
                _view_claimed(b, n, table, hand_sizes, known_of, private, public, claimer_known,
                              inv_copies, inv_size)
        if table[b, OVER]:
            if table[b, TRUNCATED]:
                truncated[b] = True
            else:
                terminated[b] = True
                for s in range(n):
                    rewards[b, s] = 1.0 if s == table[b, WINNER] else loser


@njit(cache=True)
def _deal_kernel(indices, decks, n, inv_copies, inv_size, table, hands, hand_sizes, pile, chosen, claim,
                 doubted, known_of, private, public, claimer_known):
    for j in range(indices.shape[0]):
        b = indices[j]
        table[b, :] = 0
        table[b, REQUIRED] = ACE  # player 0 must name Aces
        table[b, CLAIMER] = -1
        table[b, OFFICIAL] = -1
        table[b, WINNER] = -1
        hands[b] = 0
        hand_sizes[b] = 0
        pile[b] = 0
        chosen[b] = 0
        claim[b] = 0
        doubted[b] = False
        known_of[b] = False
        private[b] = 0.0
        public[b] = 0.0
        claimer_known[b] = 0.0
        for i in range(decks.shape[1]):  # one card at a time from player 0
            p = i % n
            hands[b, p, decks[j, i] >> 2] += 1
            hand_sizes[b, p] += 1
        public[b, PUB_PHASE + PLAY] = 1.0
        public[b, PUB_REQUIRED + ACE] = 1.0
        for p in range(n):
            _refresh_hand(b, p, hands, hand_sizes, private, public, inv_copies, inv_size)


@njit(cache=True)
def _observe_kernel(seats, cap, gather, table, hands, chosen, private, public, obs, mask):
    p0 = private.shape[2]
    width = gather.shape[1]
    for b in range(seats.shape[0]):
        s = seats[b]
        if s < 0:
            obs[b, :] = 0.0
            mask[b, :] = 0
            continue
        for i in range(p0):
            obs[b, i] = private[b, s, i]
        for i in range(width):
            obs[b, p0 + i] = public[b, gather[s, i]]
        mask[b, :] = 0
        if s != table[b, CURRENT] or table[b, OVER]:
            continue  # not this seat's decision
        if table[b, PHASE] == DOUBT_WINDOW:
            mask[b, DOUBT] = 1
            mask[b, PASS] = 1
        elif table[b, CHOSEN_COUNT] == 0:  # the first card of a play: any rank held
            for r in range(R):
                if hands[b, s, r] > 0:
                    mask[b, r] = 1
        else:  # ranks in canonical order, within the cap, then "done"
            if table[b, CHOSEN_COUNT] < cap:
                for r in range(table[b, LOWEST_ADDABLE], R):
                    if hands[b, s, r] > chosen[b, r]:
                        mask[b, r] = 1
            mask[b, DONE] = 1


@njit(cache=True)
def _actors_kernel(table, actor):
    for b in range(table.shape[0]):
        actor[b] = -1 if table[b, OVER] else table[b, CURRENT]


class VectorIDoubtIt(VectorGame):
    """``num_envs`` games of I Doubt It; see the module docstring for the state arrays."""

    game_name = "i_doubt_it"

    def _alloc(self) -> None:
        c, n, B = self.config, self.num_players, self.num_envs
        lay = self.layout
        p0 = lay["phase"].start
        # the kernels' offsets are the reference layout's: fail loudly if it ever moves
        expected = {"hand": HAND, "building": BUILDING, "my_cards_in_pile": MINE, "known_cards": KNOWN}
        expected.update({name: p0 + off for name, off in (
            ("phase", PUB_PHASE), ("required_rank", PUB_REQUIRED), ("claim_rank", PUB_CLAIM_RANK),
            ("pile_size", PUB_PILE_SIZE), ("turns", PUB_TURNS), ("hand_sizes", PUB_HAND_SIZES),
            ("last_doubts", PUB_HAND_SIZES + n), ("history", PUB_HAND_SIZES + 2 * n))})
        moved = [name for name, at in expected.items() if lay[name].start != at]
        if moved or list(lay)[-1] != "history" or lay.size != lay["history"].start + HISTORY * record_size(n):
            raise RuntimeError(f"the I Doubt It layout changed ({moved}); update the vector engine")
        # the options, as the reference view computes them (Python floats: float64)
        copies = 4 * c.num_decks
        self._n = n
        self._cap = int(self.game.cap)
        self._step_rank = -1 if c.rank_order == "descending" else 1
        self._last_play_checked = bool(c.last_play_checked)
        self._max_turns = int(c.max_turns)
        self._inv_copies = 1.0 / copies
        self._inv_size = 1.0 / (52 * c.num_decks)
        self._inv_turns = 1.0 / c.max_turns
        self._gather = np.ascontiguousarray(public_gather(lay, n), np.int64)
        # the state (see the module docstring)
        self.table = np.zeros((B, NUM_FIELDS), np.int64)
        self.table[:, OVER] = 1  # no game until reset()
        self.hands = np.zeros((B, n, R), np.int64)
        self.hand_sizes = np.zeros((B, n), np.int64)
        self.pile = np.zeros((B, R), np.int64)
        self.chosen = np.zeros((B, R), np.int64)
        self.claim = np.zeros((B, R), np.int64)
        self.doubted = np.zeros((B, n), np.bool_)
        self.known_of = np.zeros((B, n), np.bool_)
        self.private = np.zeros((B, n, p0), np.float32)
        self.public = np.zeros((B, lay.size - p0), np.float32)
        self.claimer_known = np.zeros((B, n, R), np.float32)

    def _deal(self, indices: np.ndarray, decks: np.ndarray) -> None:
        _deal_kernel(indices, decks, self._n, self._inv_copies, self._inv_size, self.table, self.hands,
                     self.hand_sizes, self.pile, self.chosen, self.claim, self.doubted, self.known_of,
                     self.private, self.public, self.claimer_known)

    def _apply(self, actions, active, rewards, terminated, truncated) -> None:
        _apply_kernel(actions, active, self._n, self._step_rank, self._last_play_checked, self._max_turns,
                      self._inv_copies, self._inv_size, self._inv_turns, self.table, self.hands,
                      self.hand_sizes, self.pile, self.chosen, self.claim, self.doubted, self.known_of,
                      self.private, self.public, self.claimer_known, rewards, terminated, truncated)

    def _observe(self, seats: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        _observe_kernel(seats, self._cap, self._gather, self.table, self.hands, self.chosen, self.private,
                        self.public, obs, mask)

    def _actors(self, actor: np.ndarray) -> None:
        _actors_kernel(self.table, actor)


ENGINE = VectorIDoubtIt
