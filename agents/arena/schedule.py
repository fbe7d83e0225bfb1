"""Which games a tournament plays: line-ups, seatings and duplicate deals.

A **line-up** is the agent spec of every seat. Formats:

* ``round_robin``: every set of ``n`` agents from the pool (for a partnership game, every pair
  of agents, one per partnership); with fewer agents than seats, every mix of them that holds
  at least two different agents;
* ``gauntlet``: each challenger against every set of ``n - 1`` agents from the field (drawn
  with repetition when the field is smaller than that);
* explicit ``lineups``.

A **deal** is one seeded deck. Each deal is played by every line-up in every **seating**,
duplicates removed, so each agent gets each seat with the same cards and the luck of the deal
cancels:

* ``balanced`` (the default): the ``n`` cyclic rotations of one order of the line-up around
  the table, a different order for each deal in turn. A rotation keeps who sits after whom,
  and in these games that matters (in I Doubt It, when several players doubt a claim, the
  one nearest the discarder's left is the doubter). The orders (the line-up's seats other
  than the first permuted every way that keeps partners partners), taken deal by deal, give
  every agent every neighbour equally often: exactly so when the deals are a multiple of the
  orders (6 for four players, 2 for three);
* ``rotations``: the rotations of the line-up as given, the same order on every deal;
* ``permutations``: every permutation that keeps partners partners (``n!`` games a deal
  without partnerships);
* ``fixed``: only as given.

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

SEATINGS = ("balanced", "rotations", "permutations", "fixed")
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


def seatings(lineup: tuple[str, ...], how: str, deal: int = 0, teams: tuple[tuple[int, ...], ...] = ()) -> list[tuple[str, ...]]:
    """The distinct arrangements of a line-up over the seats for deal number ``deal`` (only
    ``balanced`` depends on it; ``balanced`` and ``permutations`` keep the partnerships
    ``teams``), the first one first."""
    n = len(lineup)
    if how == "fixed":
        arrangements = [lineup]
    elif how == "rotations":
        arrangements = rotations(lineup)
    elif how == "balanced":
        orders = table_orders(lineup, teams)
        arrangements = rotations(orders[deal % len(orders)])
    elif how == "permutations":
        arrangements = [tuple(lineup[i] for i in p) for p in itertools.permutations(range(n))
                        if keeps_teams(p, teams)]
    else:
        raise ValueError(f"unknown seating {how!r}; allowed: {', '.join(SEATINGS)}")
    return list(dict.fromkeys(arrangements))


def rotations(lineup: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The ``n`` cyclic rotations of a line-up, itself first."""
    n = len(lineup)
    return [lineup[n - k:] + lineup[: n - k] for k in range(n)]


def table_orders(lineup: tuple[str, ...], teams: tuple[tuple[int, ...], ...] = ()) -> list[tuple[str, ...]]:
    """The distinct orders of a line-up around the table (arrangements up to rotation), the
    line-up itself first: seat 0 kept, the other seats permuted every way that maps each
    partnership of ``teams`` onto a partnership (no teams: every seat alone)."""
    orders: dict[tuple[str, ...], tuple[str, ...]] = {}
    for rest in itertools.permutations(range(1, len(lineup))):
        p = (0, *rest)
        if keeps_teams(p, teams):
            order = tuple(lineup[i] for i in p)
            orders.setdefault(min(rotations(order)), order)
    return list(orders.values())


def keeps_teams(p: tuple[int, ...], teams: tuple[tuple[int, ...], ...]) -> bool:
    """Whether the seat permutation ``p`` maps every partnership of ``teams`` onto one (no
    teams: any permutation does)."""
    blocks = {frozenset(t) for t in teams}
    return not blocks or all(frozenset(p[s] for s in block) in blocks for block in blocks)


def schedule(game: str, options: dict[str, Any], all_lineups: list[tuple[str, ...]], deals: int, seed: int,
             seating: str = "balanced", engine: str = "auto") -> list[GameTask]:
    """Every game of the tournament, deal by deal (so a partial run is balanced)."""
    if engine not in ENGINES:
        raise ValueError(f"engine={engine!r} is not known; allowed: {', '.join(ENGINES)}")
    tasks = []
    teams = partnerships(game, len(all_lineups[0])) if seating in ("balanced", "permutations") and all_lineups else ()
    for deal in range(deals):
        deal_seed = derive_seed(seed, 0, deal)  # the same deal for every line-up and seating
        for l, lineup in enumerate(all_lineups):
            for s, seats in enumerate(seatings(lineup, seating, deal, teams)):
                agent_seeds = tuple(derive_seed(seed, 1, l, deal, s, seat) for seat in range(len(seats)))
                tasks.append(
                    GameTask(f"L{l:03d}-D{deal:06d}-S{s:02d}", game, options, seats, deal_seed, agent_seeds, l, deal, s,
                             engine)
                )
    return tasks
