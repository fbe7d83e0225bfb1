"""The vector Believe It or Not engine is the reference engine, step for step.

The differential runs (``play_both``) cover every option family; each asserts that games
ended during the run, so endings (a loser, a draw, a truncation) and autoresets are compared
too. Families with the default ``max_turns`` (1000 completed plays) end by a loser or, with
``discard_quads``, often by a draw; the small ``max_turns`` families end mostly by truncation.
The scenario tests pin down what random play reaches rarely or not at all: a given deal, a
draw, the errors.
"""

from __future__ import annotations

import numpy as np
import pytest

import bluff_envs
import bluff_envs.vector
from bluff_envs.cards import card_str
from bluff_envs.vector.believe_it_or_not import ENGINE, VectorBelieveItOrNot
from tests.helpers import deck_of
from tests.bluff_envs.vector.differential import play_both

GAME = "believe_it_or_not"

# (options, num_envs, steps, seed): about 4 * 10^4 game-steps in all. The seeds are chosen so
# that every run sees endings; the comment gives the losers / draws / truncations of each run.
FAMILIES = [
    pytest.param({}, 4, 1400, 1, id="defaults-4p-52"),  # 9 / 0 / 0
    pytest.param({"num_players": 2}, 4, 500, 2, id="2p-36"),  # 7 / 0 / 0
    pytest.param({"num_players": 3}, 4, 600, 3, id="3p-36"),  # 5 / 0 / 0
    pytest.param({"num_players": 5, "max_turns": 120}, 4, 500, 4, id="5p-52-turns120"),  # 1 / 0 / 3
    pytest.param({"num_players": 6, "deck": 36, "max_cards_per_play": 2, "max_turns": 100}, 4, 450, 5,
                 id="6p-36-cap2"),  # 0 / 0 / 4  # fmt: skip
    pytest.param({"num_players": 6}, 4, 1200, 6, id="6p-52"),  # 4 / 0 / 0
    pytest.param({"num_players": 2, "deck": 52}, 4, 500, 7, id="2p-52"),  # 5 / 0 / 0
    pytest.param({"deck": 36}, 4, 600, 8, id="4p-36"),  # 4 / 0 / 0
    pytest.param({"num_players": 3, "num_decks": 2, "max_turns": 80}, 4, 500, 9, id="3p-2decks"),  # 0 / 0 / 4
    pytest.param({"discard_quads": True}, 4, 600, 10, id="discard-quads"),  # 1 / 6 / 0
    pytest.param({"num_players": 5, "deck": 52, "num_decks": 2, "discard_quads": True, "max_turns": 150}, 4, 800,
                 11, id="5p-2decks-quads"),  # 0 / 1 / 3  # fmt: skip
    pytest.param({"num_players": 2, "max_cards_per_play": 1}, 4, 500, 12, id="2p-cap1"),  # 2 / 0 / 0
    pytest.param({"num_players": 2, "deck": 52, "max_cards_per_play": None}, 4, 400, 13, id="2p-nocap"),  # 2 / 0 / 0
    pytest.param({"max_turns": 12}, 6, 200, 14, id="max-turns-12"),  # 0 / 0 / 24
    # call_record: the players' records of calls, appended after "turns"
    pytest.param({"call_record": True}, 4, 800, 15, id="call-record-4p-52"),  # 3 / 0 / 0
    pytest.param({"num_players": 3, "discard_quads": True, "call_record": True}, 4, 500, 16,
                 id="call-record-3p-quads"),  # 4 / 6 / 0  # fmt: skip
]


@pytest.mark.parametrize("options, num_envs, steps, seed", FAMILIES)
def test_same_as_reference(options, num_envs, steps, seed):
    ended = play_both(GAME, options, num_envs=num_envs, steps=steps, seed=seed)
    assert ended > 0, f"no game ended in {num_envs} x {steps} steps of {options}: endings were not compared"


def test_registered():
    assert ENGINE is VectorBelieveItOrNot
    assert bluff_envs.vector.engine_class("believe_it_or_not_v0") is VectorBelieveItOrNot
    venv = bluff_envs.vector.make(GAME, 2, num_players=6)
    ref = bluff_envs.make(GAME, raw=True, num_players=6)
    assert venv.obs_dim == ref.observation_space("player_0")["observation"].shape[0]
    assert venv.num_actions == ref.action_space("player_0").n


# -- scenarios: both engines from the same decks, every seat compared -------------------------


def assert_same(venv, refs, where):
    """Every seat's observation and mask, and the actor, in the vector engine and the references."""
    n = venv.num_players
    for seat in range(n):
        obs, mask = venv.observe(np.full(venv.num_envs, seat))
        for i, env in enumerate(refs):
            seen = env.observe(env.possible_agents[seat])
            np.testing.assert_array_equal(obs[i], seen["observation"], err_msg=f"{where} game {i} seat {seat}")
            np.testing.assert_array_equal(mask[i], seen["action_mask"], err_msg=f"{where} game {i} seat {seat}")
    for i, env in enumerate(refs):
        over = any(env.terminations.values()) or any(env.truncations.values())
        expected = -1 if over else env.possible_agents.index(env.agent_selection)
        assert venv.actor[i] == expected, f"{where} game {i}: actor"


def step_both(venv, refs, actions):
    out = venv.step(np.asarray(actions, np.int64))
    for env, a in zip(refs, actions):
        env.step(int(a))
    return out


