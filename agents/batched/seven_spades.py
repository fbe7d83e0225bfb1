"""The Seven Spades heuristics, batched: for each observation row and its uniform draw, the
action the reference heuristic (``agents/heuristics/seven_spades.py``) chooses with
``decide(observation, u)``.

One class per registered heuristic (``BATCHED``, by spec). The decisions are made by the
kernels of :mod:`agents.batched.seven_spades_kernels`, one call for the whole batch: each row
is decoded from the float32 observation itself, so any mix of seats, games and phases may
share a batch, for every option of the game (2 to 20 players, any decks and target,
``free_turn``). Only ``bluffer`` uses its draw (it bluffs when ``u`` falls below its bluff
probability); the others ignore it, as their reference twins do.
"""

from __future__ import annotations

from agents.base import GameInfo
from agents.batched import seven_spades_kernels as k
from agents.batched.heuristic import BatchedHeuristic, batched_table

GAME = "seven_spades"


class BatchedSevenSpades(BatchedHeuristic):
    """A batched Seven Spades heuristic."""

    game_name = GAME
    styles = k.STYLES

    def setup(self, game: GameInfo) -> None:
        self.cfg = k.config(game)
        self.params = k.params()

    def decide(self, obs, mask, u, out) -> None:
        k.act(self.style, obs, mask, u, self.cfg, self.params, out)


BATCHED = batched_table(BatchedSevenSpades, __name__)
