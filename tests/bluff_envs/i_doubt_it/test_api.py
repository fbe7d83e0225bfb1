"""PettingZoo's own checks for every I Doubt It option set we ship."""

import warnings

import pytest
from pettingzoo.test import api_test, render_test, seed_test

from bluff_envs import i_doubt_it_v0

OPTION_SETS = [
    {},
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 6, "num_decks": 2},
    {"num_players": 11},
    {"rank_order": "ascending"},
    {"last_play_checked": False},
    {"max_cards_per_play": None},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_pettingzoo_api(options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(i_doubt_it_v0.env(**options), num_cycles=300)
        api_test(i_doubt_it_v0.raw_env(**options), num_cycles=300)
        seed_test(lambda: i_doubt_it_v0.env(**options), num_cycles=300)


def test_render_modes():
    render_test(lambda render_mode=None: i_doubt_it_v0.env(render_mode=render_mode))
    env = i_doubt_it_v0.env(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "player_0 holds:" in text and "next play names: A" in text


def test_registry_and_make():
    import pettingzoo

    import bluff_envs

    env = pettingzoo.make("aec", "bluff_envs/i_doubt_it-v0", num_players=3)
    env.reset(seed=0)
    assert env.unwrapped.possible_agents == ["player_0", "player_1", "player_2"]
    assert type(bluff_envs.make("i_doubt_it_v0", raw=True)) is i_doubt_it_v0.raw_env


def test_spaces_are_built_once():
    env = i_doubt_it_v0.raw_env()
    assert env.observation_space("player_0") is env.observation_space("player_0")
    assert env.action_space("player_0") is env.action_space("player_3")
    assert env.action_space("player_0").n == 16
    assert env.observation_layout.size == env.observation_space("player_0")["observation"].shape[0]


def test_options_are_declared_once_and_documented_from_that_declaration():
    from bluff_envs import options
    from bluff_envs.i_doubt_it import IDoubtItConfig

    assert options.table(IDoubtItConfig.OPTIONS) in i_doubt_it_v0.__doc__
    assert [o.name for o in IDoubtItConfig.OPTIONS] == list(IDoubtItConfig.__dataclass_fields__)
    # a default may follow the options resolved before it
    assert IDoubtItConfig.from_options(num_players=6).num_decks == 2
    assert IDoubtItConfig.from_options(num_decks=3).max_cards_per_play == 12
