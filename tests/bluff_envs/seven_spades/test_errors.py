"""Bad options, bad decks and illegal actions: a ValueError that says what is allowed."""

import pytest

from bluff_envs import seven_spades_v0
from tests.helpers import act
from tests.bluff_envs.seven_spades.stocks import table


@pytest.mark.parametrize(
    "options, words",
    [
        ({"players": 4}, "unknown option"),
        ({"num_players": 1}, "num_players=1"),
        ({"num_players": 21}, "num_players=21"),
        ({"num_players": "4"}, "num_players='4'"),
        ({"num_decks": 0}, "num_decks=0"),
        ({"num_decks": 5}, "num_decks=5"),
        ({"target": 1}, "target=1"),
        ({"target": 14}, "from 2 to 13"),
        ({"num_decks": 2, "target": 27}, "from 2 to 26"),
        ({"target": 4.0}, "target=4.0"),
        ({"free_turn": "yes"}, "free_turn='yes'"),
        ({"num_players": 2, "free_turn": True}, "more than 2 players"),
        ({"max_turns": 0}, "max_turns=0"),
        ({"num_players": 13, "num_decks": 1}, "from 3 (the fewest that work)"),
        ({"num_players": 6, "num_decks": 1}, "num_decks=1 is too few for 6 players"),
        ({"num_players": 11, "num_decks": 2}, "from 3 (the fewest that work)"),
    ],
)
def test_bad_options(options, words):
    with pytest.raises(ValueError) as error:
        seven_spades_v0.raw_env(**options)
    assert words in str(error.value)


def test_more_than_five_players_need_more_decks():
    """docs/rules.md §3.1: at most five players per deck; the default is the fewest decks that work."""
    env = seven_spades_v0.raw_env(num_players=6)
    assert env.game.config.num_decks == 2
    assert seven_spades_v0.raw_env(num_players=10).game.config.num_decks == 2
    assert seven_spades_v0.raw_env(num_players=11).game.config.num_decks == 3
    env = seven_spades_v0.raw_env(num_players=13, num_decks=3, target=2)
    env.reset(seed=0)
    assert env.game.config.target == 2


@pytest.mark.parametrize(
    "deck, words",
    [
        (["AS"] * 52, "too many copies of AS"),
        (["AS", "KH"], "has 2 cards; this game uses 52"),
        (["ZZ"] + ["AS"] * 51, "malformed card 'ZZ'"),
        ("AS KH", "must be a list"),
    ],
)
def test_bad_decks(deck, words):
    env = seven_spades_v0.raw_env()
    with pytest.raises(ValueError) as error:
        env.reset(options={"deck": deck})
    assert words in str(error.value)


def test_illegal_actions_in_the_raw_env():
    env = table("2H", "3C")
    with pytest.raises(ValueError, match=r"illegal action 3 \(challenge\) for player_0; legal actions now: 0 \(discard\), 1 \(claim\)"):
        env.step(3)
    with pytest.raises(ValueError, match=r"illegal action 2 \(claim face up\)"):
        env.step(2)  # only at target-1
    with pytest.raises(ValueError, match="illegal action 99"):
        env.step(99)
    with pytest.raises(ValueError, match="illegal action None"):
        env.step(None)
    act(env, "claim")
    with pytest.raises(ValueError, match=r"legal actions now: 3 \(challenge\), 4 \(pass\)"):
        env.step(0)


def test_the_wrapped_env_keeps_pettingzoos_behaviour():
    env = seven_spades_v0.env()
    env.reset(seed=0)
    env.step(4)  # TerminateIllegalWrapper: the offender gets -1 and the game ends
    assert env.rewards["player_0"] == -1 and all(env.terminations.values())


def test_render_mode_is_checked():
    with pytest.raises(ValueError, match="render_mode='rgb'"):
        seven_spades_v0.raw_env(render_mode="rgb")
