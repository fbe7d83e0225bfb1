"""The game of Tarneeb: the validated options and what follows from them, built once.

The adapter (``bluff_envs.aec``) asks it for a new state (the rules) and a new view (the
encoder) at every ``reset``; both share what is built here: the deck, the layout, the view's
index tables and the bid ladder of the variant (which calls are legal after each bid).
"""

from __future__ import annotations

from collections.abc import Sequence

from bluff_envs.cards import NUM_SUITS, DeckSpec
from bluff_envs.tarneeb import actions
from bluff_envs.tarneeb.actions import ACTION_NAMES, PASS, STRAINS, TRUMP0
from bluff_envs.tarneeb.config import TarneebConfig
from bluff_envs.tarneeb.rules import NUM_PLAYERS, TarneebState
from bluff_envs.tarneeb.view import TarneebView, ViewTables, build_layout


class Tarneeb:
    """The game: validated options and what follows from them."""

    name = "tarneeb_v0"
    action_names = ACTION_NAMES
    num_players = NUM_PLAYERS
    teams = ((0, 2), (1, 3))  # the partnerships: partners share every reward

    def __init__(self, **options):
        self.config = c = TarneebConfig.from_options(**options)
        self.egyptian = c.egyptian
        self.deck = DeckSpec()
        # a bid "level" orders the bids of the variant: 0 is the lowest (bluff_envs.tarneeb.actions)
        self.bid0 = actions.first_bid(c.egyptian)
        self.num_levels = actions.num_levels(c.egyptian)
        self.layout = build_layout(c)
        self.view_tables = ViewTables(self, self.layout)
        top = self.bid0 + self.num_levels
        # the legal calls after each highest level so far (index 0: nothing bid yet)
        self.calls_after = [(PASS, *range(self.bid0 + high + 1, top)) for high in range(-1, self.num_levels)]
        self.forced_bids = tuple(range(self.bid0, top))  # the dealer who may not pass, nothing bid yet
        self.trump_calls = tuple(range(TRUMP0, TRUMP0 + (len(STRAINS) if c.allow_no_trump else NUM_SUITS)))

    def parse_deck(self, deck):
        """The ``reset`` option ``deck``: one deck (card strings, top first) or a list of decks,
        one per deal (redeals included), used in order before shuffling takes over."""
        if isinstance(deck, Sequence) and not isinstance(deck, str) and deck:
            if all(isinstance(d, Sequence) and not isinstance(d, str) for d in deck):
                parsed = []
                for i, one in enumerate(deck):
                    try:
                        parsed.append(self.deck.parse(one))
                    except ValueError as error:
                        raise ValueError(f"deck {i} of reset option 'deck': {error}") from None
                return parsed
        return self.deck.parse(deck)

    def level_of(self, action: int) -> int:
        """The level of a bid action of this variant."""
        return action - self.bid0

    def bid_tricks(self, level: int) -> int:
        return actions.bid_tricks(level, self.egyptian)

    def bid_strain(self, level: int) -> int | None:
        return actions.bid_strain(level, self.egyptian)

    def new_state(self, cards, rng=None) -> TarneebState:
        return TarneebState(self, cards, rng)

    def new_view(self, state: TarneebState) -> TarneebView:
        return TarneebView(self, state)
