"""Game options: each declared once, validated into a frozen config, nothing clamped.

A game declares its options as a tuple of :class:`Option` (name, default, how the default
reads, what is allowed, the check), in the order they are resolved: a default may depend on
the options before it (I Doubt It's ``num_decks`` on ``num_players``). That one declaration
is read by the config (:func:`resolve`), by ``bluff list`` and by the environment's docstring
(:func:`table`), so a default is written once. Every bad option is one clear ``ValueError``
naming it and what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Option:
    """One option of a game. ``default`` is a value or a function of the options resolved
    before it; ``check(name, value, resolved)`` returns the validated value or raises."""

    name: str
    default: Any
    default_text: str
    allowed: str
    check: Callable[[str, Any, dict[str, Any]], Any]
    # an option that changes only what the observation holds, never the rules: the new fields
    # are appended after every other one, so a policy trained without it reads a prefix
    observation_only: bool = False

    def default_for(self, resolved: dict[str, Any]) -> Any:
        return self.default(resolved) if callable(self.default) else self.default


def integers(low: int, high: int | None = None, *, none_ok: bool = False):
    """The check of an integer option in ``[low, high]`` (``None`` allowed with ``none_ok``)."""
    return lambda name, value, resolved: integer(name, value, low, high, none_ok=none_ok)


def choices(allowed: Iterable[Any]):
    """The check of an option that takes one of ``allowed``."""
    allowed = tuple(allowed)
    return lambda name, value, resolved: choice(name, value, allowed)


def flags(name: str, value: Any, resolved: dict[str, Any]) -> bool:
    """The check of a True/False option."""
    return flag(name, value)


def resolve(game: str, declared: Sequence[Option], options: Mapping[str, Any]) -> dict[str, Any]:
    """Every declared option's value: the given one, checked, or its default."""
    reject_unknown(game, options, [o.name for o in declared])
    resolved: dict[str, Any] = {}
    for o in declared:
        value = options[o.name] if o.name in options else o.default_for(resolved)
        resolved[o.name] = o.check(o.name, value, resolved)
    return resolved


def table(declared: Sequence[Option]) -> str:
    """The options as a reStructuredText table: name, default, allowed."""
    rows = [("option", "default", "allowed")] + [(o.name, o.default_text, o.allowed) for o in declared]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    rule = "  ".join("=" * w for w in widths)
    lines = [rule, "  ".join(c.ljust(w) for c, w in zip(rows[0], widths)).rstrip(), rule]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows[1:]]
    return "\n".join([*lines, rule])


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
    try:
        known = value in allowed
    except (TypeError, ValueError):  # e.g. an array, whose truth is ambiguous
        known = False
    if not known or isinstance(value, (bool, np.bool_)) != any(isinstance(a, bool) for a in allowed):
        raise ValueError(f"option {name}={_shown(value)} is not allowed; allowed values: {', '.join(map(repr, allowed))}")
    return allowed[allowed.index(value)]  # the declared value itself (an int, not an np.int64)


def flag(name: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"option {name}={_shown(value)} is not allowed; allowed values: True, False")
    return bool(value)


def integer(name: str, value: Any, low: int, high: int | None = None, *, none_ok: bool = False) -> int | None:
    """An int in ``[low, high]`` (``high=None``: no upper bound); ``None`` only if ``none_ok``."""
    if value is None and none_ok:
        return None
    bounds = f"an integer >= {low}" if high is None else f"an integer from {low} to {high}"
    if none_ok:
        bounds += " or None"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"option {name}={_shown(value)} is not an integer; allowed: {bounds}")
    if value < low or (high is not None and value > high):
        raise ValueError(f"option {name}={_shown(value)} is out of range; allowed: {bounds}")
    return int(value)


def _shown(value: Any, limit: int = 60) -> str:
    """A value as an error message shows it: its repr, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
