"""The AEC adapter shared by every game: all of PettingZoo's plumbing, none of the rules.

A game plugs in through three objects:

* a **game** (built once from the validated options): ``name``, ``config``, ``num_players``,
  ``deck`` (a :class:`~bluff_envs.cards.DeckSpec`), ``action_names``, ``layout`` (an
  :class:`~bluff_envs.layout.ObservationLayout`), ``new_state(cards, rng)`` and
  ``new_view(state)``; a partnership game also names its ``teams`` (see :func:`teams_of`);
  optionally ``parse_deck(value)``, when its ``reset`` option ``deck`` takes more than one
  deck (Tarneeb: one per deal); the default is ``deck.parse``; optionally ``symmetry``, the
  relabellings of its cards that leave the game the same (:mod:`bluff_envs.symmetry`;
  Believe It or Not's ranks), which agents may play and learn through;
* a **state** (the rules; the env's ``game_state``, since ``state()`` is PettingZoo's global view): ``current_player``, ``is_over``, ``truncated``, ``legal_actions()``,
  ``apply(action) -> events``, ``returns()`` and ``render_text(viewer)``;
* a **view** (the encoder): ``record(events)`` and ``observation(player) -> np.ndarray`` (a
  copy the caller may keep); optionally ``legal_mask()``, the acting player's mask when the
  view keeps it up to date itself (then the adapter looks it up instead of building it).

The adapter builds the spaces once, turns ``legal_actions`` into masks (all zeros for an agent
that is not to act), validates actions and reset options (``ValueError``), hands out rewards at
the end and removes agents through ``None`` steps as PettingZoo prescribes.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers


class CardGameEnv(AECEnv):
    """Base of every ``raw_env``; a subclass only names its ``game_class`` and ``metadata``."""

    metadata: dict[str, Any] = {
        "name": "card_game",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }
    game_class: type

    def __init__(self, render_mode: str | None = None, **options: Any):
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode={render_mode!r} is not supported; use one of "
                f"{self.metadata['render_modes']} or None"
            )
        self.render_mode = render_mode
        self.game = self.game_class(**options)
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        num_actions = len(self.game.action_names)
        action_space = spaces.Discrete(num_actions)
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.game.layout.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            }
        )
        self.action_spaces = {a: action_space for a in self.possible_agents}
        self.observation_spaces = {a: observation_space for a in self.possible_agents}
        self._zero_mask = np.zeros(num_actions, np.int8)
        self._mask = self._zero_mask
        self._legal_stale = True
        self._legal = ()
        self._mask_source = None
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        self.game_state = None
        self.view = None
        self.last_events: tuple = ()  # the events of the last action, as the rules returned them
        self._view_mask = None

    # -- PettingZoo API -------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def observation_layout(self):
        """Named slices of ``observe(agent)["observation"]``."""
        return self.game.layout

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or not hasattr(self, "_np_random") or self._np_random is None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        cards = self._cards_from(options)
        self.game_state = self.game.new_state(cards, self._np_random)
        self.view = self.game.new_view(self.game_state)
        self.last_events = ()
        self._view_mask = getattr(self.view, "legal_mask", None)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._legal_stale = True
        self.agent_selection = self.possible_agents[self.game_state.current_player]
        if self.game_state.is_over:  # a game may be decided by the deal itself
            self._finish()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat.get(agent)
        if seat is None or self.game_state is None:
            self._misuse("observe", agent)
        if agent == self.agent_selection and not self.game_state.is_over:
            mask = self._current_mask().copy()
        else:
            mask = self._zero_mask.copy()
        return {"observation": self.view.observation(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        if self.game_state is None:
            self._misuse("step", None)
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            if action is None:  # a None step only removes an agent whose game is over
                self._reject(agent, None)
            action = action_id(action)
        legal = self._legal if not self._legal_stale else self._current_legal()
        if action not in legal:
            self._reject(agent, action)
        state = self.game_state
        events = state.apply(action)
        self.last_events = events  # what the rules announced: the views (and narrators) read it
        if events:
            self.view.record(events)
        self._legal_stale = True
        if state.is_over:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        if self.render_mode == "human":
            self.render()

    def state(self) -> np.ndarray:
        """PettingZoo's global state: every seat's observation, seat 0 first, in one vector
        (what a centralized critic may see; never an agent's input). The rules' own state is
        :attr:`game_state`."""
        if self.game_state is None:
            self._misuse("state", None)
        return np.concatenate([self.view.observation(p) for p in range(self.game.num_players)])

    @property
    def state_space(self) -> spaces.Box:
        return spaces.Box(0.0, 1.0, (self.game.layout.size * self.game.num_players,), np.float32)

    def last(self, observe: bool = True):
        if self.game_state is None:
            self._misuse("last", None)
        return super().last(observe)

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the table as text, as the acting player sees it; ``human``: that text
        printed; ``rgb_array``: that text drawn as a picture (:mod:`bluff_envs.picture`)."""
        if self.render_mode is None:
            from gymnasium import logger

            logger.warn("render() called without a render_mode; pass render_mode='ansi', 'human' or 'rgb_array'")
            return None
        if self.game_state is None:
            text = f"{self.metadata['name']}: call reset() first"
        else:
            text = self.game_state.render_text(self._seat[self.agent_selection])
        if self.render_mode == "human":
            print(text)
            return None
        if self.render_mode == "rgb_array":
            from bluff_envs.picture import table_picture

            return table_picture(text, caption=self.metadata["name"])
        return text

    def close(self) -> None:
        pass

    # -- conveniences for agents and tools ------------------------------------------------

    def action_name(self, action: int) -> str:
        """The readable name of an action, e.g. ``"add K"`` or ``"doubt"``."""
        names = self.game.action_names
        if not 0 <= int(action) < len(names):
            raise ValueError(f"action {action} is out of range 0..{len(names) - 1}")
        return names[int(action)]

    @property
    def action_names(self) -> tuple[str, ...]:
        return self.game.action_names

    def legal_actions(self) -> list[int]:
        """The actions open to ``agent_selection`` (empty once the game is over)."""
        if self.game_state.is_over:
            return []
        return list(self.game_state.legal_actions())

    def public_view(self, agent: str) -> dict[str, np.ndarray]:
        """What ``agent`` knows, decoded field by field from its own observation."""
        return self.game.layout.decode(self.view.observation(self._seat[agent]))

    # -- internals ------------------------------------------------------------------------

    def _current_legal(self):
        """The acting player's legal actions, worked out once per decision."""
        if self._legal_stale:
            self._legal = self.game_state.legal_actions()
            self._legal_stale = False
        return self._legal

    def _current_mask(self) -> np.ndarray:
        if self._view_mask is not None:
            return self._view_mask()
        legal = self._legal if not self._legal_stale else self._current_legal()
        if legal is not self._mask_source:  # rules may hand back one constant tuple per phase
            key = tuple(legal)
            mask = self._masks.get(key)
            if mask is None:
                mask = self._zero_mask.copy()
                mask.put(legal, 1)
                if len(self._masks) < 4096:  # the same few legal sets recur all game long
                    self._masks[key] = mask
            self._mask, self._mask_source = mask, legal
        return self._mask

    def _reject(self, agent: str, action: int | None) -> None:
        names = self.game.action_names
        allowed = ", ".join(f"{a} ({names[a]})" for a in self._current_legal())
        shown = f"{action} ({names[action]})" if action is not None and 0 <= action < len(names) else str(action)
        raise ValueError(f"illegal action {shown} for {agent}; legal actions now: {allowed}")

    def _misuse(self, method: str, agent: str | None) -> None:
        if self.game_state is None:
            raise RuntimeError(f"{self.metadata['name']}: call reset() before {method}()")
        raise ValueError(f"unknown agent {agent!r}; agents are {', '.join(self.possible_agents)}")

    def _finish(self) -> None:
        state = self.game_state
        returns = state.returns()
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(returns[seat])
        ended = self.truncations if state.truncated else self.terminations
        for agent in self.agents:
            ended[agent] = True
        self._accumulate_rewards()

    def _cards_from(self, options: dict | None) -> list[int]:
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ValueError(f"reset options must be a dict such as {{'deck': [...]}}, not {options!r}")
        unknown = sorted(set(options) - {"deck"})
        if unknown:  # PettingZoo's api_test passes foreign keys; they are ignored, loudly
            warnings.warn(f"ignoring unknown reset option(s) {unknown}; the only reset option is 'deck'")
        if options.get("deck") is None:
            return self.game.deck.shuffled(self._np_random)
        return getattr(self.game, "parse_deck", self.game.deck.parse)(options["deck"])


_TORCH_INTEGERS = {f"torch.{k}" for k in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")}


def action_id(action: Any) -> int:
    """An action as an ``int``: from a Python or NumPy integer, or a 0-d integer array or tensor
    (what ``predict`` returns). Bools, floats and anything else are a ``TypeError``: they are
    never read as an action id."""
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(f"action {action!r} is a bool, not an action id; actions are integers")
    if isinstance(action, (int, np.integer)):
        return int(action)
    dtype, ndim = getattr(action, "dtype", None), getattr(action, "ndim", None)
    if ndim == 0 and dtype is not None:
        if isinstance(action, np.ndarray) and action.dtype.kind in "iu":
            return int(action)
        if str(dtype) in _TORCH_INTEGERS:  # a 0-d integer tensor, without importing torch
            return int(action.item())
    shown = repr(action)
    shown = shown if len(shown) <= 60 else shown[:57] + "..."
    raise TypeError(
        f"action {shown} of type {type(action).__name__} is not an action id; actions are integers "
        "(int, a NumPy integer, or a 0-d integer array or tensor)"
    )


def teams_of(game) -> tuple[tuple[int, ...], ...]:
    """The seats that share rewards: a game's partnerships, or every seat on its own."""
    return getattr(game, "teams", None) or tuple((seat,) for seat in range(game.num_players))


def wrap(raw: AECEnv) -> AECEnv:
    """PettingZoo's standard wrappers, as its classic environments apply them."""
    env = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)
