"""The I Doubt It heuristics: legal, deterministic, and doing what their docstrings say."""

from __future__ import annotations

import math

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo, agent_names, make_agent
from agents.heuristics.i_doubt_it import Table, hypergeometric
from bluff_envs.cards import RANKS, card_str
from tests.helpers import act, deck_of

HEURISTICS = ["honest", "counter", "bluffer", "always_challenge", "never_challenge"]
BELOW_ONE = float(np.nextafter(1.0, 0.0))
SUITS = "CDHS"


def cards(*ranks: str) -> list[str]:
    """One card of each rank given, suits assigned in turn so no card repeats."""
    used: dict[str, int] = {}
    out = []
    for r in ranks:
        k = used.get(r, 0)
        used[r] = k + 1
        out.append(f"{r}{SUITS[k]}")
    return out


def deal_with(first_hand: list[str], second_hand: list[str] | None = None, players: int = 4) -> list[str]:
    """A 52-card deck giving player 0 (and player 1) these cards, the rest dealt to the others."""
    fixed = [first_hand] + ([second_hand] if second_hand else [])
    rest = [c for c in (card_str(i) for i in range(52)) if c not in sum(fixed, [])]
    size = 52 // players
    hands = [*fixed]
    while len(hands) < players:
        take = size + (1 if len(hands) < 52 % players else 0)
        hands.append(rest[:take])
        rest = rest[take:]
    return deck_of(*hands)


def setup(deck, seat_agent: str, seat: int = 0, seed: int = 0, **options):
    env = bluff_envs.make("i_doubt_it", raw=True, **options)
    env.reset(options={"deck": deck})
    return env, make_agent(seat_agent, GameInfo.of(env), seed)


def decide(env, agent) -> str:
    obs = env.observe(env.agent_selection)
    return env.action_name(agent.act(obs))


def play_out(env, agent, limit: int = 20) -> list[str]:
    """The agent's actions until its play is done."""
    names = []
    for _ in range(limit):
        name = decide(env, agent)
        names.append(name)
        act(env, name)
        if name == "done":
            return names
    raise AssertionError(f"no 'done' after {names}")


def test_every_heuristic_is_registered():
    assert set(HEURISTICS) <= set(agent_names("i_doubt_it"))


def test_honest_plays_all_its_cards_of_the_named_rank():
    hand = cards("A", "A", "A", "7", "5", "2", "9", "J", "Q", "K", "3", "4", "6")
    env, honest = setup(deal_with(hand), "honest")
    assert play_out(env, honest) == ["add A", "add A", "add A", "done"]


def test_honest_without_the_rank_bluffs_one_card_it_needs_last():
    # 4 players, descending: player 0 names A now, then 10, 6, 2, J, 7, 3, Q, 8, 4, K, 9, 5
    hand = cards("5", "9", "9", "K", "2", "3", "4", "6", "7", "8", "10", "J", "Q")
    env, honest = setup(deal_with(hand), "honest")
    assert play_out(env, honest) == ["add 5", "done"]


def test_honest_doubts_only_the_impossible():
    # player 1 holds three aces: two aces from player 0 cannot be true, one can
    p0 = cards("A", "5", "9", "9", "K", "2", "3", "4", "6", "7", "8", "10", "J")
    p1 = ["AD", "AH", "AS", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "10D", "JD", "QD"]
    env, honest = setup(deal_with(p0, p1), "honest", seed=1)
    act(env, "add 5", "add A", "done")
    assert env.agent_selection == "player_1" and decide(env, honest) == "doubt"
    env, honest = setup(deal_with(p0, p1), "honest", seed=1)
    act(env, "add A", "done")
    assert decide(env, honest) == "pass"


def test_counter_doubts_the_impossible_and_passes_a_likely_claim():
    p0 = cards("A", "5", "9", "9", "K", "2", "3", "4", "6", "7", "8", "10", "J")
    p1 = ["AD", "AH", "AS", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "10D", "JD", "QD"]
    env, counter = setup(deal_with(p0, p1), "counter")
    act(env, "add 5", "add A", "done")
    assert decide(env, counter) == "doubt"
    env, counter = setup(deal_with(p0, ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "10D", "JD", "QD", "KD", "9H", "9S"]), "counter")
    act(env, "add A", "done")  # four aces unseen by player 1: one of them is very likely
    assert decide(env, counter) == "pass"


