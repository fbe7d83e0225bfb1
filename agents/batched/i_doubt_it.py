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

from agents.base import GameInfo
from agents.batched import i_doubt_it_kernels as k
from agents.batched.heuristic import BatchedHeuristic, batched_table

GAME = "i_doubt_it"


class BatchedIDoubtIt(BatchedHeuristic):
    """A batched I Doubt It heuristic."""

    game_name = GAME
    styles = k.STYLES

    def setup(self, game: GameInfo) -> None:
        self.cfg = k.config(game)
        self.params = k.params()
        self.binomials = k.binomials()
        self._scratch = k.scratch()

    def decide(self, obs, mask, u, out) -> None:
        work, terms, big = self._scratch
        k.act(self.style, obs, mask, u, self.cfg, self.params, self.binomials, work, terms, big, out)


BATCHED = batched_table(BatchedIDoubtIt, __name__)
