"""PettingZoo's own checks for every Seven Spades option set we ship."""

import warnings

import pytest
from pettingzoo.test import api_test, render_test, seed_test

from bluff_envs import seven_spades_v0

OPTION_SETS = [
    {"num_players": 2},
    {"num_players": 3},
    {},
    {"num_players": 5},
    {"num_players": 8, "num_decks": 2},
    {"target": 2},
    {"free_turn": True},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_pettingzoo_api(options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(seven_spades_v0.env(**options), num_cycles=300)
        api_test(seven_spades_v0.raw_env(**options), num_cycles=300)
        seed_test(lambda: seven_spades_v0.env(**options), num_cycles=300)


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_render_modes(options):
    render_test(lambda render_mode=None: seven_spades_v0.env(render_mode=render_mode, **options))


def test_the_ansi_table_shows_what_the_player_to_act_may_see():
    env = seven_spades_v0.env(render_mode="ansi")
    env.reset(options={"deck": ["2H", "KS", *[c for c in _deck() if c not in ("2H", "KS")]]})
    text = env.render()
    assert "player_0 drew 2H" in text and "stock 51" in text
    env.step(1)  # player_0 claims the 2H face down
    text = env.render()  # player_1 to act: he may not see it
    assert "2H" not in text and "player_0: row 1/4  ??" in text
    assert "claim under challenge: player_0" in text


def _deck():
    from bluff_envs.cards import DeckSpec, card_str

    return [card_str(c) for c in DeckSpec().cards()]


def test_registry_and_make():
    import pettingzoo

    import bluff_envs

    env = pettingzoo.make("aec", "bluff_envs/seven_spades-v0", num_players=3)
    env.reset(seed=0)
    assert env.unwrapped.possible_agents == ["player_0", "player_1", "player_2"]
    assert type(bluff_envs.make("seven_spades_v0", raw=True)) is seven_spades_v0.raw_env


def test_spaces_and_layout():
    env = seven_spades_v0.raw_env(num_players=5)
    assert env.observation_space("player_0") is env.observation_space("player_0")
    assert env.action_space("player_0") is env.action_space("player_4")
    assert env.action_names == ("discard", "claim", "claim face up", "challenge", "pass")
    layout = env.observation_layout
    assert layout.size == env.observation_space("player_0")["observation"].shape[0]
    assert list(layout)[:2] == ["drawn", "my_row"]
    for name in ("phase", "claimer", "row_lengths", "face_up_spades", "in_game", "seen",
                 "discard_spades", "discard_others", "stock", "turns", "history"):
        assert name in layout and layout.doc(name)
