"""The vector engine of Believe It or Not (Верю — не верю, docs/rules.md §2).

``num_envs`` games held in arrays and stepped by the numba kernels of
:mod:`bluff_envs.vector.believe_it_or_not_kernels`, exactly equal to the reference engine
(``bluff_envs.believe_it_or_not_v0``: ``rules.py`` plays, ``view.py`` encodes), which
``tests/bluff_envs/vector/test_believe_it_or_not.py`` proves step by step.

State arrays (game ``i`` is row ``i``; ``n`` players; ranks always 13 entries, 2 … A; seats
absolute unless said otherwise; everything a count, never a card id, since no rule and no
observation depends on suits):

=============  =========================  =======================================================
array          shape, dtype               content
=============  =========================  =======================================================
game           [B, 13] int32              the game's scalars, columns named in the kernels
                                          module: phase, current player, round rank, cards
                                          chosen so far, lowest addable rank, pile size, maker
                                          and size of the most recent play, turns, players in,
                                          cards out of play, over, loser
head           [B, n, 52 + 13(n-1)] int8  per viewer, the first fields of his observation in
                                          counts: his hand (the rules' hands), the play he is
                                          building (the rules' chosen cards), his own cards in
                                          this round's pile, what he knows went out of play,
                                          what he is sure each opponent holds (relative seats)
tail           [B, n, 13 + 4(3n+4) + 8]   per viewer, "last_revealed" … "call_piles" in counts:
               int8                       the cards the last call turned up and the last 4
                                          calls, newest first, seats relative to him
hand_size      [B, n] int32               each player's hand size
in_game        [B, n] int8                1 until the player has left the game
pile_by        [B, n] int32               cards each player put into this round's pile
maker_known    [B, n, 13] int8            what each viewer was sure the maker of the most
                                          recent play held before it (a call turns up exactly
                                          which of his cards left)
pile           [B, 13] int8               this round's pile by rank (face down)
last_play      [B, 13] int8               the most recent play by rank: what a call turns up
actor          [B] int64                  the seat to act; -1 once the game is over
tally          [B, 4, n] int32            with ``call_record`` (else None): each player's
                                          record of calls this game: his plays found honest,
                                          found false, his Believe and Don't believe calls
=============  =========================  =======================================================

Each step is two kernel calls (three when games are dealt again): ``apply_actions`` (the rules,
and what each viewer learns, for every game) and ``observe_rows`` (the actor's observation row
and mask: the head and the tail converted to float32 in two contiguous loops, the public
scalars between them written from ``game`` and the per-seat arrays; with ``call_record``, the
squashed counts of ``tally`` after "turns"). The observation of any seat is a function of these
arrays, so ``observe(seats)`` is the same kernel.
"""

from __future__ import annotations

import numpy as np

from bluff_envs.believe_it_or_not.view import HISTORY, RECORD_FIELDS, RECORD_SCALE
from bluff_envs.cards import NUM_RANKS
from bluff_envs.vector import believe_it_or_not_kernels as k
from bluff_envs.vector.base import VectorGame


