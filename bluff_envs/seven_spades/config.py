"""Options of Seven Spades (docs/rules.md §3), declared once and validated into a frozen config."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bluff_envs import options as opt
from bluff_envs.options import Option

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


def _num_players(name: str, value: Any, resolved: dict[str, Any]) -> int:
    n = opt.integer(name, value, 2, MAX_PLAYERS)
    fewest = default_num_decks(n)
    if fewest > MAX_DECKS:
        raise ValueError(
            f"{GAME}: option num_players={n} needs {fewest} decks (at most {PLAYERS_PER_DECK} players "
            f"per deck), more than the {MAX_DECKS} allowed; allowed: at most {PLAYERS_PER_DECK * MAX_DECKS} players"
        )
    return n


def _num_decks(name: str, value: Any, resolved: dict[str, Any]) -> int:
    n = resolved["num_players"]
    decks = opt.integer(name, value, 1, MAX_DECKS)
    fewest = default_num_decks(n)
    if decks < fewest:  # §3.1: more than five players per deck is refused
        raise ValueError(
            f"{GAME}: option num_decks={decks} is too few for {n} players (at most {PLAYERS_PER_DECK} "
            f"players per deck); allowed: num_decks from {fewest} (the fewest that work) to {MAX_DECKS}"
        )
    return decks


def _default_target(resolved: dict[str, Any]) -> int:
    return default_target(resolved["num_players"], resolved["num_decks"])


def _target(name: str, value: Any, resolved: dict[str, Any]) -> int:
    if value is None:  # target=None asks for the default, as leaving it out does
        return _default_target(resolved)
    return opt.integer(name, value, 2, SPADES_PER_DECK * resolved["num_decks"])


def _free_turn(name: str, value: Any, resolved: dict[str, Any]) -> bool:
    free_turn = opt.flag(name, value)
    if free_turn and resolved["num_players"] == 2:
        # with two players the first challenge ends the game: there is no next turn to take
        raise ValueError("option free_turn=True needs more than 2 players (num_players=2 given)")
    return free_turn


@dataclass(frozen=True)
class SevenSpadesConfig:
    num_players: int
    num_decks: int
    target: int
    free_turn: bool
    max_turns: int

    # in the order they are resolved: num_decks defaults from num_players, target from both
    OPTIONS = (
        Option("num_players", 4, "4", f"2 to {MAX_PLAYERS}", _num_players),
        Option(
            "num_decks",
            lambda r: default_num_decks(r["num_players"]),
            "fewest decks with at most 5 players per deck",
            f"that fewest to {MAX_DECKS}",
            _num_decks,
        ),
        Option(
            "target",
            _default_target,
            "7/5/4/3 x num_decks for 2/3/4/5 players; beyond, the largest T with n*(T-1)+1 <= 13*num_decks",
            "an integer from 2 to 13 x num_decks",
            _target,
        ),
        Option("free_turn", False, "False", "True (only with more than 2 players) or False", _free_turn),
        Option(
            "max_turns",
            1000,
            "1000",
            "an integer >= 1 (completed turns, one draw each, then truncation)",
            opt.integers(1),
        ),
    )

    @classmethod
    def from_options(cls, **options: Any) -> SevenSpadesConfig:
        return cls(**opt.resolve(GAME, cls.OPTIONS, options))
