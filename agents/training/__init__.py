"""Self-play training of MaskablePPO agents for every game (``bluff train``).

* :mod:`~agents.training.learner_env`: one seat of a game as a Gymnasium environment, the other
  seats played by opponents inside ``step()``;
* :mod:`~agents.ppo.vec`: several of them vectorised for SB3 (in-process or subprocesses);
* :mod:`~agents.training.pool`: the opponent pool (fixed agents, learner snapshots; uniform,
  latest-biased or PFSP sampling);
* :mod:`~agents.ppo.warm_start`: optional behaviour cloning of a teacher before self-play;
* :mod:`~agents.training.focus` and :mod:`~agents.training.features`: inputs computed from the
  observation that a plain MLP finds hard (a per-rank field read at the rank that matters; a
  game's derived features, such as Tarneeb's ``card_play``);
* :mod:`~agents.training.evaluate`: the learner against a field, through the tournament engine;
* :mod:`~agents.training.config`: the typed, validated training config (YAML);
* :mod:`~agents.ppo.train`: the training loop (evaluation, TensorBoard, checkpoints,
  resume, progress);
* :mod:`~agents.ppo.checkpoint` and :mod:`~agents.ppo.frozen_policy`: what a run saves,
  and how a saved policy plays (``ppo:<checkpoint>`` agents, see :mod:`agents.ppo.agent`).

Importing this package loads neither PyTorch nor Stable-Baselines3; ``train`` and ``vec`` do.
"""
