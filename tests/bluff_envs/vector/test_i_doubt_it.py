"""The vector I Doubt It engine is the reference engine, step for step.

The differential runs (``play_both``) cover every option family; each asserts that games
ended during the run, so endings and autoresets are compared too. Families with the default
``max_turns`` (1000 completed plays, several thousand steps) can only have ended by a player
going out (termination); the small ``max_turns`` families end mostly by truncation.
``num_decks`` 3 makes ``1 / copies`` inexact in float32, so it checks that the engine repeats
the reference's float32 arithmetic, not only its counts.
"""

from __future__ import annotations

import numpy as np
import pytest

import bluff_envs
import bluff_envs.vector
from bluff_envs.cards import card_str
from bluff_envs.vector.i_doubt_it import ENGINE, VectorIDoubtIt
from tests.bluff_envs.vector.differential import play_both, reference_outputs

GAME = "i_doubt_it"

# (options, num_envs, steps, seed): about 5.5 * 10^4 game-steps in all. The seeds are chosen so
# that every run sees endings (the comment gives the terminations / truncations of each run)
FAMILIES = [
    pytest.param({}, 6, 1200, 6, id="defaults-4p"),  # 3 / 0
    pytest.param({"num_players": 2}, 4, 1200, 17, id="2p"),  # 3 / 0
    pytest.param({"num_players": 3, "rank_order": "ascending"}, 4, 1000, 3, id="3p-ascending"),  # 3 / 0
    pytest.param({"num_players": 5, "rank_order": "ascending"}, 4, 1200, 10, id="5p-ascending"),  # 2 / 0
    pytest.param({"num_players": 6, "max_turns": 50}, 4, 500, 4, id="6p-2decks"),  # 0 / 4
    pytest.param({"num_players": 8, "max_cards_per_play": None, "max_turns": 40}, 4, 450, 5,
                 id="8p-2decks-nocap"),  # 0 / 4
    pytest.param({"num_players": 11, "max_turns": 25}, 4, 400, 6, id="11p-2decks"),  # 0 / 4
    pytest.param({"max_cards_per_play": None}, 4, 1000, 12, id="nocap"),  # 2 / 0
    pytest.param({"max_cards_per_play": 1, "max_turns": 150}, 4, 800, 9, id="cap1"),  # 0 / 4
    pytest.param({"num_players": 2, "max_cards_per_play": 1, "last_play_checked": False}, 4, 800, 5,
                 id="2p-cap1-unchecked"),  # 2 / 0
    pytest.param({"max_cards_per_play": 2, "last_play_checked": False}, 4, 900, 8, id="cap2-unchecked"),  # 3 / 0
    pytest.param({"last_play_checked": False}, 4, 1000, 5, id="last-play-unchecked"),  # 3 / 0
    pytest.param({"num_players": 2, "max_cards_per_play": None, "last_play_checked": False, "max_turns": 120},
                 6, 600, 14, id="2p-nocap-unchecked"),  # 4 / 4
    pytest.param({"max_turns": 15}, 8, 250, 13, id="max-turns-15"),  # 0 / 16
    pytest.param({"num_players": 3, "num_decks": 3, "max_turns": 120}, 4, 800, 14, id="3decks"),  # 0 / 4
    pytest.param({"num_players": 2, "num_decks": 4, "max_turns": 60}, 4, 500, 15, id="4decks"),  # 0 / 4
]


@pytest.mark.parametrize("options, num_envs, steps, seed", FAMILIES)
def test_same_as_reference(options, num_envs, steps, seed):
    ended = play_both(GAME, options, num_envs=num_envs, steps=steps, seed=seed)
    assert ended > 0, f"no game ended in {num_envs} x {steps} steps of {options}: endings were not compared"


def test_registered():
    assert ENGINE is VectorIDoubtIt
    assert bluff_envs.vector.engine_class("i_doubt_it_v0") is VectorIDoubtIt
    venv = bluff_envs.vector.make(GAME, 2, num_players=5)
    ref = bluff_envs.make(GAME, raw=True, num_players=5)
    assert venv.obs_dim == ref.observation_space("player_0")["observation"].shape[0]
    assert venv.num_actions == ref.action_space("player_0").n == 16