class VectorBelieveItOrNot(VectorGame):
    """``num_envs`` games of Believe It or Not; options as ``believe_it_or_not_v0.env``."""

    game_name = "believe_it_or_not"

    def _alloc(self) -> None:
        B, n = self.num_envs, self.num_players
        game, lay = self.game, self.layout
        # the reference encoding's own scale factors, so every float32 comes out bit-identical
        enc = game.encoding
        self._inv = (enc.inv_copies, enc.inv_size, enc.inv_cap, enc.inv_turns)
        self._cap = int(game.cap)
        self._copies = int(game.copies)
        self._lowest_rank = int(self.config.lowest_rank)
        self._discard_quads = bool(self.config.discard_quads)
        self._max_turns = int(self.config.max_turns)
        self._call_record = bool(self.config.call_record)
        self._at = np.array([lay[name].start for name in k.LAYOUT_FIELDS], np.int64)
        # the head and tail rows are the layout's fields in order: check that they still are
        head_width = k.KNOWN + (n - 1) * NUM_RANKS
        record = 3 * n + 4
        tail_width = k.CALLS + HISTORY * record + 2 * HISTORY
        for name, start, width in (
            ("hand", k.HAND, NUM_RANKS), ("building", k.BUILDING, NUM_RANKS), ("my_cards_in_pile", k.MINE, NUM_RANKS),
            ("out_of_play_known", k.OUT_KNOWN, NUM_RANKS), ("known_cards", k.KNOWN, (n - 1) * NUM_RANKS),
            ("last_revealed", lay["last_revealed"].start, NUM_RANKS),
            ("calls", lay["last_revealed"].start + k.CALLS, HISTORY * record),
            ("call_counts", lay["last_revealed"].start + k.CALLS + HISTORY * record, HISTORY),
            ("call_piles", lay["last_revealed"].start + tail_width - HISTORY, HISTORY),
        ):  # fmt: skip
            if (lay[name].start, lay[name].stop) != (start, start + width):
                raise RuntimeError(f"observation field {name!r} is not where the vector engine keeps it")
        # and the kernel writes every entry: head, the public fields from "phase", tail, turns
        if lay["phase"].start != head_width or lay["turns"].start != lay["last_revealed"].start + tail_width:
            raise RuntimeError("the observation layout has fields the vector engine does not write")
        # with call_record, the record fields follow "turns", n entries each, squashed alike
        end = lay["turns"].stop
        if self._call_record:
            for name in RECORD_FIELDS:
                if (lay[name].start, lay[name].stop) != (end, end + n) or not lay.is_squashed(name) or (
                    lay.scale(name) != RECORD_SCALE
                ):
                    raise RuntimeError(f"observation field {name!r} is not where the vector engine keeps it")
                end += n
        if lay.size != end:
            raise RuntimeError("the observation layout has fields the vector engine does not write")
        # the scale of each tail entry before the calls' counts and piles: the cards turned up by
        # rank (÷ copies, a power of two) and the calls' 0/1 entries; float32 products are exact
        scales = [np.full(NUM_RANKS, enc.inv_copies), np.ones(HISTORY * record)]
        self._tail_scale = np.concatenate(scales).astype(np.float32)
        if self._copies not in (4, 8):
            raise RuntimeError("the vector engine scales counts of a rank by 1/4 or 1/8 in float32, exactly")

        self.state_game = np.zeros((B, k.NUM_GAME_FIELDS), np.int32)
        self.head = np.zeros((B, n, head_width), np.int8)
        self.tail = np.zeros((B, n, tail_width), np.int8)
        self.hand_size = np.zeros((B, n), np.int32)
        self.in_game = np.zeros((B, n), np.int8)
        self.pile_by = np.zeros((B, n), np.int32)
        self.maker_known = np.zeros((B, n, NUM_RANKS), np.int8)
        self.pile = np.zeros((B, NUM_RANKS), np.int8)
        self.last_play = np.zeros((B, NUM_RANKS), np.int8)
        self._actor = np.full(B, -1, np.int64)
        # None without call_record: the kernels compiled for that leave the record out entirely
        self.tally = np.zeros((B, len(RECORD_FIELDS), n), np.int32) if self._call_record else None
        self.state_game[:, k.OVER] = 1  # nothing dealt yet

        # the kernels' argument lists, built once
        self._state = (
            self.state_game, self.head, self.tail, self.hand_size, self.in_game, self.pile_by, self.maker_known,
            self.pile, self.last_play, self._actor, self.tally,
        )  # fmt: skip
        self._apply_args = (self._max_turns, self._discard_quads, self._copies, self._lowest_rank, *self._state)
        self._observe_args = (
            self._at, self._tail_scale, self._cap, self._lowest_rank, *self._inv, float(RECORD_SCALE),
            self.state_game, self.head, self.tail, self.hand_size, self.in_game, self.pile_by, self.tally,
        )  # fmt: skip

    def _deal(self, indices: np.ndarray, decks: np.ndarray) -> None:
        k.deal_games(indices, decks, *self._state)

    def _apply(self, actions, active, rewards, terminated, truncated) -> None:
        k.apply_actions(actions, active, rewards, terminated, truncated, *self._apply_args)

    def _observe(self, seats: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        k.observe_rows(seats, obs, mask, *self._observe_args)

    def _actors(self, actor: np.ndarray) -> None:
        actor[:] = self._actor  # kept by the kernels: -1 once a game is over


ENGINE = VectorBelieveItOrNot
