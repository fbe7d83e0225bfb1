"""Fixed stocks for Seven Spades scenarios: the cards named are drawn first, in that order."""

from __future__ import annotations

from bluff_envs.cards import DeckSpec, card_str

from bluff_envs import seven_spades_v0


def stock(*top: str, num_decks: int = 1) -> list[str]:
    """A whole deck whose top cards are ``top`` (drawn in that order), then every other card in
    a fixed order, clubs and diamonds first so that no stray spade turns up early."""
    rest = [card_str(c) for c in DeckSpec(num_decks=num_decks).cards()]
    for card in top:
        rest.remove(card)
    rest.sort(key=lambda c: (c[-1] == "S", c[-1] == "H"))
    return list(top) + rest


def table(*top: str, **options):
    """A raw env dealt from ``stock(*top)``."""
    env = seven_spades_v0.raw_env(**options)
    env.reset(options={"deck": stock(*top, num_decks=env.game.config.num_decks)})
    return env
