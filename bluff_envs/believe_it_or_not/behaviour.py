"""Bluffing, believing and disbelieving in Believe It or Not, per seat, from a replayed record.

* **bluff rate**: plays holding a card not of the round's rank, out of all plays;
* **bluffs challenged**: bluffs answered "don't believe"; **bluffs caught**: bluffs turned up
  by either call (a believed bluff is turned up too, but the believer takes the pile) — out
  of all bluffs; bluffs covered by a later play are never turned up;
* **challenge rate**: "don't believe" out of all responses (add, believe, don't believe);
* **challenge accuracy**: "don't believe" to plays that were in fact bluffs, out of all of them;
* **believe rate** and **believe accuracy**: the same for "believe" (right when the play was honest).
"""

from __future__ import annotations

from collections import Counter

from bluff_envs.behaviour import bluff_and_challenge_rates, ratio
from bluff_envs.believe_it_or_not.actions import CALLS, DISBELIEVE, DONE, RESPOND
from bluff_envs.records import GameRecord, replay_rules

COLUMNS = (
    ("bluff_rate", "bluff rate"),
    ("bluffs_challenged", "bluffs challenged"),
    ("bluffs_caught", "bluffs caught"),
    ("challenge_rate", "challenge rate"),
    ("challenge_accuracy", "challenge accuracy"),
    ("believe_rate", "believe rate"),
    ("believe_accuracy", "believe accuracy"),
    ("cards_per_play", "cards per play"),
)


def count(record: GameRecord) -> list[Counter]:
    seats = [Counter() for _ in record.seats]
    last = None  # (maker, bluff) of the most recent play

    for step in replay_rules(record):
        state = step.state
        me = seats[step.seat]
        if state.phase == RESPOND:
            me["responses"] += 1
        if step.action == DONE:
            building = state.building
            bluff = building.count != building.chosen[state.round_rank]
            last = (step.seat, bluff)
            me["plays"] += 1
            me["cards_played"] += building.count
            me["bluffs"] += bluff
        elif step.action in CALLS:
            maker, bluff = last
            seats[maker]["bluffs_caught"] += bluff
            if step.action == DISBELIEVE:
                seats[maker]["bluffs_challenged"] += bluff
                me["challenges"] += 1
                me["correct_challenges"] += bluff
            else:
                me["believes"] += 1
                me["correct_believes"] += not bluff
            last = None
    return seats


def rates(c: Counter) -> dict[str, float | None]:
    return {
        **bluff_and_challenge_rates(c, claims="plays", windows="responses"),
        "believe_rate": ratio(c["believes"], c["responses"]),
        "believe_accuracy": ratio(c["correct_believes"], c["believes"]),
        "cards_per_play": ratio(c["cards_played"], c["plays"]),
    }
