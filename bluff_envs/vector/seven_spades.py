"""Seven Spades, ``num_envs`` games at a time: the compiled twin of ``bluff_envs.seven_spades_v0``.

The rules and the view of the reference engine (``bluff_envs/seven_spades/rules.py`` and
``view.py``) are replayed by numba kernels (``seven_spades_kernels.py``) over these arrays,
one row (or block) per game ``i``:

``stock[i, :]`` (int64, deck size)
    the shuffled deck, top card first; ``games[i, TOP]`` is the index of the next card drawn.
    Like the reference's stock it is never changed, only the top advances.
``games[i, :]`` (int64, one column per scalar; the names are in ``seven_spades_kernels``)
    ``TOP``, ``DRAWN`` (the card in the current player's hand, -1 for none), ``CURRENT`` (the
    seat whose decision is awaited), ``PHASE`` (play / challenge window), ``PLAYERS_IN``, the
    open window's ``CLAIMER``, ``CLAIMED`` (his face-down card under challenge) and
    ``OFFICIAL`` (the first to challenge, i.e. nearest the claimer's left; -1 for none),
    ``TURNS`` (completed turns), ``WINNER`` (-1 for none), ``OVER`` and ``TRUNCATED``.
``seats[i, :, p]`` (int64) for seat ``p``
    ``IN_GAME``, ``ROW_LENGTH`` (cards in his row), ``FACE_UP`` (spades face up in it) and
    ``CHALLENGED`` (he challenged in the open window; revealed when it closes).
``public[i, :]`` (float32)
    the public part of every observation, in absolute seat order: the reference view's
    ``public`` vector, kept up to date event by event (one write per event, whoever sees it).
``my_row[i, p, :]`` (float32, 52)
    seat ``p``'s face-down cards by card id, the private ``my_row`` field of his observation.
    The other private field, ``drawn``, is the one-hot of ``games[i, DRAWN]`` for the current
    player (the only one who ever holds a drawn card).

An observation is ``drawn``, ``my_row[i, seat]`` and ``public[i]`` rotated to the seat's
relative seats (a gather through the reference's own rotation table), as the reference's
``observation(seat)`` copies it in.

The cards of the rows themselves are not kept: only the last claimed card can ever be turned
up, and what else the reference tracks (the face-down cards of a row, the cards out of the
game) reaches no observation except through the counts above and each owner's ``my_row``.

A step is one ``apply`` kernel call and one ``refresh`` (actor, observation and mask of every
game), plus one ``deal_shuffled`` for the games dealt again: it draws their decks from their
own generators inside the kernel (see ``_restart``).
"""

from __future__ import annotations

import ctypes

import numpy as np

from bluff_envs.seven_spades.view import HISTORY
from bluff_envs.vector import seven_spades_kernels as k
from bluff_envs.vector.base import VectorGame


