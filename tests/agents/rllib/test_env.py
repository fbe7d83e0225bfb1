"""The RLlib adapter plays our games exactly as PettingZoo's loop does, with RLlib's key names,
the learner seats' rewards at the end, opponents inside step(), and a mask the module obeys."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import bluff_envs  # noqa: E402
from agents.rllib.env import ACTION_MASK, OBSERVATIONS, CardGameMultiAgentEnv  # noqa: E402
from bluff_envs.records import deck_for  # noqa: E402


def decide(observation, rng) -> int:
    legal = np.flatnonzero(observation[ACTION_MASK])
    return int(legal[rng.integers(len(legal))])


@pytest.mark.parametrize("game, options", [("i_doubt_it", {}), ("believe_it_or_not", {}), ("seven_spades", {}),
                                           ("tarneeb", {"episode": "deal"})])
def test_self_play_steps_through_the_same_game_as_pettingzoo(game, options):
    """Every seat learns: the adapter offers each decision to the agent PettingZoo would ask, with
    the same observation and mask, and ends with PettingZoo's final rewards for every seat."""
    adapter = CardGameMultiAgentEnv({"game": game, "options": options})
    env = bluff_envs.make(game, raw=True, **options)
    deck = deck_for(env, 7)
    env.reset(options={"deck": deck})
    observations, _ = adapter.reset(seed=7, options={"deck": deck})
    rng = np.random.default_rng(0)
    final = {agent: 0.0 for agent in env.possible_agents}
    done = False
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        final[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert not done and list(observations) == [agent]
        ours = observations[agent]
        assert np.array_equal(ours[OBSERVATIONS], observation["observation"])
        assert ours[ACTION_MASK].dtype == np.float32 and np.array_equal(ours[ACTION_MASK], observation["action_mask"])
        action = decide(ours, rng)
        env.step(action)
        observations, rewards, terminateds, truncateds, _ = adapter.step({agent: action})
        done = terminateds["__all__"] or truncateds["__all__"]
    assert done
    assert rewards == final  # every seat's reward, once, at the end
    assert all(not o[ACTION_MASK].any() for o in observations.values())  # nobody is to act any more


def test_a_game_cut_at_its_turn_limit_is_truncated_not_terminated():
    adapter = CardGameMultiAgentEnv({"game": "i_doubt_it", "options": {"num_players": 3, "max_turns": 1}})
    observations, _ = adapter.reset(seed=0)
    rng = np.random.default_rng(0)
    while True:
        (agent, observation), = observations.items()
        observations, rewards, terminateds, truncateds, _ = adapter.step({agent: decide(observation, rng)})
        if truncateds["__all__"] or terminateds["__all__"]:
            break
    assert truncateds["__all__"] and not terminateds["__all__"]
    assert rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": 0.0}


def test_with_opponents_one_seat_learns_and_the_seats_take_turns():
    adapter = CardGameMultiAgentEnv({"game": "i_doubt_it", "options": {"num_players": 3}, "opponents": ["honest", "random"]})
    learners = []
    rng = np.random.default_rng(1)
    for game in range(3):
        observations, _ = adapter.reset(seed=11 if game == 0 else None)
        learners.append(adapter.agents)
        seen = set()
        done = False
        while not done:
            (agent, observation), = observations.items()
            seen.add(agent)
            observations, rewards, terminateds, truncateds, _ = adapter.step({agent: decide(observation, rng)})
            done = terminateds["__all__"] or truncateds["__all__"]
        assert seen == set(adapter.agents) and set(rewards) == set(adapter.agents)
    assert learners == [["player_0"], ["player_1"], ["player_2"]]


def test_in_tarneeb_the_learners_partner_learns_too():
    adapter = CardGameMultiAgentEnv({"game": "tarneeb", "options": {"episode": "deal"}, "opponents": ["random"]})
    adapter.reset(seed=3)
    assert adapter.agents == ["player_0", "player_2"]
    adapter.reset()
    assert adapter.agents == ["player_1", "player_3"]


def test_the_same_seed_gives_the_same_games():
    def trace(seed):
        adapter = CardGameMultiAgentEnv({"game": "seven_spades", "opponents": ["random"]})
        rng, out = np.random.default_rng(0), []
        observations, _ = adapter.reset(seed=seed)
        for _ in range(40):
            (agent, observation), = observations.items()
            action = decide(observation, rng)
            out.append((agent, action))
            observations, _, terminateds, truncateds, _ = adapter.step({agent: action})
            if terminateds["__all__"] or truncateds["__all__"]:
                observations, _ = adapter.reset()
        return out

    assert trace(5) == trace(5)


def test_bad_env_configs_are_named():
    with pytest.raises(ValueError, match="opponent"):
        CardGameMultiAgentEnv({"game": "i_doubt_it", "oponents": ["random"]})
    with pytest.raises(ValueError, match="unknown agent"):
        CardGameMultiAgentEnv({"game": "i_doubt_it", "opponents": ["nobody"]})


def test_the_module_never_picks_a_masked_action():
    torch = pytest.importorskip("torch")
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from agents.rllib.module import ActionMaskingPPOModule

    adapter = CardGameMultiAgentEnv({"game": "i_doubt_it"})
    module = RLModuleSpec(module_class=ActionMaskingPPOModule, observation_space=adapter.observation_spaces["player_0"],
                          action_space=adapter.action_spaces["player_0"], model_config={"fcnet_hiddens": [16]}).build()
    masks = torch.zeros(3, 16)
    masks[0, [14, 15]] = 1  # doubt or pass
    masks[1, :13] = 1  # add any rank
    batch = {Columns.OBS: {OBSERVATIONS: torch.rand(3, 164), ACTION_MASK: masks}}  # row 2: a finished game's mask
    for forward in (module.forward_inference, module.forward_exploration, module.forward_train):
        logits = forward({Columns.OBS: dict(batch[Columns.OBS])})[Columns.ACTION_DIST_INPUTS]
        assert set(logits[0].argsort(descending=True)[:2].tolist()) == {14, 15}
        assert (logits[:2][masks[:2] == 0] < -1e30).all() and (logits[:2][masks[:2] == 1] > -1e30).all()
        assert (logits[2] > -1e30).all()  # no legal action: left unmasked, never all FLOAT_MIN
    logits = module.forward_exploration({Columns.OBS: dict(batch[Columns.OBS])})[Columns.ACTION_DIST_INPUTS]
    sampled = module.get_exploration_action_dist_cls().from_logits(logits[:2]).sample(sample_shape=(200,))  # (200, 2)
    assert set(sampled[:, 0].tolist()) == {14, 15} and set(sampled[:, 1].tolist()) <= set(range(13))
