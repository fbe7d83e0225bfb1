"""A play of several cards, built one card at a time (CONVENTIONS.md "Combinatorial plays").

Shared by I Doubt It and Believe It or Not. The acting player adds one card of a rank per step
("add r") and then says "done". Only ranks matter, so suits are not part of the action; to
avoid many orderings of the same play, ranks are added in the canonical order 2 … A (a rank
lower than the last one added is not legal). "done" is legal once at least one card is chosen,
and nothing but "done" once the play holds ``cap`` cards. When the play is done its cards
leave the hand: the last ``k`` cards of each rank's list, ranks ascending.

Legal sets are returned as tuples that are the same object for the same situation (cached per
player until his hand changes), so that the AEC adapter can reuse their masks.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence

from bluff_envs.cards import NUM_RANKS

Hand = list[list[int]]  # the cards a player holds, by rank


class PlayBuilder:
    """The play being built by the acting player, and the "add r" / "done" actions open to him.

    ``hands`` are the players' hands (the game's own lists: the builder reads them and takes
    the cards of a finished play out of them); ``ranks`` the ranks of the deck in use,
    ascending; ``add0 + r`` is the action "add r" and ``done`` the action "done". ``then`` are
    the actions a player may take instead of starting a play, where he may start one
    (:meth:`opening`). One play is under way at a time, whoever builds it.
    """

    __slots__ = ("hands", "ranks", "cap", "add0", "done_only", "then", "chosen", "count", "last", "added",
                 "_held", "_openings", "_after")  # fmt: skip

    def __init__(
        self,
        hands: Sequence[Hand],
        ranks: Iterable[int],
        cap: int,
        add0: int,
        done: int,
        then: tuple[int, ...] = (),
    ):
        self.hands = hands
        self.ranks = tuple(ranks)
        self.cap = cap
        self.add0 = add0
        self.done_only = (done,)
        self.then = then
        self.chosen = [0] * NUM_RANKS  # cards chosen so far, by rank
        self.count = 0  # cards chosen so far
        self.last = 0  # the last rank added: no lower rank may follow
        self.added: list[int] = []  # the ranks chosen, in the order added (ascending)
        # per player, until his hand changes: "add r" for each rank he holds, and the legal
        # sets made from it
        n = len(hands)
        self._held: list[tuple[int, ...] | None] = [None] * n
        self._openings: list[tuple[int, ...]] = [()] * n
        self._after: list[dict[int, tuple[int, ...]]] = [{} for _ in range(n)]  # by the lowest rank addable

    def opening(self, player: int) -> tuple[int, ...]:
        """What ``player`` may do where he may start a play: any "add r" he holds, or ``then``."""
        if self._held[player] is None:
            self._hold(player)
        return self._openings[player]

    def legal(self, player: int) -> tuple[int, ...]:
        """The actions open to ``player``, who is building the play (or starts it now)."""
        held = self._held[player]
        if held is None:
            held = self._hold(player)
        count = self.count
        if not count:
            return held
        if count >= self.cap:
            return self.done_only
        # canonical order: ranks from the last one added on, that one only while he has more
        low = self.last
        first = low + 1 if self.chosen[low] == len(self.hands[player][low]) else low
        after = self._after[player]
        legal = after.get(first)
        if legal is None:
            legal = after[first] = held[bisect_left(held, self.add0 + first) :] + self.done_only
        return legal

    def add(self, rank: int) -> None:
        """One more card of ``rank`` (a legal "add")."""
        if not self.chosen[rank]:
            self.added.append(rank)
        self.chosen[rank] += 1
        self.count += 1
        self.last = rank

    def take(self, player: int) -> tuple[list[int], tuple[int, ...]]:
        """"done": the cards of the play leave ``player``'s hand; returns them (ranks ascending)
        and their counts by rank, and starts a new play."""
        hand, chosen = self.hands[player], self.chosen
        cards: list[int] = []
        for r in self.added:
            held = hand[r]
            cut = len(held) - chosen[r]
            cards.extend(held[cut:])
            del held[cut:]
        counts = tuple(chosen)
        self.chosen = [0] * NUM_RANKS
        self.count = 0
        self.last = 0
        self.added = []
        self._held[player] = None
        return cards, counts

    def hand_changed(self, player: int) -> None:
        """``player``'s hand changed other than by :meth:`take` (he took a pile, …)."""
        self._held[player] = None

    def _hold(self, player: int) -> tuple[int, ...]:
        hand, add0 = self.hands[player], self.add0
        held = self._held[player] = tuple([add0 + r for r in self.ranks if hand[r]])
        self._openings[player] = held + self.then
        self._after[player] = {}
        return held
