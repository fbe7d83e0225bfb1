"""``learner.symmetric``: the learner plays and learns through its game's symmetry.

Every decision the learner takes is shown to it relabelled (:mod:`bluff_envs.symmetry`): a
relabelling of the ranks drawn per game and decision, the observation and the legal actions
moved by it, and the action the policy picks there moved back before the game takes it. The
learner then plays exactly as ``ppo:<checkpoint>@symmetric`` plays (:mod:`agents.symmetric`),
and PPO improves that policy: the network sees every rank in every role, and nothing rewards it
for treating one rank apart. Its snapshots in the pool and its league's exploiters' targets play
``@symmetric`` too (:class:`~agents.training.vector_learner.VectorLearnerEnv`'s
``symmetric_snapshots``, :mod:`agents.ppo.league`), so the learner meets and is measured as the
agent it will be.

:class:`SymmetricLearner` wraps the learner's ``VecEnv``: observations (and each finished
game's ``terminal_observation``), the masks MaskablePPO asks for (``env_method("action_masks")``
and ``infos[i]["action_mask"]``) and the actions all pass through it. Its draws come from its
own generator, seeded with the run, so a run is reproducible.
"""

from __future__ import annotations

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvWrapper

from bluff_envs.symmetry import Relabelling


class SymmetricLearner(VecEnvWrapper):
    """``venv`` as the learner sees it through ``symmetry``, one relabelling per game and decision."""

    def __init__(self, venv: VecEnv, symmetry: Relabelling, seed: int):
        super().__init__(venv)
        self.symmetry = symmetry
        self.rng = np.random.default_rng(seed)
        self._back = np.tile(np.arange(symmetry.num_actions, dtype=np.int64), (venv.num_envs, 1))
        self._obs_src = np.tile(np.arange(symmetry.observation_size, dtype=np.int64), (venv.num_envs, 1))

    def _redraw(self) -> None:
        sigma = self.symmetry.permutations(self.rng.integers(self.symmetry.count, size=self.num_envs))
        self._obs_src, self._back = self.symmetry.sources(sigma)

    def _shown(self, obs: np.ndarray, src: np.ndarray | None = None) -> np.ndarray:
        return np.take_along_axis(np.asarray(obs), self._obs_src if src is None else src, axis=1)

    def reset(self):
        obs = self.venv.reset()
        self._redraw()
        return self._shown(obs)

    def step_async(self, actions: np.ndarray) -> None:
        chosen = np.asarray(actions, np.int64).reshape(self.num_envs, 1)
        self.venv.step_async(np.take_along_axis(self._back, chosen, axis=1)[:, 0])

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        before = self._obs_src
        for i in np.flatnonzero(dones):  # the game it ended as the learner saw it
            if "terminal_observation" in infos[i]:
                infos[i]["terminal_observation"] = self._shown(infos[i]["terminal_observation"][None], before[i:i + 1])[0]
        self._redraw()
        for i, info in enumerate(infos):
            if "action_mask" in info:
                info["action_mask"] = np.asarray(info["action_mask"])[self._back[i]]
        return self._shown(obs), rewards, dones, infos

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs):
        result = self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)
        if method_name != "action_masks":
            return result
        rows = range(self.num_envs) if indices is None else ([indices] if isinstance(indices, int) else list(indices))
        return [np.asarray(mask)[self._back[i]] for i, mask in zip(rows, result)]

    def action_masks(self) -> np.ndarray:
        return np.stack(self.env_method("action_masks"))
