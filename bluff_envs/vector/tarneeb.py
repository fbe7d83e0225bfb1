"""Tarneeb (docs/rules.md §4), Lebanese and Egyptian, as a vector engine: ``num_envs`` games in arrays.

The same game as ``bluff_envs.tarneeb_v0`` (the specification, ``bluff_envs/tarneeb/rules.py``
and ``view.py``), bit for bit: options, decks, observations, masks, rewards and endings. The
kernels live in :mod:`bluff_envs.vector.tarneeb_kernels`; this module holds the state arrays and
the Python side of dealing (decks come from numpy generators, which numba cannot call).

State arrays (attributes ``_st``, ``_card_state``, ...; row ``i`` is game ``i``)
-------------------------------------------------------------------------------
``st``     int64 ``[B, NUM_FIELDS]``: every number of a game, one named column each (see the
           kernels module): the match (dealer, match scores, decisions taken, over / truncated,
           winner, the last deal's score), the bidding (highest level and its bidder, calls
           spoken, passes in a row, who has passed, the deal's bids in order), the
           contract (tricks bid, strain shown, trump, doubled, first lead must be trump), and the
           play (leader, suit led, the current trick's cards by position, tricks played and won
           by partnership, who has shown out of which suit, each seat's count of cards per suit).
``card_state``  int8 ``[B, 52]`` by card id: the seat it was dealt to (bits 0-1) and where it
           is now (bits 2-3): 0 in that seat's hand, 1 played to an earlier trick, 2 in the
           current trick.
``sq``     float32 ``[B, 4]``: the squashed match scores ``v / (v + target)`` kept ready for the
           observation: side 0's and side 1's score if positive, then each one's deficit.
``need``   int8 ``[B]``: the game must be dealt a new deck (next deal, all passed, a worthless hand).
``stock``  int8 ``[B, STOCK, 52]``: each game's next decks, drawn ahead from its own generator
           (``stock_left[i]`` of them unused), so that dealing needs no Python call per game.

A step is one kernel call that plays the actions and flags in ``need`` the games that start a
new deal, then (if any) one that deals them from their stocks, repeated while a deal is thrown
in for a worthless hand; Python only tops up an empty stock. The decks are exactly those the
reference draws, in its order: ``permuted(axis=1)`` on ``STOCK`` rows shuffles them one after
the other exactly as ``STOCK`` calls of ``permutation(52)`` (``deck.shuffled``) do, and decks
given with ``queue_decks`` still come first. The observation of any seat is written from these
arrays by one kernel (a pure function of the state, which the reference view keeps up to date
event by event), and the mask with it.
"""

from __future__ import annotations

import numpy as np

from bluff_envs.tarneeb.config import MAX_TARGET
from bluff_envs.vector import tarneeb_kernels as k
from bluff_envs.vector.base import VectorGame

STOCK = 8  # decks drawn ahead per game (one generator call per STOCK deals)

# the observation fields, in the kernels' order of their offsets in ``cfg``
_FIELDS = (
    (k.O_PHASE, "phase"),
    (k.O_HAND, "hand"),
    (k.O_BIDS, "bids"),
    (k.O_PASSED, "passed"),
    (k.O_CONTRACT_TRICKS, "contract_tricks"),
    (k.O_CONTRACT_STRAIN, "contract_strain"),
    (k.O_DECLARER, "declarer"),
    (k.O_DOUBLED, "doubled"),
    (k.O_TRICK_LEADER, "trick_leader"),
    (k.O_TRICK, "trick"),
    (k.O_PLAYED, "played"),
    (k.O_SHOWN_OUT, "shown_out"),
    (k.O_TRICKS_WON, "tricks_won"),
    (k.O_SCORE, "score"),
    (k.O_TARGET, "target_score"),
    (k.O_DEALER, "dealer"),
)


