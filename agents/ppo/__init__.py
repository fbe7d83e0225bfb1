"""Self-play training with sb3-contrib's MaskablePPO (``bluff train``) and the agents it makes.

* :mod:`~agents.ppo.train`: the training loop (warm start, evaluation, TensorBoard,
  checkpoints, exact resume, progress);
* :mod:`~agents.ppo.vec`: learner environments vectorised for SB3;
* :mod:`~agents.ppo.warm_start`: behaviour cloning of a teacher (and DAgger rounds) first;
* :mod:`~agents.ppo.checkpoint`: what a run saves, pickle-free (JSON, arrays, weights-only
  tensors), and how it is read back;
* :mod:`~agents.ppo.frozen_policy` and :mod:`~agents.ppo.agent`: a saved policy as numpy arrays,
  and the ``ppo:<checkpoint>`` agent that plays it without PyTorch;
* :mod:`~agents.ppo.focus_extractor`: the focus and derived features inside the SB3 policy.
"""
