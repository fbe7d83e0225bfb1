"""Options of Believe It or Not (RULES.md §2), validated once into a frozen config."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bluff_envs import options as opt

GAME = "believe_it_or_not"
DECK_SIZES = (36, 52)


@dataclass(frozen=True)
class BelieveItOrNotConfig:
    num_players: int = 4
    deck: int = 52
    num_decks: int = 1
    max_cards_per_play: int | None = 8
    discard_quads: bool = False
    max_turns: int = 1000

    # name, default, allowed values: what `bluff list` prints
    OPTIONS = (
        ("num_players", "4", "2 to 6"),
        ("deck", "36 for 2-3 players, 52 for 4-6", "36 (ranks 6..A) or 52 (ranks 2..A)"),
        ("num_decks", "1", "1 or 2"),
        ("max_cards_per_play", "8", "an integer >= 1, or None for no limit"),
        ("discard_quads", "False", "True or False"),
        ("max_turns", "1000", "an integer >= 1 (completed plays before truncation)"),
    )

    @classmethod
    def from_options(cls, **options: Any) -> BelieveItOrNotConfig:
        opt.reject_unknown(GAME, options, [name for name, _, _ in cls.OPTIONS])
        n = opt.integer("num_players", options.get("num_players", 4), 2, 6)
        return cls(
            num_players=n,
            deck=opt.choice("deck", options.get("deck", 36 if n <= 3 else 52), DECK_SIZES),
            num_decks=opt.choice("num_decks", options.get("num_decks", 1), (1, 2)),
            max_cards_per_play=opt.integer(
                "max_cards_per_play", options.get("max_cards_per_play", 8), 1, none_ok=True
            ),
            discard_quads=opt.flag("discard_quads", options.get("discard_quads", False)),
            max_turns=opt.integer("max_turns", options.get("max_turns", 1000), 1),
        )

    @property
    def lowest_rank(self) -> int:
        """Rank index of the lowest rank in use: "6" (4) for 36 cards, "2" (0) for 52."""
        return 4 if self.deck == 36 else 0
