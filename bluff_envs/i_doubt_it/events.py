"""What ``IDoubtItState.apply`` returns: the events of an action, which the view reads.

Each event is a tuple whose first entry is its code:

* ``(ADDED, player, rank)``: ``player`` chose one more card of ``rank`` for his play (private);
* ``(CLAIMED, player, count, rank)``: he discarded ``count`` cards face down, claiming ``rank``;
* ``(RESOLVED, resolution)``: the claim ended, see :class:`Resolution` (public).
"""

from __future__ import annotations

from typing import NamedTuple

ADDED, CLAIMED, RESOLVED = 0, 1, 2


class Resolution(NamedTuple):
    """How a claim ended, all public: the doubt decisions and, if turned up, the cards."""

    claim_player: int
    count: int
    decisions: tuple[bool, ...] | None  # by seat order from the claimer's left; None: checked at once
    deciders: tuple[int, ...]
    doubter: int | None  # the official doubter
    revealed: tuple[int, ...] | None  # rank counts of the cards turned up
    honest: bool | None
    taker: int | None
    winner: int | None
