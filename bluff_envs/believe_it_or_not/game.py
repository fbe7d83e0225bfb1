"""The game of Believe It or Not: validated options and what follows from them (deck, ranks,
cap, layout, the encoding every view shares, the symmetry of its ranks).

The AEC adapter (:mod:`bluff_envs.aec`) builds one per environment and asks it for a new
state (:mod:`~bluff_envs.believe_it_or_not.rules`) and view
(:mod:`~bluff_envs.believe_it_or_not.view`) at every reset.
"""

from __future__ import annotations

from bluff_envs.believe_it_or_not.actions import ACTION_NAMES, NAME0
from bluff_envs.believe_it_or_not.config import BelieveItOrNotConfig
from bluff_envs.believe_it_or_not.rules import BelieveItOrNotState
from bluff_envs.believe_it_or_not.view import BelieveItOrNotView, Encoding, build_layout, rank_symmetry
from bluff_envs.cards import DeckSpec


class BelieveItOrNot:
    """The game: validated options and what follows from them."""

    name = "believe_it_or_not_v0"
    action_names = ACTION_NAMES

    def __init__(self, **options):
        self.config = c = BelieveItOrNotConfig.from_options(**options)
        self.num_players = c.num_players
        self.deck = DeckSpec(lowest_rank=c.lowest_rank, num_decks=c.num_decks)
        self.ranks = tuple(self.deck.ranks)
        self.copies = 4 * c.num_decks  # copies of each rank: a complete set for discard_quads
        self.cap = c.max_cards_per_play if c.max_cards_per_play is not None else self.deck.size
        self.name_actions = tuple(NAME0 + r for r in self.ranks)  # one object: its mask is reused
        self.layout = build_layout(c)
        # the ranks are interchangeable: any relabelling of them is the same game (bluff_envs.symmetry)
        self.symmetry = rank_symmetry(self.layout, self.ranks, len(ACTION_NAMES))
        self.encoding = Encoding(self)  # what every view of this game shares

    def new_state(self, cards: list[int], rng=None) -> BelieveItOrNotState:
        return BelieveItOrNotState(self, cards)

    def new_view(self, state: BelieveItOrNotState) -> BelieveItOrNotView:
        return BelieveItOrNotView(self, state)
