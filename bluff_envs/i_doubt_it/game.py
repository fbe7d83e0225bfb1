"""The game of I Doubt It: validated options and what follows from them (deck, cap, layout).

The AEC adapter (:mod:`bluff_envs.aec`) builds one per environment and asks it for a new
state (:mod:`~bluff_envs.i_doubt_it.rules`) and view (:mod:`~bluff_envs.i_doubt_it.view`) at
every reset.
"""

from __future__ import annotations

from bluff_envs.cards import DeckSpec
from bluff_envs.i_doubt_it.actions import ACTION_NAMES
from bluff_envs.i_doubt_it.config import IDoubtItConfig
from bluff_envs.i_doubt_it.rules import IDoubtItState
from bluff_envs.i_doubt_it.view import IDoubtItView, build_layout


class IDoubtIt:
    """The game: validated options and what follows from them."""

    name = "i_doubt_it_v0"
    action_names = ACTION_NAMES

    def __init__(self, **options):
        self.config = c = IDoubtItConfig.from_options(**options)
        self.num_players = c.num_players
        self.deck = DeckSpec(lowest_rank=0, num_decks=c.num_decks)
        self.cap = c.max_cards_per_play if c.max_cards_per_play is not None else self.deck.size
        self.layout = build_layout(c)

    def new_state(self, cards: list[int], rng=None) -> IDoubtItState:
        return IDoubtItState(self, cards)

    def new_view(self, state: IDoubtItState) -> IDoubtItView:
        return IDoubtItView(self, state)
