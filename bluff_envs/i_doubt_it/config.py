"""Options of I Doubt It (docs/rules.md §1), declared once and validated into a frozen config."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bluff_envs import options as opt
from bluff_envs.options import Option

GAME = "i_doubt_it"
RANK_ORDERS = ("descending", "ascending")


def _num_decks(name: str, value: Any, resolved: dict[str, Any]) -> int:
    decks = opt.integer(name, value, 1, 4)
    n = resolved["num_players"]
    if 52 * decks < n:
        raise ValueError(f"option {name}={decks} gives fewer cards than the {n} players")
    return decks


@dataclass(frozen=True)
class IDoubtItConfig:
    num_players: int
    num_decks: int
    rank_order: str
    max_cards_per_play: int | None
    last_play_checked: bool
    max_turns: int

    # in the order they are resolved: a default may depend on the options above it
    OPTIONS = (
        Option("num_players", 4, "4", "2 to 11", opt.integers(2, 11)),
        Option(
            "num_decks",
            lambda o: 1 if o["num_players"] <= 5 else 2,
            "1 for 2-5 players, 2 for 6-11",
            "1 to 4, at least one card per player",
            _num_decks,
        ),
        Option(
            "rank_order",
            "descending",
            "'descending'",
            "'descending' (A, K, …, 2, A) or 'ascending' (A, 2, …, K, A)",
            opt.choices(RANK_ORDERS),
        ),
        Option(
            "max_cards_per_play",
            lambda o: 4 * o["num_decks"],
            "4 x num_decks",
            "an integer >= 1, or None for no limit",
            opt.integers(1, none_ok=True),
        ),
        Option("last_play_checked", True, "True", "True or False", opt.flags),
        Option(
            "max_turns",
            1000,
            "1000",
            "an integer >= 1 (completed plays before truncation)",
            opt.integers(1),
        ),
    )

    @classmethod
    def from_options(cls, **options: Any) -> IDoubtItConfig:
        return cls(**opt.resolve(GAME, cls.OPTIONS, options))