class VectorSevenSpades(VectorGame):
    game_name = "seven_spades"

    def _alloc(self) -> None:
        c, t, lay = self.config, self.game.view_tables, self.layout
        B, n = self.num_envs, self.num_players
        assert lay["drawn"].start == 0 and t.public_start == lay["my_row"].stop
        self.stock = np.zeros((B, self.deck_size), np.int64)
        self.games = np.zeros((B, k.GAME_COLS), np.int64)
        self.games[:, k.OVER] = 1  # nothing dealt yet
        self.seats = np.zeros((B, k.SEAT_ROWS, n), np.int64)
        self.public = np.zeros((B, t.size - t.public_start), np.float32)
        self.my_row = np.zeros((B, n, lay["my_row"].stop - lay["my_row"].start), np.float32)
        self.rotation = np.ascontiguousarray(t.rotation, np.int64)  # [viewer, public entry]
        self.opening = t.opening_public.astype(np.float32)  # a new game's, player 0 holding a card
        cfg = np.zeros(k.CFG_SIZE, np.int64)
        cfg[k.N] = n
        cfg[k.DECK_SIZE] = self.deck_size
        cfg[k.FINAL_LENGTH] = c.target - 1
        cfg[k.MAX_TURNS] = c.max_turns
        cfg[k.FREE_TURN] = int(c.free_turn)
        cfg[k.O_MY_ROW] = t.my_row0
        cfg[k.PUBLIC] = t.public_start
        # the public fields' offsets inside the public vector, as the reference view's tables
        cfg[k.O_PHASE], cfg[k.O_CLAIMER], cfg[k.O_ROW] = t.phase, t.claimer, t.row_lengths
        cfg[k.O_FACE_UP], cfg[k.O_IN_GAME], cfg[k.O_SEEN] = t.face_up_spades, t.in_game, t.seen
        cfg[k.O_DISCARD_SPADES], cfg[k.O_DISCARD_OTHERS] = t.discard_spades, t.discard_others
        cfg[k.O_STOCK], cfg[k.O_TURNS], cfg[k.O_HISTORY] = t.stock, t.turns, t.h0
        cfg[k.RECORD] = t.record_size
        cfg[k.HISTORY] = HISTORY
        self.cfg = cfg
        # the reference multiplies python floats (float64) and rounds once when it assigns
        self.scale64 = np.array([t.inv_target, t.inv_size, t.inv_turns, -1.0 / (n - 1)], np.float64)
        # ... and adds a python float to a float32 entry: numpy does that in float32
        self.step32 = np.array([t.inv_decks, t.inv_spades, t.inv_others], np.float32)
        self._generators_of = None  # the list of generators _next_uint32 / _states point into

    def _deal(self, indices: np.ndarray, decks: np.ndarray) -> None:
        k.deal(indices, decks, self.opening, self.games, self.seats, self.stock, self.public, self.my_row,
               self.cfg, self.scale64)

    def _apply(self, actions, active, rewards, terminated, truncated) -> None:
        k.apply(actions, active, rewards, terminated, truncated, self.games, self.seats, self.stock,
                self.public, self.my_row, self.cfg, self.scale64, self.step32)

    def _observe(self, seats: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        k.observe(seats, obs, mask, self.games, self.seats, self.public, self.my_row, self.rotation,
                  self.cfg)

    def _actors(self, actor: np.ndarray) -> None:
        k.actors(actor, self.games)

    def _restart(self, indices: np.ndarray) -> None:
        # The base class deals each ended game its next deck from a Python loop: at 1024 games
        # some 60 end every step, and ``rng.permutation`` (~4 us each) would cost more than the
        # kernels together. Here one kernel draws those decks straight from each game's bit
        # generator through its C interface: the very numbers ``permutation`` would draw, so
        # the generators stay where the reference's are. Queued decks keep the base's path.
        if self._queued:
            queued = [i for i in indices.tolist() if self._queued.get(i)]
            if queued:
                super()._restart(np.array(queued, np.int64))
                indices = np.setdiff1d(indices, queued)
        if self._generators_of is not self._rngs:  # reset() made new ones (the base class never
            # swaps one generator inside the list: it replaces the whole list)
            interfaces = [rng.bit_generator.ctypes for rng in self._rngs]
            self._next_uint32 = np.array(
                [ctypes.cast(c.next_uint32, ctypes.c_void_p).value for c in interfaces], np.int64)
            self._states = np.array([c.state.value for c in interfaces], np.int64)
            self._generators_of = self._rngs  # keeps them alive while their pointers are used
        self._ended[indices] = False
        k.deal_shuffled(indices, self._cards, self._next_uint32, self._states, self.decks, self.opening,
                        self.games, self.seats, self.stock, self.public, self.my_row, self.cfg, self.scale64)

    def _refresh(self) -> None:
        # the base class calls _actors then _observe(actor): here one kernel does both
        k.refresh(self.actor, self.obs, self.mask, self.games, self.seats, self.public, self.my_row,
                  self.rotation, self.cfg)


ENGINE = VectorSevenSpades
