"""Training, independent of the algorithm: what MaskablePPO (:mod:`agents.ppo`) and RLlib
(:mod:`agents.rllib`) both build on.

* :mod:`~agents.training.learner_env`: one seat of a game as a Gymnasium environment, the other
  seats played by opponents inside ``step()``;
* :mod:`~agents.training.pool`: the opponent pool (fixed agents, learner snapshots; uniform,
  latest-biased or PFSP sampling);
* :mod:`~agents.training.focus` and :mod:`~agents.training.features`: inputs computed from the
  observation that a plain MLP finds hard (a per-rank field read at the rank that matters; a
  game's derived features, such as Tarneeb's ``card_play``);
* :mod:`~agents.training.evaluate`: the learner against a field, through the arena;
* :mod:`~agents.training.seeds`: every seed of a run, from one ``SeedSequence``;
* :mod:`~agents.training.config_loader` and :mod:`~agents.training.config`: the one loader of
  every YAML config file of the project, and the training config;
* :mod:`~agents.training.run_dir`: run directories (one writer at a time, names kept inside).

Importing this package loads neither PyTorch nor Stable-Baselines3.
"""
