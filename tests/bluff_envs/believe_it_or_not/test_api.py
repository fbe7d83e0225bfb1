"""Believe It or Not: the PettingZoo contract, options, reset options, action names and errors."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import bluff_envs
from bluff_envs import believe_it_or_not_v0
from bluff_envs.believe_it_or_not.view import RECORD_FIELDS
from tests.helpers import act, legal_names

CONFIGS = [
    {},
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 6},
    {"num_players": 2, "deck": 52},
    {"num_decks": 2},
    {"discard_quads": True},
    {"max_cards_per_play": 3},
    {"call_record": True},
    {"num_players": 3, "discard_quads": True, "call_record": True},
]
IDS = ["4p", "2p", "3p", "6p", "2p-52", "2-decks", "quads", "cap-3", "call-record", "3p-quads-call-record"]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test passes a foreign reset option on purpose
        yield


@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
def test_api(options):
    api_test(believe_it_or_not_v0.env(**options), num_cycles=300)


@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
def test_seed(options):
    seed_test(functools.partial(believe_it_or_not_v0.env, **options), num_cycles=300)


@pytest.mark.parametrize("options", CONFIGS, ids=IDS)
def test_render(options, capsys):
    render_test(functools.partial(believe_it_or_not_v0.env, **options))
    env = believe_it_or_not_v0.env(render_mode="ansi", **options)
    env.reset(seed=0)
    text = env.render()
    assert "player_0 holds:" in text and "leads a new round" in text


def test_raw_api_and_registry():
    api_test(believe_it_or_not_v0.raw_env(), num_cycles=200)
    env = bluff_envs.make("believe_it_or_not", num_players=3)
    env.reset(seed=1)
    assert env.unwrapped.metadata["name"] == "believe_it_or_not_v0"
    assert env.num_agents == 3


def test_defaults_follow_the_player_count():
    assert believe_it_or_not_v0.raw_env(num_players=3).game.deck.size == 36
    assert believe_it_or_not_v0.raw_env(num_players=4).game.deck.size == 52
    assert believe_it_or_not_v0.raw_env(num_players=2, deck=52, num_decks=2).game.deck.size == 104
    config = believe_it_or_not_v0.raw_env().game.config
    assert (config.max_cards_per_play, config.discard_quads, config.max_turns) == (8, False, 1000)


def test_options_are_declared_once_and_documented_from_that_declaration():
    from bluff_envs import options
    from bluff_envs.believe_it_or_not import BelieveItOrNotConfig

    assert options.table(BelieveItOrNotConfig.OPTIONS) in believe_it_or_not_v0.__doc__
    assert [o.name for o in BelieveItOrNotConfig.OPTIONS] == list(BelieveItOrNotConfig.__dataclass_fields__)


def test_action_table_names():
    raw = believe_it_or_not_v0.raw_env()
    assert raw.action_space("player_0").n == 29
    assert [raw.action_name(a) for a in (0, 12, 13, 22, 25, 26, 27, 28)] == [
        "name 2", "name A", "add 2", "add J", "add A", "done", "believe", "disbelieve",
    ]  # fmt: skip
    with pytest.raises(ValueError, match="out of range"):
        raw.action_name(29)


def test_36_card_deck_masks_out_low_ranks():
    env = believe_it_or_not_v0.raw_env(num_players=3)
    env.reset(seed=0)
    assert legal_names(env) == [f"name {r}" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")]


def test_layout_is_documented_and_observations_in_bounds():
    env = believe_it_or_not_v0.raw_env()
    env.reset(seed=0)
    layout = env.observation_layout
    assert layout.size == env.observation_space("player_0")["observation"].shape[0]
    for name in layout:
        assert layout.doc(name), f"field {name} has no documentation"
    assert "known_cards" in layout.describe()
    for name in ("hand", "round_rank", "pile_size", "last_play_size", "last_play_by", "my_cards_in_pile",
                 "known_cards", "out_of_play_known", "hand_sizes", "out", "empty_handed", "calls", "phase"):
        assert name in layout
    obs = env.observe("player_0")["observation"]
    assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1


@pytest.mark.parametrize(
    "options, message",
    [
        ({"num_players": 1}, "num_players=1"),
        ({"num_players": 7}, "from 2 to 6"),
        ({"num_players": "4"}, "num_players"),
        ({"deck": 32}, "deck=32"),
        ({"num_decks": 3}, "num_decks=3"),
        ({"max_cards_per_play": 0}, "max_cards_per_play=0"),
        ({"discard_quads": 1}, "discard_quads=1 is not allowed; allowed values: True, False"),
        ({"call_record": "yes"}, "call_record='yes' is not allowed; allowed values: True, False"),
        ({"max_turns": 0}, "max_turns=0"),
        ({"rank_order": "ascending"}, "unknown option"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        believe_it_or_not_v0.env(**options)


def test_bad_decks():
    env = believe_it_or_not_v0.raw_env(num_players=2)  # 36 cards
    with pytest.raises(ValueError, match="has 35 cards; this game uses 36"):
        env.reset(options={"deck": ["AS"] * 35})
    full = [f"{r}{s}" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A") for s in "CDHS"]
    low = ["2C"] + full[1:]
    with pytest.raises(ValueError, match="holds 2C, not in 1 x 36-card deck"):
        env.reset(options={"deck": low})
    with pytest.raises(ValueError, match="malformed card"):
        env.reset(options={"deck": ["XX"] + low[1:]})
    twice = ["6D"] + full[1:]
    with pytest.raises(ValueError, match="too many copies of 6D"):
        env.reset(options={"deck": twice})
    with pytest.raises(ValueError, match="list of card strings"):
        env.reset(options={"deck": "AS KS"})


def test_illegal_actions_raise_in_raw_env():
    env = believe_it_or_not_v0.raw_env(num_players=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"illegal action 27 \(believe\) for player_0; legal actions now: 4 \(name 6\)"):
        env.step(27)
    with pytest.raises(ValueError, match="name 2"):
        env.step(0)  # rank 2 is not in a 36-card deck
    with pytest.raises(ValueError, match="illegal action"):
        env.step(99)
    act(env, "name A")
    with pytest.raises(ValueError, match=r"illegal action 26 \(done\)"):
        env.step(26)  # a play needs at least one card


def test_illegal_action_through_env_ends_the_game():
    env = believe_it_or_not_v0.env(num_players=2)
    env.reset(seed=0)
    env.step(27)
    assert all(env.terminations.values()) or all(env.truncations.values())
    assert env.rewards["player_0"] == -1


@pytest.mark.parametrize("num_players", [2, 4, 5])
def test_call_record_counts_every_call_and_leaves_the_rest_unchanged(num_players):
    """With ``call_record`` each viewer sees, by relative seat, every player's plays turned up
    honest and false and his Believe and Don't believe calls, counted from the rules' calls;
    the observation's first fields are exactly those of the game without the option."""
    plain, recorded = (believe_it_or_not_v0.raw_env(num_players=num_players, call_record=flag) for flag in (False, True))
    size = plain.observation_layout.size
    layout = recorded.observation_layout
    assert list(layout)[-4:] == list(RECORD_FIELDS) and layout.size == size + 4 * num_players
    assert all(layout[name] == plain.observation_layout[name] for name in plain.observation_layout)
    rng = np.random.default_rng(num_players)
    counts = np.zeros((4, num_players), np.int64)  # by absolute seat
    calls = 0
    for env in (plain, recorded):
        env.reset(seed=3)
    while not recorded.game_state.is_over:
        legal = recorded.legal_actions()
        action = int(legal[rng.integers(len(legal))])
        before = recorded.game_state.last_call
        for env in (plain, recorded):
            env.step(action)
        call = recorded.game_state.last_call
        if call is not before:
            calls += 1
            counts[0 if call.honest else 1, call.maker] += 1
            counts[2 if call.believed else 3, call.caller] += 1
        for viewer in range(num_players):
            agent = f"player_{viewer}"
            full = recorded.observe(agent)["observation"]
            assert np.array_equal(full[:size], plain.observe(agent)["observation"])
            seen = layout.decode(full, RECORD_FIELDS)
            rotation = (viewer + np.arange(num_players)) % num_players
            for k, name in enumerate(RECORD_FIELDS):
                assert np.array_equal(np.rint(seen[name]), counts[k, rotation]), (name, viewer)
    assert calls >= 5 and counts[3].sum() > 0 and counts[2].sum() > 0
