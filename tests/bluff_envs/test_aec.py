"""The shared AEC adapter, on a toy game of its own: spaces, masks, actions, ends, hooks.

The toy: two players, the eight kings and aces; each in turn either "keeps" or "shows";
the first to show while holding more aces than the other wins (so the deal decides).
"""

from __future__ import annotations

import numpy as np
import pytest

from bluff_envs.aec import CardGameEnv, teams_of, wrap
from bluff_envs.cards import DeckSpec, deal, rank_of
from bluff_envs.layout import ObservationLayout

KEEP, SHOW = 0, 1


class ToyState:
    def __init__(self, cards):
        self.hands = deal(cards, 2)
        self.current_player, self.is_over, self.truncated, self.winner = 0, False, False, None
        self.turns = 0

    def legal_actions(self):
        return (KEEP, SHOW)

    def apply(self, action):
        p = self.current_player
        self.turns += 1
        if action == SHOW:
            aces = [sum(rank_of(c) == 12 for c in h) for h in self.hands]
            self.winner = p if aces[p] > aces[1 - p] else 1 - p
            self.is_over = True
        elif self.turns >= 4:
            self.is_over = self.truncated = True
        self.current_player = 1 - p
        return ((p, action),)

    def returns(self):
        return [0.0, 0.0] if self.winner is None else [1.0 if p == self.winner else -1.0 for p in range(2)]

    def render_text(self, viewer):
        return f"toy: player_{viewer} holds {len(self.hands[viewer])} cards"


class ToyView:
    def __init__(self, game, state):
        self.state, self.shown = state, np.zeros(2, np.float32)

    def record(self, events):
        for player, action in events:
            self.shown[player] = action

    def observation(self, player):
        return np.concatenate([self.shown, [self.state.turns / 4]]).astype(np.float32)


class Toy:
    name = "toy_v0"
    action_names = ("keep", "show")
    num_players = 2

    def __init__(self, **options):
        if options:
            raise ValueError(f"toy: unknown option(s) {sorted(options)}")
        self.config = None
        self.deck = DeckSpec(lowest_rank=11)  # K and A only: 8 cards
        self.layout = ObservationLayout()
        self.layout.add("shown", 2)
        self.layout.add("turns", 1, 4)

    def new_state(self, cards, rng=None):
        return ToyState(cards)

    def new_view(self, state):
        return ToyView(self, state)


class toy_env(CardGameEnv):
    metadata = {**CardGameEnv.metadata, "name": "toy_v0"}
    game_class = Toy


ACES_TO_PLAYER_0 = ["AS", "KS", "AH", "KH", "AD", "KD", "AC", "KC"]


def test_spaces_are_built_once_and_the_mask_is_zero_for_the_player_not_to_act():
    env = toy_env()
    env.reset(seed=0)
    assert env.observation_space("player_0") is env.observation_space("player_1")
    assert env.action_space("player_0").n == 2
    assert list(env.observe("player_0")["action_mask"]) == [1, 1]
    assert not env.observe("player_1")["action_mask"].any()
    assert env.observation_layout is env.game.layout


def test_a_fixed_deck_decides_and_rewards_come_at_the_end_then_agents_leave_by_none_steps():
    env = toy_env()
    env.reset(options={"deck": ACES_TO_PLAYER_0})
    env.step(KEEP)
    env.step(SHOW)  # player_1 shows holding no ace: player_0 wins
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env._cumulative_rewards == {"player_0": 1.0, "player_1": -1.0}
    for agent in env.agent_iter():
        _, reward, term, _, _ = env.last()
        assert term
        env.step(None)
    assert env.agents == []


def test_truncation_gives_zero_rewards():
    env = toy_env()
    env.reset(seed=1)
    for _ in range(4):
        env.step(KEEP)
    assert all(env.truncations.values()) and set(env.rewards.values()) == {0.0}


