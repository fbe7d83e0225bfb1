"""No leaks (CONVENTIONS.md) and random-play fuzzing with invariants."""

import numpy as np
import pytest

from bluff_envs import tarneeb_v0
from bluff_envs.cards import card_str
from bluff_envs.tarneeb.invariants import check_invariants


def _random_prefix(env, rng, steps):
    """Random legal actions for the first deal; with each step, the cards every hand holds."""
    actions, holdings = [], []
    for _ in range(steps):
        if env.game_state.is_over or env.game_state.deals or env.game_state.redeals:
            break
        holdings.append([set(env.game_state.hand_cards(p)) for p in range(4)])
        legal = env.legal_actions()
        actions.append(int(legal[rng.integers(len(legal))]))
        env.step(actions[-1])
    holdings.append([set(env.game_state.hand_cards(p)) for p in range(4)])
    return actions, holdings


def _observations(env, seed, deck, actions, viewer):
    env.reset(seed=seed, options={"deck": deck})
    seen = [env.observe(viewer)]
    for action in actions:
        if action not in env.legal_actions():
            return None  # this deal does not allow the same play
        env.step(action)
        seen.append(env.observe(viewer))
    return seen


def _same(a, b):
    return all(
        np.array_equal(u["observation"], v["observation"]) and np.array_equal(u["action_mask"], v["action_mask"])
        for u, v in zip(a, b)
    )


@pytest.mark.parametrize("variant", ["lebanese", "egyptian"])
@pytest.mark.parametrize("seed", range(4))
def test_redealing_hidden_cards_leaves_the_observation_unchanged(variant, seed):
    """Swap two cards of one suit between two other players, cards neither plays during the
    replayed actions: the viewer cannot tell the deals apart, so nothing he sees may differ."""
    rng = np.random.default_rng(seed)
    env = tarneeb_v0.raw_env(variant=variant)
    deck = [card_str(c) for c in env.game.deck.shuffled(rng)]
    env.reset(seed=seed, options={"deck": deck})
    actions, holdings = _random_prefix(env, rng, 8 + 40)  # the bidding, then about ten tricks
    viewer = seed % 4
    others = [p for p in range(4) if p != viewer]
    original = _observations(env, seed, deck, actions, f"player_{viewer}")
    swapped = 0
    for a, b in [(others[i], others[j]) for i in range(3) for j in range(i + 1, 3)]:
        stays_a = set.intersection(*(h[a] for h in holdings))
        stays_b = set.intersection(*(h[b] for h in holdings))
        pairs = [(x, y) for x in sorted(stays_a) for y in sorted(stays_b) if x & 3 == y & 3]
        for x, y in pairs[:3]:
            other = list(deck)
            i, j = deck.index(card_str(x)), deck.index(card_str(y))
            other[i], other[j] = other[j], other[i]
            redealt = _observations(env, seed, other, actions, f"player_{viewer}")
            assert redealt is not None, "a same-suit swap of unplayed cards keeps every action legal"
            assert _same(original, redealt), (a, b, card_str(x), card_str(y))
            swapped += 1
    assert swapped, "no hidden card pair found to swap"


def test_the_own_hand_does_change_the_observation():
    """The leak test can fail: a card swapped into the viewer's own hand is visible to him."""
    env = tarneeb_v0.raw_env()
    deck = [card_str(c) for c in env.game.deck.shuffled(np.random.default_rng(0))]
    mine, theirs = deck[0], next(c for c in deck[1:4] if c[-1] == deck[0][-1])
    other = list(deck)
    i, j = deck.index(mine), deck.index(theirs)
    other[i], other[j] = other[j], other[i]
    assert not _same(_observations(env, 0, deck, [], "player_0"), _observations(env, 0, other, [], "player_0"))


FUZZ = [
    ({"episode": "deal"}, 120),
    ({"episode": "deal", "variant": "egyptian"}, 80),
    ({"episode": "deal", "bidding": "single_round", "all_pass": "dealer_bids_7", "allow_no_trump": True}, 40),
    ({"episode": "deal", "first_lead_trump": True, "scoring": "tricks", "redeal_weak_hands": True}, 40),
    ({"episode": "deal", "variant": "egyptian", "all_pass": "dealer_bids_7", "double_multiplier": 4,
      "first_lead_trump": True}, 40),
    ({"episode": "deal", "variant": "egyptian", "allow_double": False}, 20),
    ({"max_turns": 30}, 20),
    ({}, 3),  # whole games, to their natural end
    ({"variant": "egyptian"}, 3),
]


def _play_checked(env, seed):
    """Random legal play with the invariants after every step; each agent's final reward."""
    rng = np.random.default_rng(seed)
    final = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        check_invariants(env)
    return final


@pytest.mark.parametrize("options, games", FUZZ, ids=[",".join(f"{k}={v}" for k, v in o.items()) or "game" for o, _ in FUZZ])
def test_random_play_keeps_every_invariant(options, games):
    env = tarneeb_v0.raw_env(**options)
    for seed in range(games):
        env.reset(seed=seed)
        check_invariants(env)
        final = _play_checked(env, seed)
        state = env.game_state
        assert state.is_over and not env.agents and len(final) == 4
        assert final["player_0"] == final["player_2"] and final["player_1"] == final["player_3"]
        if state.truncated:
            assert set(final.values()) == {0.0}
        elif options.get("episode") == "deal":
            a, b = state.last_deal_score
            assert final["player_0"] == (a - b) / 26 == -final["player_1"]
        else:
            assert state.winner is not None and max(state.scores) >= state.config.target_score
            assert final[f"player_{state.winner}"] == 1.0 and final[f"player_{1 - state.winner}"] == -1.0


def test_invariants_catch_a_broken_state():
    env = tarneeb_v0.raw_env()
    env.reset(seed=0)
    check_invariants(env)
    env.game_state.hand_suits[0][0] = env.game_state.hand_suits[1][0]  # player 1's clubs copied to player 0
    with pytest.raises(AssertionError):
        check_invariants(env)
