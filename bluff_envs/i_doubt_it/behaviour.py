"""Bluffing and doubting in I Doubt It, per seat, from a replayed record.

* **bluff rate**: plays holding a card not of the claimed rank, out of all plays;
* **bluffs challenged**: bluffs somebody doubted; **bluffs caught**: bluffs turned up (doubted,
  or a last play checked at once) — both out of all bluffs;
* **challenge rate**: "I doubt it" out of all doubt decisions taken;
* **challenge accuracy**: doubts of claims that were in fact bluffs, out of all doubts;
* **certain / uncertain windows**: a doubt decision is *certain* when the claim is provably false
  from the decider's own observation: the cards of the claimed rank in his hand, his cards
  still in the pile and those he knows other opponents (not the claimer) hold, plus the claimed
  count, exceed the copies of the rank. On the uncertain ones: the base rate of bluffs, the
  challenge rate and accuracy; on the certain ones: how often the false claim was doubted.

:func:`claims` lists every play with the number of its cards (``"1 card"``, ``"2 cards"``, …),
or ``"going out"`` for a play that empties the claimer's hand, and its answer: ``"doubted"``,
``"stood"``, or ``"checked"`` (a going-out play checked at once under ``last_play_checked``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import numpy as np

from bluff_envs.behaviour import (
    CERTAINTY_COLUMNS, CERTAINTY_DETAILS, Claim, Decision, bluff_and_challenge_rates, certainty_rates, ratio,
    window_claims, window_decision,
)
from bluff_envs.i_doubt_it.actions import DONE, DOUBT, DOUBT_OR_PASS
from bluff_envs.records import GameRecord, RulesStep, replay_steps

COLUMNS = (
    ("bluff_rate", "bluff rate"),
    ("bluffs_challenged", "bluffs challenged"),
    ("bluffs_caught", "bluffs caught"),
    ("challenge_rate", "challenge rate"),
    ("challenge_accuracy", "challenge accuracy"),
    ("cards_per_play", "cards per play"),
    *CERTAINTY_COLUMNS,
)
DETAILS = CERTAINTY_DETAILS

STAGE_KINDS = ("card", "cards", "going out")  # "1 card", "2 cards", …
ANSWERS = ("doubted", "stood", "checked")


def provably_false(view: dict[str, np.ndarray], num_players: int, copies: int) -> bool:
    """Whether the latest claim (``history[0]``) is false by a count on the decider's own view."""
    n = num_players
    rank = int(np.argmax(view["claim_rank"]))
    record = view["history"][: n + 1]
    claimer, count = int(np.argmax(record[:n])), int(record[n])
    known = view["known_cards"].reshape(n - 1, -1)
    others = sum(int(known[k, rank]) for k in range(n - 1) if k + 1 != claimer)
    accounted = int(view["hand"][rank]) + int(view["my_cards_in_pile"][rank]) + others
    return accounted + count > copies


def count(record: GameRecord, decisions: list[Decision] | None = None) -> list[Counter]:
    seats = [Counter() for _ in record.seats]
    claim = None  # (claimer, bluff, doubted, checked) of the play under way

    def settle():
        if claim is not None and claim[1]:
            claimer, _, doubted, checked = claim
            seats[claimer]["bluffs_challenged"] += doubted
            seats[claimer]["bluffs_caught"] += doubted or checked

    for step in replay_steps(record):
        env = step.env.unwrapped
        state = env.game_state
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
            c = env.game.config
            certain = provably_false(env.public_view(step.agent), c.num_players, 4 * c.num_decks)
            if decisions is not None:
                decisions.append(Decision(step.seat, claim[0], certain, claim[1], step.action == DOUBT))
            window_decision(seats[step.seat], certain, claim, step.action == DOUBT)
    settle()
    return seats


def claims(record: GameRecord) -> Iterator[Claim]:
    """Every play, staged by its number of cards (or as going out), in game order."""
    return window_claims(record, DONE, DOUBT, "doubted", _staged)


def _staged(step: RulesStep) -> Claim:
    state, building = step.state, step.state.building
    bluff = building.count != building.chosen[state.required_rank]
    if state.hand_sizes[step.seat] == building.count:
        # under last_play_checked nobody is asked: the play is turned up at once
        return Claim(step.seat, "going out", bluff, "checked" if state.game.config.last_play_checked else "stood")
    return Claim(step.seat, f"{building.count} card{'s' if building.count > 1 else ''}", bluff, "stood")


def rates(c: Counter) -> dict[str, float | None]:
    return {
        **bluff_and_challenge_rates(c, claims="plays", windows="windows"),
        "cards_per_play": ratio(c["cards_played"], c["plays"]),
        **certainty_rates(c),
    }
