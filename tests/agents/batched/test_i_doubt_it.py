"""The batched I Doubt It heuristics make the reference heuristics' choice, decision for
decision and draw for draw.

Reference games (``bluff_envs.make("i_doubt_it", raw=True, ...)``) are played by a mix of the
heuristics' own actions and random ones (random additions leave plays that fit no plan, or
only one of bluffer's two); at every decision every heuristic is asked, batched (one row) and
reference, with a random draw and the ends of [0, 1) (bluffer also with ``shed_chance`` and
its neighbours, the only threshold a draw meets), and in every doubt window the probability
that the claim is false is compared to the bit. Then whole batches of the vector engine are
played forward by the batched heuristics, every row checked. The exact arithmetic under the
probability (binomials of up to 208 cards, Python's correctly rounded int division, Python's
``sum``) is checked on its own, on every case it can meet for one deck and samples beyond.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest

import bluff_envs
import bluff_envs.vector
from agents import GameInfo, make_agent
from agents.batched import batched_agent
from agents.batched import i_doubt_it_kernels as kernels
from agents.heuristics.i_doubt_it import Bluffer, Table, hypergeometric
from agents.registry import heuristics
from bluff_envs.cards import NUM_RANKS
from bluff_envs.i_doubt_it.actions import ADD0, DONE, DOUBT, PASS, PLAY

GAME = "i_doubt_it"
HEURISTICS = list(heuristics(GAME))
BELOW_ONE = float(np.nextafter(1.0, 0.0))
SHED = Bluffer.shed_chance
SHED_DRAWS = [0.0, BELOW_ONE, SHED, float(np.nextafter(SHED, 0.0)), float(np.nextafter(SHED, 1.0))]

# options (max_turns keeps random games short, so that a family sees many deals), games, and
# how the random actions play: ``doubt`` the doubt rate in a window, ``own`` the share of
# decisions played by the seat's heuristic (seat s of game g plays HEURISTICS[(s + g) % 5]), the
# rest random legal actions. ``expect``: branches ("heuristic: branch") the family must meet,
# beyond those every family meets (see the test).
IMPOSSIBLE = ("honest: doubt impossible", "counter: doubt impossible", "bluffer: doubt impossible",
              "always_challenge: doubt impossible", "never_challenge: pass impossible")
COUNTER_DOUBTS = ("counter: doubt possible",)
FAMILIES = [
    pytest.param({"max_turns": 60}, 5, dict(doubt=0.3, own=0.7, expect=IMPOSSIBLE + COUNTER_DOUBTS), id="defaults"),
    pytest.param({"num_players": 2, "max_turns": 60}, 5, dict(doubt=0.3, own=0.7, expect=IMPOSSIBLE), id="2p"),
    pytest.param({"num_players": 3, "rank_order": "ascending", "max_turns": 60}, 5,
                 dict(doubt=0.3, own=0.7, expect=IMPOSSIBLE + COUNTER_DOUBTS), id="3p-ascending"),
    pytest.param({"num_players": 5, "last_play_checked": False, "max_turns": 80}, 4,
                 dict(doubt=0.2, own=0.8, expect=IMPOSSIBLE + COUNTER_DOUBTS + ("counter: doubt going out",)),
                 id="5p-unchecked"),
    pytest.param({"num_players": 6, "max_turns": 50}, 3, dict(doubt=0.3, own=0.7, expect=IMPOSSIBLE),
                 id="6p-2decks"),
    pytest.param({"num_players": 4, "num_decks": 2, "rank_order": "ascending", "max_turns": 50}, 3,
                 dict(doubt=0.3, own=0.7, expect=IMPOSSIBLE), id="4p-2decks-ascending"),
    pytest.param({"num_players": 4, "max_cards_per_play": 2, "max_turns": 60}, 4,
                 dict(doubt=0.3, own=0.7, expect=IMPOSSIBLE + COUNTER_DOUBTS), id="cap2"),
    pytest.param({"num_players": 3, "max_cards_per_play": None, "last_play_checked": False, "max_turns": 80}, 4,
                 dict(doubt=0.2, own=0.8, expect=IMPOSSIBLE + COUNTER_DOUBTS + ("counter: doubt going out",)),
                 id="3p-uncapped-unchecked"),
    pytest.param({"num_players": 11, "rank_order": "ascending", "max_turns": 40}, 2,
                 dict(doubt=0.3, own=0.7, expect=()), id="11p"),
    pytest.param({"num_players": 2, "num_decks": 4, "max_cards_per_play": None, "max_turns": 40}, 3,
                 dict(doubt=0.3, own=0.7, expect=IMPOSSIBLE), id="2p-4decks-uncapped"),
]


def draws_for(name: str, rng) -> list[float]:
    """A random draw (first: the one the game goes on with) and the ends of [0, 1); for bluffer
    also ``shed_chance`` and its neighbours (a shed needs ``u`` strictly below it)."""
    first = float(rng.random())
    return [first, *SHED_DRAWS] if name == "bluffer" else [first, 0.0, BELOW_ONE]


def branch(table: Table, action: int, agent) -> str:
    """Which branch of the heuristic a choice took, for the coverage counts."""
    if table.in_window:
        if table.claim_impossible():
            return f"{'doubt' if action == DOUBT else 'pass'} impossible"
        if action == DOUBT and table.hand_sizes[table.claimer] == 0:
            return "doubt going out"
        return f"{'doubt' if action == DOUBT else 'pass'} possible"
    if action == DONE:
        fits = any(agent._continues(plan, table) for plan in agent.plans(table.at_play_start()))
        return "done" if fits else "done, fits no plan"
    if action - ADD0 == table.required:
        return "honest card"
    return "shed card" if table.hand[table.required] else "one-card bluff"


def play_and_compare(options: dict, games: int, how: dict) -> tuple[int, dict[str, Counter]]:
    """Play ``games`` reference games, comparing every heuristic at every decision; returns the
    decisions compared and the branches each heuristic took."""
    env = bluff_envs.make(GAME, raw=True, **options)
    info = GameInfo.of(env)
    references = {name: make_agent(name, info, 0) for name in HEURISTICS}
    batched = {name: batched_agent(name, info) for name in HEURISTICS}
    cfg, params, binomials = kernels.config(info), kernels.params(), kernels.binomials()
    _, terms, big = kernels.scratch()
    rng = np.random.default_rng(info.num_players * 7919 + games)
    decisions, branches = 0, {name: Counter() for name in HEURISTICS}
    for game in range(games):
        env.reset(seed=game)
        plays = [HEURISTICS[(seat + game) % len(HEURISTICS)] for seat in range(info.num_players)]
        while not env.game_state.is_over:
            observation = env.observe(env.agent_selection)
            row = observation["observation"]
            obs, mask = row[None], observation["action_mask"][None]
            view = info.layout.decode(row, references["honest"].FIELDS)
            table = Table(view, info)
            if table.in_window:  # the probability itself, to the bit (whoever uses it)
                expected = table.claim_false_probability()
                assert kernels.claim_false_probability(row, cfg, params, binomials, terms, big) == expected
            chosen = {}
            for name in HEURISTICS:
                results = set()
                for j, u in enumerate(draws_for(name, rng)):
                    # the reference decodes the observation itself once, then is handed the view
                    expected = references[name].decide(observation, u, None if j == 0 else view)
                    got = batched[name].act(obs, mask, np.array([u]))[0]
                    assert got == expected, f"{name} {options} game {game} turn {env.game_state.turns} u={u!r}"
                    results.add(expected)
                    decisions += 1
                    chosen.setdefault(name, expected)
                for action in results:
                    branches[name][branch(table, action, references[name])] += 1
                if len(results) > 1:  # the draw decided: bluffer's honest and shed plans part here
                    branches[name]["plans part"] += 1
            if rng.random() < how["own"]:
                action = chosen[plays[env.game_state.current_player]]
            elif table.in_window:
                action = DOUBT if rng.random() < how["doubt"] else PASS
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
    return decisions, branches


@pytest.mark.parametrize("options, games, how", FAMILIES)
def test_batched_heuristics_choose_what_the_reference_chooses(options, games, how):
    """At every decision of the family's games, each heuristic with its draws, batched (one row)
    against the reference; then the branches the choices took."""
    decisions, branches = play_and_compare(options, games, how)
    assert decisions >= 4000
    # the comparisons met the heuristics' branches, not one choice over and over
    met = {f"{name}: {b}" for name, counts in branches.items() for b in counts}
    for name in HEURISTICS:
        assert {f"{name}: {b}" for b in ("honest card", "one-card bluff", "done", "done, fits no plan")} <= met, name
    assert {"bluffer: shed card", "bluffer: plans part", "honest: pass possible", "counter: pass possible",
            "bluffer: pass possible", "always_challenge: doubt possible", "never_challenge: pass possible"} <= met
    assert not any(b.endswith(("shed card", "plans part")) for b in met if not b.startswith("bluffer: "))
    assert set(how["expect"]) <= met, sorted(set(how["expect"]) - met)


@pytest.mark.parametrize("options", [{}, {"num_players": 7, "rank_order": "ascending", "max_cards_per_play": 3,
                                          "last_play_checked": False}], ids=["defaults", "7p"])
def test_a_vector_batch_played_forward_by_the_batched_heuristics(options):
    """256 games of the vector engine, each seat played by one batched heuristic (seat s of
    game i: HEURISTICS[(i + s) % 5]). Every heuristic acts on the whole batch at every step;
    each row's own heuristic is checked against the reference on the same row and draw at
    every step, and all five heuristics on every row at every eighth step."""
    B, steps, options = 256, 120, {**options, "max_turns": 12}  # short games: many end, and are dealt again
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
            view = info.layout.decode(obs[i], references[0].FIELDS)
            for h in range(len(HEURISTICS)) if step % 8 == 0 else (own[i],):
                expected = references[h].decide(observation, u[i], view)
                assert proposals[h, i] == expected, f"{HEURISTICS[h]} step {step} game {i} u={u[i]!r}"
                checked += 1
        actions = np.where(live, proposals[own, np.arange(B)], 0)
        assert mask[live, actions[live]].all()
        actions_seen.update(actions[live].tolist())
        obs, mask, actor, _, terminated, truncated = venv.step(actions)
        ended += int((terminated | truncated).sum())
    assert checked > B * steps and ended > B // 2
    assert {DONE, DOUBT, PASS} <= set(actions_seen) and len(set(actions_seen) - {DONE, DOUBT, PASS}) >= 10


def test_the_probability_on_rows_with_random_counts():
    """The probability a claim is false, kernel against reference to the bit, on doubt-window
    rows whose hand sizes and known cards are redrawn at random: many more (population,
    successes, draws) than games reach, up to four decks; and the doubts that follow."""
    rng = np.random.default_rng(5)
    compared = Counter()
    for options in ({}, {"num_players": 2}, {"num_players": 6}, {"num_players": 3, "num_decks": 4}):
        env = bluff_envs.make(GAME, raw=True, **options)
        info = GameInfo.of(env)
        lay, n, copies, size = info.layout, info.num_players, 4 * info.config.num_decks, 52 * info.config.num_decks
        cfg, params, binomials = kernels.config(info), kernels.params(), kernels.binomials()
        _, terms, big = kernels.scratch()
        references = {name: make_agent(name, info, 0) for name in ("counter", "bluffer")}
        batched = {name: batched_agent(name, info) for name in references}
        env.reset(seed=1)
        while not env.game_state.is_over and env.game_state.phase == PLAY:
            env.step(references["counter"].act(env.observe(env.agent_selection)))
        observation = env.observe(env.agent_selection)
        base = observation["observation"]
        for _ in range(1000):
            row = base.copy()
            known = rng.integers(0, 3, (n - 1, NUM_RANKS)) * (rng.random((n - 1, NUM_RANKS)) < 0.2)
            row[lay["known_cards"]] = (known / copies).ravel()
            # unseen cards per opponent: often a few (a claimer with few unseen cards makes a
            # one-card claim of a rank whose copies are mostly placed likely false)
            unseen = np.where(rng.random(n - 1) < 0.4, rng.integers(0, 3, n - 1), rng.integers(0, size // n + 4, n - 1))
            sizes = known.sum(axis=1) + unseen
            row[lay["hand_sizes"]][1:] = sizes / size
            hist = lay["history"].start
            row[hist + n] = rng.integers(1, copies + 2) / size  # the claim's count
            row[lay["claim_rank"]] = np.eye(NUM_RANKS)[rng.integers(NUM_RANKS)]
            mine = rng.integers(0, 2, NUM_RANKS) * (rng.random(NUM_RANKS) < 0.3)
            row[lay["my_cards_in_pile"]] = mine / copies
            row = row.astype(np.float32)
            table = Table(lay.decode(row), info)
            expected = table.claim_false_probability()
            assert kernels.claim_false_probability(row, cfg, params, binomials, terms, big) == expected
            claim = "impossible" if table.claim_impossible() else "possible"
            compared[claim] += 1
            for name, agent in references.items():
                got = batched[name].act(row[None], observation["action_mask"][None], np.zeros(1))[0]
                assert got == agent.decide({"observation": row, "action_mask": observation["action_mask"]}, 0.0)
                compared[f"{name}: {'doubt' if got == DOUBT else 'pass'} {claim}"] += 1
    assert compared["possible"] > 1500 and compared["impossible"] > 500
    for name in references:  # both ways on possible claims: the thresholds were met from both sides
        assert compared[f"{name}: doubt possible"] > 10 and compared[f"{name}: pass possible"] > 10, compared


def _big(x: int) -> np.ndarray:
    out = np.zeros(kernels.DIGITS, np.int64)
    for i in range(kernels.DIGITS):
        out[i] = (x >> (32 * i)) & 0xFFFFFFFF
    return out


def test_big_integer_division_rounds_as_python_does():
    """a / b of Python ints is correctly rounded, ties to even: the kernel's too, on random
    quotients of up to 300 bits, on exact ties, and next to them."""
    big = np.zeros((kernels.BIG_SCRATCH, kernels.DIGITS), np.int64)
    rnd = random.Random(3)
    cases = [(0, 1), (1, 1), (1, 3), (2, 3), (2**54 + 1, 2**54), (2**54 + 3, 2**54), (10**60, 10**61 + 7),
             (math.comb(35, 13), math.comb(39, 13)), (1, math.comb(208, 104))]
    for _ in range(3000):
        b = rnd.getrandbits(rnd.randint(1, 300)) | 1
        cases.append((rnd.randint(0, b), b))
    for _ in range(1000):  # (2m + 1) / 2^(e + 1): halfway between two doubles, and its neighbours
        m, e, s = rnd.getrandbits(53) | (1 << 52), rnd.randint(53, 200), rnd.randint(0, 40)
        a, b = (2 * m + 1) << s, 1 << (e + s)
        cases += [(a, b), (a - 1, b), (a + 1, b), (a, b + 1)]
    for a, b in cases:
        assert kernels.big_true_divide(_big(a), _big(b), big) == a / b, (a, b)


def test_hypergeometric_terms_are_the_references_to_the_bit():
    """Every (population, successes, draws) one deck can give, and samples up to four decks: by
    the kernel's quick roads (a double division, a certified double-word quotient) and by big
    integers alone."""
    big = np.zeros((kernels.BIG_SCRATCH, kernels.DIGITS), np.int64)
    out = np.zeros(4 * NUM_RANKS + 1)
    binomials = kernels.binomials()
    triples = [(N, s, d) for N in range(53) for s in range(min(N, 4) + 1) for d in range(N + 1)]
    rnd = random.Random(4)
    for _ in range(4000):
        N = rnd.randint(53, 208)
        triples.append((N, rnd.randint(0, min(N, 16)), rnd.randint(0, N)))
    triples += [(208, 16, 104), (208, 16, 208), (208, 0, 100), (150, 12, 75)]
    for i, (N, s, d) in enumerate(triples):
        expected = hypergeometric(N, s, d)
        size = kernels.hypergeometric(N, s, d, binomials, out, big)
        assert list(out[:size]) == expected, (N, s, d)
        if i % 4 == 0 or N > 52:
            size = kernels.hypergeometric(N, s, d, binomials, out, big, True)
            assert list(out[:size]) == expected, (N, s, d, "exact")


def test_the_binomial_table_is_a_double_word():
    binomials = kernels.binomials()
    for n in range(0, 209, 7):
        for k in range(0, n + 1, 3):
            hi, lo = binomials[:, n, k]
            assert hi == float(math.comb(n, k)) and abs(lo) <= np.spacing(hi) / 2
            assert int(hi) + int(lo) - math.comb(n, k) <= abs(lo) * 2.0**-52 + 1


def test_sum_is_pythons_sum():
    """The tail of the hypergeometric terms is summed as this Python's ``sum`` does."""
    compensated = bool(kernels.config(GameInfo.of(bluff_envs.make(GAME, raw=True)))[kernels.COMPENSATED])
    rng = np.random.default_rng(6)
    for _ in range(3000):
        values = rng.random(int(rng.integers(0, 18))) ** rng.integers(1, 30)
        start = int(rng.integers(0, 4))
        assert kernels.python_sum(values, start, len(values), compensated) == sum(values[start:].tolist())
