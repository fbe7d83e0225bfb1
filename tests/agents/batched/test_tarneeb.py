"""Batched ``rule_based`` Tarneeb makes the reference heuristic's choice at every decision.

Reference games (``raw_env``) are played with a mix of the heuristic's own actions and random
legal ones (random play reaches contracts, tricks and forced bids the heuristic alone would
not); at each decision the kernel, given the one observation row, must answer what the
reference agent answers. Then whole batches of the vector engine are played by the kernel and
every row is checked against the reference agent.
"""

from collections import Counter

import numpy as np
import pytest

import bluff_envs
import bluff_envs.vector
from agents import GameInfo, make_agent
from agents.batched import batched_agent, has_batched_form
from agents.heuristics.tarneeb import ACE, QUEEN
from bluff_envs.cards import card_str, parse_card
from bluff_envs.tarneeb.actions import (
    BIDDING,
    CARD0,
    DOUBLE,
    DOUBLING,
    EGYPTIAN_BID0,
    NO_TRUMP,
    PASS,
    PLAY,
    TRUMP,
    TRUMP0,
)
from tests.helpers import deck_of

# options, decisions to compare, and what those decisions must have covered (by the kinds of
# ``_kind``) so that a run that missed a rule of the heuristic fails instead of passing quietly
PLAY_KINDS = {"lead", "follow", "discard", "only card"}
CASES = [
    ({}, 4000, {"bid", "bid 13", "pass", "trump"} | PLAY_KINDS),
    ({"variant": "egyptian"}, 4000, {"bid", "bid 13", "bid NT", "pass", "double", "no double"} | PLAY_KINDS),
    ({"allow_no_trump": True}, 3000, {"bid", "pass", "trump", "trump NT"} | PLAY_KINDS),
    ({"first_lead_trump": True}, 2500, {"bid", "pass", "trump"} | PLAY_KINDS),
    ({"all_pass": "dealer_bids_7"}, 2500, {"bid", "pass", "forced bid", "trump"} | PLAY_KINDS),
    ({"bidding": "single_round"}, 2500, {"bid", "pass", "trump"} | PLAY_KINDS),
    (
        {"variant": "egyptian", "all_pass": "dealer_bids_7", "first_lead_trump": True},
        2500,
        {"bid", "pass", "forced bid", "double", "no double"} | PLAY_KINDS,
    ),
    ({"variant": "egyptian", "allow_double": False}, 1500, {"bid", "pass"} | PLAY_KINDS),
]
RANDOM_SHARE = (0.0, 0.3, 0.7)  # the share of random actions, game after game
STEPS = 250  # steps of the vector batch, 256 games, played by the kernel

# Hands random deals almost never hold, dealt to one seat in every other game (the other hands
# at random) so that every bidding rule is reached: no loser at all (the heuristic bids 13) and
# a hand that prefers no trump (three A-Q doubletons and a long suit headed by its ace: no
# trump 12 tricks against 11 in the long suit, the one shape that gets there by a trick).
NO_LOSER = "AS KS QS JS 10S AH KH AD KD AC KC QC JC"


def _no_trump_hand(rng) -> list[int]:
    long = int(rng.integers(4))
    small = rng.choice(10, size=6, replace=False)  # two to jack: no honour the estimates count
    return [r * 4 + long for r in (ACE, *small)] + [r * 4 + s for s in range(4) if s != long for r in (ACE, QUEEN)]


