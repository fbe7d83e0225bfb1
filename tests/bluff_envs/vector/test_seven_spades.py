"""The Seven Spades vector engine against the reference engine (``seven_spades_v0``).

Every option family goes through the differential harness (``play_both``: random legal play,
the actor's observation and mask, one more seat's observation, rewards and endings compared at
every step). Random play ends almost every game by a challenge, so the empty-stock draw and
long games are played by ``play_weighted``, the same comparison (of every seat) with actions
drawn by weight. Scripted deals pin down the corners: three decks' inexact 1/3 steps, fixed
decks, queued decks, other bit generators, and the errors.
"""

from __future__ import annotations

import numpy as np
import pytest

import bluff_envs
import bluff_envs.vector
from bluff_envs.cards import card_str, parse_card
from bluff_envs.seven_spades.actions import CHALLENGE, CLAIM, CLAIM_FACE_UP, DISCARD, PASS
from tests.bluff_envs.seven_spades.stocks import stock
from tests.bluff_envs.vector.differential import play_both, reference_outputs

GAME = "seven_spades"


def make_both(options: dict, num_envs: int):
    venv = bluff_envs.vector.make(GAME, num_envs, **options)
    refs = [bluff_envs.make(GAME, raw=True, **options) for _ in range(num_envs)]
    return venv, refs


def assert_all_seats(venv, refs, where: str, skip=None) -> None:
    """Every seat's observation and mask, in every game (``skip[i]``: game i is over)."""
    n = venv.num_players
    for seat in range(n):
        obs, mask = venv.observe(np.full(venv.num_envs, seat))
        for i, env in enumerate(refs):
            if skip is not None and skip[i]:
                continue
            seen = env.observe(env.possible_agents[seat])
            np.testing.assert_array_equal(obs[i], seen["observation"], err_msg=f"{where} game {i} seat {seat}")
            np.testing.assert_array_equal(mask[i], seen["action_mask"], err_msg=f"{where} game {i} seat {seat}")


def play_weighted(options: dict, weights, num_envs: int = 16, steps: int = 400, seed: int = 0) -> dict:
    """``play_both`` with actions drawn with ``weights`` (one per action) among the legal ones
    and every seat compared at every step, also in a game just ended; returns the endings seen
    by kind."""
    venv, refs = make_both(options, num_envs)
    seeds = [seed * 100_003 + i for i in range(num_envs)]
    n, A, D = venv.num_players, venv.num_actions, venv.obs_dim
    obs, mask, actor = venv.reset(seeds=seeds)
    for env, s in zip(refs, seeds):
        env.reset(seed=s)
    rng = np.random.default_rng(seed)
    weights = np.asarray(weights, float)
    ended = np.zeros(num_envs, bool)
    endings = {"win": 0, "draw": 0, "truncation": 0}
    for t in range(steps):
        for i, env in enumerate(refs):
            r_actor, r_obs, r_mask, _ = reference_outputs(env, n, A, D)
            assert actor[i] == r_actor, f"{options} game {i} step {t}: actor"
            np.testing.assert_array_equal(mask[i], r_mask, err_msg=f"{options} game {i} step {t}: mask")
            np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"{options} game {i} step {t}: observation")
        # every seat, in ended games too: they show the final table, with zero masks
        assert_all_seats(venv, refs, f"{options} step {t}")
        u = rng.random((num_envs, A)) * weights
        actions = np.where(mask > 0, u, -1.0).argmax(axis=1)
        for i, env in enumerate(refs):
            if ended[i]:
                env.reset()
            else:
                env.step(int(actions[i]))
        obs, mask, actor, rewards, terminated, truncated = venv.step(actions)
        for i, env in enumerate(refs):
            r_actor, _, _, over = reference_outputs(env, n, A, D)
            r_trunc = over and any(env.truncations.values())
            assert terminated[i] == (over and not r_trunc) and truncated[i] == r_trunc, f"game {i} step {t}"
            if over and not ended[i]:
                r_rewards = np.array([env.rewards[a] for a in env.possible_agents], np.float64)
                np.testing.assert_array_equal(rewards[i], r_rewards, err_msg=f"game {i} step {t}: rewards")
                kind = "truncation" if r_trunc else ("win" if r_rewards.any() else "draw")
                endings[kind] += 1
            else:
                assert not rewards[i].any(), f"game {i} step {t}: rewards before the end"
        ended = terminated | truncated
    return endings


