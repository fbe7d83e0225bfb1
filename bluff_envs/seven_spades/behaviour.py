"""Claiming and challenging in Seven Spades, per seat, from a replayed record.

* **claim rate**: face-down claims out of all turns (a drawn card either claimed or discarded);
* **bluff rate**: face-down claims of a card that is not a spade, out of all face-down claims;
* **bluffs challenged**: bluffs somebody challenged; **bluffs caught**: bluffs turned up (in
  this game every challenge turns the card up, so the two agree) — out of all bluffs;
* **challenge rate**: challenges out of all challenge decisions taken;
* **challenge accuracy**: challenges of claims that were in fact bluffs, out of all challenges.
"""

from __future__ import annotations

from collections import Counter

from bluff_envs.behaviour import bluff_and_challenge_rates, ratio
from bluff_envs.cards import SPADES
from bluff_envs.records import GameRecord, replay_rules
from bluff_envs.seven_spades.actions import CHALLENGE, CHALLENGE_OR_PASS, CLAIM, PLAY

COLUMNS = (
    ("claim_rate", "claim rate"),
    ("bluff_rate", "bluff rate"),
    ("bluffs_challenged", "bluffs challenged"),
    ("bluffs_caught", "bluffs caught"),
    ("challenge_rate", "challenge rate"),
    ("challenge_accuracy", "challenge accuracy"),
)


def count(record: GameRecord) -> list[Counter]:
    seats = [Counter() for _ in record.seats]
    claim = None  # [claimer, bluff, challenged] of the claim under challenge

    def settle():
        if claim is not None and claim[1]:
            seats[claim[0]]["bluffs_challenged"] += claim[2]
            seats[claim[0]]["bluffs_caught"] += claim[2]

    for step in replay_rules(record):
        state = step.state
        me = seats[step.seat]
        if state.phase == PLAY:  # discard, claim or the final spade
            me["turns"] += 1
        if step.action == CLAIM:
            settle()
            bluff = state.drawn & 3 != SPADES
            claim = [step.seat, bluff, False]
            me["claims"] += 1
            me["bluffs"] += bluff
        elif step.action in CHALLENGE_OR_PASS:
            me["windows"] += 1
            if step.action == CHALLENGE:
                me["challenges"] += 1
                me["correct_challenges"] += claim[1]
                claim[2] = True
    settle()
    return seats


def rates(c: Counter) -> dict[str, float | None]:
    return {
        "claim_rate": ratio(c["claims"], c["turns"]),
        **bluff_and_challenge_rates(c, claims="claims", windows="windows"),
    }
