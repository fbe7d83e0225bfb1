"""What every batched heuristic shares (``agents/batched/heuristic.py``): its reference twin
draws once per decision, every heuristic has a batched form, the batch is checked, and a
batched heuristic refuses another game."""

from __future__ import annotations

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo, make_agent
from agents.batched import batched_agent, has_batched_form
from agents.registry import heuristics

GAMES = [("i_doubt_it", {"num_players": 4}), ("believe_it_or_not", {"num_players": 4, "max_turns": 60}),
         ("seven_spades", {"num_players": 4})]


@pytest.mark.parametrize("game, options", GAMES)
def test_act_is_decide_with_one_draw_per_decision(game, options):
    """Every reference heuristic's ``act`` takes one draw from its generator per decision and
    decides with it: a twin generator with the same seed, drawn once per decision, replays it."""
    env = bluff_envs.make(game, raw=True, **options)
    info = GameInfo.of(env)
    for seed, name in enumerate(heuristics(game)):
        agent, twin = make_agent(name, info, seed), np.random.default_rng(seed)
        env.reset(seed=seed)
        decisions = 0
        while not env.game_state.is_over:
            observation = env.observe(env.agent_selection)
            action = agent.act(observation)
            assert action == agent.decide(observation, float(twin.random()))
            env.step(action)
            decisions += 1
        assert decisions > 5 and agent.rng.random() == twin.random()  # the streams are in step


@pytest.mark.parametrize("game, options", GAMES)
def test_every_heuristic_has_a_batched_form_and_the_batch_is_checked(game, options):
    import importlib

    table = importlib.import_module(f"agents.batched.{game}").BATCHED
    info = GameInfo.of(bluff_envs.make(game, raw=True))
    assert list(table) == list(heuristics(game))
    actions = len(info.action_names)
    for name in table:
        assert has_batched_form(name, game) and has_batched_form(f"{name}#copy", game)
        agent = batched_agent(name, info)
        assert isinstance(agent, table[name]) and agent.name == name
        obs = np.zeros((3, info.layout.size), np.float32)
        with pytest.raises(ValueError, match="expected obs"):
            agent.act(obs, np.ones((3, actions - 1), np.int8), np.zeros(3))
        with pytest.raises(ValueError, match="expected obs"):
            agent.act(obs, np.ones((3, actions), np.int8), np.zeros(2))
        assert agent.act(obs, np.zeros((3, actions), np.int8), np.zeros(3)).tolist() == [-1, -1, -1]
    other = GameInfo.of(bluff_envs.make("tarneeb", raw=True))
    with pytest.raises(ValueError, match=f"plays {game}"):
        table["honest"](other)