# -- every option family through the differential harness ---------------------------------

FAMILIES = [  # options, games, steps
    ({}, 32, 400),  # defaults: 4 players, one deck, target 4
    ({"num_players": 2}, 16, 200),
    ({"num_players": 3}, 16, 200),
    ({"num_players": 5}, 16, 200),
    ({"num_players": 6}, 12, 200),  # two decks from six players on
    ({"num_players": 8}, 8, 250),
    ({"num_players": 10}, 8, 250),
    ({"num_players": 4, "num_decks": 2}, 8, 200),
    ({"num_players": 11}, 6, 300),  # three decks
    ({"num_players": 15}, 4, 400),
    ({"num_players": 20}, 4, 500),  # four decks
    ({"num_players": 12, "num_decks": 4, "target": 5}, 4, 300),
    ({"num_players": 3, "num_decks": 3}, 12, 200),  # inexact 1/3 steps in seen and my_row
    ({"target": 2}, 16, 150),  # the final spade is the second card
    ({"num_players": 2, "target": 2}, 16, 100),
    ({"num_players": 3, "target": 13}, 12, 200),
    ({"num_players": 2, "num_decks": 4, "target": 52}, 12, 200),
    ({"free_turn": True}, 16, 200),
    ({"num_players": 3, "free_turn": True}, 16, 200),
    ({"num_players": 9, "free_turn": True, "target": 3}, 8, 250),
    ({"max_turns": 1}, 8, 50),
    ({"max_turns": 4}, 16, 100),
    ({"num_players": 7, "max_turns": 12}, 8, 150),
]


