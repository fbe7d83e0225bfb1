"""The differential harness: a vector engine and the reference engine, step for step.

Both engines play the same games: game ``i`` of the vector engine and its own reference
``raw_env`` are seeded alike (so they deal the same decks, and the same later decks), and both
are given the same random legal actions. At every step the harness asserts identical
observations and masks of the seat to act, identical actors, rewards, terminations and
truncations, and also the observation of one other random seat per game (what every seat
knows must match, not only the actor's).
"""

from __future__ import annotations

import numpy as np

import bluff_envs
import bluff_envs.vector


def reference_outputs(env, num_players: int, num_actions: int, obs_dim: int):
    """What the vector engine must report for one reference game."""
    over = any(env.terminations.values()) or any(env.truncations.values())
    if over or not env.agents:
        actor, obs, mask = -1, np.zeros(obs_dim, np.float32), np.zeros(num_actions, np.int8)
    else:
        agent = env.agent_selection
        actor = env.possible_agents.index(agent)
        seen = env.observe(agent)
        obs, mask = seen["observation"], seen["action_mask"]
    return actor, obs, mask, over


def play_both(game: str, options: dict, num_envs: int = 32, steps: int = 500, seed: int = 0) -> int:
    """Play ``steps`` steps of ``num_envs`` games in both engines, asserting equality at each;
    returns the number of games that ended (so a caller can check the run covered endings)."""
    venv = bluff_envs.vector.make(game, num_envs, **options)
    refs = [bluff_envs.make(game, raw=True, **options) for _ in range(num_envs)]
    seeds = [seed * 100_003 + i for i in range(num_envs)]
    n, A, D = venv.num_players, venv.num_actions, venv.obs_dim
    obs, mask, actor = venv.reset(seeds=seeds)
    for env, s in zip(refs, seeds):
        env.reset(seed=s)
    rng = np.random.default_rng(seed)
    ended = np.zeros(num_envs, bool)
    finished = 0
    for t in range(steps + 1):
        for i, env in enumerate(refs):
            r_actor, r_obs, r_mask, _ = reference_outputs(env, n, A, D)
            where = f"{game} {options} game {i} step {t}"
            assert actor[i] == r_actor, f"{where}: actor {actor[i]} != reference {r_actor}"
            np.testing.assert_array_equal(mask[i], r_mask, err_msg=f"{where}: mask")
            np.testing.assert_array_equal(obs[i], r_obs, err_msg=f"{where}: observation of the actor")
        # one more seat per game: every seat's knowledge must match
        seats = rng.integers(n, size=num_envs)
        other_obs, other_mask = venv.observe(seats)
        for i, env in enumerate(refs):
            if ended[i]:
                continue
            seen = env.observe(env.possible_agents[seats[i]])
            where = f"{game} {options} game {i} step {t} seat {seats[i]}"
            np.testing.assert_array_equal(other_obs[i], seen["observation"], err_msg=f"{where}: observation")
            np.testing.assert_array_equal(other_mask[i], seen["action_mask"], err_msg=f"{where}: mask")
        if t == steps:
            break
        # random legal actions (any action for a game about to be dealt again: it is ignored)
        u = rng.random((num_envs, A))
        actions = np.where(mask > 0, u, -1.0).argmax(axis=1)
        actions[actor < 0] = 0
        for i, env in enumerate(refs):
            if ended[i]:
                env.reset()  # the vector engine deals it again from the same generator
            else:
                env.step(int(actions[i]))
        obs, mask, actor, rewards, terminated, truncated = venv.step(actions)
        for i, env in enumerate(refs):
            r_actor, _, _, over = reference_outputs(env, n, A, D)
            where = f"{game} {options} game {i} step {t}"
            r_trunc = over and any(env.truncations.values())
            r_term = over and not r_trunc
            if over and not ended[i]:
                r_rewards = np.array([env.rewards[a] for a in env.possible_agents], np.float64)
                finished += 1
            else:
                r_rewards = np.zeros(n, np.float64)
            assert terminated[i] == r_term, f"{where}: terminated {terminated[i]} != reference {r_term}"
            assert truncated[i] == r_trunc, f"{where}: truncated {truncated[i]} != reference {r_trunc}"
            np.testing.assert_array_equal(rewards[i], r_rewards, err_msg=f"{where}: rewards")  # exact, float64
        ended = terminated | truncated
    return finished
