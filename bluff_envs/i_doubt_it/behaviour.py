"""Bluffing and doubting in I Doubt It, per seat, from a replayed record.

* **bluff rate**: plays holding a card not of the claimed rank, out of all plays;
* **bluffs challenged**: bluffs somebody doubted; **bluffs caught**: bluffs turned up (doubted,
  or a last play checked at once) — both out of all bluffs;
* **challenge rate**: "I doubt it" out of all doubt decisions taken;
* **challenge accuracy**: doubts of claims that were in fact bluffs, out of all doubts.
"""

from __future__ import annotations

from collections import Counter

from bluff_envs.behaviour import bluff_and_challenge_rates, ratio
from bluff_envs.i_doubt_it.actions import DONE, DOUBT, DOUBT_OR_PASS
from bluff_envs.records import GameRecord, replay_rules

COLUMNS = (
    ("bluff_rate", "bluff rate"),
    ("bluffs_challenged", "bluffs challenged"),
    ("bluffs_caught", "bluffs caught"),
    ("challenge_rate", "challenge rate"),
    ("challenge_accuracy", "challenge accuracy"),
    ("cards_per_play", "cards per play"),
)


def count(record: GameRecord) -> list[Counter]:
    seats = [Counter() for _ in record.seats]
    claim = None  # (claimer, bluff, doubted, checked) of the play under way

    def settle():
        if claim is not None and claim[1]:
            claimer, _, doubted, checked = claim
            seats[claimer]["bluffs_challenged"] += doubted
            seats[claimer]["bluffs_caught"] += doubted or checked

    for step in replay_rules(record):
        state = step.state
        if step.action == DONE:
            settle()
            p, building = step.seat, state.building
            bluff = building.count != building.chosen[state.required_rank]
            going_out = state.hand_sizes[p] == building.count
            checked = going_out and state.game.config.last_play_checked
            claim = [p, bluff, False, checked]
            seats[p]["plays"] += 1
            seats[p]["cards_played"] += building.count
            seats[p]["bluffs"] += bluff
        elif step.action in DOUBT_OR_PASS:
            me = seats[step.seat]
            me["windows"] += 1
            if step.action == DOUBT:
                me["challenges"] += 1
                me["correct_challenges"] += claim[1]
                claim[2] = True
    settle()
    return seats


def rates(c: Counter) -> dict[str, float | None]:
    return {
        **bluff_and_challenge_rates(c, claims="plays", windows="windows"),
        "cards_per_play": ratio(c["cards_played"], c["plays"]),
    }
