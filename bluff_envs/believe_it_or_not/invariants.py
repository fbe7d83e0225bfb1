"""Consistency checks of a Believe It or Not environment, for fuzz tests and benchmarks/fuzz.py.

:func:`check_invariants` may be called after any step. It looks at the rules' state (which no
agent may do) and compares the observations and the action mask with what the rules imply,
computed here independently of the rules' and the view's own shortcuts.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from bluff_envs.believe_it_or_not.actions import ADD0, BELIEVE, BUILD, DISBELIEVE, DONE, NAME, NAME0, RESPOND
from bluff_envs.believe_it_or_not.view import RECORD_FIELDS
from bluff_envs.cards import NUM_RANKS


def check_invariants(env) -> None:
    """Assert that the game's state is consistent and that every observation and the mask
    agree with it. ``env`` is a ``raw_env`` or an ``env()``; raises ``AssertionError``."""
    raw = env.unwrapped
    state, game = raw.game_state, raw.game
    if state is None:
        return
    counts = _check_cards(state, game)
    _check_mask(raw, state, game, counts)
    _check_observations(raw, state, game, counts)


def _check_cards(state, game) -> np.ndarray:
    """Every card somewhere exactly once; hand sizes and public counters consistent.
    Returns each player's hand as counts by rank, shape (n, 13)."""
    n = game.num_players
    counts = np.array([[len(cards) for cards in hand] for hand in state.hands], np.int64)
    held = [c for hand in state.hands for cards in hand for c in cards]
    ranks = np.repeat(np.tile(np.arange(NUM_RANKS), n), counts.ravel())
    assert (np.asarray(held, np.int64) >> 2 == ranks).all(), "a card is kept under the wrong rank"
    assert (counts.sum(axis=1) == state.hand_sizes).all(), f"hand sizes {state.hand_sizes} are off"
    everywhere = np.bincount(held + state.pile + state.out_of_play + state.quads, minlength=4 * NUM_RANKS)
    assert (everywhere == _deck_counts(game.deck)).all(), "a card is missing or duplicated"
    assert sum(state.pile_by_player) == len(state.pile), "pile_by_player does not add up to the pile"
    assert state.players_in == sum(state.in_game), "players_in is off"
    for p in range(n):
        if not state.in_game[p]:
            assert state.hand_sizes[p] == 0, f"player_{p} left the game holding cards"
    if not game.config.discard_quads:
        assert not state.quads, "complete sets put out without discard_quads"
    quads = np.bincount([c >> 2 for c in state.quads], minlength=NUM_RANKS)
    assert (quads % game.copies == 0).all(), "the cards put out face up hold an incomplete set"
    if state.is_over:
        if state.truncated:
            assert state.turns >= game.config.max_turns and state.loser is None
        else:
            last = state.in_game.index(True)
            assert state.players_in == 1, "the game ended with more than one player in"
            assert state.loser == (last if state.hand_sizes[last] else None), "wrong loser (or draw)"
        return counts
    assert state.players_in >= 2, "the game goes on with fewer than two players in"
    assert state.in_game[state.current_player], "the player to act has left the game"
    chosen = np.asarray(state.building.chosen)
    if state.phase == NAME:
        assert not state.pile and state.round_rank == -1 and state.last_play is None
        assert state.hand_sizes[state.current_player] > 0, "an empty-handed player leads"
    else:
        assert state.round_rank in game.ranks, "no rank named for the round"
    if state.phase == RESPOND:
        assert state.last_play is not None and state.last_play.player != state.current_player
        assert state.pile[len(state.pile) - len(state.last_play.cards) :] == state.last_play.cards
    if state.phase != BUILD:
        assert not chosen.any(), "cards chosen outside a play"
    assert (chosen <= counts[state.current_player]).all(), "a play holds cards the player lacks"
    assert chosen.sum() == state.building.count <= game.cap
    return counts


@lru_cache(maxsize=None)
def _deck_counts(deck) -> np.ndarray:
    return np.bincount(deck.cards(), minlength=4 * NUM_RANKS)


def expected_legal(state, game, counts: np.ndarray) -> set[int]:
    """The legal actions, from the rules as written (docs/rules.md §2.3–2.5)."""
    if state.is_over:
        return set()
    p = state.current_player
    have = counts[p]
    if state.phase == NAME:
        return {NAME0 + r for r in game.ranks}
    if state.phase == RESPOND:
        return {BELIEVE, DISBELIEVE} | {ADD0 + r for r in game.ranks if have[r] > 0}
    chosen = state.building.chosen
    added = [r for r in range(NUM_RANKS) if chosen[r]]
    legal = {DONE} if added else set()
    if sum(chosen) < game.cap:
        lowest = max(added) if added else 0  # canonical order 2 .. A
        legal |= {ADD0 + r for r in game.ranks if r >= lowest and have[r] > chosen[r]}
    return legal