def test_illegal_and_out_of_range_actions_say_what_is_legal():
    env = toy_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"illegal action 7 for player_0; legal actions now: 0 \(keep\), 1 \(show\)"):
        env.step(7)


@pytest.mark.parametrize("options, words", [("deck", "must be a dict"), ({"deck": ["AS"]}, "has 1 cards; this game uses 8")])
def test_bad_reset_options(options, words):
    with pytest.raises(ValueError, match=words):
        toy_env().reset(options=options)


def test_unknown_reset_options_are_ignored_loudly():
    env = toy_env()
    with pytest.warns(UserWarning, match="ignoring unknown reset option"):
        env.reset(options={"foo": 1})
    assert env.agents == ["player_0", "player_1"]


def test_a_game_may_parse_its_own_deck_option_and_a_view_may_supply_the_mask():
    class TwoDecks(Toy):
        def parse_deck(self, value):
            return self.deck.parse(value[0])

    class MaskedView(ToyView):
        def legal_mask(self):
            return np.array([0, 1], np.int8)  # only "show"

    class Hooked(TwoDecks):
        def new_view(self, state):
            return MaskedView(self, state)

    class hooked_env(CardGameEnv):
        metadata = toy_env.metadata
        game_class = Hooked

    env = hooked_env()
    env.reset(options={"deck": [ACES_TO_PLAYER_0, ACES_TO_PLAYER_0]})
    assert env.game_state.hands[0] == [48 + 3, 48 + 2, 48 + 1, 48 + 0]  # the aces: the first deck
    assert list(env.observe("player_0")["action_mask"]) == [0, 1]


def test_render_modes_and_the_standard_wrappers():
    env = toy_env(render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == "toy: player_0 holds 4 cards"
    with pytest.raises(ValueError, match="render_mode='rgb' is not supported"):
        toy_env(render_mode="rgb")
    wrapped = wrap(toy_env())
    wrapped.reset(seed=0)
    assert wrapped.unwrapped.action_name(1) == "show"
    assert teams_of(Toy()) == ((0,), (1,))


def test_actions_are_ints_numpy_integers_or_0d_integer_arrays_and_tensors():
    torch = pytest.importorskip("torch")
    for action in (1, np.int64(1), np.array(1), np.array(1, np.uint8), torch.tensor(1)):
        env = toy_env()
        env.reset(options={"deck": ACES_TO_PLAYER_0})
        env.step(action)
        assert env.game_state.is_over and env.game_state.winner == 0


@pytest.mark.parametrize("action", [True, np.bool_(True), 1.0, np.float32(1), np.array(1.0), np.array([1]), "1"])
def test_bools_floats_and_arrays_are_a_type_error(action):
    env = toy_env()
    env.reset(seed=0)
    with pytest.raises(TypeError, match="not an action id; actions are integers|is a bool"):
        env.step(action)
    assert not env.game_state.is_over  # nothing was played


def test_a_float_tensor_and_a_bool_tensor_are_refused():
    torch = pytest.importorskip("torch")
    env = toy_env()
    env.reset(seed=0)
    for action in (torch.tensor(1.0), torch.tensor(True)):
        with pytest.raises(TypeError, match="not an action id"):
            env.step(action)


def test_using_the_env_before_reset_or_with_an_unknown_agent_says_so():
    env = toy_env()
    for call in (lambda: env.step(0), lambda: env.observe("player_0"), lambda: env.last()):
        with pytest.raises(RuntimeError, match=r"toy_v0: call reset\(\) before"):
            call()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="unknown agent 'player_9'; agents are player_0, player_1"):
        env.observe("player_9")


def test_state_is_pettingzoos_global_view_and_game_state_the_rules():
    env = toy_env()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before state\(\)"):
        env.state()
    env.reset(seed=0)
    state = env.state()
    assert state.shape == env.state_space.shape == (2 * env.game.layout.size,)
    assert isinstance(env.game_state, ToyState)
