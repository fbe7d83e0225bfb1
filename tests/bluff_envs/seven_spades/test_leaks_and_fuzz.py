"""No leaks (CONVENTIONS.md) and random-play fuzzing with invariants."""

import numpy as np
import pytest

from bluff_envs import seven_spades_v0
from bluff_envs.cards import card_str
from bluff_envs.seven_spades.invariants import check_invariants
from bluff_envs.seven_spades.actions import CHALLENGE, CLAIM, PASS, PLAY
from tests.helpers import play_random


def _play(env, rng, viewer):
    """Random play that seldom challenges (so that claims stand unseen). Returns the actions
    and the deck positions whose card ``viewer`` never saw: never drawn, or drawn by another
    player and claimed face down without ever being turned up."""
    state = env.game_state
    actions, seen, last_claim = [], set(), {}
    while not state.is_over:
        legal = env.legal_actions()
        if state.phase == PLAY:
            action = int(legal[rng.integers(len(legal))])
            position, drawer = state.top - 1, state.current_player
            if drawer == viewer or action != CLAIM:  # he drew it, or it went face up
                seen.add(position)
            else:
                last_claim = position
        else:
            action = CHALLENGE if rng.random() < 0.1 else PASS
            window = state.window
            closing = len(window.decisions) == len(window.deciders) - 1
            if closing and (any(window.decisions) or action == CHALLENGE):
                seen.add(last_claim)  # turned up for everyone
        actions.append(action)
        env.step(action)
    hidden = sorted(set(range(len(state.deck))) - seen)
    claimed_unseen = [p for p in hidden if p < state.top]
    return actions, hidden, claimed_unseen


def _observations(env, deck, actions, viewer):
    env.reset(options={"deck": deck})
    seen = [env.observe(viewer)["observation"]]
    for action in actions:
        assert action in env.legal_actions(), "hidden cards changed what was legal"
        env.step(action)
        seen.append(env.observe(viewer)["observation"])
    return seen


@pytest.mark.parametrize(
    "options, seed",
    [({}, s) for s in range(4)] + [({"num_players": 2}, 4), ({"num_players": 8}, 5), ({"target": 2}, 6)],
)
def test_hidden_cards_leave_the_observation_unchanged(options, seed):
    """Shuffle the cards a viewer has not seen (the rest of the stock, and cards others drew and
    claimed face down that were never turned up) among their places: he cannot tell the two
    deals apart, so his observations must be identical at every step."""
    rng = np.random.default_rng(seed)
    env = seven_spades_v0.raw_env(**options)
    n = env.game.num_players
    viewer = seed % n
    agent = f"player_{viewer}"
    deck = [card_str(c) for c in env.game.deck.shuffled(rng)]
    env.reset(options={"deck": deck})
    actions, hidden, claimed_unseen = _play(env, rng, viewer)
    original = _observations(env, deck, actions, agent)
    trials = []
    # a claimed card nobody else saw swapped with another hidden card, then a full shuffle
    if claimed_unseen:
        i = claimed_unseen[0]
        j = next((h for h in hidden if deck[h] != deck[i] and h != i), None)
        if j is not None:
            swapped = list(deck)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            trials.append(swapped)
    shuffled = list(deck)
    for position, card in zip(hidden, rng.permutation([deck[h] for h in hidden])):
        shuffled[position] = str(card)
    trials.append(shuffled)
    assert any(t != deck for t in trials)
    for other in trials:
        redealt = _observations(env, other, actions, agent)
        assert all(np.array_equal(u, v) for u, v in zip(original, redealt, strict=True))


def test_claimed_cards_others_never_saw_were_covered():
    """The leak test above does exercise face-down claims of other players."""
    covered = 0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        env = seven_spades_v0.raw_env()
        env.reset(options={"deck": [card_str(c) for c in env.game.deck.shuffled(rng)]})
        covered += bool(_play(env, rng, seed % 4)[2])
    assert covered >= 3


def test_a_card_the_viewer_saw_does_change_his_observation():
    """The leak test can fail: swap the viewer's own first card with one deep in the stock."""
    env = seven_spades_v0.raw_env()
    deck = [card_str(c) for c in env.game.deck.shuffled(np.random.default_rng(0))]
    other = list(deck)
    other[0], other[40] = other[40], other[0]
    assert not np.array_equal(
        _observations(env, deck, [], "player_0")[0], _observations(env, other, [], "player_0")[0]
    )


@pytest.mark.parametrize(
    "options, games",
    [
        ({}, 120),
        ({"num_players": 2}, 80),
        ({"num_players": 3, "target": 2}, 60),
        ({"num_players": 5, "free_turn": True}, 60),
        ({"num_players": 8}, 30),
        ({"num_players": 4, "max_turns": 8}, 40),
    ],
)
def test_random_play_keeps_every_invariant(options, games):
    env = seven_spades_v0.env(**options)
    ends = {"won": 0, "draw": 0, "truncated": 0}
    for seed in range(games):
        env.reset(seed=seed)
        check_invariants(env)
        play_random(env, seed, on_step=check_invariants)
        state = env.unwrapped.game_state
        assert state.is_over and not env.agents
        ends["truncated" if state.truncated else "won" if state.winner is not None else "draw"] += 1
    if "max_turns" not in options:
        assert ends["won"] > 0


def test_many_quick_games_end_in_every_way():
    env = seven_spades_v0.raw_env()
    ends = {"target": 0, "last one in": 0, "draw": 0}
    rng = np.random.default_rng(0)
    for seed in range(1500):
        env.reset(seed=seed)
        state = env.game_state
        challenge_rate = (0.0, 0.02, 0.5)[seed % 3]  # from hardly ever to often
        claim_rate = (0.6, 0.05)[seed // 3 % 2]
        while not state.is_over:
            legal = env.legal_actions()
            if state.phase == PLAY:
                action = legal[-1] if rng.random() < claim_rate else legal[0]
            else:
                action = CHALLENGE if rng.random() < challenge_rate else PASS
            env.step(action)
        if state.winner is None:
            ends["draw"] += 1
        else:
            ends["target" if state.row_length[state.winner] == state.target else "last one in"] += 1
    assert all(ends.values()), ends
