"""The doubt / challenge window shared by I Doubt It and Seven Spades.

After a face-down claim every eligible player decides, without seeing the others' decisions,
whether to challenge. The environment asks them one at a time in turn order from the claimer's
left, but no decision is revealed until the window closes. If several challenge, the official
challenger is the one nearest to the claimer's left.
"""

from __future__ import annotations


class ChallengeWindow:
    __slots__ = ("claimer", "deciders", "decisions", "_next")

    def __init__(self, claimer: int, deciders: list[int]):
        self.claimer = claimer
        self.deciders = deciders  # in turn order from the claimer's left
        self.decisions: list[bool] = []
        self._next = 0

    @property
    def current(self) -> int:
        """The seat whose decision is awaited."""
        return self.deciders[self._next]

    @property
    def is_closed(self) -> bool:
        return self._next >= len(self.deciders)

    def decide(self, challenge: bool) -> int | None:
        """Record the awaited decision; returns the next seat to decide, or None once closed."""
        self.decisions.append(challenge)
        self._next += 1
        return self.deciders[self._next] if self._next < len(self.deciders) else None

    @property
    def official(self) -> int | None:
        """The challenger nearest to the claimer's left, or ``None`` if nobody challenged."""
        for seat, challenged in zip(self.deciders, self.decisions):
            if challenged:
                return seat
        return None

    def challengers(self) -> list[int]:
        return [s for s, c in zip(self.deciders, self.decisions) if c]
