"""Claiming and challenging in Seven Spades, per seat, from a replayed record.

* **claim rate**: face-down claims out of all turns (a drawn card either claimed or discarded);
* **bluff rate**: face-down claims of a card that is not a spade, out of all face-down claims;
* **bluffs challenged**: bluffs somebody challenged; **bluffs caught**: bluffs turned up (in
  this game every challenge turns the card up, so the two agree) — out of all bluffs;
* **challenge rate**: challenges out of all challenge decisions taken;
* **challenge accuracy**: challenges of claims that were in fact bluffs, out of all challenges;
* **certain / uncertain windows**: a challenge decision is *certain* when the claim is provably
  false from the decider's own observation: every copy of every spade is accounted for by the
  cards seen face up, his own face-down row and the card he holds. On the uncertain ones: the
  base rate of bluffs, the challenge rate and accuracy; on the certain ones: how often the
  false claim was challenged.

:func:`claims` lists every face-down claim with the claimer's row length before it
(``"row 0"``, …) and its answer, ``"challenged"`` or ``"stood"``; the final face-up spade is
no claim (it cannot be a bluff).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import numpy as np

from bluff_envs.behaviour import (
    CERTAINTY_COLUMNS, CERTAINTY_DETAILS, Claim, Decision, bluff_and_challenge_rates, certainty_rates, ratio,
    window_claims, window_decision,
)
from bluff_envs.cards import SPADES
from bluff_envs.records import GameRecord, RulesStep, replay_steps
from bluff_envs.seven_spades.actions import CHALLENGE, CHALLENGE_OR_PASS, CLAIM, PLAY

COLUMNS = (
    ("claim_rate", "claim rate"),
    ("bluff_rate", "bluff rate"),
    ("bluffs_challenged", "bluffs challenged"),
    ("bluffs_caught", "bluffs caught"),
    ("challenge_rate", "challenge rate"),
    ("challenge_accuracy", "challenge accuracy"),
    *CERTAINTY_COLUMNS,
)
DETAILS = CERTAINTY_DETAILS

STAGE_KINDS = ("row",)
ANSWERS = ("challenged", "stood")

_SPADE_IDS = np.arange(SPADES, 52, 4)  # card id = rank * 4 + suit


def provably_false(view: dict[str, np.ndarray], num_decks: int) -> bool:
    """Whether the claim under challenge (a face-down spade) is false by a count on the
    decider's own view: no copy of any spade is left unaccounted for."""
    accounted = view["seen"] + view["my_row"] + view["drawn"]
    return bool(np.all(accounted[_SPADE_IDS] >= num_decks))


def count(record: GameRecord, decisions: list[Decision] | None = None) -> list[Counter]:
    seats = [Counter() for _ in record.seats]
    claim = None  # [claimer, bluff, challenged] of the claim under challenge

    def settle():
        if claim is not None and claim[1]:
            seats[claim[0]]["bluffs_challenged"] += claim[2]
            seats[claim[0]]["bluffs_caught"] += claim[2]

    for step in replay_steps(record):
        env = step.env.unwrapped
        state = env.game_state
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
            certain = provably_false(env.public_view(step.agent), env.game.config.num_decks)
            if decisions is not None:
                decisions.append(Decision(step.seat, claim[0], certain, claim[1], step.action == CHALLENGE))
            window_decision(me, certain, claim, step.action == CHALLENGE)
    settle()
    return seats


def claims(record: GameRecord) -> Iterator[Claim]:
    """Every face-down claim, staged by the claimer's row length before it, in game order."""
    return window_claims(record, CLAIM, CHALLENGE, "challenged", _staged)


def _staged(step: RulesStep) -> Claim:
    state = step.state
    return Claim(step.seat, f"row {state.row_length[step.seat]}", state.drawn & 3 != SPADES, "stood")


def rates(c: Counter) -> dict[str, float | None]:
    return {
        "claim_rate": ratio(c["claims"], c["turns"]),
        **bluff_and_challenge_rates(c, claims="claims", windows="windows"),
        **certainty_rates(c),
    }
