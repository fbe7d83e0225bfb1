"""Options of I Doubt It (RULES.md §1), validated once into a frozen config."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bluff_envs import options as opt

GAME = "i_doubt_it"
RANK_ORDERS = ("descending", "ascending")


@dataclass(frozen=True)
class IDoubtItConfig:
    num_players: int = 4
    num_decks: int = 1
    rank_order: str = "descending"
    max_cards_per_play: int | None = 4
    last_play_checked: bool = True
    max_turns: int = 1000

    # name, default, allowed values: what `bluff list` prints
    OPTIONS = (
        ("num_players", "4", "2 to 11"),
        ("num_decks", "1 for 2-5 players, 2 for 6-11", "1 to 4, at least one card per player"),
        ("rank_order", "'descending'", "'descending' (A, K, …, 2, A) or 'ascending' (A, 2, …, K, A)"),
        ("max_cards_per_play", "4 x num_decks", "an integer >= 1, or None for no limit"),
        ("last_play_checked", "True", "True or False"),
        ("max_turns", "1000", "an integer >= 1 (completed plays before truncation)"),
    )

    @classmethod
    def from_options(cls, **options: Any) -> IDoubtItConfig:
        opt.reject_unknown(GAME, options, [name for name, _, _ in cls.OPTIONS])
        n = opt.integer("num_players", options.get("num_players", 4), 2, 11)
        decks = opt.integer("num_decks", options.get("num_decks", 1 if n <= 5 else 2), 1, 4)
        if 52 * decks < n:
            raise ValueError(f"option num_decks={decks} gives fewer cards than the {n} players")
        cap = options.get("max_cards_per_play", 4 * decks)
        return cls(
            num_players=n,
            num_decks=decks,
            rank_order=opt.choice("rank_order", options.get("rank_order", "descending"), RANK_ORDERS),
            max_cards_per_play=opt.integer("max_cards_per_play", cap, 1, none_ok=True),
            last_play_checked=opt.flag("last_play_checked", options.get("last_play_checked", True)),
            max_turns=opt.integer("max_turns", options.get("max_turns", 1000), 1),
        )
