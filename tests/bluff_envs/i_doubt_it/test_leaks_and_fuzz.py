"""No leaks (CONVENTIONS.md) and random-play fuzzing with invariants."""

import numpy as np
import pytest

from bluff_envs import i_doubt_it_v0
from bluff_envs.cards import card_str
from bluff_envs.i_doubt_it.invariants import check_invariants
from tests.helpers import play_random


def _random_actions(env, rng, steps):
    actions, holdings = [], []
    for _ in range(steps):
        if env.game_state.is_over:
            break
        holdings.append([{c for cards in hand for c in cards} for hand in env.game_state.hands])
        legal = env.legal_actions()
        actions.append(int(legal[rng.integers(len(legal))]))
        env.step(actions[-1])
    return actions, holdings


def _observations(env, deck, actions, viewer):
    env.reset(options={"deck": deck})
    seen = [env.observe(viewer)["observation"]]
    for action in actions:
        if action not in env.legal_actions():
            return None  # this re-deal does not allow the same play
        env.step(action)
        seen.append(env.observe(viewer)["observation"])
    return seen


@pytest.mark.parametrize("seed", range(6))
def test_redealing_hidden_cards_leaves_the_observation_unchanged(seed):
    """Swap two cards between two opponents of the viewer, cards that stay in those hands all
    game long: the viewer cannot tell the two deals apart, so his observations must match."""
    rng = np.random.default_rng(seed)
    env = i_doubt_it_v0.raw_env()
    env.reset(seed=seed)
    deck = [card_str(c) for c in env.game.deck.shuffled(rng)]
    env.reset(options={"deck": deck})
    actions, holdings = _random_actions(env, rng, 100)
    viewer = seed % 4
    opponents = [p for p in range(4) if p != viewer]
    original = _observations(env, deck, actions, f"player_{viewer}")
    swapped = 0
    for a, b in [(opponents[i], opponents[j]) for i in range(3) for j in range(i + 1, 3)]:
        stays_a = set.intersection(*(h[a] for h in holdings))
        stays_b = set.intersection(*(h[b] for h in holdings))
        pairs = [(x, y) for x in sorted(stays_a) for y in sorted(stays_b) if x >> 2 != y >> 2]
        for x, y in pairs[:20]:
            other = list(deck)
            i, j = deck.index(card_str(x)), deck.index(card_str(y))
            other[i], other[j] = other[j], other[i]
            redealt = _observations(env, other, actions, f"player_{viewer}")
            if redealt is None:
                continue
            assert all(np.array_equal(u, v) for u, v in zip(original, redealt)), (a, b, x, y)
            swapped += 1
            break
    assert swapped, "no hidden card pair found to swap"


def test_the_own_hand_does_change_the_observation():
    """The leak test can fail: swapping a card of the viewer's own hand is visible to him."""
    env = i_doubt_it_v0.raw_env()
    env.reset(seed=0)
    deck = [card_str(c) for c in env.game.deck.shuffled(np.random.default_rng(0))]
    mine, theirs = deck[0], next(c for c in deck[1:4] if c[:-1] != deck[0][:-1])
    other = list(deck)
    i, j = deck.index(mine), deck.index(theirs)
    other[i], other[j] = other[j], other[i]
    assert not np.array_equal(
        _observations(env, deck, [], "player_0")[0], _observations(env, other, [], "player_0")[0]
    )


@pytest.mark.parametrize(
    "options, games",
    [
        ({"max_turns": 15}, 400),
        ({"num_players": 2, "max_turns": 15}, 200),
        ({"num_players": 7, "max_turns": 15}, 60),
        ({"last_play_checked": False, "max_cards_per_play": None, "max_turns": 15}, 200),
        ({"rank_order": "ascending", "max_turns": 15}, 200),
        ({}, 3),  # whole games, to their natural end
    ],
)
def test_random_play_keeps_every_invariant(options, games):
    env = i_doubt_it_v0.raw_env(**options)
    ended = 0
    for seed in range(games):
        env.reset(seed=seed)
        check_invariants(env)
        play_random(env, seed, on_step=check_invariants)
        assert env.game_state.is_over and not env.agents
        ended += env.game_state.winner is not None
    assert ended > 0 or "max_turns" in options


def test_many_quick_games_end():
    env = i_doubt_it_v0.raw_env()
    for seed in range(100):
        env.reset(seed=seed)
        play_random(env, seed)
        assert env.game_state.is_over
