"""Which games a tournament plays: line-ups, seatings and duplicate deals.

A **line-up** is the agent spec of every seat. Formats:

* ``round_robin``: every set of ``n`` agents from the pool (for a partnership game, every pair
  of agents, one per partnership); with fewer agents than seats, every mix of them that holds
  at least two different agents;
* ``gauntlet``: each challenger against every set of ``n - 1`` agents from the field (drawn
  with repetition when the field is smaller than that);
* explicit ``lineups``.

A **deal** is one seeded deck. Each deal is played by every line-up in every **seating**: the
``n`` cyclic rotations of the line-up over the seats (or every permutation, with
``seating: permutations``; or only as given, with ``fixed``), duplicates removed. So each
agent gets each seat with the same cards, and the luck of the deal cancels.

Every game has an id and seeds that depend only on the tournament seed and the game's place
in the schedule (line-up, deal, seating), never on the order or the worker it runs in, nor on
the **engine** that plays it: ``auto`` (the vector engine when the game has one and every agent
a batched form, else the reference environment), ``vector`` (that, or an error) or
``reference``. Both engines give the same records.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

SEATINGS = ("rotations", "permutations", "fixed")
ENGINES = ("auto", "vector", "reference")
# partnerships by game: the seats that share a result (all other games: every seat alone)


@dataclass(frozen=True)
class GameTask:
    """One game to play: where it sits in the schedule and everything needed to play it."""

    game_id: str
    game: str
    options: dict[str, Any]
    seats: tuple[str, ...]  # agent spec per seat
    deal_seed: int
    agent_seeds: tuple[int, ...]
    lineup: int
    deal: int
    seating: int
    engine: str = "auto"  # how it is played (see the module docstring); never what it gives


def derive_seed(*keys: int) -> int:
    """A 32-bit seed determined by ``keys`` alone (NumPy's SeedSequence hashing)."""
    return int(np.random.SeedSequence([int(k) for k in keys]).generate_state(1, np.uint32)[0])


def partnerships(game: str, num_players: int) -> tuple[tuple[int, ...], ...]:
    """The teams of a game: its partnerships, or one team per seat."""
    import bluff_envs

    teams = getattr(bluff_envs.game_module(game).raw_env.game_class, "teams", None)
    return teams or tuple((s,) for s in range(num_players))


def lineups(fmt: str, num_players: int, teams: tuple[tuple[int, ...], ...], *, agents=(), challengers=(),
            field=(), explicit=()) -> list[tuple[str, ...]]:
    """The line-ups of a tournament format (see the module docstring)."""
    if fmt == "lineups":
        return [tuple(x) for x in explicit]
    if fmt == "gauntlet":
        out = []
        others = len(teams) - 1
        pick = itertools.combinations if len(field) >= others else itertools.combinations_with_replacement
        for challenger in challengers:
            for group in pick(field, others):
                out.append(_seat_teams(teams, (challenger, *group), num_players))
        return out
    if fmt == "round_robin":
        k = len(teams)
        if len(agents) >= k:
            groups = list(itertools.combinations(agents, k))
        else:
            groups = [g for g in itertools.combinations_with_replacement(agents, k) if len(set(g)) > 1]
        return [_seat_teams(teams, g, num_players) for g in groups]
    raise ValueError(f"unknown format {fmt!r}")


def _seat_teams(teams, team_agents, num_players) -> tuple[str, ...]:
    seats = [""] * num_players
    for team, spec in zip(teams, team_agents):
        for s in team:
            seats[s] = spec
    return tuple(seats)


def seatings(lineup: tuple[str, ...], how: str) -> list[tuple[str, ...]]:
    """The distinct arrangements of a line-up over the seats, the line-up itself first."""
    n = len(lineup)
    if how == "fixed":
        arrangements = [lineup]
    elif how == "rotations":
        arrangements = [lineup[n - k:] + lineup[: n - k] for k in range(n)]
    elif how == "permutations":
        arrangements = [tuple(lineup[i] for i in p) for p in itertools.permutations(range(n))]
    else:
        raise ValueError(f"unknown seating {how!r}; allowed: {', '.join(SEATINGS)}")
    return list(dict.fromkeys(arrangements))


def schedule(game: str, options: dict[str, Any], all_lineups: list[tuple[str, ...]], deals: int, seed: int,
             seating: str = "rotations", engine: str = "auto") -> list[GameTask]:
    """Every game of the tournament, deal by deal (so a partial run is balanced)."""
    if engine not in ENGINES:
        raise ValueError(f"engine={engine!r} is not known; allowed: {', '.join(ENGINES)}")
    tasks = []
    arranged = [seatings(lineup, seating) for lineup in all_lineups]
    for deal in range(deals):
        deal_seed = derive_seed(seed, 0, deal)  # the same deal for every line-up and seating
        for l, arrangements in enumerate(arranged):
            for s, seats in enumerate(arrangements):
                agent_seeds = tuple(derive_seed(seed, 1, l, deal, s, seat) for seat in range(len(seats)))
                tasks.append(
                    GameTask(f"L{l:03d}-D{deal:06d}-S{s:02d}", game, options, seats, deal_seed, agent_seeds, l, deal, s,
                             engine)
                )
    return tasks
