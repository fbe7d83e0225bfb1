"""Bidding and contracts in Tarneeb, per seat, from a replayed record.

* **declarer share**: deals the seat declared, out of all deals it played;
* **average bid**: the contract's tricks, over the deals it declared;
* **contracts made**: declared contracts its partnership made (took at least the bid);
* **kaboots**: declared deals in which its partnership took all 13 tricks;
* **bids per deal**: bids (not passes) it made per deal.
"""

from __future__ import annotations

from collections import Counter

from bluff_envs.behaviour import ratio
from bluff_envs.records import GameRecord, replay_rules
from bluff_envs.tarneeb.actions import BIDDING, CARD0, PASS, PLAY
from bluff_envs.tarneeb.rules import NUM_TRICKS, team_of, trick_winner

COLUMNS = (
    ("declarer_share", "declarer share"),
    ("average_bid", "average bid"),
    ("contracts_made", "contracts made"),
    ("kaboots", "kaboots"),
    ("bids_per_deal", "bids per deal"),
)


def count(record: GameRecord) -> list[Counter]:
    seats = [Counter() for _ in record.seats]
    for step in replay_rules(record):
        state = step.state
        if state.phase == BIDDING and step.action != PASS:
            seats[step.seat]["bids"] += 1
        if state.phase != PLAY or len(state.trick) != 3 or len(state.tricks) != NUM_TRICKS - 1:
            continue
        # the last card of a deal: score the contract before the next deal replaces it
        contract = state.contract
        side = team_of(contract.declarer)
        winner = trick_winner([*state.trick, step.action - CARD0], state.leader, state.trump)
        taken = state.tricks_won[side] + (team_of(winner) == side)
        for seat in range(len(seats)):
            seats[seat]["deals"] += 1
        declarer = seats[contract.declarer]
        declarer["declared"] += 1
        declarer["bid_total"] += contract.bid
        declarer["made"] += taken >= contract.bid
        declarer["kaboots"] += taken == NUM_TRICKS
    return seats


def rates(c: Counter) -> dict[str, float | None]:
    return {
        "declarer_share": ratio(c["declared"], c["deals"]),
        "average_bid": ratio(c["bid_total"], c["declared"]),
        "contracts_made": ratio(c["made"], c["declared"]),
        "kaboots": ratio(c["kaboots"], c["declared"]),
        "bids_per_deal": ratio(c["bids"], c["deals"]),
    }
