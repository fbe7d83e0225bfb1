"""Turn order: players sit in index order, "the next player" is the next index still in."""

from __future__ import annotations

from collections.abc import Sequence


def next_seat(seat: int, in_game: Sequence[bool]) -> int:
    """The next seat after ``seat`` (wrapping) whose player is still in; ``seat`` itself if alone."""
    n = len(in_game)
    for step in range(1, n + 1):
        s = (seat + step) % n
        if in_game[s]:
            return s
    return seat


def seats_after(seat: int, in_game: Sequence[bool]) -> list[int]:
    """Every other seat still in, in turn order starting at ``seat``'s left."""
    n = len(in_game)
    return [(seat + k) % n for k in range(1, n) if in_game[(seat + k) % n]]


def relative(viewer: int, seat: int, num_players: int) -> int:
    """Seat as seen by ``viewer``: 0 is himself, 1 the player to his left, …"""
    return (seat - viewer) % num_players
