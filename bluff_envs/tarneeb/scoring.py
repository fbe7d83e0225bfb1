"""Scoring a deal of Tarneeb (docs/rules.md §4.6 and the Egyptian section), as pure functions.

Each function takes the contract (``bid``, 7..13) and ``taken``, the tricks won by the
declarer's partnership (0..13), and returns ``(declarer's side, opponents)``.
"""

from __future__ import annotations

KABOOT = 16  # all 13 tricks without having bid 13
GRAND = 26  # bid 13 and made it
GRAND_FAILED = -16  # bid 13 and missed


def _check(bid: int, taken: int) -> None:
    if not 7 <= bid <= 13:
        raise ValueError(f"bid={bid!r} is not a contract; bids are 7 to 13")
    if not 0 <= taken <= 13:
        raise ValueError(f"taken={taken!r} is not a number of tricks; 0 to 13")


def lebanese_score(bid: int, taken: int, scoring: str = "standard") -> tuple[int, int]:
    """The Lebanese table. A failed contract below 13 gives the opponents ``bid + (bid - taken)``
    (``scoring="standard"``), or costs the declarer's side ``-bid`` and gives the opponents the
    tricks they took, ``13 - taken`` (``scoring="tricks"``)."""
    _check(bid, taken)
    if scoring not in ("standard", "tricks"):
        raise ValueError(f"scoring={scoring!r}; allowed: 'standard', 'tricks'")
    if bid == 13:
        return (GRAND, 0) if taken == 13 else (GRAND_FAILED, 2 * (13 - taken))
    if taken == 13:
        return KABOOT, 0
    if taken >= bid:
        return taken, 0
    if scoring == "tricks":
        return -bid, 13 - taken
    return 0, bid + (bid - taken)


def egyptian_score(bid: int, taken: int, multiplier: int = 1) -> tuple[int, int]:
    """The Egyptian table; ``multiplier`` is 1 for an undoubled contract, else the
    ``double_multiplier``, and applies to both sides whether the contract was made or not."""
    _check(bid, taken)
    if bid == 13:
        made = (GRAND, 0) if taken == 13 else (GRAND_FAILED, 2 * (13 - taken))
    elif taken == 13:
        made = (KABOOT, 0)
    elif taken >= bid:
        made = (taken, 0)
    else:
        made = (-bid, bid - taken)
    return made[0] * multiplier, made[1] * multiplier


def game_winner(scores: tuple[int, int] | list[int], target: int) -> int | None:
    """The partnership that has won once a deal is added to ``scores``: a side whose total
    reaches ``target``; if both do, the higher total; ``None`` if neither, or both with equal
    totals (play goes on). Note that no single deal of either table gives both sides points."""
    a, b = scores
    if max(a, b) < target or a == b:
        return None
    return 0 if a > b else 1
