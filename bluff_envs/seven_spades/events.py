"""What the rules of Seven Spades tell the view after each action.

``state.apply`` returns a tuple of events, each a tuple led by its code:

* ``(DREW, player, card)``: the player to act drew the top card of the stock (only he sees it);
* ``(DISCARDED, player, card)``: he put it face up on the discard pile;
* ``(CLAIMED, player, card)``: he put it face down in his row, claiming a spade; a challenge
  window opens;
* ``(FINAL, player, card)``: he played the final spade face up;
* ``(RESOLVED, resolution)``: a challenge window closed (a :class:`Resolution`, all public).
"""

from __future__ import annotations

from typing import NamedTuple

DREW, DISCARDED, CLAIMED, FINAL, RESOLVED = range(5)


class Resolution(NamedTuple):
    """How a challenge window closed; all of it public."""

    claimer: int
    deciders: tuple[int, ...]  # in turn order from the claimer's left
    decisions: tuple[bool, ...]  # True: challenged
    challenger: int | None  # the official challenger, None if nobody challenged
    card: int | None  # the card turned up, None if nobody challenged
    spade: bool | None  # whether it was a spade
    out: int | None  # the player who lost the challenge and is out
    winner: int | None  # the last player left in, if the challenge left only one
