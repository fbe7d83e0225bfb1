"""Options of Believe It or Not (docs/rules.md §2), declared once and validated into a frozen config."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bluff_envs import options as opt
from bluff_envs.options import Option

GAME = "believe_it_or_not"
DECK_SIZES = (36, 52)


@dataclass(frozen=True)
class BelieveItOrNotConfig:
    num_players: int
    deck: int
    num_decks: int
    max_cards_per_play: int | None
    discard_quads: bool
    max_turns: int
    call_record: bool

    # in the order they are resolved: a default may depend on the options above it
    OPTIONS = (
        Option("num_players", 4, "4", "2 to 6", opt.integers(2, 6)),
        Option(
            "deck",
            lambda o: 36 if o["num_players"] <= 3 else 52,
            "36 for 2-3 players, 52 for 4-6",
            "36 (ranks 6..A) or 52 (ranks 2..A)",
            opt.choices(DECK_SIZES),
        ),
        Option("num_decks", 1, "1", "1 or 2", opt.choices((1, 2))),
        Option(
            "max_cards_per_play",
            8,
            "8",
            "an integer >= 1, or None for no limit",
            opt.integers(1, none_ok=True),
        ),
        Option("discard_quads", False, "False", "True or False", opt.flags),
        Option(
            "max_turns",
            1000,
            "1000",
            "an integer >= 1 (completed plays before truncation)",
            opt.integers(1),
        ),
        Option(
            "call_record",
            False,
            "False",
            "True or False (observation only: adds each player's record of calls, see the env's layout)",
            opt.flags,
            observation_only=True,
        ),
    )

    @classmethod
    def from_options(cls, **options: Any) -> BelieveItOrNotConfig:
        return cls(**opt.resolve(GAME, cls.OPTIONS, options))

    @property
    def lowest_rank(self) -> int:
        """Rank index of the lowest rank in use: "6" (4) for 36 cards, "2" (0) for 52."""
        return 4 if self.deck == 36 else 0
