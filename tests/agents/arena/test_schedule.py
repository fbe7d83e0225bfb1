"""Line-ups, seatings and duplicate deals."""

from __future__ import annotations

from collections import defaultdict

from agents.arena.match import play_game
from agents.arena.schedule import lineups, partnerships, schedule, seatings, table_orders

SOLO4 = partnerships("i_doubt_it", 4)


def test_round_robin_takes_every_set_of_n_agents():
    got = lineups("round_robin", 4, SOLO4, agents=["a", "b", "c", "d", "e"])
    assert len(got) == 5 and ("a", "b", "c", "d") in got and all(len(set(x)) == 4 for x in got)


def test_round_robin_with_fewer_agents_than_seats_mixes_them():
    got = lineups("round_robin", 3, partnerships("i_doubt_it", 3), agents=["a", "b"])
    assert got == [("a", "a", "b"), ("a", "b", "b")]


def test_gauntlet_puts_each_challenger_against_the_field():
    got = lineups("gauntlet", 4, SOLO4, challengers=["h", "c"], field=["random"])
    assert got == [("h", "random", "random", "random"), ("c", "random", "random", "random")]
    got = lineups("gauntlet", 3, partnerships("i_doubt_it", 3), challengers=["h"], field=["x", "y", "z"])
    assert got == [("h", "x", "y"), ("h", "x", "z"), ("h", "y", "z")]


def test_partnerships_seat_partners_opposite_each_other():
    teams = partnerships("tarneeb", 4)
    assert lineups("round_robin", 4, teams, agents=["a", "b", "c"]) == [
        ("a", "b", "a", "b"), ("a", "c", "a", "c"), ("b", "c", "b", "c")]
    assert seatings(("a", "b", "a", "b"), "rotations") == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert seatings(("a", "b", "a", "b"), "permutations", teams=teams) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert len(seatings(("a", "b", "c", "d"), "permutations", teams=teams)) == 8  # partners kept: 8 of the 24


def test_seatings_are_the_rotations_or_all_permutations():
    assert seatings(("a", "b", "c"), "rotations") == [("a", "b", "c"), ("c", "a", "b"), ("b", "c", "a")]
    assert len(seatings(("a", "b", "c"), "permutations")) == 6
    assert seatings(("h", "r", "r"), "permutations") == [("h", "r", "r"), ("r", "h", "r"), ("r", "r", "h")]
    assert seatings(("a", "b", "c"), "fixed") == [("a", "b", "c")]


def followers(tasks) -> dict[tuple[str, str], int]:
    """How often each agent sat right after each other agent, over every game of ``tasks``."""
    count: dict[tuple[str, str], int] = defaultdict(int)
    for task in tasks:
        n = len(task.seats)
        for s in range(n):
            count[task.seats[s], task.seats[(s + 1) % n]] += 1
    return dict(count)


def test_rotations_keep_one_order_and_balanced_seating_gives_every_neighbour_equally_often():
    lineup = ("ppo", "honest", "counter", "bluffer")
    rotated = followers(schedule("i_doubt_it", {}, [lineup], 6, seed=0, seating="rotations"))
    assert rotated[("ppo", "honest")] == 24 and ("honest", "ppo") not in rotated  # honest always follows ppo
    tasks = schedule("i_doubt_it", {}, [lineup], 6, seed=0)  # balanced: the default
    assert len(tasks) == 6 * 4 and tasks[:4] == schedule("i_doubt_it", {}, [lineup], 1, seed=0, seating="rotations")
    balanced = followers(tasks)
    assert set(balanced.values()) == {8} and len(balanced) == 12  # each ordered pair 24 * 4 / 12 times
    for deal in range(6):  # each deal still gives every agent every seat
        games = [t.seats for t in tasks if t.deal == deal]
        assert all(sorted(g[s] for g in games) == sorted(lineup) for s in range(4))
    assert len(table_orders(lineup)) == 6 and len(table_orders(("a", "b", "c"))) == 2
    assert table_orders(("h", "r", "r", "r")) == [("h", "r", "r", "r")]


def test_balanced_seating_keeps_partners_partners():
    teams = partnerships("tarneeb", 4)
    assert table_orders(("a", "b", "a", "b"), teams) == [("a", "b", "a", "b")]
    assert table_orders(("a", "b", "c", "d"), teams) == [("a", "b", "c", "d"), ("a", "d", "c", "b")]
    for task in schedule("tarneeb", {}, [("a", "b", "c", "d")], 4, seed=0):
        assert {frozenset(task.seats[0::2]), frozenset(task.seats[1::2])} == {frozenset("ac"), frozenset("bd")}


def test_duplicate_deals_are_the_same_deal_with_the_seats_permuted():
    tasks = schedule("i_doubt_it", {"num_players": 3, "max_turns": 30}, [("honest", "bluffer", "random")], 2, seed=9,
                     seating="permutations")
    by_deal = defaultdict(list)
    for task in tasks:
        by_deal[task.deal].append(play_game(task))
    assert len(by_deal) == 2
    decks = [records[0].deck for records in by_deal.values()]
    assert decks[0] != decks[1]  # two different deals …
    for records in by_deal.values():
        assert len(records) == 6  # … each played in all 6 seatings
        assert all(r.deck == records[0].deck and r.seed == records[0].seed for r in records)
        assert sorted(tuple(r.seats) for r in records) == sorted(
            {(a, b, c) for a in ("honest", "bluffer", "random") for b in ("honest", "bluffer", "random")
             for c in ("honest", "bluffer", "random") if len({a, b, c}) == 3})


def test_game_ids_and_seeds_do_not_depend_on_the_rest_of_the_schedule():
    small = schedule("i_doubt_it", {}, [("honest", "counter", "bluffer", "random")], 2, seed=1)
    large = schedule("i_doubt_it", {}, [("honest", "counter", "bluffer", "random")], 5, seed=1)
    assert small == [t for t in large if t.deal < 2]
    assert len({t.game_id for t in large}) == len(large) == 5 * 4
    other = schedule("i_doubt_it", {}, [("honest", "counter", "bluffer", "random")], 2, seed=2)
    assert {t.deal_seed for t in other}.isdisjoint({t.deal_seed for t in small})
