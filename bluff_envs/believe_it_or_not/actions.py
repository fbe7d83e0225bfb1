"""The actions and phases of Believe It or Not: ids, names and the fixed legal sets.

"name <rank>" (``NAME0 + rank``) is the leader's choice of the round's rank; "add <rank>"
(``ADD0 + rank``) builds a play and "done" puts it down; "believe" and "disbelieve" are the
calls that turn up the most recent play.
"""

from __future__ import annotations

from bluff_envs.cards import NUM_RANKS, RANKS

NAME0 = 0
ADD0 = NUM_RANKS
DONE = 2 * NUM_RANKS
BELIEVE, DISBELIEVE = DONE + 1, DONE + 2
ACTION_NAMES = (
    tuple(f"name {r}" for r in RANKS) + tuple(f"add {r}" for r in RANKS) + ("done", "believe", "disbelieve")
)
CALLS = (BELIEVE, DISBELIEVE)  # one object, so the adapter can reuse its mask

# Phases: whose decision it is (the one-hot "phase" of the observation).
NAME, BUILD, RESPOND = 0, 1, 2
PHASE_NAMES = ("name", "build", "respond")