def test_reset_with_decks_deals_those_decks():
    options = {"num_players": 3, "discard_quads": True}
    venv = bluff_envs.vector.make(GAME, 3, **options)
    rng = np.random.default_rng(5)
    decks = [[card_str(c) for c in venv.game.deck.shuffled(rng)] for _ in range(3)]
    refs = [bluff_envs.make(GAME, raw=True, **options) for _ in decks]
    obs, mask, actor = venv.reset(decks=decks)
    for env, deck in zip(refs, decks):
        env.reset(options={"deck": deck})
    np.testing.assert_array_equal(venv.decks, [venv.game.deck.parse(d) for d in decks])
    assert_same(venv, refs, "after reset")
    # and the games go on alike: random legal play until the first game ends
    for t in range(400):
        actions = np.where(mask > 0, rng.random(mask.shape), -1.0).argmax(axis=1)
        obs, mask, actor, rewards, terminated, truncated = step_both(venv, refs, actions)
        assert_same(venv, refs, f"step {t}")
        if terminated.any() or truncated.any():
            break


def test_draw_when_nobody_holds_cards():
    """§2.6: the last two players empty their hands together: nobody holds cards, a draw."""
    full = lambda *ranks: [f"{r}{s}" for r in ranks for s in "CDHS"]  # noqa: E731
    first = full("6", "7", "8", "9") + ["10C", "10D"]
    second = full("J", "Q", "K", "A") + ["10H", "10S"]
    options = {"num_players": 2, "deck": 36}
    venv = bluff_envs.vector.make(GAME, 1, **options)
    ref = bluff_envs.make(GAME, raw=True, **options)
    names = venv.action_names
    deck = deck_of(first, second)
    venv.reset(decks=[deck])
    ref.reset(options={"deck": deck})
    script = []
    # each in turn leads four of a kind and the other believes it: the piles go out of play
    for leader_rank, other_rank in (("6", "J"), ("7", "Q"), ("8", "K"), ("9", "A")):
        for rank in (leader_rank, other_rank):
            script += [f"name {rank}"] + [f"add {rank}"] * 4 + ["done", "believe"]
    # player_0 leads his last two cards, player_1 adds his last two, player_0 believes him
    script += ["name 10", "add 10", "add 10", "done", "add 10", "add 10", "done", "believe"]
    for t, name in enumerate(script):
        out = step_both(venv, [ref], [names.index(name)])
        assert_same(venv, [ref], f"{name!r} (step {t})")
    _, mask, actor, rewards, terminated, truncated = out
    assert ref.game_state.is_over and ref.game_state.loser is None
    assert all(ref.terminations.values()) and ref.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert terminated[0] and not truncated[0] and actor[0] == -1
    np.testing.assert_array_equal(rewards[0], np.zeros(2, np.float32))
    np.testing.assert_array_equal(mask[0], np.zeros(venv.num_actions, np.int8))


def test_loser_gets_minus_one():
    """§2.6: when only one player still holds cards he loses: -1, the others +1/(n-1)."""
    venv = bluff_envs.vector.make(GAME, 64, num_players=3)
    obs, mask, actor = venv.reset(seed=3)
    rng = np.random.default_rng(3)
    seen = 0
    for _ in range(3000):
        actions = np.where(mask > 0, rng.random(mask.shape), -1.0).argmax(axis=1)
        obs, mask, actor, rewards, terminated, truncated = venv.step(actions)
        for i in np.flatnonzero(terminated & (rewards.min(axis=1) < 0)):
            assert sorted(rewards[i].tolist()) == [-1.0, 0.5, 0.5]
            seen += 1
        assert not rewards[~terminated].any()
    assert seen > 0


# -- errors --------------------------------------------------------------------------------


def test_illegal_action_names_game_action_and_legal_ones():
    venv = bluff_envs.vector.make(GAME, 3, num_players=2)
    venv.reset(seed=0)
    # every game starts with player_0 naming a rank of the 36-card deck (6 .. A)
    with pytest.raises(ValueError, match=r"illegal action 27 \(believe\) in game 1 for player_0") as info:
        venv.step([4, 27, 4])
    assert "legal actions now: 4 (name 6), 5 (name 7)" in str(info.value) and "12 (name A)" in str(info.value)
    with pytest.raises(ValueError, match=r"illegal action 0 \(name 2\) in game 2"):
        venv.step([4, 4, 0])  # "2" is not in a 36-card deck
    with pytest.raises(ValueError, match=r"illegal action 99 in game 0"):
        venv.step([99, 4, 4])
    with pytest.raises(ValueError, match="actions must be 3 integers"):
        venv.step([4.0, 4.0, 4.0])


@pytest.mark.parametrize(
    "options",
    [
        {"num_players": 1},
        {"num_players": 7},
        {"deck": 40},
        {"num_decks": 3},
        {"max_cards_per_play": 0},
        {"discard_quads": "yes"},
        {"call_record": "yes"},
        {"max_turns": 0},
        {"trumps": True},
    ],
)
def test_bad_options_raise_the_reference_error(options):
    with pytest.raises(ValueError) as reference:
        bluff_envs.make(GAME, raw=True, **options)
    with pytest.raises(ValueError) as vector:
        bluff_envs.vector.make(GAME, 4, **options)
    assert str(vector.value) == str(reference.value)


def test_bad_decks_are_refused():
    venv = bluff_envs.vector.make(GAME, 1, num_players=2)
    deck = [card_str(c) for c in venv.game.deck.cards()]
    with pytest.raises(ValueError, match="has 35 cards; this game uses 36"):
        venv.reset(decks=[deck[:-1]])
    with pytest.raises(ValueError, match="not in"):
        venv.reset(decks=[deck[:-1] + ["2C"]])  # a 2 is not in a 36-card deck
    with pytest.raises(ValueError, match="too many copies"):
        venv.reset(decks=[deck[:-1] + ["6C"]])
