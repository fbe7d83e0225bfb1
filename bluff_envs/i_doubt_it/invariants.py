"""Invariants of an I Doubt It game in progress, for fuzzing: cheap enough to run every step."""

from __future__ import annotations

from collections import Counter

import numpy as np

from bluff_envs.cards import NUM_RANKS
from bluff_envs.i_doubt_it.actions import ADD0, DONE, DOUBT, DOUBT_WINDOW, PASS, PLAY


def expected_legal(state) -> set[int]:
    """The legal actions worked out afresh from docs/rules.md §1, independently of the rules code."""
    if state.phase == DOUBT_WINDOW:
        return {DOUBT, PASS}
    held = [len(cards) for cards in state.hands[state.current_player]]
    chosen = state.building.chosen
    legal = set()
    if sum(chosen) < state.cap:
        last = max((r for r in range(NUM_RANKS) if chosen[r]), default=0)
        legal = {ADD0 + r for r in range(last, NUM_RANKS) if held[r] > chosen[r]}
    if sum(chosen) >= 1:
        legal.add(DONE)
    return legal


def check_invariants(env) -> None:
    """Assert that the game in ``env`` (raw or wrapped) is consistent; raises AssertionError."""
    raw = env.unwrapped
    state = raw.game_state
    n = state.num_players
    # every card is somewhere exactly once: the hands and the pile hold the whole deck
    everywhere = Counter(state.pile)
    for p in range(n):
        for r, cards in enumerate(state.hands[p]):
            assert all(card >> 2 == r for card in cards), f"player_{p} has a card filed under the wrong rank"
            everywhere.update(cards)
    assert everywhere == Counter(raw.game.deck.cards()), "cards lost or duplicated"
    # hand sizes are public and consistent
    for p in range(n):
        assert state.hand_sizes[p] == sum(map(len, state.hands[p])), f"player_{p}'s hand size is stale"
    layout, copies = raw.game.layout, 4 * state.game.config.num_decks
    for agent in raw.agents:
        seat = raw.possible_agents.index(agent)
        obs = raw.view.observation(seat)
        shown = np.rint(obs[layout["hand_sizes"]] * layout.scale("hand_sizes")).astype(int)
        truth = [state.hand_sizes[(seat + k) % n] for k in range(n)]
        assert shown.tolist() == truth, f"{agent} sees hand sizes {shown}, truth {truth}"
        assert round(obs[layout["pile_size"]][0] * layout.scale("pile_size")) == len(state.pile)
        own = np.rint(obs[layout["hand"]] * copies).astype(int).tolist()
        assert own == [len(cards) for cards in state.hands[seat]], f"{agent}'s own hand is encoded wrongly"
        known = np.rint(obs[layout["known_cards"]] * copies).reshape(n - 1, NUM_RANKS)
        assert known.sum(axis=0).max() <= copies, f"{agent} 'knows' more copies than exist"
        assert obs.min() >= 0.0 and obs.max() <= 1.0, f"{agent}'s observation leaves [0, 1]"
    if state.is_over:
        assert (state.winner is not None) != state.truncated, "an ended game is won or truncated"
        if state.winner is not None:
            assert state.hand_sizes[state.winner] == 0, "the winner still holds cards"
        return
    assert state.phase in (PLAY, DOUBT_WINDOW)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    assert set(np.flatnonzero(mask)) == expected_legal(state), "the mask is not exactly the legal actions"
    for agent in raw.agents:
        if agent != raw.agent_selection:
            assert not raw.observe(agent)["action_mask"].any(), f"{agent} is not to act but has a mask"
