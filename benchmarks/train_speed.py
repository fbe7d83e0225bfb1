"""Training speed: `bluff train` on I Doubt It against PettingZoo's SB3 tutorial pattern.

Both sides are timed in the same run, one after the other, as environment steps per second of
``MaskablePPO.learn`` (collecting rollouts *and* the PPO updates):

* **tutorial**: the pattern of PettingZoo's "SB3: action masking" tutorial
  (``tutorials/SB3/connect_four/sb3_connect_four_action_mask.py``) on ``texas_holdem_v4``: the
  AEC env behind ``SB3ActionMaskWrapper`` and ``ActionMasker``, one environment,
  ``MaskablePPO(MaskableActorCriticPolicy, env)`` with its default hyperparameters. The only
  change is that the wrapper also subclasses ``gymnasium.Env``: the tutorial pins
  gymnasium <= 0.29.1, and ``ActionMasker`` refuses anything else under gymnasium 1.x. It is
  timed as the tutorial runs it (PyTorch's default threads) and once more with one PyTorch
  thread, the setting our training uses, so the comparison does not hinge on threads;
* **ours**: ``agents.ppo.train`` with ``experiments/train/i_doubt_it.yaml`` (vectorised
  learner environments against the heuristic pool), evaluation and checkpoints switched off.

And the engines side by side, the same config in the same run (issue 15):

* **reference**: ``engine: reference``: one ``LearnerEnv`` per game on the AEC environments,
  the opponents' decisions by the reference heuristics one at a time;
* **vector**: ``engine: vector`` (the default): the games on ``bluff_envs.vector``, the
  opponents batched (``agents.training.vector_learner``);
* **ceiling**: MaskablePPO itself with the same config (network, PPO settings, ``num_envs``,
  one torch thread) on a ``VecEnv`` whose step costs nothing: it replays observations and
  masks recorded from the game. No environment can make training faster than this.

Run: ``python benchmarks/train_speed.py [--steps N] [--tutorial-steps N] [--engines-only]``.
The targets: ours >= 4x the tutorial; vector >= 2.5x reference and >= 75 % of the ceiling.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tutorial_steps_per_second(steps: int, seed: int, threads: int | None) -> float:
    import gymnasium as gym
    import pettingzoo.utils
    import torch
    from pettingzoo.classic import texas_holdem_v4
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
    from sb3_contrib.common.wrappers import ActionMasker

    class SB3ActionMaskWrapper(pettingzoo.utils.BaseWrapper, gym.Env):
        """The tutorial's wrapper, as written there (plus gym.Env, see the module docstring)."""

        def reset(self, seed=None, options=None):
            super().reset(seed, options)
            self.observation_space = super().observation_space(self.possible_agents[0])["observation"]
            self.action_space = super().action_space(self.possible_agents[0])
            return self.observe(self.agent_selection), {}

        def step(self, action):
            current_agent = self.agent_selection
            super().step(action)
            next_agent = self.agent_selection
            return (
                self.observe(next_agent),
                self._cumulative_rewards[current_agent],
                self.terminations[current_agent],
                self.truncations[current_agent],
                self.infos[current_agent],
            )

        def observe(self, agent):
            return super().observe(agent)["observation"]

        def action_mask(self):
            return super().observe(self.agent_selection)["action_mask"]

    default_threads = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    try:
        env = SB3ActionMaskWrapper(texas_holdem_v4.env())
        env.reset(seed=seed)
        env = ActionMasker(env, lambda e: e.action_mask())
        model = MaskablePPO(MaskableActorCriticPolicy, env, verbose=0)
        model.set_random_seed(seed)
        started = time.perf_counter()
        model.learn(total_timesteps=steps)
        return model.num_timesteps / (time.perf_counter() - started)
    finally:
        torch.set_num_threads(default_threads)


def loop_only(config_path: Path, steps: int, engine: str | None = None):
    """The config with the training loop only: no evaluations, snapshots, checkpoints or warm start."""
    from agents.training.config import load_config

    config = load_config(config_path)
    return config.replace(
        total_steps=steps,
        engine=engine or config.engine,
        eval=replace(config.eval, every=0, deals=1, final_deals=0),
        checkpoint=replace(config.checkpoint, every=10**10),
        opponents=replace(config.opponents, snapshot_every=0),
        warm_start=replace(config.warm_start, teacher=None),
    )


def ours_steps_per_second(steps: int, config_path: Path, engine: str | None = None) -> tuple[float, dict]:
    from agents.ppo.train import train

    config = loop_only(config_path, steps, engine)
    with tempfile.TemporaryDirectory() as run_dir:
        train(config, run_dir, echo=lambda line: None)
        result = json.loads((Path(run_dir) / "result.json").read_text())
    return result["steps_per_second_this_session"], config.to_dict()


