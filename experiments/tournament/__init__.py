"""Tournaments between agents: duplicate deals, seat rotation, resumable, parallel.

``bluff tournament <config.yaml>`` holds one from a config (:mod:`.config`); from Python:

* :func:`run_tournament` — a whole tournament in a run directory (resumable, with report);
* :func:`~agents.arena.evaluate.evaluate` — "play these agents on N duplicate deals and tell
  me how each did", in memory (the arena, below this layer).
"""

from __future__ import annotations

from agents.arena.evaluate import evaluate
from experiments.tournament.config import ConfigError, TournamentConfig
from experiments.tournament.runner import run_tournament

__all__ = ["ConfigError", "TournamentConfig", "evaluate", "run_tournament"]