@pytest.mark.parametrize("options, num_envs, steps", FAMILIES, ids=[str(f[0]) for f in FAMILIES])
def test_differential(options, num_envs, steps):
    finished = play_both(GAME, options, num_envs=num_envs, steps=steps, seed=len(str(options)))
    assert finished >= max(2, num_envs // 2), f"only {finished} games ended"


@pytest.mark.parametrize(
    "options, weights, ending",
    [
        # claims rare, challenges rarer: the stock runs out (a draw)
        ({"num_players": 2, "target": 13}, [1, 0.05, 1, 0.05, 1], "draw"),
        ({"num_players": 3, "num_decks": 3, "target": 30}, [1, 0.3, 1, 0.02, 1], "draw"),
        ({"num_players": 10, "target": 20}, [1, 0.1, 1, 0.01, 1], "draw"),
        # many claims, few challenges: rows fill up and the final spade wins
        ({"num_players": 4}, [1, 1, 1, 0.05, 1], "win"),
        ({"num_players": 5, "free_turn": True, "target": 4}, [1, 1, 1, 0.2, 1], "win"),
        # long games against a max_turns in their middle
        ({"num_players": 6, "max_turns": 60, "target": 26}, [1, 0.5, 1, 0.02, 1], "truncation"),
    ],
)
def test_long_games(options, weights, ending):
    endings = play_weighted(options, weights, num_envs=8, steps=200)
    assert endings[ending] > 0, endings


# -- scripted deals ------------------------------------------------------------------------


def play_script(options: dict, deck: list[str], actions: list[int]):
    """One game from ``deck`` in both engines, ``actions`` in turn, every seat compared at
    every step; returns the two engines."""
    venv, (env,) = make_both(options, 1)
    venv.reset(decks=[deck])
    env.reset(options={"deck": deck})
    for t, action in enumerate(actions):
        r_actor, r_obs, r_mask, over = reference_outputs(env, venv.num_players, venv.num_actions, venv.obs_dim)
        assert venv.actor[0] == r_actor and not over, f"step {t}"
        np.testing.assert_array_equal(venv.obs[0], r_obs, err_msg=f"step {t}")
        np.testing.assert_array_equal(venv.mask[0], r_mask, err_msg=f"step {t}")
        assert_all_seats(venv, [env], f"step {t}")
        env.step(action)
        venv.step(np.array([action]))
    assert_all_seats(venv, [env], "at the end")
    return venv, env


def test_three_decks_order_of_float32_steps():
    """Three aces of spades claimed, the third challenged: my_row holds 1/3 + 1/3 + 1/3 - 1/3 in
    float32, which is not 2 * float32(1/3): the engine must replay the reference's operations."""
    deck = stock("AS", "2C", "2D", "AS", "3C", "3D", "AS", "4C", "4D", num_decks=3)
    actions = [CLAIM, PASS, PASS, DISCARD, DISCARD] * 2 + [CLAIM, CHALLENGE, PASS, DISCARD, DISCARD]
    venv, env = play_script({"num_players": 3, "num_decks": 3, "target": 10}, deck, actions)
    third = np.float32(1 / 3)
    replayed = ((third + third) + third) - third
    assert replayed != 2 * third  # the case is a real one
    my_row = venv.observe(np.array([0]))[0][0, venv.layout["my_row"]]
    assert my_row[parse_card("AS")] == replayed
    assert env.game_state.in_game == [True, False, True]  # the challenger lost


def test_final_spade_and_last_player_in():
    # target 2: player 0 claims a spade (nobody challenges), then plays the final spade face up
    deck = stock("KS", "2C", "3C", "4C", "AS")
    venv, env = play_script({"target": 2}, deck, [CLAIM, PASS, PASS, PASS, DISCARD, DISCARD, DISCARD])
    assert venv.mask[0].tolist() == [1, 0, 1, 0, 0]
    venv.step(np.array([CLAIM_FACE_UP]))
    env.step(CLAIM_FACE_UP)
    assert venv.terminated[0] and venv.rewards[0].tolist() == [1.0] + [-1 / 3] * 3
    assert env.game_state.winner == 0
    # two players: a bluff challenged puts the claimer out, the other wins
    venv, env = play_script({"num_players": 2}, stock("2H", "3H"), [CLAIM])
    venv.step(np.array([CHALLENGE]))
    env.step(CHALLENGE)
    assert venv.terminated[0] and venv.rewards[0].tolist() == [-1.0, 1.0] and env.game_state.winner == 1


def test_reset_with_decks_deals_those_decks():
    options = {"num_players": 5}
    venv, refs = make_both(options, 3)
    rng = np.random.default_rng(7)
    decks = [[card_str(c) for c in venv.game.deck.shuffled(rng)] for _ in range(3)]
    obs, mask, actor = venv.reset(decks=decks)
    for env, deck in zip(refs, decks):
        env.reset(options={"deck": deck})
    np.testing.assert_array_equal(venv.decks, [[parse_card(c) for c in d] for d in decks])
    assert_all_seats(venv, refs, "after reset(decks=...)")
    for t in range(40):  # the same games go on alike
        actions = np.where(mask[:, CLAIM] > 0, CLAIM, np.where(mask[:, PASS] > 0, PASS, DISCARD))
        for i, env in enumerate(refs):
            env.step(int(actions[i]))
        obs, mask, actor, *_ = venv.step(actions)
        assert_all_seats(venv, refs, f"step {t}")
        if (actor < 0).any():  # (the next step would deal that game again)
            break
    # card ids are accepted too
    venv.reset(decks=np.array([[parse_card(c) for c in d] for d in decks]))
    np.testing.assert_array_equal(venv.obs, obs_after_reset(options, decks))


def obs_after_reset(options, decks):
    rows = []
    for deck in decks:
        env = bluff_envs.make(GAME, raw=True, **options)
        env.reset(options={"deck": deck})
        rows.append(env.observe(env.agent_selection)["observation"])
    return np.stack(rows)


def test_queued_deck_and_generator_deck_after_an_ending():
    """Game 0 ends and is dealt a queued deck, game 1 ends and is dealt its generator's next."""
    options = {"num_players": 2}
    venv, refs = make_both(options, 2)
    venv.reset(seeds=[11, 12])
    for env, s in zip(refs, [11, 12]):
        env.reset(seed=s)
    queued = stock("AS", "KS", "QS")
    venv.queue_decks([0], [queued])
    while True:  # claim and challenge until both have ended
        actions = np.where(venv.mask[:, CLAIM] > 0, CLAIM, np.where(venv.mask[:, CHALLENGE] > 0, CHALLENGE, 0))
        for i, env in enumerate(refs):
            if venv.actor[i] >= 0:
                env.step(int(actions[i]))
        venv.step(actions)
        if (venv.actor < 0).all():
            break
    venv.step(np.zeros(2, np.int64))  # both dealt again
    refs[0].reset(options={"deck": queued})
    refs[1].reset()
    np.testing.assert_array_equal(venv.decks[0], [parse_card(c) for c in queued])
    assert_all_seats(venv, refs, "after the new deal")
    np.testing.assert_array_equal(venv.decks[1], refs[1].game_state.deck)


def test_other_bit_generators_give_their_permutations():
    """The kernel draws decks through any numpy bit generator's C interface, as ``permutation``."""
    venv = bluff_envs.vector.make(GAME, 8, num_players=2, num_decks=3)
    venv.reset(seed=0)
    kinds = [np.random.MT19937, np.random.Philox, np.random.SFC64, np.random.PCG64DXSM]
    venv._rngs = [np.random.Generator(kinds[i % 4](i)) for i in range(8)]
    twins = [np.random.Generator(kinds[i % 4](i)) for i in range(8)]
    for _ in range(3):
        venv._restart(np.arange(8))
        expected = [venv._cards[rng.permutation(venv.deck_size)] for rng in twins]
        np.testing.assert_array_equal(venv.decks, expected)
        np.testing.assert_array_equal(venv.stock, expected)
    assert [r.random() for r in venv._rngs] == [r.random() for r in twins]  # streams still aligned


# -- errors --------------------------------------------------------------------------------


def test_illegal_action_names_game_action_and_legal_ones():
    venv = bluff_envs.vector.make(GAME, 3)
    venv.reset(seed=0)
    with pytest.raises(ValueError, match=r"illegal action 3 \(challenge\) in game 1 for player_0; "
                                         r"legal actions now: 0 \(discard\), 1 \(claim\)"):
        venv.step(np.array([DISCARD, CHALLENGE, DISCARD]))
    venv.step(np.array([CLAIM, CLAIM, CLAIM]))  # the rejected step changed nothing
    with pytest.raises(ValueError, match=r"illegal action 7 in game 2 for player_1; "
                                         r"legal actions now: 3 \(challenge\), 4 \(pass\)"):
        venv.step(np.array([PASS, PASS, 7]))
    with pytest.raises(ValueError, match=r"illegal action 0 \(discard\) in game 0 .* \(3 games had"):
        venv.step(np.array([DISCARD, DISCARD, DISCARD]))


@pytest.mark.parametrize(
    "options",
    [
        {"num_players": 1},
        {"num_players": 21},
        {"num_players": 6, "num_decks": 1},
        {"num_players": 16, "num_decks": 3},
        {"num_decks": 5},
        {"target": 1},
        {"target": 14},
        {"num_decks": 2, "target": 27},
        {"num_players": 2, "free_turn": True},
        {"free_turn": "yes"},
        {"max_turns": 0},
        {"deck_size": 36},
    ],
)
def test_bad_options_raise_the_reference_error(options):
    with pytest.raises(ValueError) as reference:
        bluff_envs.make(GAME, raw=True, **options)
    with pytest.raises(ValueError) as vector:
        bluff_envs.vector.make(GAME, 4, **options)
    assert str(vector.value) == str(reference.value)


def test_bad_decks_are_refused():
    venv = bluff_envs.vector.make(GAME, 2)
    good = stock()
    with pytest.raises(ValueError, match="52"):
        venv.reset(decks=[good, good[:-1]])
    with pytest.raises(ValueError, match=f"too many copies of {good[0]}"):
        venv.reset(decks=[good, good[:-1] + good[:1]])
