"""The Believe It or Not heuristics, batched: for each observation row and its uniform draw, the
action the reference heuristic (``agents/heuristics/believe_it_or_not.py``) chooses with
``decide(observation, u)``.

One class per registered heuristic (``BATCHED``, by spec). The decisions are made by the
kernels of :mod:`agents.batched.believe_it_or_not_kernels`, one call for the whole batch: each
row is decoded from the float32 observation itself, so any mix of seats, games and phases may
share a batch, for every option of the game (2 to 6 players, 36 or 52 cards, one or two decks,
any ``max_cards_per_play``, ``discard_quads``, ``max_turns``). The reference heuristics keep
nothing between decisions (a play's later steps plan again from the observation), so neither do
these. No heuristic uses its draw; the draws are accepted, as the batched contract asks.
"""

from __future__ import annotations

from agents.base import GameInfo
from agents.batched import believe_it_or_not_kernels as k
from agents.batched.heuristic import BatchedHeuristic, batched_table

GAME = "believe_it_or_not"


class BatchedBelieveItOrNot(BatchedHeuristic):
    """A batched Believe It or Not heuristic."""

    game_name = GAME
    styles = k.STYLES

    def setup(self, game: GameInfo) -> None:
        self.cfg = k.config(game)
        self.params = k.params()
        self.pmf = k.pmf_table(int(self.cfg[k.DECK_SIZE]), int(self.cfg[k.COPIES]))

    def decide(self, obs, mask, u, out) -> None:
        k.act(self.style, obs, mask, u, self.cfg, self.params, self.pmf, out)


BATCHED = batched_table(BatchedBelieveItOrNot, __name__)
