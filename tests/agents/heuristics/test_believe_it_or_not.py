"""The Believe It or Not heuristics: legal, deterministic, doing what their docstrings say, and
better than random."""

from __future__ import annotations

import math

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo, agent_names, make_agent
from agents.heuristics.believe_it_or_not import Table, hypergeometric
from bluff_envs.believe_it_or_not.actions import BELIEVE, BUILD, DISBELIEVE, RESPOND
from bluff_envs.cards import RANKS
from tests.helpers import act, deck_of, view

HEURISTICS = ["honest", "counter", "bluffer", "always_challenge", "never_challenge"]
BELIEVE_OR_NOT = {"believe": BELIEVE, "disbelieve": DISBELIEVE}

# three players, 36 cards
P0 = "6C 6D 6H 7C 7D 8C 8D 9C 10C JC QC KC".split()
P1 = "6S 7H 7S 8H 9D 10D JD QD KD AC AD AH".split()
P2 = "8S 9H 9S 10H 10S JH JS QH QS KH KS AS".split()


def table(*hands, **options):
    env = bluff_envs.make("believe_it_or_not", raw=True, num_players=len(hands), deck=36, **options)
    env.reset(options={"deck": deck_of(*hands)})
    return env


def agent(env, spec, seed=0):
    return make_agent(spec, GameInfo.of(env), seed)


def decide(env, player) -> str:
    return env.action_name(player.act(env.observe(env.agent_selection)))


def play_out(env, player, limit=20) -> list[str]:
    """The agent's actions until its play is done (or it calls)."""
    names = []
    for _ in range(limit):
        name = decide(env, player)
        names.append(name)
        act(env, name)
        if name in ("done", "believe", "disbelieve"):
            return names
    raise AssertionError(f"no 'done' after {names}")


def test_every_heuristic_is_registered():
    assert agent_names("believe_it_or_not") == ["random", *HEURISTICS]


def test_honest_leads_the_rank_it_holds_most_of_with_all_those_cards():
    env = table(P0, P1, P2)
    assert play_out(env, agent(env, "honest")) == ["name 6", "add 6", "add 6", "add 6", "done"]


def test_honest_adds_its_cards_of_the_rank_or_else_believes():
    env = table(P0, P1, P2)
    act(env, "name 7", "add 7", "done")  # player_0 plays one seven
    honest = agent(env, "honest")
    assert play_out(env, honest) == ["add 7", "add 7", "done"]  # player_1 holds two sevens
    assert play_out(env, honest) == ["believe"]  # player_2 holds none, and it is possible


def test_impossible_claims_are_disbelieved_except_by_never_challenge():
    env = table(P0, P1, P2)
    act(env, "name 9", "add 6", "add 6", "add 6", "add 7", "done")  # four nines, and player_1 has one
    for spec in ("honest", "counter", "bluffer", "always_challenge"):
        assert decide(env, agent(env, spec)) == "disbelieve", spec
    assert decide(env, agent(env, "never_challenge")) == "add 9"


def _responding_to_a_seven(env):
    """player_2 (no sevens) answers player_1's seven after player_0's one-card lead."""
    act(env, "name 7", "add 6", "done", "add 7", "done")
    return Table(view(env, "player_2"), GameInfo.of(env))


def test_a_play_that_emptied_its_makers_hand_is_believed_when_nothing_can_be_added():
    env = table(P0, P1, P2)
    t = _responding_to_a_seven(env)
    counter = agent(env, "counter")
    # had he had one card left, and been caught bluffing three times lately: very likely false
    t.hand_sizes[t.maker], t.maker_record = 1, (0, 3)
    assert t.claim_false_probability() > counter.threshold
    assert counter.respond(t) == BELIEVE_OR_NOT["disbelieve"]
    t.hand_sizes[t.maker] = 0  # but if that was his last card, "believe" never costs more
    for spec in HEURISTICS[:3]:
        assert agent(env, spec).respond(t) == BELIEVE_OR_NOT["believe"], spec