def test_illegal_actions_name_game_action_and_legal_ones():
    venv = bluff_envs.vector.make(GAME, 3)
    obs, mask, actor = venv.reset(seed=5)
    actions = mask.argmax(axis=1)
    actions[1] = 14  # "doubt" while player_0 must play
    legal = ", ".join(f"{a} ({venv.action_names[a]})" for a in np.flatnonzero(mask[1]))
    with pytest.raises(ValueError, match=r"illegal action 14 \(doubt\) in game 1 for player_0") as err:
        venv.step(actions)
    assert f"legal actions now: {legal}" in str(err.value)
    actions[1] = 99  # out of range
    with pytest.raises(ValueError, match="illegal action 99 in game 1"):
        venv.step(actions)
    # "done" with nothing chosen yet is illegal too, and a refused step changed nothing
    actions[1] = 13
    with pytest.raises(ValueError, match=r"illegal action 13 \(done\) in game 1"):
        venv.step(actions)
    np.testing.assert_array_equal(venv.obs, obs)
    # the legal step still goes through: every game's player_0 has chosen one card
    venv.step(mask.argmax(axis=1))
    building = venv.obs[:, venv.layout["building"]] * 4
    np.testing.assert_array_equal(building.sum(axis=1), [1, 1, 1])


@pytest.mark.parametrize(
    "options",
    [
        {"num_players": 12},
        {"num_players": 1},
        {"num_decks": 0},
        {"num_decks": 5},
        {"rank_order": "sideways"},
        {"max_cards_per_play": 0},
        {"last_play_checked": "yes"},
        {"max_turns": 0},
        {"deck": 52},
    ],
)
def test_bad_options_raise_the_reference_error(options):
    with pytest.raises(ValueError) as reference:
        bluff_envs.make(GAME, raw=True, **options)
    with pytest.raises(ValueError) as vector:
        bluff_envs.vector.make(GAME, 4, **options)
    assert str(vector.value) == str(reference.value)


def _compare_all_seats(venv, refs):
    n = venv.num_players
    for seat in range(n):
        obs, mask = venv.observe(np.full(venv.num_envs, seat))
        for i, env in enumerate(refs):
            seen = env.observe(env.possible_agents[seat])
            np.testing.assert_array_equal(obs[i], seen["observation"], err_msg=f"game {i} seat {seat}")
            np.testing.assert_array_equal(mask[i], seen["action_mask"], err_msg=f"game {i} seat {seat}")


@pytest.mark.parametrize("options", [{}, {"num_players": 7}, {"num_players": 3, "num_decks": 3}])
def test_reset_with_decks_deals_those_decks(options):
    num_envs = 3
    venv = bluff_envs.vector.make(GAME, num_envs, **options)
    refs = [bluff_envs.make(GAME, raw=True, **options) for _ in range(num_envs)]
    rng = np.random.default_rng(42)
    decks = [[card_str(c) for c in refs[0].game.deck.shuffled(rng)] for _ in range(num_envs)]
    obs, mask, actor = venv.reset(decks=decks)
    for env, deck in zip(refs, decks):
        env.reset(options={"deck": deck})
    np.testing.assert_array_equal(venv.decks, [refs[0].game.deck.parse(d) for d in decks])
    _compare_all_seats(venv, refs)
    # and the games go on alike (every seat compared at every step)
    for t in range(120):
        actions = np.where(mask > 0, rng.random(mask.shape), -1.0).argmax(axis=1)
        obs, mask, actor, rewards, terminated, truncated = venv.step(actions)
        for i, env in enumerate(refs):
            env.step(int(actions[i]))
            r_actor, r_obs, r_mask, over = reference_outputs(env, venv.num_players, venv.num_actions, venv.obs_dim)
            assert actor[i] == r_actor and terminated[i] == over, f"game {i} step {t}"
            np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"game {i} step {t}")
            np.testing.assert_array_equal(mask[i], r_mask, err_msg=f"game {i} step {t}")
        _compare_all_seats(venv, refs)
        if terminated.any():
            break
    # card ids are accepted as well
    venv.reset(decks=np.array(venv.decks))
    for env, deck in zip(refs, decks):
        env.reset(options={"deck": deck})
    _compare_all_seats(venv, refs)
    # and a deck that is not this game's is refused
    bad = np.array(venv.decks)
    bad[1, 0] = bad[1, 1] = 0 if bad[1, 0] != 0 else 1
    with pytest.raises(ValueError, match="deck 1 is not"):
        venv.reset(decks=bad)
    with pytest.raises(ValueError, match="cards"):
        venv.reset(decks=[d[:-1] for d in decks])
