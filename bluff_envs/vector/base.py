"""The contract every vector engine follows, and the batch plumbing they share.

A :class:`VectorGame` holds ``num_envs`` games of one kind in arrays. A game's subclass
implements four kernels over those arrays (numba-compiled in practice):

* ``_alloc()``: create the state arrays for ``num_envs`` games;
* ``_deal(indices, decks)``: start new games at ``indices`` from ``decks`` (card ids, top first);
* ``_apply(actions, active, rewards, terminated, truncated)``: play ``actions[i]`` in every game
  ``i`` with ``active[i]``, writing what every seat received and how the game ended;
* ``_observe(seats, obs, mask)``: the observation and legal-action mask of ``seats[i]`` in game
  ``i`` (the mask is all zeros for a seat that is not to act) and ``_actors(actor)``: the seat
  to act in every game (``-1`` once a game is over).

Everything else (options validation, decks, the illegal-action error, autoreset) lives here.
**Autoreset**: a game that ends on a step reports its rewards and ending there, with ``actor``
``-1`` and an all-zero mask; on the *next* step it is dealt again (its action is ignored) from
its own generator, or from a deck queued with :meth:`VectorGame.queue_decks`.

**Randomness** is per game, as in the reference engine: game ``i`` owns a generator, and a deck
it needs (a new game, a Tarneeb deal after the first) is ``deck.shuffled(generator)`` exactly as
``raw_env`` draws it. So ``reset(seeds=[s, …])`` deals game ``i`` what ``raw_env.reset(seed=s)``
deals, and its later games what the reference's later ``reset()`` calls deal.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

import numpy as np
from numba import njit

from bluff_envs.registry import game_module


@njit(cache=True)
def _illegal(actions, active, mask):
    """The first game whose action is not legal for it (or -1), and how many such games."""
    first, count = -1, 0
    for i in range(actions.shape[0]):
        if active[i]:
            a = actions[i]
            if a < 0 or a >= mask.shape[1] or mask[i, a] != 1:
                count += 1
                if first < 0:
                    first = i
    return first, count


@njit(cache=True)
def _update_ended(active, terminated, truncated, ended):
    for i in range(active.shape[0]):
        if active[i]:
            ended[i] = terminated[i] or truncated[i]


class VectorGame(ABC):
    """``num_envs`` games of one kind, stepped together. Subclasses name ``game_name``."""

    game_name: str

    def __init__(self, num_envs: int, **options: Any):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs={num_envs!r} is not allowed; allowed: an integer >= 1")
        self.num_envs = B = int(num_envs)
        # the reference game validates the options and owns the deck, layout and action names
        self.game = game_module(self.game_name).raw_env.game_class(**options)
        self.config = self.game.config
        self.num_players = self.game.num_players
        self.action_names = tuple(self.game.action_names)
        self.num_actions = len(self.action_names)
        self.layout = self.game.layout
        self.obs_dim = self.layout.size
        self.deck_size = self.game.deck.size
        self._cards = np.asarray(self.game.deck.cards(), np.int64)  # the order before shuffling
        self._sorted_deck = np.sort(self._cards)
        self._rngs = [np.random.default_rng() for _ in range(B)]
        self._queued: dict[int, list[np.ndarray]] = {}  # game -> decks for its next deals, in order
        self.obs = np.zeros((B, self.obs_dim), np.float32)
        self.mask = np.zeros((B, self.num_actions), np.int8)
        self.actor = np.full(B, -1, np.int64)
        self.rewards = np.zeros((B, self.num_players), np.float64)  # exactly the reference's rewards
        self.terminated = np.zeros(B, bool)
        self.truncated = np.zeros(B, bool)
        self.decks = np.zeros((B, self.deck_size), np.int64)  # each game's deck, for records
        self._ended = np.zeros(B, bool)
        self._started = False
        self._alloc()

    # -- the batch API --------------------------------------------------------------------

    def reset(self, seed: int | None = None, decks: Any = None, seeds: Any = None):
        """Deal every game. ``seed`` seeds the games' generators (one child of
        ``SeedSequence(seed)`` each); ``seeds`` gives each game's seed itself (game ``i`` then
        draws what ``raw_env.reset(seed=seeds[i])`` draws). ``decks`` (``num_envs`` decks, each a
        list of card strings or card ids, top card first) deals those instead of shuffling."""
        if seeds is not None:
            seeds = [int(s) for s in seeds]
            if len(seeds) != self.num_envs or min(seeds) < 0:
                raise ValueError(f"seeds must be {self.num_envs} integers >= 0, one per game")
            self._rngs = [np.random.default_rng(s) for s in seeds]
        elif seed is not None or not self._started:
            children = np.random.SeedSequence(seed).spawn(self.num_envs)
            self._rngs = [np.random.default_rng(child) for child in children]
        self._queued.clear()
        indices = np.arange(self.num_envs)
        if decks is None:
            decks = np.stack([self.next_deck(i) for i in range(self.num_envs)])
        self._start(indices, self.parse_decks(decks))
        self._started = True
        self._refresh()
        return self.obs, self.mask, self.actor

    def step(self, actions: Any, where: Any = None):
        """One action per game; returns ``obs, mask, actor, rewards, terminated, truncated``
        (the arrays are the engine's own and are overwritten by the next call).

        ``where`` (bool ``[num_envs]``, default: every game) steps only those games: the others
        take no action, are not dealt again if they are over, and receive zero rewards (their
        actions are not looked at). A learner environment steps the opponents' games while the
        learner's wait; a tournament leaves its finished games alone."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if not (type(actions) is np.ndarray and actions.dtype == np.int64):  # the common case costs nothing
            actions = np.asarray(actions)
            if not np.issubdtype(actions.dtype, np.integer):
                raise ValueError(f"actions must be {self.num_envs} integers (one per game), got {actions.dtype}")
            actions = actions.astype(np.int64)
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must be {self.num_envs} integers (one per game), got shape {actions.shape}")
        if where is None:
            restart = self._ended
            active = ~restart
        else:
            if not (type(where) is np.ndarray and where.dtype == bool and where.shape == (self.num_envs,)):
                where = np.asarray(where)
                raise ValueError(f"where must be {self.num_envs} booleans (one per game), got shape {where.shape} of {where.dtype}")
            restart = self._ended & where
            active = where & ~self._ended
        self._check_legal(actions, active)
        self.rewards.fill(0.0)
        self.terminated.fill(False)
        self.truncated.fill(False)
        if restart.any():
            self._restart(np.flatnonzero(restart))
        self._apply(actions, active, self.rewards, self.terminated, self.truncated)
        _update_ended(active, self.terminated, self.truncated, self._ended)
        self._refresh()
        return self.obs, self.mask, self.actor, self.rewards, self.terminated, self.truncated

    def observe(self, seats: Any) -> tuple[np.ndarray, np.ndarray]:
        """The observation and mask of ``seats[i]`` in game ``i`` (e.g. a learner's seat)."""
        seats = np.asarray(seats, np.int64)
        if seats.shape != (self.num_envs,) or (seats < 0).any() or (seats >= self.num_players).any():
            raise ValueError(f"seats must be {self.num_envs} seat numbers in 0..{self.num_players - 1}")
        obs = np.empty((self.num_envs, self.obs_dim), np.float32)
        mask = np.empty((self.num_envs, self.num_actions), np.int8)
        self._observe(seats, obs, mask)
        return obs, mask

    def reseed(self, indices: Any, seeds: Any) -> None:
        """New generators for the games at ``indices`` (``default_rng(seed)`` each): their next
        deals come from them, as ``raw_env.reset(seed=seed)`` draws (a queued deck first)."""
        indices = np.asarray(indices, np.int64).reshape(-1)
        seeds = [int(s) for s in np.asarray(seeds).reshape(-1)]
        if len(seeds) != len(indices) or (seeds and min(seeds) < 0):
            raise ValueError(f"reseed needs one seed >= 0 per game index, got {len(seeds)} for {len(indices)}")
        rngs = list(self._rngs)  # a new list: an engine may cache what the old one held
        for i, seed in zip(indices.tolist(), seeds):
            rngs[i] = np.random.default_rng(seed)
        self._rngs = rngs

    def queue_decks(self, indices: Any, decks: Any) -> None:
        """Decks for the next deals at ``indices``, one each, taken in the order queued (the
        next game's deck; for Tarneeb also a later deal's within the game)."""
        indices = np.asarray(indices, np.int64).reshape(-1)
        parsed = self.parse_decks(decks, count=len(indices))
        for i, deck in zip(indices.tolist(), parsed):
            self._queued.setdefault(int(i), []).append(deck)

    def parse_decks(self, decks: Any, count: int | None = None) -> np.ndarray:
        """``count`` (default ``num_envs``) decks as an int64 array, each checked to be the
        game's deck: card strings go through the reference parser, ids are compared as a multiset."""
        count = self.num_envs if count is None else count
        if isinstance(decks, np.ndarray) and np.issubdtype(decks.dtype, np.integer):
            out = decks.astype(np.int64)
        else:
            rows = list(decks)
            out = np.array(
                [self.game.deck.parse(d) if d is not None and len(d) and isinstance(d[0], str) else list(d)
                 for d in rows],
                np.int64,
            ) if rows else np.zeros((0, self.deck_size), np.int64)
        if out.shape != (count, self.deck_size):
            raise ValueError(
                f"decks must be {count} decks of {self.deck_size} cards ({self.game.deck.describe()}), "
                f"got an array of shape {out.shape}"
            )
        bad = np.flatnonzero((np.sort(out, axis=1) != self._sorted_deck).any(axis=1))
        if len(bad):
            raise ValueError(
                f"deck {int(bad[0])} is not a {self.game.deck.describe()}: every card must occur "
                f"exactly {self.game.deck.num_decks} time(s)"
            )
        return out

    # -- shared plumbing ------------------------------------------------------------------

    def next_deck(self, i: int) -> np.ndarray:
        """The next deck game ``i`` is dealt: a queued one, else ``deck.shuffled`` of its generator."""
        queued = self._queued.get(i)
        if queued:
            return queued.pop(0)
        return self._cards[self._rngs[i].permutation(self.deck_size)]

    def _restart(self, indices: np.ndarray) -> None:
        self._start(indices, np.stack([self.next_deck(i) for i in indices.tolist()]))

    def _start(self, indices: np.ndarray, decks: np.ndarray) -> None:
        self.decks[indices] = decks
        self._ended[indices] = False
        self._deal(indices.astype(np.int64), np.ascontiguousarray(decks, np.int64))

    def _refresh(self) -> None:
        self._actors(self.actor)  # -1 for a game that is over: its rows are written as zeros
        self._observe(self.actor, self.obs, self.mask)

    def _check_legal(self, actions: np.ndarray, active: np.ndarray) -> None:
        first, count = _illegal(actions, active, self.mask)
        if count:
            i = first
            a = int(actions[i])
            shown = f"{a} ({self.action_names[a]})" if 0 <= a < self.num_actions else str(a)
            allowed = ", ".join(f"{k} ({self.action_names[k]})" for k in np.flatnonzero(self.mask[i]))
            raise ValueError(
                f"illegal action {shown} in game {i} for player_{int(self.actor[i])}; "
                f"legal actions now: {allowed}" + (f" ({count} games had illegal actions)" if count > 1 else "")
            )

    # -- what a game implements -----------------------------------------------------------

    @abstractmethod
    def _alloc(self) -> None:
        """Create the state arrays of ``num_envs`` games."""

    @abstractmethod
    def _deal(self, indices: np.ndarray, decks: np.ndarray) -> None:
        """Start new games at ``indices`` from ``decks`` (int64 [k, deck_size], top card first)."""

    @abstractmethod
    def _apply(self, actions, active, rewards, terminated, truncated) -> None:
        """Play ``actions[i]`` in every game with ``active[i]`` (legality already checked)."""

    @abstractmethod
    def _observe(self, seats: np.ndarray, obs: np.ndarray, mask: np.ndarray) -> None:
        """Write the observation and mask of ``seats[i]`` in game ``i`` into row ``i``, every
        entry of it (the arrays are not cleared first); ``seats[i] == -1``: a row of zeros. The
        mask is all zeros for a seat that is not to act, as in the reference engine."""

    @abstractmethod
    def _actors(self, actor: np.ndarray) -> None:
        """Write the seat to act in every game (``-1`` for a game that is over)."""
