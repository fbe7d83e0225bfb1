"""Agents by spec string: ``random``, a game's heuristic names, ``ppo:<checkpoint>``, and
``mix:<spec>+<spec>...`` (one of them per game, :mod:`agents.mixture`).

Heuristics register themselves per game with :func:`register`; loaders of learned agents
(``ppo:``, ``rllib:``) register a prefix with :func:`register_loader`.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable

from agents.base import Agent, GameInfo
from bluff_envs.registry import GAMES
from agents.random_agent import RandomAgent

_HEURISTICS: dict[str, dict[str, type[Agent]]] = {}
_LOADERS: dict[str, str] = {
    # prefix -> "module:function(spec_rest, game, seed) -> Agent", imported on first use
    "ppo": "agents.ppo.agent:load",
    "rllib": "agents.rllib.agent:load",
    "mix": "agents.mixture:load",
    "blend": "agents.blend:load",
}
HEURISTICS_PACKAGE = "agents.heuristics"  # a game's heuristics: agents.heuristics.<game>, imported on first use


def register(game: str, name: str) -> Callable[[type[Agent]], type[Agent]]:
    """Class decorator: make a heuristic available as spec ``name`` for ``game``."""

    def add(cls: type[Agent]) -> type[Agent]:
        _HEURISTICS.setdefault(game, {})[name] = cls
        cls.name = name
        return cls

    return add


def register_loader(prefix: str, target: str) -> None:
    _LOADERS[prefix] = target


def heuristics(game: str) -> dict[str, type[Agent]]:
    """The heuristic agents of ``game`` by spec name."""
    if game in GAMES:
        module = f"{HEURISTICS_PACKAGE}.{game}"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module)
    return dict(_HEURISTICS.get(game, {}))


def agent_names(game: str) -> list[str]:
    return ["random", *heuristics(game)]


LABEL = "#"  # "<spec>#<label>": the same agent under another name (e.g. copies of one agent)


def unlabelled(spec: str) -> str:
    """The spec without its label: ``"ppo:run#copy1"`` -> ``"ppo:run"``."""
    return spec.split(LABEL, 1)[0]


def make_agent(spec: str, game: GameInfo, seed: int | None = None) -> Agent:
    """Build the agent named by ``spec`` for ``game``; ``ValueError`` for an unknown spec.
    A label after ``#`` changes only the name the agent is counted under in results, so that
    several copies of one agent (or the agent and its copies) are told apart."""
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"agent spec must be a non-empty string, not {spec!r}")
    if LABEL in spec:
        base, label = spec.split(LABEL, 1)
        if spec.startswith(("mix:", "blend:")) and "+" in label:
            raise ValueError(f"agent spec {spec!r}: a member of the mixture has a label; allowed: a label on the "
                             "whole mixture only (mix:a+b#name)")
        if not base or not label:
            raise ValueError(f"agent spec {spec!r}: a label needs a spec before '#' and a name after it")
        return make_agent(base, game, seed)
    if ":" in spec:
        prefix, rest = spec.split(":", 1)
        if prefix not in _LOADERS:
            raise ValueError(f"unknown agent kind {prefix!r} in {spec!r}; kinds: {', '.join(_LOADERS)}")
        module, function = _LOADERS[prefix].split(":")
        return getattr(importlib.import_module(module), function)(rest, game, seed)
    if spec == "random":
        return RandomAgent(game, seed)
    table = heuristics(game.name)
    if spec not in table:
        known = ", ".join(["random", *table, *(f"{p}:<path>" for p in _LOADERS if p not in ("mix", "blend")), "mix:<spec>+<spec>...",
                           "blend:<ppo spec>+<ppo spec>..."])
        raise ValueError(f"unknown agent {spec!r} for {game.name}; agents: {known}")
    return table[spec](game, seed)