class VectorTarneeb(VectorGame):
    """``num_envs`` games of Tarneeb with the options of ``bluff_envs.tarneeb_v0.raw_env``."""

    game_name = "tarneeb"

    def _alloc(self) -> None:
        B, c, game = self.num_envs, self.config, self.game
        self._st = np.zeros((B, k.NUM_FIELDS), np.int64)
        self._st[:, k.OVER] = 1  # nothing dealt yet
        self._card_state = np.zeros((B, 52), np.int8)
        self._sq = np.zeros((B, 4), np.float32)
        self._need = np.zeros(B, np.int8)
        # each game's next decks, drawn ahead from its generator in the reference's order
        self._stock = np.zeros((B, STOCK, 52), np.int8)
        self._stock_left = np.zeros(B, np.int8)
        self._stock_rngs = None  # the base class's list of generators the stock was drawn from
        self._unshuffled = np.tile(np.arange(52, dtype=np.int8), (STOCK, 1))
        cfg = np.zeros(k.NUM_CFG, np.int64)
        cfg[k.C_EGYPTIAN] = c.egyptian
        cfg[k.C_SINGLE_ROUND] = c.bidding == "single_round"
        cfg[k.C_DEALER_BIDS_7] = c.all_pass == "dealer_bids_7"
        cfg[k.C_NUM_TRUMP_CALLS] = len(game.trump_calls)
        cfg[k.C_FIRST_LEAD_TRUMP] = c.first_lead_trump
        cfg[k.C_TRICKS_SCORING] = c.scoring == "tricks"
        cfg[k.C_TARGET] = c.target_score
        cfg[k.C_DEAL_EPISODE] = c.episode == "deal"
        cfg[k.C_REDEAL_WEAK] = c.redeal_weak_hands
        cfg[k.C_ALLOW_DOUBLE] = c.allow_double
        cfg[k.C_MULTIPLIER] = c.double_multiplier
        cfg[k.C_MAX_TURNS] = c.max_turns
        cfg[k.C_NUM_LEVELS] = game.num_levels
        cfg[k.C_BID0] = game.bid0
        for index, name in _FIELDS:
            cfg[index] = self.layout[name].start
        assert self.layout["score_deficit"].start == self.layout["score"].start + 2
        self._cfg = cfg
        # float32 constants exactly as the reference view computes them: tricks won / 13 (a
        # float32 array divided by 13) and the target / MAX_TARGET (a Python float, stored)
        self._ftab = np.zeros(k.NUM_FTAB, np.float32)
        self._ftab[k.F_TRICKS_WON : k.F_TRICKS_WON + 14] = np.arange(14, dtype=np.float32) / 13
        self._ftab[k.F_TARGET] = c.target_score / MAX_TARGET

    # -- dealing: the kernels deal, Python draws the decks ----------------------------------

    def _deal(self, indices: np.ndarray, decks: np.ndarray) -> None:
        pending = k.deal_games(indices, decks, True, self._st, self._card_state, self._sq, self._need, self._cfg)
        if pending:
            self._refill()

    def next_deck(self, i: int) -> np.ndarray:
        """The base class's next deck (a queued one, else ``deck.shuffled`` of game i's
        generator), taken from the stock of decks drawn ahead from that generator."""
        queued = self._queued.get(i)
        if queued:
            return queued.pop(0)
        self._check_stock()
        if not self._stock_left[i]:
            self._restock(i)
        left = self._stock_left[i]
        self._stock_left[i] = left - 1
        return self._cards[self._stock[i, STOCK - left]]

    def reseed(self, indices, seeds) -> None:
        self._check_stock()  # a reset's stale stock goes first
        super().reseed(indices, seeds)
        self._stock_rngs = self._rngs  # the other games keep the decks drawn ahead for them
        self._stock_left[np.asarray(indices, np.int64).reshape(-1)] = 0

    def _check_stock(self) -> None:
        """Decks drawn from generators the base class has since replaced (reset with a seed)
        are dropped."""
        if self._stock_rngs is not self._rngs:
            self._stock_left[:] = 0
            self._stock_rngs = self._rngs

    def _restock(self, i: int) -> None:
        # permuted(axis=1) shuffles row after row exactly as STOCK calls of permutation(52) do
        self._rngs[i].permuted(self._unshuffled, axis=1, out=self._stock[i])
        self._stock_left[i] = STOCK

    def _refill(self) -> None:
        """Deal a new deck to every game flagged in ``need`` (the next deal, all passed, a
        worthless hand), drawn as the reference draws it, again while deals are thrown in."""
        self._check_stock()
        need = self._need
        if any(self._queued.values()):  # decks given with queue_decks come first: one game at a time
            while need.any():
                indices = np.flatnonzero(need)
                decks = np.stack([self.next_deck(i) for i in indices.tolist()])
                k.deal_games(indices, decks, False, self._st, self._card_state, self._sq, need, self._cfg)
            return
        while k.deal_from_stock(need, self._stock, self._stock_left, self._st, self._card_state, self._sq, self._cfg):
            for i in np.flatnonzero(need & (self._stock_left == 0)).tolist():
                self._restock(i)

    # -- the step ---------------------------------------------------------------------------

    def _apply(self, actions, active, rewards, terminated, truncated) -> None:
        pending = k.apply_actions(
            actions, active, rewards, terminated, truncated, self._st, self._card_state, self._sq, self._need, self._cfg
        )
        if pending:
            self._refill()

    def _observe(self, seats, obs, mask) -> None:
        k.observe(seats, obs, mask, self._st, self._card_state, self._sq, self._cfg, self._ftab)

    def _actors(self, actor) -> None:
        k.actors(actor, self._st)


ENGINE = VectorTarneeb

__all__ = ["ENGINE", "VectorTarneeb"]