def test_counter_disbelieves_a_maker_just_caught_bluffing_more_readily():
    env = table(P0, P1, P2)
    act(env, "name 8", "add 6", "done", "disbelieve")  # player_0's bluff is caught; player_1 leads
    act(env, "name K", "add K", "done", "believe")  # honest: out of play, player_2 leads
    act(env, "name Q", "add Q", "done")  # player_2
    act(env, "add Q", "done")  # player_0: one queen
    t = Table(view(env, "player_1"), GameInfo.of(env))
    assert t.maker == 2 and t.maker_record == (0, 1)  # player_0's turned-up plays: one false
    caught = t.claim_false_probability()
    t.maker_record = (0, 0)
    assert caught > t.claim_false_probability()


def test_bluffer_sheds_an_extra_card_of_the_rank_it_holds_fewest_of():
    env = table(P0, P1, P2)
    bluffer = agent(env, "bluffer")
    assert play_out(env, bluffer) == ["name 6", "add 6", "add 6", "add 6", "add 9", "done"]
    env = table(P0, P1, P2)
    act(env, "name 8", "add 8", "done")
    assert play_out(env, bluffer) == ["add 6", "add 8", "done"]  # player_1: his eight and his six


def test_every_step_of_a_play_is_decided_from_the_observation_alone():
    """Nothing is kept between decisions: a fresh agent at every step plays the same play as one
    agent throughout, and deciding twice changes nothing."""
    for spec, opening, expected in (
        ("honest", (), ["name 6", "add 6", "add 6", "add 6", "done"]),
        ("bluffer", (), ["name 6", "add 6", "add 6", "add 6", "add 9", "done"]),
        ("bluffer", ("name 8", "add 8", "done"), ["add 6", "add 8", "done"]),
    ):
        env = table(P0, P1, P2)
        act(env, *opening)
        names = []
        while not names or names[-1] != "done":
            observation = env.observe(env.agent_selection)
            fresh = agent(env, spec)
            choice = fresh.decide(observation, 0.5)
            assert fresh.decide(observation, 0.0) == choice == agent(env, spec).act(observation)
            names.append(env.action_name(choice))
            act(env, names[-1])
        assert names == expected, spec


def test_a_play_chosen_otherwise_is_finished_as_it_stands():
    """Mid-play the plan is the one the play was decided with (the hand still holds the cards
    chosen so far); cards that plan cannot contain end the play as it stands."""
    env = table(P0, P1, P2)
    act(env, "name 6", "add 6")  # one of player_0's three sixes chosen (by someone else)
    t = Table(view(env, "player_0"), GameInfo.of(env))
    assert t.hand[RANKS.index("6")] == 3 and t.building[RANKS.index("6")] == 1
    decided = t.as_decided()
    assert not decided.building.any() and decided.phase == t.phase == BUILD  # a lead: the pile is empty
    assert decide(env, agent(env, "honest")) == "add 6"
    act(env, "add 7")  # not in the honest plan: finish as it stands
    assert decide(env, agent(env, "honest")) == "done"
    env = table(P0, P1, P2)
    act(env, "name 7", "add 7", "done", "add 7")  # player_1 started adding (his plan: both sevens)
    t = Table(view(env, "player_1"), GameInfo.of(env))
    assert t.as_decided().phase == RESPOND
    assert decide(env, agent(env, "honest")) == "add 7"


def test_bluffer_never_bluffs_its_last_cards():
    env = table(P0, P1, P2)
    t = _responding_to_a_seven(env)
    bluffer = agent(env, "bluffer")
    t.hand = np.zeros(13, int)
    t.hand[RANKS.index("7")] = t.hand[RANKS.index("8")] = 1
    assert list(np.flatnonzero(bluffer.plan(t))) == [RANKS.index("7")]  # the seven alone
    t.hand[RANKS.index("7")] = 0
    assert bluffer.respond(t) == BELIEVE_OR_NOT["believe"]  # not the eight as a last-card bluff


def test_claim_probability_is_hypergeometric_over_unseen_cards():
    env = table(P0, P1, P2)
    act(env, "name 9", "add 9", "done")  # player_0 leads one nine
    act(env, "add 9", "done")  # player_1 adds one nine
    t = Table(view(env, "player_2"), GameInfo.of(env))
    # player_2 holds two nines: two copies unplaced; he has seen no other card
    assert t.copies_unplaced(RANKS.index("9")) == 2
    holding = t.maker_holding()
    # population: player_0's 11 and player_1's 11 unseen cards, the pile's 2, 0 out of play;
    # player_1 drew his 11 + 1 cards from it, with 2 nines among the 24
    assert holding == pytest.approx(hypergeometric(24, 2, 12))
    assert 0.0 < t.claim_false_probability() < 1.0


