"""Playing agents against each other (the library's ``evaluate_bots``): which games a schedule
holds (:mod:`~agents.arena.schedule`), how one game is played and recorded
(:mod:`~agents.arena.match`), where batches of games run (:mod:`~agents.arena.executor`, local
processes; :mod:`~agents.arena.ray_executor`, Ray), what the records say
(:mod:`~agents.arena.stats`; behaviour statistics with their intervals,
:mod:`~agents.arena.behaviour`), and in-memory evaluation (:mod:`~agents.arena.evaluate`).
Tournaments with run directories and reports are built on it in ``experiments.tournament``.
"""