def test_diagnostics_always_and_never_challenge():
    p0 = cards("A", "5", "9", "9", "K", "2", "3", "4", "6", "7", "8", "10", "J")
    for spec, expected in (("always_challenge", "doubt"), ("never_challenge", "pass")):
        env, agent = setup(deal_with(p0), spec)
        act(env, "add A", "done")
        assert decide(env, agent) == expected


def known_view(env, **changes):
    """Player 0's decoded view with some fields replaced (a situation built by hand)."""
    view = env.public_view("player_0")
    for name, value in changes.items():
        view[name] = np.asarray(value, float)
    return view


def rank_counts(**counts) -> list[int]:
    out = [0] * 13
    for r, k in counts.items():
        out[RANKS.index(r.removeprefix("r"))] = k
    return out


def test_bluffer_never_goes_out_on_a_bluff_that_is_turned_up_anyway():
    env = bluff_envs.make("i_doubt_it", raw=True)
    env.reset(seed=0)
    view = known_view(env, hand=rank_counts(A=1, r5=1), hand_sizes=[2, 13, 13, 13])
    bluffer = make_agent("bluffer", GameInfo.of(env), 0)
    table = Table(view, bluffer.game)
    assert [list(plan) for plan in bluffer.plans(table)] == [rank_counts(A=1)]  # no shed plan at all
    for u in (0.0, 0.25, 0.5, BELOW_ONE):
        assert list(bluffer.plan(table, u)) == rank_counts(A=1)


def test_bluffer_sheds_extra_cards_some_of_the_time():
    env = bluff_envs.make("i_doubt_it", raw=True)
    env.reset(seed=0)
    view = known_view(env, hand=rank_counts(A=2, r5=1, r9=2, K=1))
    bluffer, table = make_agent("bluffer", GameInfo.of(env), 0), Table(view, GameInfo.of(env))
    # 4 players, descending: A now, then 10, 6, 2, J, 7, 3, Q, 8, 4, K, 9, 5: the 5 is needed last
    honest, shed = rank_counts(A=2), rank_counts(A=2, r5=1)
    assert [list(plan) for plan in bluffer.plans(table)] == [honest, shed]
    shed_chance = bluffer.shed_chance
    for u, expected in ((0.0, shed), (float(np.nextafter(shed_chance, 0.0)), shed), (shed_chance, honest),
                        (BELOW_ONE, honest)):
        assert list(bluffer.plan(table, u)) == expected
    # played through act(): one draw per decision, so some plays shed and some do not
    sizes = set()
    for seed in range(30):
        env, bluffer = setup(deal_with(cards("A", "A", "5", "9", "9", "K", "2", "3", "4", "6", "7", "8", "10")),
                             "bluffer", seed=seed)
        sizes.add(len(play_out(env, bluffer)) - 1)
    assert sizes == {2, 3}


def test_bluffer_decides_each_step_afresh_and_sheds_where_its_plans_part():
    """No state between the steps of a play: every step recomputes both plans from the table
    at the play's first step (the cards chosen so far are still in ``hand``). While the plans
    agree the draw is not used; where they part it sheds iff ``u < shed_chance``; after that
    the cards chosen show which plan is under way, whatever the later draws."""
    # the first play names A: the shed card (a 5, needed last) comes before the aces
    hand = cards("A", "A", "5", "9", "9", "K", "2", "3", "4", "6", "7", "8", "10")
    for first, expected in ((0.0, ["add 5", "add A", "add A", "done"]), (BELOW_ONE, ["add A", "add A", "done"])):
        for later in (0.0, 0.5, BELOW_ONE):
            env, bluffer = setup(deal_with(hand), "bluffer")
            names = []
            while not names or names[-1] != "done":
                obs = env.observe(env.agent_selection)
                names.append(env.action_name(bluffer.decide(obs, first if not names else later)))
                act(env, names[-1])
            assert names == expected, (first, later)
    # a play naming 5 (4 players, descending): of the spare K and 9, the 9 is needed last and
    # comes after the fives, so both plans add the two fives, then part ("done" or "add 9")
    env = bluff_envs.make("i_doubt_it", raw=True)
    env.reset(seed=0)
    bluffer = make_agent("bluffer", GameInfo.of(env), 0)
    anything = {"action_mask": np.ones(16, np.int8)}
    required = np.eye(13)[RANKS.index("5")]
    steps = [({}, "add 5", "add 5"), ({"r5": 1}, "add 5", "add 5"), ({"r5": 2}, "add 9", "done"),
             ({"r5": 2, "r9": 1}, "done", "done"), ({"r9": 1}, "done", "done")]  # the last fits no plan
    for building, low, high in steps:
        view = known_view(env, hand=rank_counts(r5=2, K=1, r9=1), required_rank=required,
                          building=rank_counts(**building), hand_sizes=[4, 13, 13, 13])
        for u, expected in ((0.0, low), (float(np.nextafter(0.5, 0.0)), low), (0.5, high), (BELOW_ONE, high)):
            assert env.action_name(bluffer.decide(anything, u, view)) == expected, (building, u)


