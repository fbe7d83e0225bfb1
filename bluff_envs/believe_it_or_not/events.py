"""What ``BelieveItOrNotState.apply`` returns: the events of an action, which the view reads.

Each event is a tuple whose first entry is its code:

* ``(NAMED, player, rank)``: the leader named the round's rank;
* ``(ADDED, player, rank)``: ``player`` chose one more card of ``rank`` for his play (private);
* ``(PLAYED, player, count, counts)``: he put ``count`` cards face down (``counts`` by rank
  are known only to him until a call turns them up);
* ``(CALLED, call)``: a call ended the round, see :class:`Call` (public).
"""

from __future__ import annotations

from typing import NamedTuple

NAMED, ADDED, PLAYED, CALLED = 0, 1, 2, 3


class Call(NamedTuple):
    """How a round ended; everything here is public."""

    caller: int
    believed: bool  # True: "believe", False: "don't believe"
    maker: int  # who made the play that was turned up
    rank: int  # the round's rank
    count: int  # cards in that play
    revealed: tuple[int, ...]  # the cards turned up, by rank
    honest: bool  # all of the named rank
    taker: int | None  # who took the pile; None: it went out of play face down
    pile_size: int  # cards in the pile when it was called
    quads: tuple[int, ...]  # ranks the taker then put out of play face up (discard_quads)
    left: tuple[int, ...]  # players who left the game, in the order they left
    leader: int | None  # who leads the next round; None once the game is over
    loser: int | None
