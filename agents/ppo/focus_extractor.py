"""Focus and derived features (:mod:`agents.training.focus`, :mod:`agents.training.features`)
as an SB3 features extractor, for training.

Kept apart from those modules so that playing a checkpoint never imports torch.
"""

from __future__ import annotations

import numpy as np
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from agents.training.features import Features


class FocusExtractor(BaseFeaturesExtractor):
    """The flat observation, then its focus features (index pairs from
    :func:`agents.training.focus.focus_pairs`), then its derived features (``features``:
    :meth:`Features.to_dict`), in the order :class:`~agents.ppo.frozen_policy.FrozenPolicy`
    computes them. Derived features are numpy functions of the observation: no gradient flows
    through them, and none needs to."""

    def __init__(self, observation_space, left: list[list[int]], right: list[list[int]], features: dict | None = None):
        self.features = None if features is None else Features.from_dict(features)
        extra = len(left) + (0 if self.features is None else self.features.size)
        super().__init__(observation_space, int(observation_space.shape[0]) + extra)
        self.register_buffer("left", _pairs(left))
        self.register_buffer("right", _pairs(right))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        x = observations.float()
        parts = [x, (x[:, self.left] * x[:, self.right]).sum(-1)]
        if self.features is not None:
            parts.append(torch.from_numpy(self.features(x.detach().cpu().numpy())).to(x.device))
        return torch.cat(parts, dim=1)


def _pairs(rows: list[list[int]]) -> torch.Tensor:
    """Index rows as a (features, width) tensor; (0, 1) when there are none."""
    return torch.as_tensor(np.asarray(rows, np.int64).reshape(len(rows), -1) if len(rows) else np.zeros((0, 1), np.int64))
