"""The game of Seven Spades: the validated options and what follows from them, built once.

The adapter (``bluff_envs.aec``) asks it for a new state (the rules) and a new view (the
encoder) at every ``reset``; both share what is built here (deck, layout, view tables).
"""

from __future__ import annotations

from bluff_envs.cards import DeckSpec
from bluff_envs.seven_spades.actions import ACTION_NAMES
from bluff_envs.seven_spades.config import SevenSpadesConfig
from bluff_envs.seven_spades.rules import SevenSpadesState
from bluff_envs.seven_spades.view import SevenSpadesView, ViewTables, build_layout


class SevenSpades:
    """The game: validated options and what follows from them."""

    name = "seven_spades_v0"
    action_names = ACTION_NAMES

    def __init__(self, **options):
        self.config = c = SevenSpadesConfig.from_options(**options)
        self.num_players = c.num_players
        self.target = c.target
        self.deck = DeckSpec(lowest_rank=0, num_decks=c.num_decks)
        self.layout = build_layout(c)
        self.view_tables = ViewTables(c, self.layout)

    def new_state(self, cards: list[int], rng=None) -> SevenSpadesState:
        return SevenSpadesState(self, cards)

    def new_view(self, state: SevenSpadesState) -> SevenSpadesView:
        return SevenSpadesView(self, state)
