"""Bad options, bad decks and illegal actions: a ValueError that says what is allowed."""

import pytest

from bluff_envs import i_doubt_it_v0
from tests.helpers import act


@pytest.mark.parametrize(
    "options, words",
    [
        ({"players": 4}, "unknown option"),
        ({"num_players": 12}, "num_players=12"),
        ({"num_players": 1}, "num_players=1"),
        ({"num_players": "4"}, "num_players='4'"),
        ({"num_decks": 0}, "num_decks=0"),
        ({"rank_order": "up"}, "'descending', 'ascending'"),
        ({"max_cards_per_play": 0}, "max_cards_per_play=0"),
        ({"last_play_checked": "yes"}, "allowed values: True, False"),
        ({"max_turns": 0}, "max_turns=0"),
        ({"num_players": 3, "num_decks": 5}, "num_decks=5"),
    ],
)
def test_bad_options(options, words):
    with pytest.raises(ValueError, match="allowed|unknown option|options are") as error:
        i_doubt_it_v0.raw_env(**options)
    assert words in str(error.value)


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
    env = i_doubt_it_v0.raw_env()
    with pytest.raises(ValueError) as error:
        env.reset(options={"deck": deck})
    assert words in str(error.value)


def test_illegal_actions_in_the_raw_env():
    env = i_doubt_it_v0.raw_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"illegal action 14 \(doubt\) for player_0; legal actions now: .*add"):
        env.step(14)
    with pytest.raises(ValueError, match="illegal action 13 \\(done\\)"):
        env.step(13)  # nothing chosen yet
    with pytest.raises(ValueError, match="illegal action 99"):
        env.step(99)
    with pytest.raises(ValueError, match="illegal action None"):
        env.step(None)
    legal = env.legal_actions()
    act(env, env.action_name(legal[0]), "done")
    with pytest.raises(ValueError, match="legal actions now: 14 \\(doubt\\), 15 \\(pass\\)"):
        env.step(0)


def test_the_wrapped_env_keeps_pettingzoos_behaviour():
    env = i_doubt_it_v0.env()
    env.reset(seed=0)
    env.step(14)  # TerminateIllegalWrapper: the offender gets -1 and the game ends
    assert env.rewards["player_0"] == -1 and all(env.terminations.values())


def test_render_mode_is_checked():
    with pytest.raises(ValueError, match="render_mode='rgb'"):
        i_doubt_it_v0.raw_env(render_mode="rgb")
