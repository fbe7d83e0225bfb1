"""Bluffing, believing and disbelieving in Believe It or Not, per seat, from a replayed record.

* **bluff rate**: plays holding a card not of the round's rank, out of all plays;
* **bluffs challenged**: bluffs answered "don't believe"; **bluffs caught**: bluffs turned up
  by either call (a believed bluff is turned up too, but the believer takes the pile) — out
  of all bluffs; bluffs covered by a later play are never turned up;
* **challenge rate**: "don't believe" out of all responses (add, believe, don't believe);
* **challenge accuracy**: "don't believe" to plays that were in fact bluffs, out of all of them;
* **believe rate** and **believe accuracy**: the same for "believe" (right when the play was honest);
* **certain / uncertain windows**: a response is *certain* when the play under judgement is
  provably false from the responder's own observation: the cards of the round's rank in his
  hand, his cards in this round's pile, those he knows are out of play and those he knows other
  opponents (not the maker) hold, plus the cards played, exceed the copies of the rank. On the
  uncertain ones: the base rate of bluffs, the challenge ("don't believe") rate and accuracy;
  on the certain ones: how often the false play was disbelieved.

:func:`claims` lists every play as ``"lead N"`` (the round's first) or ``"add N"`` (N cards)
with the next player's answer to it: ``"added"`` (he covered it with a play of his own),
``"believed"`` or ``"disbelieved"``; a play the game ended on before any answer (truncated at
``max_turns``) is ``"unanswered"``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import numpy as np

from bluff_envs.behaviour import (
    CERTAINTY_COLUMNS, CERTAINTY_DETAILS, Claim, Decision, bluff_and_challenge_rates, certainty_rates, judged, ratio,
)
from bluff_envs.believe_it_or_not.actions import BELIEVE, CALLS, DISBELIEVE, DONE, RESPOND
from bluff_envs.records import GameRecord, replay_rules, replay_steps

COLUMNS = (
    ("bluff_rate", "bluff rate"),
    ("bluffs_challenged", "bluffs challenged"),
    ("bluffs_caught", "bluffs caught"),
    ("challenge_rate", "challenge rate"),
    ("challenge_accuracy", "challenge accuracy"),
    ("believe_rate", "believe rate"),
    ("believe_accuracy", "believe accuracy"),
    ("cards_per_play", "cards per play"),
    *CERTAINTY_COLUMNS,
)
DETAILS = CERTAINTY_DETAILS

STAGE_KINDS = ("lead", "add")
ANSWERS = ("added", "believed", "disbelieved")  # and "unanswered", which a truncated game may leave


def provably_false(view: dict[str, np.ndarray], num_players: int, copies: int) -> bool:
    """Whether the most recent play is false by a count on the responder's own view."""
    n = num_players
    rank = int(np.argmax(view["round_rank"]))
    maker, count = int(np.argmax(view["last_play_by"])), int(view["last_play_size"][0])
    known = view["known_cards"].reshape(n - 1, -1)
    others = sum(int(known[k, rank]) for k in range(n - 1) if k + 1 != maker)
    accounted = (int(view["hand"][rank]) + int(view["my_cards_in_pile"][rank])
                 + int(view["out_of_play_known"][rank]) + others)
    return accounted + count > copies


def count(record: GameRecord, decisions: list[Decision] | None = None) -> list[Counter]:
    seats = [Counter() for _ in record.seats]
    last = None  # (maker, bluff) of the most recent play

    for step in replay_steps(record):
        env = step.env.unwrapped
        state = env.game_state
        me = seats[step.seat]
        if state.phase == RESPOND:
            me["responses"] += 1
            c = env.game.config
            certain = provably_false(env.public_view(step.agent), c.num_players, 4 * c.num_decks)
            judged(me, certain, last[1], step.action == DISBELIEVE)
            if decisions is not None:
                decisions.append(Decision(step.seat, last[0], certain, last[1], step.action == DISBELIEVE))
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


def claims(record: GameRecord) -> Iterator[Claim]:
    """Every play, staged as the round's lead or an added play of N cards, in game order."""
    play = None  # the round's most recent play, awaiting the next player's answer
    for step in replay_rules(record):
        state = step.state
        if step.action == DONE:
            if play is not None:
                yield play._replace(answer="added")
            building = state.building
            kind = "lead" if state.last_play is None else "add"
            bluff = building.count != building.chosen[state.round_rank]
            play = Claim(step.seat, f"{kind} {building.count}", bluff, "unanswered")
        elif step.action in CALLS and play is not None:
            yield play._replace(answer="believed" if step.action == BELIEVE else "disbelieved")
            play = None
    if play is not None:
        yield play


def rates(c: Counter) -> dict[str, float | None]:
    return {
        **bluff_and_challenge_rates(c, claims="plays", windows="responses"),
        "believe_rate": ratio(c["believes"], c["responses"]),
        "believe_accuracy": ratio(c["correct_believes"], c["believes"]),
        "cards_per_play": ratio(c["cards_played"], c["plays"]),
        **certainty_rates(c),
    }
