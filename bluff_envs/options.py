"""Validation of game options: one clear ``ValueError`` per bad option, nothing clamped."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def reject_unknown(game: str, options: Mapping[str, Any], known: Iterable[str]) -> None:
    known = list(known)
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(
            f"{game}: unknown option(s) {', '.join(map(repr, unknown))}; "
            f"options are {', '.join(known)}"
        )


def choice(name: str, value: Any, allowed: Iterable[Any]) -> Any:
    allowed = tuple(allowed)
    if value not in allowed or isinstance(value, bool) != any(isinstance(a, bool) for a in allowed):
        raise ValueError(f"option {name}={value!r} is not allowed; allowed values: {', '.join(map(repr, allowed))}")
    return value


def flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"option {name}={value!r} is not allowed; allowed values: True, False")
    return value


def integer(name: str, value: Any, low: int, high: int | None = None, *, none_ok: bool = False) -> int | None:
    """An int in ``[low, high]`` (``high=None``: no upper bound); ``None`` only if ``none_ok``."""
    if value is None and none_ok:
        return None
    bounds = f"an integer >= {low}" if high is None else f"an integer from {low} to {high}"
    if none_ok:
        bounds += " or None"
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        raise ValueError(f"option {name}={value!r} is out of range; allowed: {bounds}")
    return int(value)