def ceiling_steps_per_second(steps: int, config_path: Path) -> float:
    """MaskablePPO with the config's settings on a VecEnv that costs nothing to step."""
    import numpy as np
    import torch
    from stable_baselines3.common.vec_env import VecEnv

    import bluff_envs.vector
    from agents.ppo.train import Trainer

    config = loop_only(config_path, steps)
    B = config.num_envs
    venv = bluff_envs.vector.make(config.game.name, 256, **config.game.options)
    obs, mask, actor = venv.reset(seed=1)
    rng = np.random.default_rng(1)
    bank_obs, bank_mask = [], []
    while sum(len(o) for o in bank_obs) < 4096:  # real observations and masks to replay
        live = actor >= 0
        bank_obs.append(obs[live].copy())
        bank_mask.append(mask[live].copy())
        obs, mask, actor, *_ = venv.step(np.where(mask > 0, rng.random(mask.shape), -1).argmax(1))
    bank_obs, bank_mask = np.concatenate(bank_obs)[:4096], np.concatenate(bank_mask)[:4096]
    raw = bluff_envs.make(config.game.name, raw=True, **config.game.options)
    name = raw.possible_agents[0]

    class Free(VecEnv):
        """Replays the bank: a step is an index increment; every 50th step ends an episode."""

        def __init__(self):
            self.render_mode = None
            super().__init__(B, raw.observation_space(name)["observation"], raw.action_space(name))
            self.t = 0
            self.rewards = np.zeros(B, np.float32)
            self.infos = [{} for _ in range(B)]

        def _rows(self):
            return (self.t * B + np.arange(B)) % len(bank_obs)

        def reset(self):
            return bank_obs[self._rows()]

        def step_async(self, actions):
            pass

        def step_wait(self):
            self.t += 1
            dones = np.full(B, self.t % 50 == 0)
            return bank_obs[self._rows()], self.rewards, dones, self.infos

        def env_method(self, method_name, *args, indices=None, **kwargs):
            return list(bank_mask[self._rows()])

        def has_attr(self, attr_name):
            return attr_name == "action_masks"

        def close(self):
            pass

        def get_attr(self, attr_name, indices=None):
            return [None] * B

        def set_attr(self, attr_name, value, indices=None):
            pass

        def env_is_wrapped(self, wrapper_class, indices=None):
            return [False] * B

    with tempfile.TemporaryDirectory() as run_dir:
        trainer = Trainer(config, Path(run_dir), resume=False, echo=lambda line: None)
        torch.set_num_threads(config.torch_threads)
        model = trainer._new_model(Free())
        model.learn(min(2 * B * config.ppo.n_steps, steps))  # warm up
        started, before = time.perf_counter(), model.num_timesteps
        model.learn(steps, reset_num_timesteps=False)
        trainer._lock.close()
        return (model.num_timesteps - before) / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000, help="steps of our training")
    parser.add_argument("--tutorial-steps", type=int, default=6144, help="steps of the tutorial pattern (3 rollouts and updates)")
    parser.add_argument("--config", type=Path, default=ROOT / "experiments" / "train" / "i_doubt_it.yaml")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engines-only", action="store_true", help="only reference, vector and the ceiling")
    args = parser.parse_args()

    reference, config = ours_steps_per_second(args.steps, args.config, "reference")
    vector, _ = ours_steps_per_second(args.steps, args.config, "vector")
    ceiling = ceiling_steps_per_second(args.steps, args.config)
    what = f"{config['game']['name']}, {config['num_envs']} games vs {', '.join(config['opponents']['fixed'])}"
    print(f"bluff train, {what}, engine reference ({config['vec_env']}): {reference:8,.0f} steps/s")
    print(f"bluff train, {what}, engine vector:               {vector:8,.0f} steps/s")
    print(f"MaskablePPO ceiling (same config, a VecEnv that costs nothing): {ceiling:8,.0f} steps/s")
    print(f"vector: {vector / reference:.2f}x the reference engine (target >= 2.5x), "
          f"{vector / ceiling:.0%} of the ceiling (target >= 75%)")
    if args.engines_only:
        return
    tutorial = tutorial_steps_per_second(args.tutorial_steps, args.seed, threads=None)
    print(f"tutorial pattern, texas_holdem_v4, 1 env, default torch threads: {tutorial:8,.0f} steps/s")
    tutorial_one = tutorial_steps_per_second(args.tutorial_steps, args.seed, threads=1)
    print(f"tutorial pattern, texas_holdem_v4, 1 env, 1 torch thread:        {tutorial_one:8,.0f} steps/s")
    ours = vector
    print(f"speed-up: {ours / tutorial:.1f}x the tutorial as written, {ours / tutorial_one:.1f}x with one thread (target >= 4x)")


if __name__ == "__main__":
    main()
