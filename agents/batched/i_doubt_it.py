"""The I Doubt It heuristics, batched: for each observation row and its uniform draw, the
action the reference heuristic (``agents/heuristics/i_doubt_it.py``) chooses with
``decide(observation, u)``.

One class per registered heuristic (``BATCHED``, by spec). The decisions are made by the
kernels of :mod:`agents.batched.i_doubt_it_kernels`, one call for the whole batch: each row
is decoded from the float32 observation itself, so any mix of seats, games and phases may
share a batch, for every option of the game (2 to 11 players, 1 to 4 decks, either rank
order, any ``max_cards_per_play``, ``last_play_checked`` either way). Every step of a play is
decided afresh from the row, as the reference does. Only ``bluffer`` uses its draw (at the
step where its honest and shed plans part, it sheds when ``u`` falls below ``shed_chance``);
the others ignore it, as their reference twins do.
"""

from __future__ import annotations

import numpy as np

from agents.base import GameInfo
from agents.batched import i_doubt_it_kernels as k
from agents.registry import heuristics

GAME = "i_doubt_it"


class BatchedIDoubtIt:
    """A batched I Doubt It heuristic; subclasses name the reference class they batch."""

    reference: type  # the reference heuristic's class
    name: str  # its spec
    style: int  # its code in the kernels

    def __init__(self, game: GameInfo):
        if game.name != GAME:
            raise ValueError(f"batched {self.name} plays {GAME}, not {game.name}")
        self.game = game
        self.cfg = k.config(game)
        self.params = k.params()
        self.binomials = k.binomials()
        self.obs_dim = game.layout.size
        self.num_actions = len(game.action_names)
        self._scratch = k.scratch()

    def act(self, obs: np.ndarray, mask: np.ndarray, u: np.ndarray) -> np.ndarray:
        """Actions (int64 ``[B]``) for the rows ``obs`` (``[B, obs_dim]``), their masks
        (``[B, num_actions]``) and draws ``u`` (``[B]``); -1 for a row whose mask allows nothing."""
        obs = np.ascontiguousarray(obs, np.float32)
        mask = np.ascontiguousarray(mask)
        u = np.ascontiguousarray(u, np.float64)
        B = len(obs)
        if obs.shape != (B, self.obs_dim) or mask.shape != (B, self.num_actions) or u.shape != (B,):
            raise ValueError(
                f"batched {self.name}: expected obs [B, {self.obs_dim}], mask [B, {self.num_actions}] and "
                f"u [B], got {obs.shape}, {mask.shape} and {u.shape}"
            )
        out = np.empty(B, np.int64)
        work, terms, big = self._scratch
        k.act(self.style, obs, mask, u, self.cfg, self.params, self.binomials, work, terms, big, out)
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


def _batched(name: str, reference: type) -> type:
    attributes = {"reference": reference, "name": name, "style": k.STYLES[reference]}
    cls = type(f"Batched{reference.__name__}", (BatchedIDoubtIt,), attributes)
    cls.__doc__ = f"``{name}`` batched: the choice of :class:`{reference.__module__}.{reference.__qualname__}`."
    cls.__module__ = __name__
    return cls


# every heuristic the reference module registers (one the kernels do not know fails here, at import)
BATCHED = {name: _batched(name, reference) for name, reference in heuristics(GAME).items()}
