"""The batched Seven Spades heuristics make the reference heuristics' choice, decision for
decision and draw for draw.

Reference games (``bluff_envs.make("seven_spades", raw=True, ...)``) are played by a mix of
the heuristics' own actions and random ones; at every decision every heuristic is asked,
batched and reference, with a random draw, the ends of [0, 1) and the draws that straddle
``bluffer``'s bluff probability (the only threshold a draw meets). Then whole batches of the
vector engine are played forward by the batched heuristics, every row checked.
"""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest

import bluff_envs
import bluff_envs.vector
from agents import GameInfo, make_agent
from agents.batched import batched_agent
from agents.batched import seven_spades_kernels as kernels
from agents.heuristics.seven_spades import Bluffer, Table
from agents.registry import heuristics
from bluff_envs.cards import SPADES, card_str
from bluff_envs.seven_spades.actions import CHALLENGE, CLAIM, CLAIM_FACE_UP, DISCARD, PASS
from bluff_envs.seven_spades.view import HISTORY

GAME = "seven_spades"
HEURISTICS = list(heuristics(GAME))
BELOW_ONE = float(np.nextafter(1.0, 0.0))

# options, games, and how the random actions play: challenge rate in a window, discard rate
# on a turn (of a non-spade, of a spade). A low challenge rate gives long games with full
# rows, a high one short games and a history of challenges. ``spades_first`` deals the spades
# on top, which random players discard: later claims are then impossible, or false with a
# probability high enough for ``bluffer`` to challenge. ``own``: the share of decisions
# played by the seat's heuristic (seat s of game g plays HEURISTICS[(s + g) % 6]), the rest
# random. ``expect``: branches ("heuristic: branch") the family must meet, beyond those every
# family meets (see the test).
FAMILIES = [
    pytest.param({}, 16, dict(challenge=0.1, discard=0.5, discard_spade=0.5, own=0.7,
                              expect=("counter: bluff closing", "counter: bluff quiet table")), id="defaults"),
    pytest.param({"num_players": 2}, 16, dict(challenge=0.05, discard=0.5, discard_spade=0.5, own=0.8,
                                              expect=("counter: bluff closing",)), id="2p"),
    pytest.param({"num_players": 3}, 14, dict(challenge=0.1, discard=0.5, discard_spade=0.5, own=0.7,
                                              expect=("counter: bluff closing", "counter: bluff quiet table")),
                 id="3p"),
    pytest.param({"num_players": 5}, 10, dict(challenge=0.15, discard=0.5, discard_spade=0.5, own=0.6,
                                             expect=("counter: bluff closing",)), id="5p"),
    pytest.param({"num_players": 7, "num_decks": 2}, 5,
                 dict(challenge=0.1, discard=0.5, discard_spade=0.5, own=0.7, expect=("counter: bluff closing",)),
                 id="7p-2decks"),
    pytest.param({"num_players": 4, "free_turn": True}, 12,
                 dict(challenge=0.3, discard=0.5, discard_spade=0.5, own=0.6, expect=("counter: bluff closing",)),
                 id="free_turn"),
    pytest.param({"num_players": 3, "num_decks": 2, "target": 3}, 10,
                 dict(challenge=0.1, discard=0.5, discard_spade=0.5, own=0.7, expect=("counter: bluff closing",)),
                 id="3p-2decks-target3"),
    pytest.param({"num_players": 20}, 3,
                 dict(challenge=0.05, discard=0.5, discard_spade=0.5, own=0.7, expect=("counter: bluff closing",)),
                 id="20p"),
    pytest.param({"num_players": 3}, 8, dict(challenge=0.02, discard=0.6, discard_spade=1.0, own=0.1,
                                             expect=("bluffer: challenge possible", "counter: bluff quiet table")),
                 id="3p-spades-seen"),
    pytest.param({"num_players": 4}, 8,
                 dict(challenge=0.02, discard=0.6, discard_spade=1.0, own=0.1, spades_first=True,
                      expect=("bluffer: challenge possible", "counter: bluff quiet table",
                              "honest: challenge impossible", "counter: challenge impossible",
                              "bluffer: challenge impossible", "always_challenge: challenge impossible",
                              "never_challenge: pass impossible")),
                 id="4p-spades-first"),
]