def _deck(game: int, rng) -> list[str] | None:
    """``None`` (the seed's own shuffle) in odd games, else a deck dealing a rare hand to one seat."""
    if game % 2:
        return None
    special = [parse_card(c) for c in NO_LOSER.split()] if game % 4 == 0 else _no_trump_hand(rng)
    rest = [int(c) for c in rng.permutation(52) if c not in special]
    hands = [rest[0:13], rest[13:26], rest[26:39]]
    hands.insert((game // 4) % 4, special)
    return [card_str(c) for c in deck_of(*hands)]


def _random_action(rng, mask) -> int:
    """A legal action at random, passing three times in four when it may: uniform bids would rarely
    let three players pass, and a dealer forced to bid would never be seen."""
    if mask[PASS] and rng.random() < 0.75:
        return PASS
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def _kind(observation, action: int) -> str:
    """What sort of decision the reference took, for the coverage checks."""
    mask = observation["action_mask"]
    if action == PASS:
        return "pass"
    if action < TRUMP0:
        if not mask[PASS]:
            return "forced bid"
        if action >= EGYPTIAN_BID0 and (action - EGYPTIAN_BID0) % 5 == NO_TRUMP:
            return "bid NT"
        tricks = action + 6 if action < EGYPTIAN_BID0 else 7 + (action - EGYPTIAN_BID0) // 5
        return "bid 13" if tricks == 13 else "bid"
    if action < DOUBLE:
        return "trump NT" if action == TRUMP0 + NO_TRUMP else "trump"
    if action < CARD0:
        return "double" if action == DOUBLE else "no double"
    return "only card" if np.count_nonzero(mask) == 1 else "play"


def _play_kind(env, observation, action: int) -> str:
    """Lead, follow suit, or discard (a card of another suit), from the reference's own view."""
    kind = _kind(observation, action)
    if kind != "play":
        return kind
    view = env.unwrapped.public_view(env.agent_selection)
    if not view["trick_leader"].any():
        return "lead"
    leader = int(np.argmax(view["trick_leader"]))
    led = int(np.argmax(view["trick"].reshape(4, 52)[leader])) & 3
    return "follow" if (action - CARD0) & 3 == led else "discard"


@pytest.mark.parametrize(("options", "decisions", "covered"), CASES, ids=[str(c[0]) for c in CASES])
def test_each_decision_equals_the_reference(options, decisions, covered):
    env = bluff_envs.make("tarneeb", raw=True, **options)
    info = GameInfo.of(env)
    reference, batched = make_agent("rule_based", info, seed=0), batched_agent("rule_based", info)
    rng = np.random.default_rng(len(options))
    names = info.action_names
    kinds, compared, game = Counter(), 0, 0
    while compared < decisions:
        deck = _deck(game, rng)
        env.reset(seed=1000 + game, options=None if deck is None else {"deck": deck})
        share = RANDOM_SHARE[game % len(RANDOM_SHARE)]
        for _ in env.agent_iter(100_000):
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            expected = reference.act(observation)
            chosen = batched.act(observation["observation"][None], observation["action_mask"][None], rng.random(1))
            assert chosen.dtype == np.int64 and chosen.shape == (1,)
            assert chosen[0] == expected, (
                f"{options} game {game} decision {compared}: batched {names[chosen[0]]!r}, "
                f"reference {names[expected]!r}"
            )
            kinds[_play_kind(env, observation, expected)] += 1
            compared += 1
            env.step(_random_action(rng, observation["action_mask"]) if rng.random() < share else expected)
        game += 1
    missing = covered - set(kinds)
    assert not missing, f"{options}: no decision of kind {sorted(missing)} in {compared} ({dict(kinds)})"


@pytest.mark.parametrize("options", [{}, {"variant": "egyptian", "episode": "deal"}], ids=str)
def test_a_vector_batch_played_by_the_kernel_equals_the_reference_row_by_row(options):
    venv = bluff_envs.vector.make("tarneeb", 256, **options)
    info = GameInfo.of(bluff_envs.make("tarneeb", raw=True, **options))
    reference, batched = make_agent("rule_based", info, seed=0), batched_agent("rule_based", info)
    rng = np.random.default_rng(0)
    obs, mask, actor = venv.reset(seed=7)
    phases, restarts = Counter(), 0
    for step in range(STEPS):
        actions = batched.act(obs, mask, rng.random(256))
        acting = np.flatnonzero(actor >= 0)
        assert (actions[actor < 0] == -1).all()  # a game that is over has nothing to choose
        assert mask[acting, actions[acting]].all(), f"step {step}: an illegal action"
        for i in acting.tolist():
            expected = reference.act({"observation": obs[i], "action_mask": mask[i]})
            assert actions[i] == expected, (
                f"{options} step {step} game {i}: batched {info.action_names[actions[i]]!r}, "
                f"reference {info.action_names[expected]!r}"
            )
            phases[int(np.argmax(obs[i, info.layout["phase"]]))] += 1
        restarts += int((actor < 0).sum())
        obs, mask, actor, *_ = venv.step(actions)
    assert sum(phases.values()) > STEPS * 256 * 0.9 and phases[PLAY] > phases[BIDDING] > 0
    assert phases[TRUMP if not venv.config.egyptian else DOUBLING] > 0
    if options.get("episode") == "deal":
        assert restarts > 0  # games ended and were dealt again under the kernel's play


def test_it_is_the_batched_form_of_rule_based_and_an_empty_mask_gets_no_action():
    env = bluff_envs.make("tarneeb", raw=True)
    env.reset(seed=0)
    info = GameInfo.of(env)
    assert has_batched_form("rule_based", "tarneeb") and has_batched_form("rule_based#2", "tarneeb")
    observation = env.observe(env.agent_selection)
    obs = np.stack([observation["observation"]] * 3)
    mask = np.stack([observation["action_mask"]] * 3)
    mask[1] = 0
    chosen = batched_agent("rule_based", info).act(obs, mask, np.zeros(3))
    expected = make_agent("rule_based", info).act(observation)
    assert chosen.tolist() == [expected, -1, expected]
