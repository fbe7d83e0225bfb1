"""The Seven Spades heuristics: legal, deterministic, true to their styles, better than random."""

import math

import numpy as np
import pytest

from agents import GameInfo, agent_names, make_agent
from bluff_envs import seven_spades_v0
from bluff_envs.seven_spades.actions import CHALLENGE, CHALLENGE_WINDOW, PASS
from tests.helpers import act
from tests.bluff_envs.seven_spades.stocks import table

HEURISTICS = ["honest", "counter", "bluffer", "always_challenge", "never_challenge", "always_claim"]
SPADES = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"]


def choice(env, spec, seed=0):
    agent = env.agent_selection
    return make_agent(spec, GameInfo.of(env), seed).act(env.observe(agent), env.public_view(agent))


def test_every_heuristic_is_registered():
    assert agent_names("seven_spades") == ["random", *HEURISTICS]


@pytest.mark.parametrize(
    "options", [{}, {"num_players": 2}, {"num_players": 3, "target": 2}, {"num_players": 8}, {"free_turn": True}]
)
def test_only_legal_actions_over_many_random_situations(options):
    env = seven_spades_v0.raw_env(**options)
    info = GameInfo.of(env)
    agents = [make_agent(spec, info, seed) for seed, spec in enumerate(HEURISTICS)]
    rng = np.random.default_rng(0)
    situations = 0
    for seed in range(30):
        if situations >= 1000:
            break
        env.reset(seed=seed)
        challenge_rate = (0.05, 0.5)[seed % 2]  # long games with full rows, and short ones
        while not env.game_state.is_over:
            agent = env.agent_selection
            obs = env.observe(agent)
            for heuristic in agents:
                assert obs["action_mask"][heuristic.act(obs)] == 1
                assert obs["action_mask"][heuristic.act(obs, env.public_view(agent))] == 1
            legal = env.legal_actions()
            if env.game_state.phase == CHALLENGE_WINDOW:
                env.step(CHALLENGE if rng.random() < challenge_rate else PASS)
            else:
                env.step(legal[rng.integers(len(legal))])
            situations += 1
    assert situations > 300


def _game(specs, seed):
    env = seven_spades_v0.raw_env(num_players=len(specs))
    info = GameInfo.of(env)
    agents = [make_agent(spec, info, seed * 10 + i) for i, spec in enumerate(specs)]
    env.reset(seed=seed)
    actions = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        action = None if term or trunc else agents[int(agent[-1])].act(obs)
        actions.append(action)
        env.step(action)
    return actions, env.game_state.winner


@pytest.mark.parametrize("seed", range(3))
def test_heuristics_are_deterministic_under_a_seed(seed):
    specs = ["bluffer", "counter", "bluffer", "honest"]
    assert _game(specs, seed) == _game(specs, seed)


def test_honest_claims_only_spades_and_plays_the_final_spade():
    assert choice(table("2H"), "honest") == 0  # discard
    assert choice(table("2S"), "honest") == 1  # claim
    env = table("AS", "2C", "3C", "4C", "KS", target=2)
    act(env, "claim", "pass", "pass", "pass", "discard", "discard", "discard")
    for spec in HEURISTICS:
        assert choice(env, spec) == 2  # claim face up: it wins at once


def test_a_claim_is_impossible_once_every_spade_is_accounted_for():
    env = table(*SPADES, "2H")
    for _ in SPADES:
        act(env, "discard")  # all thirteen spades go face up on the discard pile
    act(env, "claim")  # player_1 claims the 2H
    assert env.agent_selection == "player_2"
    for spec in ("honest", "counter", "bluffer", "always_challenge", "always_claim"):
        assert choice(env, spec) == CHALLENGE
    assert choice(env, "never_challenge") == PASS


def test_counter_challenges_what_honest_lets_stand():
    """Eleven spades face up, a long row of unchallenged claims: the twelfth-spade claim that
    takes the claimer to target-1 is most likely false."""
    env = table(*SPADES[:11], "2H", "3H", "4H", "5H", "6H", "7H", target=4, num_players=2)
    for _ in range(11):
        act(env, "discard")
    act(env, "claim", "pass")  # player_1 claims the 2H; player_0 lets it stand
    act(env, "discard")  # player_0
    act(env, "claim")  # player_1: a second claim, now at target-1 with one of two spades left
    assert choice(env, "honest") == PASS
    assert choice(env, "counter") == CHALLENGE


def test_the_bluffer_bluffs_and_honest_does_not():
    claims = {spec: 0 for spec in ("honest", "bluffer")}
    for seed in range(40):
        for spec in claims:
            claims[spec] += choice(table("2H"), spec, seed) == 1
    assert claims["honest"] == 0 and claims["bluffer"] >= 4


def test_always_claim_claims_every_card_until_the_final_spade():
    """Any card face down while the row is short of target-1; at target-1 it must discard a
    non-spade (the rules allow only the real final spade there), and plays the spade face up."""
    for seed in range(5):
        assert choice(table("2H"), "always_claim", seed) == 1
    env = table("2H", "3C", "4C", "5D", "6D", "7C", "8C", "9C", "KS", target=2)
    act(env, "claim", "pass", "pass", "pass", "discard", "discard", "discard")  # player_0 at target-1
    assert env.agent_selection == "player_0" and choice(env, "always_claim") == 0  # the 6D: discard, the only legal play
    act(env, "discard", "discard", "discard", "discard")
    assert env.agent_selection == "player_0" and choice(env, "always_claim") == 2  # the KS, face up


def _wilson_low(wins, games, z=1.96):
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    return (centre - spread) / (1 + z * z / games)


@pytest.mark.parametrize("spec", [h for h in HEURISTICS if h != "always_claim"])
def test_each_heuristic_beats_random(spec):
    """Four players, the heuristic rotating through the seats against three random agents:
    its win rate's 95% Wilson interval lies above the parity share 1/4. (Not always_claim: a
    random player challenges half of its claims, three of four of them bluffs.)"""
    games, wins = 160, 0
    for g in range(games):
        seat = g % 4
        specs = ["random"] * 4
        specs[seat] = spec
        wins += _game(specs, 1000 + g)[1] == seat
    assert _wilson_low(wins, games) > 0.25, wins / games
