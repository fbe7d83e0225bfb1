"""The Tarneeb vector engine equals the reference engine (bluff_envs.tarneeb_v0), step for step.

Most tests go through the shared differential harness (random legal play, every option family);
random play almost never has all four players pass, so the thrown-in deals (all passed, and
max_turns falling on such a step) get a lockstep run of their own with a pass-happy policy,
which also serves the fixed-deck tests.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import bluff_envs
import bluff_envs.vector
from bluff_envs import tarneeb_v0
from bluff_envs.cards import card_str, parse_card
from bluff_envs.tarneeb.actions import CARD0, PASS
from bluff_envs.tarneeb.rules import is_weak_hand
from tests.bluff_envs.vector.differential import play_both, reference_outputs

EGYPTIAN = {"variant": "egyptian"}

# (options, num_envs, steps, games that must end in the run at least)
FAMILIES = [
    ({}, 8, 400, 1),  # Lebanese defaults (target 31)
    ({"bidding": "single_round", "target_score": 5}, 6, 300, 4),
    ({"all_pass": "dealer_bids_7", "target_score": 5}, 6, 300, 4),
    ({"allow_no_trump": True, "target_score": 5}, 6, 300, 4),
    ({"first_lead_trump": True, "target_score": 5}, 6, 300, 4),
    ({"first_lead_trump": True, "allow_no_trump": True, "scoring": "tricks", "target_score": 11}, 6, 300, 2),
    ({"scoring": "tricks", "target_score": 5}, 6, 300, 4),
    ({"episode": "deal"}, 6, 300, 12),
    ({"target_score": 1}, 6, 250, 12),
    ({**EGYPTIAN}, 6, 400, 1),  # Egyptian defaults: doubling allowed, x2, target 41
    ({**EGYPTIAN, "target_score": 5}, 6, 300, 4),
    ({**EGYPTIAN, "allow_double": False, "target_score": 5}, 6, 300, 4),
    ({**EGYPTIAN, "double_multiplier": 4, "target_score": 9}, 6, 300, 4),
    ({**EGYPTIAN, "episode": "deal", "all_pass": "dealer_bids_7", "first_lead_trump": True}, 6, 300, 12),
    ({"max_turns": 30}, 6, 200, 30),  # no game ends in 30 decisions: every ending is a truncation
    ({"max_turns": 90, "target_score": 5}, 6, 300, 12),  # truncations and wins mixed
    ({**EGYPTIAN, "max_turns": 75, "episode": "deal"}, 6, 300, 12),
]


@pytest.mark.parametrize("options, num_envs, steps, min_finished", FAMILIES, ids=lambda x: repr(x))
def test_random_play_equals_the_reference(options, num_envs, steps, min_finished):
    finished = play_both("tarneeb", options, num_envs=num_envs, steps=steps, seed=len(repr(options)))
    assert finished >= min_finished, f"only {finished} games ended: the run did not cover endings"


def _weak_twice_seed(num_envs: int) -> int:
    """A harness seed under which some game's first two decks both hold a worthless hand, so
    that the first deal is thrown in twice (the engine's redeal loop runs more than once)."""
    for seed in range(10_000):
        for i in range(num_envs):
            rng = np.random.default_rng(seed * 100_003 + i)
            decks = [rng.permutation(52) for _ in range(2)]
            if all(any(is_weak_hand(d[p::4]) for p in range(4)) for d in decks):
                return seed
    raise AssertionError("no seed found")


@pytest.mark.parametrize("variant", ["lebanese", "egyptian"])
def test_worthless_hands_are_dealt_again(variant):
    seed = _weak_twice_seed(6)
    options = {"variant": variant, "redeal_weak_hands": True, "target_score": 5}
    assert play_both("tarneeb", options, num_envs=6, steps=300, seed=seed) >= 4


# -- lockstep runs with a chosen policy, comparing every seat -----------------------------


def _compare(venv, refs, obs, mask, actor, where):
    """Actor, observation and mask of the seat to act, and every seat's observation and mask."""
    sizes = venv.num_players, venv.num_actions, venv.obs_dim
    for seat in range(venv.num_players):
        seat_obs, seat_mask = venv.observe(np.full(venv.num_envs, seat))
        for i, env in enumerate(refs):
            r_actor, r_obs, r_mask, over = reference_outputs(env, *sizes)
            assert actor[i] == r_actor, f"{where} game {i}: actor"
            np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"{where} game {i}: observation")
            np.testing.assert_array_equal(mask[i], r_mask, err_msg=f"{where} game {i}: mask")
            if not over:
                seen = env.observe(env.possible_agents[seat])
                here = f"{where} game {i} seat {seat}"
                np.testing.assert_array_equal(seat_obs[i], seen["observation"], err_msg=here)
                np.testing.assert_array_equal(seat_mask[i], seen["action_mask"], err_msg=here)