def _check_mask(raw, state, game, counts: np.ndarray) -> None:
    acting = raw.agent_selection
    for agent in raw.agents:
        mask = raw.observe(agent)["action_mask"]
        if agent == acting and not state.is_over:
            legal = set(np.flatnonzero(mask).tolist())
            want = expected_legal(state, game, counts)
            assert legal == want, f"mask {sorted(legal)} != legal actions {sorted(want)}"
        else:
            assert not mask.any(), f"{agent} has a mask although it is not to act"


def _check_observations(raw, state, game, counts: np.ndarray) -> None:
    lay, n = game.layout, game.num_players
    observations = np.stack([raw.view.observation(p) for p in range(n)])
    assert observations.dtype == np.float32 and observations.shape == (n, lay.size)
    assert observations.min() >= 0.0 and observations.max() <= 1.0, "an observation leaves [0, 1]"
    scales, exact = _scales(lay)
    values = np.rint(observations * scales).astype(np.int64)  # counts again; one-hots stay 0/1

    # the fields that follow from the state exactly, compared all at once
    rows = np.arange(n)
    seats = (rows[:, None] + rows[None, :]) % n  # seats[v, j]: the seat viewer v calls j
    sizes, out = np.asarray(state.hand_sizes), ~np.asarray(state.in_game)
    expected = values.copy()
    expected[:, lay["hand"]] = counts
    expected[:, lay["hand_sizes"]] = sizes[seats]
    expected[:, lay["pile_size"]] = len(state.pile)
    expected[:, lay["pile_by_player"]] = np.asarray(state.pile_by_player)[seats]
    expected[:, lay["out_of_play_size"]] = len(state.out_of_play) + len(state.quads)
    expected[:, lay["out"]] = out[seats]
    expected[:, lay["empty_handed"]] = ((sizes == 0) & ~out)[seats]
    expected[:, lay["turns"]] = state.turns
    expected[:, lay["building"]] = 0
    if not state.is_over:
        expected[:, lay["phase"]] = np.eye(3, dtype=np.int64)[state.phase]
        expected[:, lay["round_rank"]] = 0
        if state.round_rank >= 0:
            expected[:, lay["round_rank"].start + state.round_rank] = 1
        if state.phase == BUILD:
            expected[state.current_player, lay["building"]] = state.building.chosen
    if not (values[:, exact] == expected[:, exact]).all():
        for name in exact_fields(lay):
            got, want = values[:, lay[name]], expected[:, lay[name]]
            assert (got == want).all(), f"{name} is off: observed {got.tolist()}, expected {want.tolist()}"

    def field(name: str) -> np.ndarray:
        return values[:, lay[name]]

    # what each viewer knows is true: his share of the pile, lower bounds on the others' hands
    pile = np.bincount([c >> 2 for c in state.pile], minlength=NUM_RANKS)
    mine = field("my_cards_in_pile")
    assert (mine <= pile).all(), "a viewer's share of the pile holds more than the pile"
    assert (mine.sum(axis=1) == state.pile_by_player).all(), "a viewer's share of the pile is off"
    known = field("known_cards").reshape(n, n - 1, NUM_RANKS)
    assert (known <= counts[seats[:, 1:]]).all(), "a viewer 'knows' cards an opponent does not hold"
    gone = np.bincount([c >> 2 for c in state.out_of_play + state.quads], minlength=NUM_RANKS)
    assert (field("out_of_play_known") <= gone).all(), "a viewer 'knows' cards out of play that are not"
    assert (field("last_revealed") <= game.copies).all()
    if game.config.call_record:
        _check_call_record(lay, observations, seats)


def _check_call_record(lay, observations: np.ndarray, seats: np.ndarray) -> None:
    """Every call has one maker and one caller; every viewer sees the same record, rotated."""
    rows = [lay.decode(row, RECORD_FIELDS) for row in observations]
    honest, false, believe, disbelieve = (np.rint([r[name] for r in rows]).astype(np.int64) for name in RECORD_FIELDS)
    calls = (honest + false).sum(axis=1)
    assert (calls == (believe + disbelieve).sum(axis=1)).all(), "the call record's makers and callers disagree"
    assert (calls == calls[0]).all(), "viewers count different numbers of calls"
    for counts in (honest, false, believe, disbelieve):
        by_seat = np.empty_like(counts[0])
        by_seat[seats[0]] = counts[0]
        assert (counts == by_seat[seats]).all(), "viewers see different call records"


def exact_fields(layout) -> tuple[str, ...]:
    """The observation fields that :func:`check_invariants` compares with the state exactly."""
    return (
        "hand", "hand_sizes", "pile_size", "pile_by_player", "out_of_play_size", "out",
        "empty_handed", "turns", "building", "phase", "round_rank",
    )  # fmt: skip


_SCALES: dict[int, tuple] = {}


def _scales(layout) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's scale, and which entries are exact fields; cached per layout object."""
    cached = _SCALES.get(id(layout))
    if cached is None or cached[0] is not layout:
        scales = np.ones(layout.size)
        for name, sl in layout.items():
            scales[sl] = layout.scale(name)
        exact = np.zeros(layout.size, bool)
        for name in exact_fields(layout):
            exact[layout[name]] = True
        cached = _SCALES[id(layout)] = (layout, scales, exact)
    return cached[1], cached[2]
