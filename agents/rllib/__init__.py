"""RLlib training for every game (the optional ``ray`` extra: ``pip install -e ".[ray]"``).

* :mod:`~agents.rllib.env`: our AEC games as RLlib multi-agent environments with action masks;
* :mod:`~agents.rllib.module`: PPO's torch RLModule with the mask applied to its logits;
* :mod:`~agents.rllib.config` and :mod:`~agents.rllib.train`: ``algorithm: rllib`` training
  configs (``experiments/train/rllib_*.yaml``) and the training loop, which writes checkpoints
  that play in tournaments as ``rllib:<path>`` agents (:mod:`agents.rllib.agent`).

Importing this package loads nothing of Ray; its modules do.
"""