def _lockstep(venv, refs, first, steps, rng, pass_rate=0.0, watch=None):
    """Play ``steps`` steps in both engines (already reset; ``first`` is what venv.reset
    returned), passing with probability ``pass_rate`` whenever a pass is legal, otherwise a
    uniform legal action; ``watch(refs)`` runs after every step. Returns how many episodes
    were terminated and truncated, how many deals were thrown in, and how many truncations
    fell on a step that threw a deal in."""
    obs, mask, actor = first
    ended = np.zeros(venv.num_envs, bool)
    seen = dict(terminated=0, truncated=0, thrown_in=0, truncated_throwing_in=0)
    for t in range(steps):
        _compare(venv, refs, obs, mask, actor, f"step {t}")
        u = rng.random(mask.shape)
        actions = np.where(mask > 0, u, -1.0).argmax(axis=1)
        passes = (mask[:, PASS] > 0) & (rng.random(venv.num_envs) < pass_rate)
        actions[passes] = PASS
        actions[actor < 0] = 0
        thrown = np.zeros(venv.num_envs, bool)
        for i, env in enumerate(refs):
            if ended[i]:
                env.reset()
            else:
                before = env.game_state.redeals
                env.step(int(actions[i]))
                thrown[i] = env.game_state.redeals > before
        obs, mask, actor, rewards, terminated, truncated = venv.step(actions)
        for i, env in enumerate(refs):
            _, _, _, over = reference_outputs(env, venv.num_players, venv.num_actions, venv.obs_dim)
            r_trunc = over and any(env.truncations.values())
            assert terminated[i] == (over and not r_trunc) and truncated[i] == r_trunc, f"step {t} game {i}: ending"
            expected = [env.rewards[a] for a in env.possible_agents] if over and not ended[i] else [0.0] * 4
            np.testing.assert_array_equal(rewards[i], expected, err_msg=f"step {t} game {i}")
        seen["terminated"] += int(terminated.sum())
        seen["truncated"] += int(truncated.sum())
        seen["thrown_in"] += int(thrown.sum())
        seen["truncated_throwing_in"] += int((thrown & truncated).sum())
        ended = terminated | truncated
        if watch is not None:
            watch(refs)
    _compare(venv, refs, obs, mask, actor, "end")
    return seen


@pytest.mark.parametrize(
    "options, truncations_throwing_in",
    [
        ({"target_score": 3}, False),
        ({"bidding": "single_round", "episode": "deal"}, False),
        ({"variant": "egyptian", "target_score": 3}, False),
        ({"redeal_weak_hands": True, "max_turns": 8}, True),  # 8 passes: throw in twice, truncated
        ({"variant": "egyptian", "max_turns": 12}, True),
    ],
    ids=repr,
)
def test_all_passed_deals_are_dealt_again(options, truncations_throwing_in):
    num_envs = 6
    seeds = [7_000 + i for i in range(num_envs)]
    venv = bluff_envs.vector.make("tarneeb", num_envs, **options)
    refs = [tarneeb_v0.raw_env(**options) for _ in range(num_envs)]
    for env, s in zip(refs, seeds):
        env.reset(seed=s)
    first = venv.reset(seeds=seeds)
    seen = _lockstep(venv, refs, first, 160, np.random.default_rng(1), pass_rate=0.8)
    assert seen["terminated"] + seen["truncated"] >= 2 and seen["thrown_in"] >= 5, seen
    if truncations_throwing_in:  # the deck drawn on the last step must not shift the next game's
        assert seen["truncated_throwing_in"] >= 1, seen


def _card_deck(rng, weak: bool = False) -> list[str]:
    """A shuffled deck as card strings; ``weak``: one holding a worthless hand."""
    while True:
        deck = rng.permutation(52)
        if not weak or any(is_weak_hand(deck[p::4]) for p in range(4)):
            return [card_str(int(c)) for c in deck]


