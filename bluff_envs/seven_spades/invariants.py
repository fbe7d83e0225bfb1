"""Consistency checks of a Seven Spades environment, for fuzzing.

:func:`check_invariants` may be called after any step (raw or wrapped env). It recomputes from
the rules' state, independently of the incremental view, what must hold and raises
``AssertionError`` naming the first thing that does not.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from bluff_envs.cards import SPADES
from bluff_envs.seven_spades.actions import (
    CHALLENGE,
    CHALLENGE_WINDOW,
    CLAIM,
    CLAIM_FACE_UP,
    DISCARD,
    PASS,
    PLAY,
)


def legal_actions_of(state) -> set[int]:
    """The legal actions, straight from docs/rules.md §3 (not from ``state.legal_actions``)."""
    if state.is_over:
        return set()
    if state.phase == CHALLENGE_WINDOW:
        return {CHALLENGE, PASS}
    row = len(state.face_down[state.current_player]) + len(state.face_up[state.current_player])
    if row < state.target - 1:
        return {DISCARD, CLAIM}
    return {DISCARD, CLAIM_FACE_UP} if state.drawn % 4 == SPADES else {DISCARD}


def check_invariants(env) -> None:
    raw = env.unwrapped
    state, game = raw.game_state, raw.game
    n, decks, target = game.num_players, game.config.num_decks, game.config.target

    # every card is in exactly one place
    places = Counter(state.stock[state.top :])
    if state.drawn is not None:
        places[state.drawn] += 1
    for p in range(n):
        places.update(state.face_down[p])
        places.update(state.face_up[p])
    places.update(state.discard_pile)
    places.update(state.out_face_down)
    places.update(state.out_face_up)
    assert places == Counter(state.deck), "cards lost or duplicated between stock, hand, rows, pile, out"
    assert sum(places.values()) == 52 * decks

    # rows and who is in
    assert state.players_in == sum(state.in_game) >= 1
    for p in range(n):
        length = len(state.face_down[p]) + len(state.face_up[p])
        assert state.row_length[p] == length, f"row length of player_{p}"
        assert length <= target, f"player_{p}'s row is longer than the target"
        assert all(c % 4 == SPADES for c in state.face_up[p]), "a non-spade lies face up in a row"
        if not state.in_game[p]:
            assert length == 0, f"player_{p} is out but still has a row"
    if state.winner is not None:
        w = state.winner
        assert state.is_over and state.in_game[w]
        assert state.row_length[w] == target or state.players_in == 1
    elif state.is_over and not state.truncated:
        assert state.top == len(state.stock), "a draw needs an empty stock"
    if not state.is_over:
        assert state.in_game[state.current_player], "the player to act is out"
        if state.phase == PLAY:
            assert state.drawn is not None and state.window is None
        else:
            w = state.window
            assert state.drawn is None and w is not None and not w.is_closed
            assert state.current_player == w.current != w.claimer
            assert all(state.in_game[s] for s in w.deciders)
            left = [(w.claimer + k) % n for k in range(1, n)]
            assert w.deciders == [s for s in left if state.in_game[s]], "deciders: everyone else in, from the left"

    else:
        assert state.drawn is None

    # the observation agrees with the state, seat by seat
    seen = np.zeros(52)
    for c in [*state.discard_pile, *state.out_face_up] + [c for row in state.face_up for c in row]:
        seen[c] += 1
    pile_spades = sum(1 for c in state.discard_pile if c % 4 == SPADES)
    for v in range(n):
        agent = raw.possible_agents[v]
        obs = raw.observe(agent)
        o = obs["observation"]
        assert o.dtype == np.float32 and o.min() >= 0.0 and o.max() <= 1.0, "observation out of [0, 1]"
        view = raw.public_view(agent)
        order = [(v + k) % n for k in range(n)]
        assert np.array_equal(view["row_lengths"], [state.row_length[p] for p in order]), "row_lengths"
        assert np.array_equal(view["face_up_spades"], [len(state.face_up[p]) for p in order]), "face_up_spades"
        assert np.array_equal(view["in_game"], [float(state.in_game[p]) for p in order]), "in_game"
        assert np.array_equal(view["seen"], seen), "seen"
        mine = np.zeros(52)
        for c in state.face_down[v]:
            mine[c] += 1
        assert np.array_equal(view["my_row"], mine), f"my_row of player_{v}"
        drawn = np.zeros(52)
        if state.drawn is not None and v == state.current_player:
            drawn[state.drawn] = 1
        assert np.array_equal(view["drawn"], drawn), f"drawn of player_{v}"
        assert view["discard_spades"][0] == pile_spades
        assert view["discard_others"][0] == len(state.discard_pile) - pile_spades
        assert view["stock"][0] == state.stock_size and view["turns"][0] == state.turns
        in_window = state.phase == CHALLENGE_WINDOW and not state.is_over
        assert view["phase"][1] == float(in_window) and view["phase"][0] == float(not in_window)
        claimer = np.zeros(n)
        if in_window:
            claimer[(state.window.claimer - v) % n] = 1
        assert np.array_equal(view["claimer"], claimer), "claimer"

        # the mask is the legal set for the player to act, zeros for everyone else
        mask = obs["action_mask"]
        expected = np.zeros(len(game.action_names), np.int8)
        if not state.is_over and v == state.current_player and agent == raw.agent_selection:
            expected[sorted(legal_actions_of(state))] = 1
        assert np.array_equal(mask, expected), f"mask of player_{v}: {mask} != {expected}"
