"""The focus features (:mod:`agents.training.focus`) as an SB3 features extractor, for training.

Kept apart from :mod:`agents.training.focus` so that playing a checkpoint never imports torch.
"""

from __future__ import annotations

import numpy as np
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor


class FocusExtractor(BaseFeaturesExtractor):
    """The flat observation followed by its focus features (index pairs from
    :func:`agents.training.focus.focus_pairs`)."""

    def __init__(self, observation_space, left: list[list[int]], right: list[list[int]]):
        super().__init__(observation_space, int(observation_space.shape[0]) + len(left))
        self.register_buffer("left", torch.as_tensor(np.asarray(left, np.int64).reshape(len(left), -1)))
        self.register_buffer("right", torch.as_tensor(np.asarray(right, np.int64).reshape(len(right), -1)))

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        x = observations.float()
        return torch.cat([x, (x[:, self.left] * x[:, self.right]).sum(-1)], dim=1)