@pytest.mark.parametrize("options", [{}, {"variant": "egyptian", "redeal_weak_hands": True}], ids=repr)
def test_fixed_decks_as_card_strings(options):
    """reset(decks=...) deals what reset(options={"deck": ...}) deals; a queued deck is the next
    deal's, as the second deck of a reference list of decks; later decks come from the seed.
    Game 0's deck holds a worthless hand: with redeal_weak_hands its redeal is drawn in reset."""
    num_envs = 3
    rng = np.random.default_rng(5)
    firsts = [_card_deck(rng, weak=True)] + [_card_deck(rng) for _ in range(num_envs - 1)]
    while any(is_weak_hand(parse_card(c) for c in firsts[1][p::4]) for p in range(4)):
        firsts[1] = _card_deck(rng)  # game 1 must play its first deck, then the queued one
    second = _card_deck(rng)
    seeds = [11, 12, 13]
    venv = bluff_envs.vector.make("tarneeb", num_envs, **options)
    first = venv.reset(seeds=seeds, decks=firsts)
    venv.queue_decks([1], [second])
    refs = [tarneeb_v0.raw_env(**options) for _ in range(num_envs)]
    for i, (env, s) in enumerate(zip(refs, seeds)):
        env.reset(seed=s, options={"deck": [firsts[i], second] if i == 1 else firsts[i]})
    hand = venv.layout["hand"]
    for i in (1, 2):  # player 0 holds every fourth card, from the top
        dealt = np.flatnonzero(first[0][i, hand])
        assert dealt.tolist() == sorted(parse_card(c) for c in firsts[i][0::4])
    queued = [parse_card(c) for c in second]
    dealt_queued = []
    watch = lambda r: dealt_queued.append(r[1].game_state.dealt == queued)  # noqa: E731
    _lockstep(venv, refs, first, 150, np.random.default_rng(2), watch=watch)
    assert any(dealt_queued)  # game 1 reached its queued second deck


def test_illegal_actions_raise_naming_the_game_action_and_legal_ones():
    venv = bluff_envs.vector.make("tarneeb", 3)
    venv.reset(seed=0)
    actions = np.zeros(3, np.int64)  # everybody passes: legal
    actions[2] = CARD0  # no card before the bidding is over
    expected = r"illegal action 50 \(play 2C\) in game 2 for player_0; legal actions now: 0 \(pass\), 1 \(bid 7\)"
    with pytest.raises(ValueError, match=expected):
        venv.step(actions)
    actions[2] = 102
    with pytest.raises(ValueError, match=r"illegal action 102 in game 2 .* legal actions now: 0 \(pass\)"):
        venv.step(actions)
    actions[2] = 0
    venv.step(actions)
    actions[:] = 1  # player 1 bids 7 ...
    venv.step(actions)
    expected = r"illegal action 1 \(bid 7\) in game 0 for player_2; legal actions now: 0 \(pass\), 2 \(bid 8\),"
    with pytest.raises(ValueError, match=expected):
        venv.step(actions)  # ... so player 2 may not bid 7


def test_forced_dealer_mask():
    venv = bluff_envs.vector.make("tarneeb", 2, all_pass="dealer_bids_7")
    venv.reset(seed=1)
    for _ in range(3):
        obs, mask, actor, *_ = venv.step(np.zeros(2, np.int64))
    assert actor.tolist() == [3, 3] and not mask[:, PASS].any() and mask[:, 1:8].all()


@pytest.mark.parametrize(
    "options",
    [
        {"players": 4},
        {"variant": "syrian"},
        {"bidding": "auction"},
        {"all_pass": "dealer_bids_8"},
        {"allow_no_trump": 1},
        {"target_score": 0},
        {"target_score": 501},
        {"episode": "hand"},
        {"max_turns": 0},
        {"variant": "egyptian", "double_multiplier": 5},
        {"variant": "egyptian", "scoring": "tricks"},
        {"allow_double": False},
    ],
    ids=repr,
)
def test_bad_options_raise_the_reference_error(options):
    with pytest.raises(ValueError) as reference:
        tarneeb_v0.raw_env(**options)
    with pytest.raises(ValueError, match=re.escape(str(reference.value))):
        bluff_envs.vector.make("tarneeb", 4, **options)


def test_bad_decks_are_refused():
    venv = bluff_envs.vector.make("tarneeb", 2)
    deck = _card_deck(np.random.default_rng(0))
    with pytest.raises(ValueError, match="has 51 cards"):
        venv.reset(decks=[deck, deck[:51]])
    with pytest.raises(ValueError, match="too many copies"):
        venv.reset(decks=[deck, deck[:51] + deck[:1]])


def test_decks_drawn_ahead_are_the_generators_next_permutations():
    """The engine draws several decks at a time (Generator.permuted over rows); they must be
    the very decks, in order, that one permutation(52) call after another gives."""
    venv = bluff_envs.vector.make("tarneeb", 2)
    venv.reset(seeds=[3, 4])
    reference = np.random.default_rng(4)
    reference.permutation(52)  # the first deal's deck, drawn by reset
    for _ in range(20):
        np.testing.assert_array_equal(venv.next_deck(1), reference.permutation(52))
    venv.reset(seeds=[5, 6])  # new generators: what was drawn ahead from the old ones is dropped
    reference = np.random.default_rng(6)
    reference.permutation(52)
    np.testing.assert_array_equal(venv.next_deck(1), reference.permutation(52))
