"""PettingZoo's own checks for every Tarneeb option set we ship."""

import warnings

import pytest
from pettingzoo.test import api_test, render_test, seed_test

from bluff_envs import tarneeb_v0

OPTION_SETS = [
    {},
    {"variant": "egyptian"},
    {"episode": "deal"},
    {"bidding": "single_round"},
    {"all_pass": "dealer_bids_7"},
    {"allow_no_trump": True},
    {"first_lead_trump": True},
    {"scoring": "tricks"},
    {"redeal_weak_hands": True},
    {"variant": "egyptian", "allow_double": False, "first_lead_trump": True},
    {"variant": "egyptian", "double_multiplier": 4, "all_pass": "dealer_bids_7", "episode": "deal"},
    {"max_turns": 40},
]


def _name(options):
    return ",".join(f"{k}={v}" for k, v in options.items()) or "default"


@pytest.mark.parametrize("options", OPTION_SETS, ids=_name)
def test_pettingzoo_api(options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(tarneeb_v0.env(**options), num_cycles=200)
        api_test(tarneeb_v0.raw_env(**options), num_cycles=200)
        seed_test(lambda: tarneeb_v0.env(**options), num_cycles=200)


@pytest.mark.parametrize("options", OPTION_SETS[:3], ids=_name)
def test_render_modes(options):
    render_test(lambda render_mode=None: tarneeb_v0.env(render_mode=render_mode, **options))


def test_ansi_shows_the_table_to_the_player_to_act():
    env = tarneeb_v0.env(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert "dealer player_3" in text and "phase: bidding" in text and "player_0 holds" in text


def test_registry_and_make():
    import pettingzoo

    import bluff_envs

    env = pettingzoo.make("aec", "bluff_envs/tarneeb-v0", variant="egyptian")
    env.reset(seed=0)
    assert env.unwrapped.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert type(bluff_envs.make("tarneeb_v0", raw=True)) is tarneeb_v0.raw_env


def test_spaces_and_action_table():
    env = tarneeb_v0.raw_env()
    assert env.observation_space("player_0") is env.observation_space("player_0")
    assert env.action_space("player_0") is env.action_space("player_3")
    assert env.action_space("player_0").n == 102
    names = env.action_names
    assert names[0] == "pass" and names[1] == "bid 7" and names[7] == "bid 13"
    assert names[8] == "bid 7 C" and names[12] == "bid 7 NT" and names[42] == "bid 13 NT"
    assert names[43:48] == ("trump C", "trump D", "trump H", "trump S", "trump NT")
    assert names[48:50] == ("double", "no double")
    assert names[50] == "play 2C" and names[101] == "play AS" and env.action_name(50 + 41) == "play QD"
    assert len(set(names)) == 102


@pytest.mark.parametrize("variant, size", [("lebanese", 552), ("egyptian", 664)])
def test_observation_layout_covers_the_vector(variant, size):
    env = tarneeb_v0.raw_env(variant=variant)
    layout = env.observation_layout
    assert layout.size == size == env.observation_space("player_0")["observation"].shape[0]
    fields = list(layout)
    assert fields[0] == "phase" and fields[-1] == "dealer"
    for name in ("hand", "bids", "passed", "contract_tricks", "contract_strain", "declarer", "doubled",
                 "trick_leader", "trick", "played", "shown_out", "tricks_won", "score", "target_score"):
        assert name in layout and layout.doc(name)
