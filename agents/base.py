"""The one protocol every agent follows, learned or not.

An agent is built for one game (:class:`GameInfo`) with a seed, and asked for an action with
the acting player's observation (the env's dict with ``observation`` and ``action_mask``) and,
optionally, that player's decoded public view (``env.unwrapped.public_view(agent)``, the same
information as the observation, field by field). It must return a legal action and be
deterministic given its seed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from bluff_envs.layout import ObservationLayout


@dataclass(frozen=True)
class GameInfo:
    """What an agent may know about the game it plays: never the environment's internals."""

    name: str  # e.g. "i_doubt_it"
    num_players: int
    action_names: tuple[str, ...]
    layout: ObservationLayout
    config: Any  # the game's frozen, validated options
    teams: tuple[tuple[int, ...], ...] = ()  # seats sharing rewards (partnerships); singles otherwise
    # relabellings that leave the game the same (bluff_envs.symmetry); None: the game has none
    symmetry: Any = field(default=None, compare=False)

    @classmethod
    def of(cls, env) -> GameInfo:
        """From any of our environments, wrapped or raw."""
        from bluff_envs.aec import teams_of

        game = env.unwrapped.game
        return cls(
            name=game.name.removesuffix("_v0"),
            num_players=game.num_players,
            action_names=tuple(game.action_names),
            layout=game.layout,
            config=game.config,
            teams=teams_of(game),
            symmetry=getattr(game, "symmetry", None),
        )

    def action(self, name: str) -> int:
        """The action called ``name`` (e.g. ``"doubt"``)."""
        return self.action_names.index(name)


class Agent(ABC):
    """Base class: holds the game and a seeded generator; subclasses implement :meth:`act`."""

    name = "agent"

    def __init__(self, game: GameInfo, seed: int | None = None):
        self.game = game
        self.rng = np.random.default_rng(seed)

    def seed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    @abstractmethod
    def act(self, observation: dict[str, np.ndarray], view: dict[str, np.ndarray] | None = None) -> int:
        """A legal action for the acting player."""

    FIELDS: tuple[str, ...] | None = None  # the fields of the view an agent reads; None: all

    def decode(self, observation: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """The public view (its ``FIELDS``) from the observation, for agents not handed one."""
        return self.game.layout.decode(observation["observation"], self.FIELDS)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def check_policy_fits(game: GameInfo, observation_size: int, num_actions: int) -> None:
    """A learned policy's input and output sizes must be the game's; ``ValueError`` if not."""
    if observation_size != game.layout.size or num_actions != len(game.action_names):
        raise ValueError(
            f"policy of shape {observation_size} -> {num_actions} does not fit {game.name} "
            f"(observation size {game.layout.size}, {len(game.action_names)} actions)"
        )


def require_legal(observation: dict[str, np.ndarray], agent: str) -> np.ndarray:
    """The action mask, which must allow something; ``ValueError`` if it is all zeros."""
    mask = observation["action_mask"]
    if not mask.any():
        raise ValueError(f"{agent} asked to act with no legal action (all-zero action_mask)")
    return mask


GREEDY = "@greedy"  # the suffix of a learned agent's spec that asks for its most likely action
TEMPERATURE = "@temperature="  # the suffix that plays its policy's softmax at a temperature
SYMMETRIC = "@symmetric"  # the suffix that plays it through the game's symmetry (agents.symmetric)
PLAIN = "@plain"  # the suffix that plays the network alone, without the symmetry its training used
MAX_TEMPERATURE = 100.0


class PlayMode(NamedTuple):
    location: str  # the checkpoint's path, the suffixes removed
    greedy: bool  # its most likely legal action, not a draw
    temperature: float  # the masked softmax of logits / temperature (1: the policy as trained)
    symmetric: bool = False  # after a relabelling of the cards drawn per decision (agents.symmetric)
    plain: bool = False  # never through the symmetry, even for a network trained through it

    def suffix(self) -> str:
        """The suffixes that ask for this play, in their canonical order."""
        return ((SYMMETRIC if self.symmetric else "") + (PLAIN if self.plain else "") + (GREEDY if self.greedy else "")
                + (f"{TEMPERATURE}{self.temperature:g}" if self.temperature != 1.0 else ""))


def play_mode(location: str) -> PlayMode:
    """The play a learned agent's spec asks for, its suffixes in any order.
    ``"<path>@greedy"``: the most likely action; ``"<path>@temperature=T"``: draws from the
    masked softmax of the logits divided by ``T`` (above 1 flatter, below 1 sharper); anything
    else plays the policy's mixed strategy as trained: in a bluffing game a pure strategy is
    exploitable by construction. ``@symmetric`` plays it through the game's symmetry, a
    relabelling drawn per decision (:mod:`agents.symmetric`), as a network trained with
    ``learner.symmetric`` plays by default; ``@plain`` plays such a network alone.
    ``ValueError`` for a temperature that is not in (0, 100], a suffix given twice, ``@greedy``
    with ``@symmetric`` (it samples) and ``@plain`` with ``@symmetric``."""
    head, greedy, temperature, symmetric, plain, seen = location, False, 1.0, False, False, set()
    while True:
        rest, at, tail = head.rpartition("@")
        token = at + tail
        kind = TEMPERATURE if token.startswith(TEMPERATURE) else token
        if not at or kind not in (GREEDY, TEMPERATURE, SYMMETRIC, PLAIN):
            break
        if kind in seen:
            raise ValueError(f"{location[-80:]!r}: {kind.rstrip('=')} is given twice; allowed: each suffix once")
        seen.add(kind)
        if kind == TEMPERATURE:
            try:
                temperature = float(token[len(TEMPERATURE):])
            except ValueError:
                temperature = float("nan")
            if not 0 < temperature <= MAX_TEMPERATURE:  # also refuses nan
                raise ValueError(f"{location[-80:]!r}: the temperature must be a number above 0 and at most "
                                 f"{MAX_TEMPERATURE:g}, e.g. @temperature=1.5")
        greedy, symmetric, plain = greedy or kind == GREEDY, symmetric or kind == SYMMETRIC, plain or kind == PLAIN
        head = rest
    if greedy and symmetric:
        raise ValueError(f"{location[-80:]!r}: @symmetric draws a relabelling per decision, so it samples; "
                         "allowed: <path>@symmetric, <path>@symmetric@temperature=T, or <path>@greedy alone")
    if plain and symmetric:
        raise ValueError(f"{location[-80:]!r}: @plain plays the network without the symmetry, @symmetric through it; "
                         "allowed: one of them")
    return PlayMode(head, greedy, temperature, symmetric, plain)


def legal_actions(observation: dict[str, np.ndarray]) -> np.ndarray:
    return np.flatnonzero(observation["action_mask"])
