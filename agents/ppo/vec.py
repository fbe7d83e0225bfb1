"""Vectorised learner environments for SB3: several games at once, in subprocesses or not.

MaskablePPO asks every vectorised environment for its action masks before each step, which
under ``SubprocVecEnv`` is one more message round trip per step and environment. Our
environments already put the next mask into every ``info`` (and into the reset info after an
automatic reset), so :class:`MaskFromInfo` answers ``env_method("action_masks")`` from those
instead, halving the traffic.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv, VecEnvWrapper, VecMonitor

import bluff_envs
from agents.registry import HEURISTICS_PACKAGE
from agents.training.learner_env import LearnerEnv

VEC_ENVS = ("subproc", "dummy")


class MaskFromInfo(VecEnvWrapper):
    """Keeps the latest action mask of every environment from the step and reset infos."""

    def __init__(self, venv: VecEnv):
        super().__init__(venv)
        self.masks: list[np.ndarray] = []

    def reset(self):
        observations = self.venv.reset()
        self.masks = [info["action_mask"] for info in self.venv.reset_infos]
        return observations

    def step_wait(self):
        observations, rewards, dones, infos = self.venv.step_wait()
        reset_infos = self.venv.reset_infos
        self.masks = [reset_infos[i]["action_mask"] if done else info["action_mask"] for i, (done, info) in enumerate(zip(dones, infos))]
        return observations, rewards, dones, infos

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list[Any]:
        if method_name == "action_masks" and not args and not kwargs:
            chosen = range(self.num_envs) if indices is None else self._get_indices(indices)
            return [self.masks[i] for i in chosen]
        return self.venv.env_method(method_name, *args, indices=indices, **kwargs)

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or self.venv.has_attr(attr_name)


def learner_env_factory(game: str, options: dict, opponents: dict | Sequence, seed: int, first_seat: int, torch_threads: int = 1, **settings) -> Callable[[], LearnerEnv]:
    """A picklable constructor for one learner environment (what ``SubprocVecEnv`` wants)."""

    def build() -> LearnerEnv:
        try:  # a worker process runs numpy policies only: keep torch from taking every core
            import torch

            torch.set_num_threads(torch_threads)
        except ImportError:
            pass
        return LearnerEnv(game, options, opponents, seed=seed, first_seat=first_seat, **settings)

    return build


def make_vec_env(
    game: str,
    options: dict,
    opponents: dict | Sequence,
    *,
    num_envs: int,
    seeds: Sequence[int],
    kind: str = "subproc",
    **settings,
) -> VecEnv:
    """``num_envs`` learner environments, each starting at another seat and from its own seed
    (see :class:`agents.training.seeds.RunSeeds`), wrapped for MaskablePPO (masks from infos)
    and for episode statistics (``VecMonitor``)."""
    if kind not in VEC_ENVS:
        raise ValueError(f"vec_env={kind!r} is not known; use one of {', '.join(VEC_ENVS)}")
    if len(seeds) != num_envs:
        raise ValueError(f"make_vec_env needs one seed per environment ({num_envs}), got {len(seeds)}")
    factories = [learner_env_factory(game, options, opponents, seeds[i], first_seat=i, **settings) for i in range(num_envs)]
    if kind == "subproc" and num_envs > 1:
        _preload_forkserver(game)
        venv = SubprocVecEnv(factories, start_method="forkserver")
    else:
        venv = DummyVecEnv(factories)
    return VecMonitor(MaskFromInfo(venv))


def _preload_forkserver(game: str) -> None:
    """Import the heavy modules once in the fork server, so that each worker forks from it
    ready to run instead of importing PyTorch and SB3 on its own (seconds per worker)."""
    key = bluff_envs.game_key(game)
    modules = ["stable_baselines3.common.vec_env.subproc_vec_env", "agents.training.learner_env", bluff_envs.GAMES[key]]
    heuristics = f"{HEURISTICS_PACKAGE}.{key}"
    if importlib.util.find_spec(heuristics) is not None:
        modules.append(heuristics)
    multiprocessing.set_forkserver_preload(modules)