def draws_for(table: Table, bluffer: Bluffer, rng) -> list[float]:
    """A random draw (first: the one the game goes on with), the ends of [0, 1), and bluffer's
    bluff probability with its neighbours (a bluff needs ``u`` strictly below it)."""
    p = bluffer.bluff_probability(table)
    return [float(rng.random()), 0.0, BELOW_ONE, p, float(np.nextafter(p, 0.0)), float(np.nextafter(p, 1.0))]


def branch(name: str, table: Table, action: int) -> str:
    """Which branch of the heuristic a choice took, for the coverage counts."""
    if table.in_window:
        claim = "impossible" if table.claim_impossible() else "possible"
        return f"{'challenge' if action == CHALLENGE else 'pass'} {claim}"
    if action == CLAIM and not table.drawn_spade:
        if name == "counter":  # its two reasons to bluff
            best = table.opponents_best()
            return "bluff closing" if best >= table.target - 1 and table.my_row_length < best else "bluff quiet table"
        return "bluff"
    return {DISCARD: "discard", CLAIM: "claim spade", CLAIM_FACE_UP: "final spade"}[action]


def random_action(env, table: Table, rng, how: dict) -> int:
    if table.in_window:
        return CHALLENGE if rng.random() < how["challenge"] else PASS
    legal = env.legal_actions()
    if rng.random() < how["discard_spade" if table.drawn_spade else "discard"]:
        return DISCARD
    return int(legal[rng.integers(len(legal))])


def spades_first(env, rng) -> list[str]:
    """A shuffled deck with its spades on top: once they are drawn (and the random players
    discard them), claims are impossible or false for whoever saw them go."""
    cards = np.asarray(env.unwrapped.game.deck.shuffled(rng))
    return [card_str(int(c)) for c in np.concatenate([cards[cards & 3 == SPADES], cards[cards & 3 != SPADES]])]


def play_and_compare(options: dict, games: int, how: dict) -> tuple[int, dict[str, Counter]]:
    """Play ``games`` reference games, comparing every heuristic at every decision; returns the
    decisions compared and the branches each heuristic took."""
    env = bluff_envs.make(GAME, raw=True, **options)
    info = GameInfo.of(env)
    references = {name: make_agent(name, info, 0) for name in HEURISTICS}
    batched = {name: batched_agent(name, info) for name in HEURISTICS}
    rng = np.random.default_rng(info.num_players * 7919 + games)
    decisions, branches = 0, {name: Counter() for name in HEURISTICS}
    for game in range(games):
        if how.get("spades_first"):
            env.reset(seed=game, options={"deck": spades_first(env, rng)})
        else:
            env.reset(seed=game)
        plays = [HEURISTICS[(seat + game) % len(HEURISTICS)] for seat in range(info.num_players)]
        while not env.game_state.is_over:
            observation = env.observe(env.agent_selection)
            obs, mask = observation["observation"][None], observation["action_mask"][None]
            table = Table(info.layout.decode(observation["observation"]), info)
            draws = draws_for(table, references["bluffer"], rng)
            chosen = {}
            for name in HEURISTICS:
                for u in draws:
                    expected = references[name].decide(observation, u)
                    got = batched[name].act(obs, mask, np.array([u]))[0]
                    assert got == expected, f"{name} {options} game {game} turn {env.game_state.turns} u={u!r}"
                    branches[name][branch(name, table, expected)] += 1
                    decisions += 1
                    chosen.setdefault(name, expected)
            if rng.random() < how["own"]:
                action = chosen[plays[env.game_state.current_player]]
            else:
                action = random_action(env, table, rng, how)
            env.step(action)
    return decisions, branches


