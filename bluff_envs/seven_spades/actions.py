"""The actions and phases of Seven Spades: the vocabulary every other part speaks.

The action table is documented in ``bluff_envs/seven_spades_v0.py``. The fixed legal sets are
one object each, so that the adapter can reuse the mask it built for one of them.
"""

from __future__ import annotations

DISCARD, CLAIM, CLAIM_FACE_UP, CHALLENGE, PASS = range(5)
ACTION_NAMES = ("discard", "claim", "claim face up", "challenge", "pass")

# the legal sets
DISCARD_OR_CLAIM = (DISCARD, CLAIM)
FINAL_SPADE = (DISCARD, CLAIM_FACE_UP)  # at target-1 holding a real spade
DISCARD_ONLY = (DISCARD,)  # at target-1 holding anything else
CHALLENGE_OR_PASS = (CHALLENGE, PASS)

# phases: whose decision it is (the observation's ``phase`` one-hot, in this order)
PLAY, CHALLENGE_WINDOW = 0, 1
PHASE_NAMES = ("play", "challenge window")
