"""Agents trained with RLlib: the spec ``rllib:<checkpoint folder or run directory>``.

The checkpoint's RLModule (restored with ``RLModule.from_checkpoint``, no Ray instance needed)
scores the actions of each observation and the agent samples a legal action from them (its mixed
strategy, reproducible given its seed), or with ``rllib:<path>@greedy`` takes the highest. A checkpoint trained on another game, env
version or options is refused with a ``ValueError`` that names the difference. Needs the
optional ``ray`` extra (``pip install -e ".[ray]"``), imported on first use. RLlib checkpoints
are pickles: they load only with the trust switch (:mod:`agents.trust`, ``BLUFF_TRUST_PICKLE=1``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agents.base import GREEDY, Agent, GameInfo, check_policy_fits, play_mode, require_legal

_MODULES: dict[Path, Any] = {}  # loaded once per process: every seat of a tournament shares one


class RLlibAgent(Agent):
    """A trained RLlib policy (an :class:`~agents.rllib.module.ActionMaskingPPOModule`). By
    default it draws from the masked softmax with this agent's seeded generator (its mixed
    strategy); ``sample=False`` (spec ``rllib:<path>@greedy``) takes the highest score."""

    name = "rllib"

    def __init__(self, game: GameInfo, module, seed: int | None = None, *, sample: bool = True, name: str = "rllib"):
        super().__init__(game, seed)
        inner = module.observation_space["observations"]
        check_policy_fits(game, inner.shape[0] if len(inner.shape) == 1 else -1, module.action_space.n)
        self.module = module
        self.sample = sample
        self.name = name

    def act(self, observation, view=None) -> int:
        mask = require_legal(observation, self.name)
        scores = self.scores(observation["observation"][None], mask[None])[0]
        if not self.sample:
            return int(np.argmax(scores))
        legal = np.flatnonzero(mask)
        p = np.exp(scores[legal] - scores[legal].max())
        return int(legal[self.rng.choice(len(legal), p=p / p.sum())])

    def scores(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The module's masked logits for rows of observations (illegal actions: very negative)."""
        import torch
        from ray.rllib.core.columns import Columns

        batch = {Columns.OBS: {"observations": torch.from_numpy(np.asarray(observations, np.float32)),
                               "action_mask": torch.from_numpy(np.asarray(masks, np.float32))}}
        with torch.inference_mode():
            out = self.module.forward_inference(batch)
        return out[Columns.ACTION_DIST_INPUTS].numpy()


def load(path: str, game: GameInfo, seed: int | None = None) -> RLlibAgent:
    """The agent of spec ``rllib:<path>``: a checkpoint folder, or a run directory (its newest
    checkpoint). ``ValueError`` if it was trained for another game, version or options."""
    location, greedy, temperature, symmetric, plain = play_mode(path)
    if temperature != 1.0 or symmetric or plain:
        raise ValueError(f"rllib:{path}: a temperature, @symmetric or @plain is for ppo: agents; allowed: rllib:<path> or "
                         "rllib:<path>@greedy")
    if not location:
        raise ValueError("spec 'rllib:<path>' needs a checkpoint, e.g. rllib:runs/train/rllib_i_doubt_it_seed0")
    from agents.rllib import checkpoint

    folder = checkpoint.resolve(location)
    meta = checkpoint.read_metadata(folder)
    checkpoint.check_compatible(meta, game, source=f"checkpoint {folder}")
    name = f"rllib:{Path(location)}" + (GREEDY if greedy else "")
    return RLlibAgent(game, load_module(checkpoint.module_path(folder, meta)), seed, sample=not greedy, name=name)


def load_module(path: Path):
    """The RLModule saved at ``path`` (cached per process)."""
    key = Path(path).resolve()
    if key not in _MODULES:
        from agents.trust import require_pickle_trust

        require_pickle_trust(f"RLlib checkpoint {key}")  # from_checkpoint unpickles the module's class
        try:
            from ray.rllib.core.rl_module.rl_module import RLModule
        except ImportError:
            raise ImportError('rllib: agents need Ray RLlib: pip install -e ".[ray]"') from None
        module = RLModule.from_checkpoint(str(key))
        module.eval()
        _MODULES[key] = module
    return _MODULES[key]
