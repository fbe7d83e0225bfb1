"""No leaks (CONVENTIONS.md) and random-play fuzzing with invariants."""

import numpy as np
import pytest

from bluff_envs import believe_it_or_not_v0
from bluff_envs.believe_it_or_not.invariants import check_invariants
from bluff_envs.believe_it_or_not.actions import ADD0
from bluff_envs.cards import card_str
from tests.helpers import play_random


def _play_keeping(env, rng, keep, steps):
    """Random legal actions, except that seat ``s`` never plays a card of rank ``keep[s]``;
    stops early where that leaves nothing to do. Returns the actions."""
    actions = []
    for _ in range(steps):
        if env.game_state.is_over:
            break
        seat = env.game_state.current_player
        legal = [a for a in env.legal_actions() if seat not in keep or a != ADD0 + keep[seat]]
        if not legal:
            break
        actions.append(int(legal[rng.integers(len(legal))]))
        env.step(actions[-1])
    return actions


def _observations(env, deck, actions, viewer):
    env.reset(options={"deck": deck})
    seen = [env.observe(viewer)]
    for action in actions:
        env.step(action)
        seen.append(env.observe(viewer))
    return seen


@pytest.mark.parametrize(
    "options, seed",
    [({"num_players": 3}, s) for s in range(4)]
    + [({}, s) for s in range(4)]
    + [({"num_players": 6}, s) for s in range(2)]
    + [({"num_players": 4, "num_decks": 2, "max_cards_per_play": 3}, s) for s in range(2)]
    + [({"num_players": 5, "call_record": True}, s) for s in range(2)],
)
def test_redealing_hidden_cards_leaves_the_observation_unchanged(options, seed):
    """Swap a card of one opponent of the viewer with a card of another rank held by a second
    opponent, and let neither ever play a card of the rank he gave away: the viewer cannot
    tell the two deals apart, so every observation (and mask) of his must be the same."""
    rng = np.random.default_rng(seed)
    env = believe_it_or_not_v0.raw_env(**options)
    n = env.game.num_players
    deck = [card_str(c) for c in env.game.deck.shuffled(rng)]
    viewer = seed % n
    a, b = (viewer + 1) % n, (viewer + 2) % n
    i = next(i for i in range(a, len(deck), n))
    j = next(j for j in range(b, len(deck), n) if deck[j][:-1] != deck[i][:-1])
    keep = {a: env.game.deck.parse(deck)[i] >> 2, b: env.game.deck.parse(deck)[j] >> 2}
    env.reset(options={"deck": deck})
    actions = _play_keeping(env, rng, keep, 400)
    assert len(actions) >= 20 and any(env.action_name(x) in ("believe", "disbelieve") for x in actions)
    swapped = list(deck)
    swapped[i], swapped[j] = deck[j], deck[i]
    agent = f"player_{viewer}"
    original = _observations(env, deck, actions, agent)
    redealt = _observations(env, swapped, actions, agent)
    for step, (u, v) in enumerate(zip(original, redealt)):
        assert np.array_equal(u["observation"], v["observation"]), f"observation differs at step {step}"
        assert np.array_equal(u["action_mask"], v["action_mask"]), f"mask differs at step {step}"


def test_the_own_hand_does_change_the_observation():
    """The leak test can fail: a card swapped into the viewer's own hand is visible to him."""
    env = believe_it_or_not_v0.raw_env()
    deck = [card_str(c) for c in env.game.deck.shuffled(np.random.default_rng(0))]
    j = next(j for j in range(1, len(deck), 4) if deck[j][:-1] != deck[0][:-1])
    swapped = list(deck)
    swapped[0], swapped[j] = deck[j], deck[0]
    first = _observations(env, deck, [], "player_0")[0]["observation"]
    assert not np.array_equal(first, _observations(env, swapped, [], "player_0")[0]["observation"])


@pytest.mark.parametrize(
    "options, games",
    [
        ({"max_turns": 30}, 40),
        ({"num_players": 2, "max_turns": 30}, 40),
        ({"num_players": 3, "max_turns": 30}, 40),
        ({"num_players": 6, "max_turns": 30}, 20),
        ({"num_players": 2, "deck": 52, "max_turns": 30}, 20),
        ({"num_decks": 2, "discard_quads": True, "max_turns": 30}, 20),
        ({"num_players": 3, "discard_quads": True, "max_cards_per_play": None, "max_turns": 30}, 40),
        ({"max_cards_per_play": 3, "max_turns": 30}, 20),
        ({"call_record": True, "max_turns": 60}, 20),
        ({"num_players": 5, "discard_quads": True, "call_record": True}, 2),
        ({"num_players": 3}, 3),  # whole games, to their natural end
    ],
)
def test_random_play_keeps_every_invariant(options, games):
    env = believe_it_or_not_v0.raw_env(**options)
    for seed in range(games):
        env.reset(seed=seed)
        check_invariants(env)
        play_random(env, seed, on_step=check_invariants)
        assert env.game_state.is_over and not env.agents


def test_invariants_through_the_wrapped_env():
    env = believe_it_or_not_v0.env(num_players=4, discard_quads=True, max_turns=60)
    for seed in range(10):
        env.reset(seed=seed)
        play_random(env, seed, on_step=check_invariants)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_random_games_end_with_one_loser_or_a_draw_and_zero_sum_rewards(num_players):
    env = believe_it_or_not_v0.raw_env(num_players=num_players, discard_quads=num_players % 2 == 1)
    rng = np.random.default_rng(num_players)
    losers = draws = 0
    for seed in range(30):
        env.reset(seed=seed)
        returns = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            if term or trunc:
                returns[agent] = reward
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
        assert set(returns) == set(env.possible_agents)
        assert sum(returns.values()) == pytest.approx(0.0)
        if env.game_state.loser is not None:
            losers += 1
            loser = f"player_{env.game_state.loser}"
            assert returns[loser] == -1.0
            assert all(r == pytest.approx(1 / (num_players - 1)) for a, r in returns.items() if a != loser)
        elif not env.game_state.truncated:  # §2.6: nobody holds cards any more
            draws += 1
            assert sum(env.game_state.hand_sizes) == 0 and set(returns.values()) == {0.0}
    assert losers + draws >= 25  # random games nearly always end before max_turns
    if num_players % 2 == 0:  # without discard_quads the last hands rarely empty together
        assert losers >= 25