@pytest.mark.parametrize("options, games, how", FAMILIES)
def test_batched_heuristics_choose_what_the_reference_chooses(options, games, how):
    """At every decision of the family's games, each heuristic with six draws, batched (one
    row) against the reference; then the branches the choices took."""
    decisions, branches = play_and_compare(options, games, how)
    assert decisions >= 5000
    # the comparisons met the heuristics' branches, not one choice over and over
    met = {f"{name}: {b}" for name, counts in branches.items() for b in counts}
    # (with the spades drawn first no row is at target-1 while a spade is in hand: no final spade)
    common = ("discard", "claim spade") if how.get("spades_first") else ("discard", "claim spade", "final spade")
    for name in HEURISTICS:
        assert {f"{name}: {b}" for b in common} <= met, name
    assert {"bluffer: bluff", "bluffer: pass possible", "counter: challenge possible", "counter: pass possible",
            "honest: pass possible", "always_challenge: challenge possible", "never_challenge: pass possible",
            "always_claim: bluff"} <= met
    assert set(how["expect"]) <= met, sorted(set(how["expect"]) - met)


@pytest.mark.parametrize("options", [{}, {"num_players": 7, "num_decks": 2, "free_turn": True}], ids=["defaults", "7p"])
def test_a_vector_batch_played_forward_by_the_batched_heuristics(options):
    """256 games of the vector engine, each seat played by one batched heuristic (seat s of
    game i: HEURISTICS[(i + s) % 6]). Every heuristic acts on the whole batch at every step;
    each row's own heuristic is checked against the reference on the same row and draw at
    every step, and all six heuristics on every row at every eighth step."""
    B, steps = 256, 160
    info = GameInfo.of(bluff_envs.make(GAME, raw=True, **options))
    batched = [batched_agent(name, info) for name in HEURISTICS]
    references = [make_agent(name, info, 0) for name in HEURISTICS]
    venv = bluff_envs.vector.make(GAME, B, **options)
    obs, mask, actor = venv.reset(seed=11)
    plays = (np.arange(B)[:, None] + np.arange(info.num_players)[None, :]) % len(HEURISTICS)
    rng = np.random.default_rng(11)
    checked, ended, actions_seen = 0, 0, Counter()
    for step in range(steps):
        u = rng.random(B)
        proposals = np.stack([agent.act(obs, mask, u) for agent in batched])  # [heuristic, game]
        live = actor >= 0
        assert (proposals[:, ~live] == -1).all()  # a game just ended: nothing is legal
        own = plays[np.arange(B), np.maximum(actor, 0)]
        for i in np.flatnonzero(live):
            observation = {"observation": obs[i], "action_mask": mask[i]}
            for h in range(len(HEURISTICS)) if step % 8 == 0 else (own[i],):
                expected = references[h].decide(observation, u[i])
                assert proposals[h, i] == expected, f"{HEURISTICS[h]} step {step} game {i} u={u[i]!r}"
                checked += 1
        actions = np.where(live, proposals[own, np.arange(B)], 0)
        actions_seen.update(actions[live].tolist())
        obs, mask, actor, _, terminated, truncated = venv.step(actions)
        ended += int((terminated | truncated).sum())
    assert checked > B * steps and ended > B
    assert set(actions_seen) == {DISCARD, CLAIM, CLAIM_FACE_UP, CHALLENGE, PASS}


def test_bluffer_bluff_probability_for_every_history():
    """The kernel's bluff probability is the reference's, to the bit, for every count of
    recent windows and challenges the history can show, with two players in and more."""
    bluffer, params = Bluffer(GameInfo.of(bluff_envs.make(GAME, raw=True)), 0), kernels.params()
    for players in (2, 3, 20):
        for windows in range(HISTORY + 1):
            for challenged in range(windows + 1):
                table = SimpleNamespace(recent_challenges=lambda c=challenged, w=windows: (c, w),
                                        in_game=np.ones(players, bool))
                expected = bluffer.bluff_probability(table)
                assert kernels.bluffer_bluff_probability(challenged, windows, players, params) == expected
                assert 0.0 < expected < 1.0
