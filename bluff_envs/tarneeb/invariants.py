"""Invariants of a Tarneeb episode, checked from the outside after any step.

:func:`check_invariants` recomputes what must hold from the state's plain record (hands,
tricks, calls) without calling the rules' own ``legal_actions``, and raises ``AssertionError``
naming what broke. The fuzz tests and ``benchmarks/fuzz.py`` call it after every step.
"""

from __future__ import annotations

import numpy as np

from bluff_envs.tarneeb.actions import (
    BIDDING,
    CARD0,
    DOUBLE,
    DOUBLING,
    NO_DOUBLE,
    NO_TRUMP,
    PASS,
    PLAY,
    TRUMP,
    TRUMP0,
    first_bid,
    num_levels,
)
from bluff_envs.tarneeb.rules import NUM_PLAYERS, NUM_TRICKS, team_of


def check_invariants(env) -> None:
    """Every card in exactly one place (hands, current trick, won tricks); hand sizes that fit
    the tricks played; tricks won by the right player; the acting agent's mask equal to an
    independent computation of the legal actions (follow suit!), every other mask empty; each
    player's observation showing his own hand, in [0, 1]. ``env`` may be raw or wrapped."""
    raw = env.unwrapped
    state = raw.game_state
    if state is None or not raw.agents:
        return
    hands = [state.hand_cards(p) for p in range(NUM_PLAYERS)]
    trick = list(state.trick)
    won = [card for _, cards, _ in state.tricks for card in cards]
    everywhere = sorted(card for hand in hands for card in hand) + sorted(trick + won)
    assert sorted(everywhere) == list(range(52)), "some card is missing or in two places"

    # hand sizes: 13, less one per completed trick, less one for a card in the current trick
    in_trick = {(state.leader + i) % NUM_PLAYERS for i in range(len(trick))}
    for p, hand in enumerate(hands):
        expected = NUM_TRICKS - len(state.tricks) - (p in in_trick)
        assert len(hand) == expected, f"player_{p} holds {len(hand)} cards, expected {expected}"
    assert len(trick) < NUM_PLAYERS, "a full trick was not gathered"
    if state.phase != PLAY:
        assert not trick and not state.tricks, "cards were played outside the play phase"

    # every completed trick went to its highest trump, or highest card of the suit led
    counted = [0, 0]
    for leader, cards, winner in state.tricks:
        assert winner == _winner(cards, leader, state.trump), f"trick {cards} credited to the wrong player"
        counted[team_of(winner)] += 1
    assert counted == list(state.tricks_won), "tricks_won does not match the tricks taken"

    if state.is_over:
        return
    expected = _legal(state)
    acting = raw.agent_selection
    assert acting == f"player_{state.current_player}", "agent_selection is not the player to act"
    for p, agent in enumerate(raw.possible_agents):
        observation = raw.observe(agent)
        mask = observation["action_mask"]
        if agent == acting:
            assert set(np.flatnonzero(mask).tolist()) == expected, (
                f"mask of {agent} differs from the legal actions: extra "
                f"{sorted(set(np.flatnonzero(mask).tolist()) - expected)}, missing "
                f"{sorted(expected - set(np.flatnonzero(mask).tolist()))}"
            )
        else:
            assert not mask.any(), f"{agent} has legal actions while {acting} is to act"
        vector = observation["observation"]
        assert vector.min() >= 0.0 and vector.max() <= 1.0, f"{agent}'s observation leaves [0, 1]"
        shown = np.flatnonzero(vector[raw.observation_layout["hand"]]).tolist()
        assert shown == hands[p], f"{agent}'s observation shows the hand {shown}, not {hands[p]}"


def _winner(cards, leader: int, trump: int) -> int:
    led = cards[0] & 3
    trumps = [c for c in cards if c & 3 == trump]
    best = max(trumps) if trumps else max(c for c in cards if c & 3 == led)
    return (leader + cards.index(best)) % NUM_PLAYERS


def _legal(state) -> set[int]:
    """The legal actions, worked out again from the plain record of the deal."""
    c = state.config
    if state.phase == PLAY:
        hand = state.hand_cards(state.current_player)
        if state.trick:
            led = state.trick[0] & 3
            follow = [card for card in hand if card & 3 == led]
            cards = follow or hand
        else:
            cards = hand
            if c.first_lead_trump and not state.tricks and state.trump != NO_TRUMP:
                cards = [card for card in hand if card & 3 == state.trump] or hand
        return {CARD0 + card for card in cards}
    if state.phase == TRUMP:
        return set(range(TRUMP0, TRUMP0 + (5 if c.allow_no_trump else 4)))
    if state.phase == DOUBLING:
        return {DOUBLE, NO_DOUBLE}
    assert state.phase == BIDDING
    first = first_bid(c.egyptian)
    bids = [action for _, action in state.calls if action != PASS]
    lowest = max(bids) + 1 if bids else first
    legal = set(range(lowest, first + num_levels(c.egyptian)))
    dealer_forced = c.all_pass == "dealer_bids_7" and not bids and len(state.calls) == 3
    if not dealer_forced:
        legal.add(PASS)
    # whose turn: Lebanese "rounds" skips those who passed; otherwise everyone in order
    callers = [p for p, _ in state.calls]
    if c.egyptian or c.bidding == "single_round":
        turn = (state.dealer + 1 + len(callers)) % NUM_PLAYERS
    else:
        out = {p for p, action in state.calls if action == PASS}
        turn = (callers[-1] + 1) % NUM_PLAYERS if callers else (state.dealer + 1) % NUM_PLAYERS
        while turn in out:
            turn = (turn + 1) % NUM_PLAYERS
    assert state.current_player == turn, f"player_{state.current_player} bids, but it is player_{turn}'s turn"
    return legal