def test_claim_probability_is_bayes_over_a_hypergeometric_prior():
    env = bluff_envs.make("i_doubt_it", raw=True)
    env.reset(seed=0)
    info = GameInfo.of(env)
    # player 1 claims one ace; I hold none; he holds 12 unseen cards, the others 13 each:
    # P(he held no ace) = C(35, 13) / C(39, 13) before weighing the claim's likelihood
    history = np.zeros(4 * (2 * 4 + 4))
    history[1], history[4] = 1, 1
    view = known_view(env, phase=[0, 1], hand=rank_counts(r2=4, r3=4, r4=4, r5=1), hand_sizes=[13, 12, 13, 13],
                      claim_rank=np.eye(13)[12], history=history, known_cards=np.zeros(39))
    table = Table(view, info)
    holding = table.claimer_holding()
    assert holding[0] == pytest.approx(math.comb(35, 13) / math.comb(39, 13))
    assert sum(holding) == pytest.approx(1.0)
    assert not table.claim_impossible()
    # holding none he must bluff; holding some he plays them (an extra card only 1 time in 10)
    h0 = holding[0]
    assert table.claim_false_probability() == pytest.approx(h0 / (h0 + 0.9 * (1 - h0)))


def test_hypergeometric_known_values():
    # 5 cards drawn from 52, aces among them
    p = hypergeometric(52, 4, 5)
    assert p[0] == pytest.approx(0.658842, abs=1e-6)
    assert p[1] == pytest.approx(0.299474, abs=1e-6)
    assert sum(p) == pytest.approx(1.0)


SITUATIONS = [
    {},
    {"num_players": 2},
    {"num_players": 3, "rank_order": "ascending"},
    {"num_players": 6},
    {"num_players": 4, "max_cards_per_play": None, "last_play_checked": False},
    {"num_players": 5, "max_cards_per_play": 1},
]


@pytest.mark.parametrize("options", SITUATIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_every_heuristic_returns_only_legal_actions(options):
    """Random games; at every decision each heuristic is asked too, and must answer legally."""
    rng = np.random.default_rng(7)
    env = bluff_envs.make("i_doubt_it", raw=True, max_turns=150, **options)
    info = GameInfo.of(env)
    asked = 0
    for game in range(2):
        env.reset(seed=game)
        agents = [make_agent(spec, info, game) for spec in HEURISTICS]
        for agent_name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            for agent in agents:
                action = agent.act(obs)
                assert mask[action], f"{agent.name} chose {env.action_name(action)} in {options}"
                asked += 1
            # play on with a heuristic now and then, so situations are not only random ones
            legal = np.flatnonzero(mask)
            chooser = agents[int(rng.integers(len(agents)))] if rng.random() < 0.5 else None
            env.step(chooser.act(obs) if chooser else int(legal[rng.integers(len(legal))]))
    assert asked > 500


@pytest.mark.parametrize("spec", HEURISTICS)
def test_heuristics_are_deterministic_under_a_seed(spec):
    from agents.arena.match import Table as Tables, play_game
    from agents.arena.schedule import schedule

    tasks = schedule("i_doubt_it", {}, [(spec, "bluffer", "random", "counter")], 2, seed=11)
    reused = Tables()
    first = [play_game(t, reused).actions for t in tasks]
    again = [play_game(t).actions for t in tasks]  # fresh agents each time
    assert first == again


def test_the_heuristics_read_the_same_view_as_the_layout_decodes():
    env = bluff_envs.make("i_doubt_it", raw=True, num_players=5, rank_order="ascending")
    info = GameInfo.of(env)
    honest = make_agent("honest", info, 0)
    rng = np.random.default_rng(0)
    env.reset(seed=3)
    for _ in range(300):
        obs = env.observe(env.agent_selection)
        full = env.public_view(env.agent_selection)
        fast = honest.decode(obs)
        for name, values in fast.items():
            assert np.array_equal(values, full[name]), name
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
