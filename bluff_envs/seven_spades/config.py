"""Options of Seven Spades (RULES.md §3), validated once into a frozen config."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bluff_envs import options as opt

GAME = "seven_spades"
PLAYERS_PER_DECK = 5
MAX_PLAYERS = 20
MAX_DECKS = 4
SPADES_PER_DECK = 13
TABLE_TARGETS = {2: 7, 3: 5, 4: 4, 5: 3}  # one deck; multiplied by num_decks


def default_num_decks(num_players: int) -> int:
    """The fewest decks that give at most five players per deck."""
    return -(-num_players // PLAYERS_PER_DECK)


def default_target(num_players: int, num_decks: int) -> int:
    """7/5/4/3 (2-5 players) x num_decks; beyond five players the largest T with
    n·(T−1)+1 ≤ 13·num_decks, so that a game can always be won without bluffing."""
    if num_players in TABLE_TARGETS:
        return TABLE_TARGETS[num_players] * num_decks
    return (SPADES_PER_DECK * num_decks - 1) // num_players + 1


@dataclass(frozen=True)
class SevenSpadesConfig:
    num_players: int = 4
    num_decks: int = 1
    target: int = 4
    free_turn: bool = False
    max_turns: int = 1000

    # name, default, allowed values: what `bluff list` prints
    OPTIONS = (
        ("num_players", "4", f"2 to {MAX_PLAYERS}"),
        ("num_decks", "fewest decks with at most 5 players per deck", f"that fewest to {MAX_DECKS}"),
        (
            "target",
            "7/5/4/3 for 2/3/4/5 players, x num_decks; beyond 5 players the largest T with "
            "n*(T-1)+1 <= 13*num_decks",
            "an integer from 2 to 13 x num_decks",
        ),
        ("free_turn", "False", "True (only with more than 2 players) or False"),
        ("max_turns", "1000", "an integer >= 1 (completed turns, each one draw, before truncation)"),
    )

    @classmethod
    def from_options(cls, **options: Any) -> SevenSpadesConfig:
        opt.reject_unknown(GAME, options, [name for name, _, _ in cls.OPTIONS])
        n = opt.integer("num_players", options.get("num_players", 4), 2, MAX_PLAYERS)
        fewest = default_num_decks(n)
        if fewest > MAX_DECKS:
            raise ValueError(
                f"{GAME}: option num_players={n} needs {fewest} decks (at most {PLAYERS_PER_DECK} players "
                f"per deck), more than the {MAX_DECKS} allowed; allowed: at most {PLAYERS_PER_DECK * MAX_DECKS} players"
            )
        decks = opt.integer("num_decks", options.get("num_decks", fewest), 1, MAX_DECKS)
        if decks < fewest:  # §3.1: more than five players per deck is refused
            raise ValueError(
                f"{GAME}: option num_decks={decks} is too few for {n} players (at most {PLAYERS_PER_DECK} "
                f"players per deck); allowed: num_decks from {fewest} (the fewest that work) to {MAX_DECKS}"
            )
        most = SPADES_PER_DECK * decks
        if options.get("target") is None:
            target = default_target(n, decks)  # >= 3 with at most five players per deck
        else:
            target = opt.integer("target", options["target"], 2, most)
        free_turn = opt.flag("free_turn", options.get("free_turn", False))
        if free_turn and n == 2:
            # with two players the first challenge ends the game: there is no next turn to take
            raise ValueError("option free_turn=True needs more than 2 players (num_players=2 given)")
        return cls(
            num_players=n,
            num_decks=decks,
            target=target,
            free_turn=free_turn,
            max_turns=opt.integer("max_turns", options.get("max_turns", 1000), 1),
        )
