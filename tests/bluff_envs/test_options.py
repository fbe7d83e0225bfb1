"""Options declared once: resolution in order, dependent defaults, checks, the docs table."""

import numpy as np
import pytest

import bluff_envs
from bluff_envs import options as opt

DECLARED = (
    opt.Option("num_players", 4, "4", "2 to 6", lambda name, v, r: opt.integer(name, v, 2, 6)),
    opt.Option("cap", lambda r: 2 * r["num_players"], "2 x num_players", "an integer >= 1",
               lambda name, v, r: opt.integer(name, v, 1)),
    opt.Option("fast", False, "False", "True or False", lambda name, v, r: opt.flag(name, v)),
)


def test_defaults_follow_earlier_options_and_given_values_are_checked():
    assert opt.resolve("toy", DECLARED, {}) == {"num_players": 4, "cap": 8, "fast": False}
    assert opt.resolve("toy", DECLARED, {"num_players": np.int64(3)}) == {"num_players": 3, "cap": 6, "fast": False}
    assert type(opt.resolve("toy", DECLARED, {"num_players": np.int64(3)})["num_players"]) is int
    with pytest.raises(ValueError, match="toy: unknown option\\(s\\) 'players'; options are num_players, cap, fast"):
        opt.resolve("toy", DECLARED, {"players": 3})


@pytest.mark.parametrize(
    "options, words",
    [
        ({"num_players": 7}, "option num_players=7 is out of range; allowed: an integer from 2 to 6"),
        ({"num_players": "4"}, "option num_players='4' is not an integer"),
        ({"num_players": True}, "option num_players=True is not an integer"),
        ({"num_players": 4.0}, "option num_players=4.0 is not an integer"),
        ({"fast": 1}, "option fast=1 is not allowed; allowed values: True, False"),
        ({"cap": "x" * 500}, "is not an integer"),
    ],
)
def test_bad_values_name_the_option_and_what_is_allowed(options, words):
    with pytest.raises(ValueError) as error:
        opt.resolve("toy", DECLARED, options)
    assert words in str(error.value) and len(str(error.value)) < 200


def test_choice_returns_the_declared_value_and_refuses_bools_for_numbers():
    assert type(opt.choice("deck", np.int64(36), (36, 52))) is int
    with pytest.raises(ValueError, match="allowed values: 36, 52"):
        opt.choice("deck", True, (36, 52))


def test_the_docs_table_lists_every_option_with_its_default():
    table = opt.table(DECLARED)
    assert "num_players  4" in table and "2 x num_players" in table and table.count("=====") >= 3


def test_every_game_declares_its_options_once_and_its_docstring_shows_them():
    for name in bluff_envs.available_games():
        module = bluff_envs.game_module(name)
        declared = type(module.raw_env().game.config).OPTIONS
        assert all(isinstance(o, opt.Option) for o in declared)
        for o in declared:
            assert o.name in module.__doc__ and o.default_text in module.__doc__, (name, o.name)


def test_the_registry_names_each_game_one_way():
    assert bluff_envs.game_key("bluff_envs/i_doubt_it-v0") == bluff_envs.game_key("i_doubt_it_v0") == "i_doubt_it"
    with pytest.raises(ValueError, match="unknown game 'poker'; games are i_doubt_it, believe_it_or_not"):
        bluff_envs.make("poker")
