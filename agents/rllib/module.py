"""PPO's default torch RLModule with action masking, for RLlib's new API stack.

The same design as RLlib's own action-masking example (``ActionMaskingTorchRLModule``): the
module is built for the adapter's ``Dict(observations, action_mask)`` space, its networks
see only ``observations``, and illegal actions get a logit of ``FLOAT_MIN`` after every
forward pass, so they are never sampled during exploration, never chosen at inference and
carry no probability in the PPO loss. One difference: a row whose mask is all zeros (the last
observation of a finished game, which RLlib only ever values, never acts on) is left unmasked,
so that no row of the batch is all ``FLOAT_MIN``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.utils.torch_utils import FLOAT_MIN

from agents.rllib.env import ACTION_MASK, OBSERVATIONS


class ActionMaskingPPOModule(DefaultPPOTorchRLModule):
    """PPO's actor-critic over ``observations``, with ``action_mask`` applied to the logits."""

    def __init__(self, *, observation_space: gym.Space | None = None, **kwargs: Any):
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space) != {OBSERVATIONS, ACTION_MASK}:
            raise ValueError(
                f"ActionMaskingPPOModule needs a Dict({OBSERVATIONS}=..., {ACTION_MASK}=...) observation space "
                f"(agents.rllib.env gives one), not {observation_space}"
            )
        self.observation_space_with_mask = observation_space
        # the default PPO networks are built for the observation vector alone
        super().__init__(observation_space=observation_space[OBSERVATIONS], **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self.observation_space_with_mask

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        mask, batch = _split(batch)
        return _masked(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        mask, batch = _split(batch)
        return _masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None):
        if embeddings is None:
            _, batch = _split(batch)
        return super().compute_values(batch, embeddings)


def _split(batch: dict[str, Any]):
    """``(mask, batch with the observation vector as its observations)``; the caller's batch is
    left as it is (RLlib reuses it for the value function)."""
    observation = batch[Columns.OBS]
    if not isinstance(observation, dict):  # already split
        return batch.get(ACTION_MASK), batch
    split = dict(batch)
    split[Columns.OBS] = observation[OBSERVATIONS]
    split[ACTION_MASK] = observation[ACTION_MASK]
    return observation[ACTION_MASK], split


def _masked(output: dict[str, Any], mask) -> dict[str, Any]:
    if mask is None:
        return output
    mask = mask.to(output[Columns.ACTION_DIST_INPUTS].dtype)
    mask = torch.where(mask.sum(dim=-1, keepdim=True) > 0, mask, torch.ones_like(mask))
    output[Columns.ACTION_DIST_INPUTS] = output[Columns.ACTION_DIST_INPUTS] + torch.clamp(torch.log(mask), min=FLOAT_MIN)
    return output
