"""The actions and phases of I Doubt It: ids, names and the fixed legal sets.

"add <rank>" for each rank 2 … A builds a play (``ADD0 + rank``), "done" discards it; "doubt"
and "pass" are the decisions of the doubt window.
"""

from __future__ import annotations

from bluff_envs.cards import NUM_RANKS, RANKS

ADD0 = 0
DONE, DOUBT, PASS = ADD0 + NUM_RANKS, ADD0 + NUM_RANKS + 1, ADD0 + NUM_RANKS + 2
ACTION_NAMES = tuple(f"add {r}" for r in RANKS) + ("done", "doubt", "pass")
DOUBT_OR_PASS = (DOUBT, PASS)  # one object, so the adapter can reuse its mask

# Phases: whose decision it is (the one-hot "phase" of the observation).
PLAY, DOUBT_WINDOW = 0, 1
PHASE_NAMES = ("play", "doubt window")
