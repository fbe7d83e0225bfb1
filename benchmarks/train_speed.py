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

Run: ``python benchmarks/train_speed.py [--steps N] [--tutorial-steps N]``. The target is
ours >= 4x the tutorial.
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


def ours_steps_per_second(steps: int, config_path: Path) -> tuple[float, dict]:
    from agents.training.config import load_config
    from agents.ppo.train import train

    config = load_config(config_path)
    config = config.replace(  # the training loop only: no evaluations, snapshots, checkpoints or warm start
        total_steps=steps,
        eval=replace(config.eval, every=0, deals=1, final_deals=0),
        checkpoint=replace(config.checkpoint, every=10**12),
        opponents=replace(config.opponents, snapshot_every=0),
        warm_start=replace(config.warm_start, teacher=None),
    )
    with tempfile.TemporaryDirectory() as run_dir:
        train(config, run_dir, echo=lambda line: None)
        result = json.loads((Path(run_dir) / "result.json").read_text())
    return result["steps_per_second_this_session"], config.to_dict()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100_000, help="steps of our training")
    parser.add_argument("--tutorial-steps", type=int, default=6144, help="steps of the tutorial pattern (3 rollouts and updates)")
    parser.add_argument("--config", type=Path, default=ROOT / "experiments" / "train" / "i_doubt_it.yaml")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    tutorial = tutorial_steps_per_second(args.tutorial_steps, args.seed, threads=None)
    print(f"tutorial pattern, texas_holdem_v4, 1 env, default torch threads: {tutorial:8,.0f} steps/s")
    tutorial_one = tutorial_steps_per_second(args.tutorial_steps, args.seed, threads=1)
    print(f"tutorial pattern, texas_holdem_v4, 1 env, 1 torch thread:        {tutorial_one:8,.0f} steps/s")
    ours, config = ours_steps_per_second(args.steps, args.config)
    print(
        f"bluff train, i_doubt_it, {config['num_envs']} {config['vec_env']} envs vs {', '.join(config['opponents']['fixed'])}: "
        f"{ours:8,.0f} steps/s"
    )
    print(f"speed-up: {ours / tutorial:.1f}x the tutorial as written, {ours / tutorial_one:.1f}x with one thread (target >= 4x)")


if __name__ == "__main__":
    main()