def test_hypergeometric_known_values():
    assert hypergeometric(52, 4, 5) == pytest.approx([0.658842, 0.299474, 0.039929, 0.001736, 0.0000185], abs=1e-6)
    assert sum(hypergeometric(20, 6, 7)) == pytest.approx(1.0)


def test_always_challenge_and_never_challenge_over_random_situations():
    env = bluff_envs.make("believe_it_or_not", raw=True, max_turns=200)
    info = GameInfo.of(env)
    always, never = make_agent("always_challenge", info, 0), make_agent("never_challenge", info, 0)
    rng = np.random.default_rng(3)
    responses = 0
    for game in range(3):
        env.reset(seed=game)
        while not env.game_state.is_over:
            obs = env.observe(env.agent_selection)
            mask = obs["action_mask"]
            if env.game_state.phase == RESPOND:
                responses += 1
                assert env.action_name(always.act(obs)) == "disbelieve"
                assert env.action_name(never.act(obs)) != "disbelieve"
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(len(legal))]))
    assert responses > 50


SITUATIONS = [
    {},
    {"num_players": 2},
    {"num_players": 3, "max_cards_per_play": None},
    {"num_players": 6, "discard_quads": True},
    {"num_players": 4, "num_decks": 2, "max_cards_per_play": 3},
]


@pytest.mark.parametrize("options", SITUATIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_every_heuristic_returns_only_legal_actions(options):
    """Random games; at every decision each heuristic is asked too, and must answer legally."""
    rng = np.random.default_rng(7)
    env = bluff_envs.make("believe_it_or_not", raw=True, max_turns=120, **options)
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
            for player in agents:
                action = player.act(obs)
                assert mask[action], f"{player.name} chose {env.action_name(action)} in {options}"
                asked += 1
            # play on with a heuristic now and then, so situations are not only random ones
            legal = np.flatnonzero(mask)
            chooser = agents[int(rng.integers(len(agents)))] if rng.random() < 0.5 else None
            env.step(chooser.act(obs) if chooser else int(legal[rng.integers(len(legal))]))
    assert asked > 500


def _game(specs, seed, **options):
    env = bluff_envs.make("believe_it_or_not", raw=True, num_players=len(specs), **options)
    info = GameInfo.of(env)
    agents = [make_agent(spec, info, seed * 10 + i) for i, spec in enumerate(specs)]
    env.reset(seed=seed)
    actions = []
    for name in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        action = None if term or trunc else agents[int(name[-1])].act(obs)
        actions.append(action)
        env.step(action)
    return actions, env.game_state.loser


@pytest.mark.parametrize("seed", range(2))
def test_heuristics_are_deterministic_under_a_seed(seed):
    specs = ["bluffer", "counter", "honest", "never_challenge"]
    assert _game(specs, seed) == _game(specs, seed)
    assert _game(["counter", "random", "bluffer"], seed) == _game(["counter", "random", "bluffer"], seed)


def test_the_heuristics_read_the_same_view_as_the_layout_decodes():
    env = bluff_envs.make("believe_it_or_not", raw=True, num_players=5, discard_quads=True)
    honest = make_agent("honest", GameInfo.of(env), 0)
    rng = np.random.default_rng(0)
    env.reset(seed=3)
    for _ in range(300):
        obs = env.observe(env.agent_selection)
        full = env.public_view(env.agent_selection)
        for name, values in honest.decode(obs).items():
            assert np.array_equal(values, full[name]), name
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))


def _wilson_high(k: int, games: int, z: float = 1.96) -> float:
    p = k / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (centre + spread) / (1 + z * z / games)


@pytest.mark.parametrize("spec", ["honest", "counter", "bluffer", "always_challenge"])
def test_each_heuristic_beats_random(spec):
    """Four players, the heuristic rotating through the seats against three random agents: the
    95% Wilson interval of its losing rate lies below the parity share 1/4. (never_challenge
    is left out: as its docstring says, it loses to random players.)"""
    games, losses = 60, 0
    for g in range(games):
        seat = g % 4
        specs = ["random"] * 4
        specs[seat] = spec
        losses += _game(specs, 1000 + g)[1] == seat
    assert _wilson_high(losses, games) < 0.25, losses / games
