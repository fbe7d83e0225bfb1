"""The batched Believe It or Not heuristics make the reference heuristics' choice, decision for
decision and draw for draw.

Reference games (``bluff_envs.make("believe_it_or_not", raw=True, ...)``) are played by a mix
of the heuristics' own actions and random ones; at every decision every heuristic is asked,
batched (one row) and reference, with a random draw and the ends of [0, 1) (no heuristic uses
its draw: the choice must not move). The families run over every option of the game. Then
whole batches of the vector engine are played forward by the batched heuristics, every row
checked.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import bluff_envs
import bluff_envs.vector
from agents import GameInfo, make_agent
from agents.batched import batched_agent
from agents.batched import believe_it_or_not_kernels as kernels
from agents.heuristics.believe_it_or_not import Table, hypergeometric
from agents.registry import heuristics
from bluff_envs.believe_it_or_not.actions import ADD0, BELIEVE, DISBELIEVE, DONE, NAME, NAME0, RESPOND

GAME = "believe_it_or_not"
HEURISTICS = list(heuristics(GAME))
BELOW_ONE = float(np.nextafter(1.0, 0.0))

# options, games, and how the random actions play: ``call`` the chance that a random responder
# calls (believe or not, evenly) rather than picks any legal action (mostly an "add"), ``done``
# the chance that a random builder says "done" as soon as it may; ``max_turns`` (plays) keeps
# the games short. ``own``: the share of decisions played by the seat's heuristic (seat s of
# game g plays HEURISTICS[(s + g) % 5]), the rest random; a high share gives games that end
# (hands emptied, players going out). ``expect``: branches ("heuristic: branch") the family must
# meet, beyond those every family meets (see the test).
IMPOSSIBLE = tuple(f"{name}: disbelieve impossible" for name in ("honest", "counter", "bluffer", "always_challenge"))
WENT_OUT = tuple(f"{name}: believe, maker went out" for name in ("honest", "counter", "bluffer", "never_challenge"))
NO_CARDS = ("honest: no cards: believe", "counter: no cards: believe", "bluffer: no cards: believe",
            "never_challenge: no cards: believe", "always_challenge: no cards: disbelieve")
ENDGAME = IMPOSSIBLE + WENT_OUT + NO_CARDS
FAMILIES = [
    pytest.param({}, 3, dict(call=0.5, done=0.5, own=0.8, max_turns=120,
                             expect=ENDGAME + ("counter: disbelieve probable", "counter: no cards: disbelieve",
                                               "bluffer: no cards: disbelieve")), id="defaults"),
    pytest.param({"num_players": 2}, 3, dict(call=0.5, done=0.5, own=0.8, max_turns=150,
                                             expect=ENDGAME + ("counter: disbelieve probable",)), id="2p"),
    pytest.param({"num_players": 3}, 3, dict(call=0.5, done=0.5, own=0.8, max_turns=150,
                                             expect=ENDGAME + ("counter: disbelieve probable",
                                                               "bluffer: disbelieve probable")), id="3p"),
    pytest.param({"num_players": 6}, 2, dict(call=0.4, done=0.5, own=0.7, max_turns=120,
                                             expect=ENDGAME + ("counter: disbelieve probable",
                                                               "bluffer: disbelieve probable")), id="6p"),
    pytest.param({"num_players": 4, "deck": 36}, 3, dict(call=0.5, done=0.5, own=0.8, max_turns=120, expect=ENDGAME),
                 id="4p-36cards"),
    pytest.param({"num_players": 2, "deck": 52}, 3, dict(call=0.5, done=0.5, own=0.8, max_turns=150, expect=ENDGAME),
                 id="2p-52cards"),
    pytest.param({"num_players": 4, "num_decks": 2}, 2,
                 dict(call=0.4, done=0.5, own=0.7, max_turns=100,
                      expect=IMPOSSIBLE + ("counter: disbelieve probable", "bluffer: disbelieve probable")),
                 id="2decks"),
    pytest.param({"num_players": 3, "deck": 36, "num_decks": 2}, 2,
                 dict(call=0.4, done=0.5, own=0.7, max_turns=100, expect=ENDGAME), id="3p-36cards-2decks"),
    pytest.param({"max_cards_per_play": 1}, 3, dict(call=0.5, done=0.5, own=0.8, max_turns=120, expect=ENDGAME),
                 id="max1"),
    pytest.param({"num_players": 5, "max_cards_per_play": 3}, 2,
                 dict(call=0.5, done=0.5, own=0.8, max_turns=120, expect=ENDGAME + ("counter: disbelieve probable",)),
                 id="5p-max3"),
    pytest.param({"num_players": 3, "max_cards_per_play": None}, 3,
                 dict(call=0.5, done=0.3, own=0.6, max_turns=120,
                      expect=ENDGAME + ("counter: disbelieve probable", "bluffer: disbelieve probable")),
                 id="3p-no-cap"),
    pytest.param({"num_players": 5, "discard_quads": True}, 2,
                 dict(call=0.5, done=0.5, own=0.8, max_turns=150,
                      expect=ENDGAME + ("bluffer: disbelieve probable", "counter: no cards: disbelieve")),
                 id="5p-discard_quads"),
    pytest.param({"num_players": 6, "num_decks": 2, "max_cards_per_play": 2, "discard_quads": True, "max_turns": 60},
                 2, dict(call=0.4, done=0.5, own=0.7, max_turns=None, expect=()), id="6p-2decks-max2-quads-turns60"),
]


def branch(agent, table: Table, action: int) -> str:
    """Which branch of the heuristic a choice took, for the coverage counts."""
    if table.phase == NAME:
        return "lead"
    if ADD0 <= action < DONE:
        plan = agent.plan(table.as_decided())
        if not agent._continues(plan, table):
            return "add, fallback"  # the guard (never expected)
        kind = "honest" if plan[table.rank] == plan.sum() else "bluff"
        return f"{'start' if table.phase == RESPOND else 'add'} {kind}"
    if action == DONE:
        return "done" if agent._continues(agent.plan(table.as_decided()), table) else "done as it stands"
    if not table.hand.any():
        return f"no cards: {'believe' if action == BELIEVE else 'disbelieve'}"
    if action == DISBELIEVE:
        return "disbelieve impossible" if table.claim_impossible() else "disbelieve probable"
    return "believe, maker went out" if table.maker_went_out else "believe"


def random_action(env, rng, how: dict) -> int:
    legal = env.legal_actions()
    state = env.game_state
    if state.phase == RESPOND and rng.random() < how["call"]:
        return BELIEVE if rng.random() < 0.5 else DISBELIEVE
    if DONE in legal and rng.random() < how["done"]:
        return DONE
    return int(legal[rng.integers(len(legal))])


def play_and_compare(options: dict, games: int, how: dict) -> tuple[int, dict[str, Counter]]:
    """Play ``games`` reference games, comparing every heuristic at every decision; returns the
    decisions compared and the branches each heuristic took."""
    if how["max_turns"] is not None:
        options = {**options, "max_turns": how["max_turns"]}
    env = bluff_envs.make(GAME, raw=True, **options)
    info = GameInfo.of(env)
    references = {name: make_agent(name, info, 0) for name in HEURISTICS}
    batched = {name: batched_agent(name, info) for name in HEURISTICS}
    rng = np.random.default_rng(info.num_players * 7919 + games)
    decisions, branches = 0, {name: Counter() for name in HEURISTICS}
    for game in range(games):
        env.reset(seed=game)
        plays = [HEURISTICS[(seat + game) % len(HEURISTICS)] for seat in range(info.num_players)]
        while not env.game_state.is_over:
            observation = env.observe(env.agent_selection)
            obs, mask = observation["observation"][None], observation["action_mask"][None]
            view = info.layout.decode(observation["observation"])
            table = Table(view, info)
            draws = [float(rng.random()), 0.0, BELOW_ONE]
            chosen = {}
            for name in HEURISTICS:
                for u in draws:
                    expected = references[name].decide(observation, u, view)
                    got = batched[name].act(obs, mask, np.array([u]))[0]
                    assert got == expected, f"{name} {options} game {game} turn {env.game_state.turns} u={u!r}"
                    decisions += 1
                    chosen.setdefault(name, expected)
                branches[name][branch(references[name], table, chosen[name])] += 1
            if rng.random() < how["own"]:
                action = chosen[plays[env.game_state.current_player]]
            else:
                action = random_action(env, rng, how)
            env.step(action)
    return decisions, branches


@pytest.mark.parametrize("options, games, how", FAMILIES)
def test_batched_heuristics_choose_what_the_reference_chooses(options, games, how):
    """At every decision of the family's games, each heuristic with three draws, batched (one
    row) against the reference; then the branches the choices took."""
    decisions, branches = play_and_compare(options, games, how)
    assert decisions >= 3000
    met = {f"{name}: {b}" for name, counts in branches.items() for b in counts}
    # the comparisons met the heuristics' branches, not one choice over and over
    for name in HEURISTICS:
        assert {f"{name}: {b}" for b in ("lead", "done", "done as it stands")} <= met, name
        if name != "bluffer":
            assert f"{name}: add honest" in met, name
        if name not in ("bluffer", "always_challenge"):
            assert f"{name}: start honest" in met, name
    assert {"bluffer: start bluff", "bluffer: add bluff", "honest: believe", "counter: believe",
            "always_challenge: disbelieve probable", "never_challenge: believe"} <= met, sorted(met)
    assert set(how["expect"]) <= met, sorted(set(how["expect"]) - met)
    assert not any(b.endswith("fallback") for b in met)



def _rows_in(venv, actor, phase: int) -> np.ndarray:
    """The games whose actor is in ``phase``."""
    lay = venv.layout
    return np.flatnonzero((actor >= 0) & (venv.obs[:, lay["phase"].start + phase] > 0.5))


@pytest.mark.parametrize(
    "options, B, steps",
    [({}, 128, 260), ({"num_players": 6, "num_decks": 2, "max_cards_per_play": 3, "discard_quads": True,
                      "max_turns": 40}, 96, 200)],
    ids=["defaults", "6p-2decks-max3-quads"],
)
def test_a_vector_batch_played_forward_by_the_batched_heuristics(options, B, steps):
    """``B`` games of the vector engine, each seat played by one batched heuristic (seat s of
    game i: HEURISTICS[(i + s) % 5]). Every heuristic acts on the whole batch at every step;
    each row's own heuristic is checked against the reference on the same row and draw at
    every step, all five heuristics on every row at every eighth step, and there the claim
    probability of every responding row, to the bit."""
    info = GameInfo.of(bluff_envs.make(GAME, raw=True, **options))
    batched = [batched_agent(name, info) for name in HEURISTICS]
    references = [make_agent(name, info, 0) for name in HEURISTICS]
    cfg, params, pmf = batched[0].cfg, batched[0].params, batched[0].pmf
    holding = np.zeros(pmf.shape[3])
    venv = bluff_envs.vector.make(GAME, B, **options)
    obs, mask, actor = venv.reset(seed=11)
    plays = (np.arange(B)[:, None] + np.arange(info.num_players)[None, :]) % len(HEURISTICS)
    rng = np.random.default_rng(11)
    checked, probabilities, ended, actions_seen = 0, 0, 0, Counter()
    for step in range(steps):
        u = rng.random(B)
        proposals = np.stack([agent.act(obs, mask, u) for agent in batched])  # [heuristic, game]
        live = actor >= 0
        assert (proposals[:, ~live] == -1).all()  # a game just ended: nothing is legal
        own = plays[np.arange(B), np.maximum(actor, 0)]
        for i in np.flatnonzero(live):
            observation = {"observation": obs[i], "action_mask": mask[i]}
            view = info.layout.decode(obs[i])
            for h in range(len(HEURISTICS)) if step % 8 == 0 else (own[i],):
                expected = references[h].decide(observation, u[i], view)
                assert proposals[h, i] == expected, f"{HEURISTICS[h]} step {step} game {i} u={u[i]!r}"
                checked += 1
        if step % 8 == 0:
            for i in _rows_in(venv, actor, RESPOND):
                table = Table(info.layout.decode(obs[i]), info)
                expected = table.claim_false_probability()
                got = kernels.claim_false_probability(obs[i], table.rank, table.hand.astype(np.int64), cfg, params,
                                                      pmf, holding)
                assert got == expected, f"step {step} game {i}: {got!r} != {expected!r}"
                probabilities += 1
        actions = np.where(live, proposals[own, np.arange(B)], 0)
        actions_seen.update(actions[live].tolist())
        obs, mask, actor, _, terminated, truncated = venv.step(actions)
        ended += int((terminated | truncated).sum())
    assert checked > B * steps * 0.9 and ended > B // 2 and probabilities > B
    kinds = {"name" if a < ADD0 else "add" if a < DONE else info.action_names[a] for a in actions_seen}
    assert kinds == {"name", "add", "done", "believe", "disbelieve"}


def test_the_hypergeometric_table_is_the_reference_function():
    """``pmf[p, s, d]`` holds ``hypergeometric(p, s, d)`` to the bit, zeros after it."""
    rng = np.random.default_rng(5)
    for population, copies in ((36, 4), (52, 4), (72, 8), (104, 8)):
        pmf = kernels.pmf_table(population, copies)
        assert pmf.shape == (population + 1, copies + 1, population + 1, copies + 1) and not pmf.flags.writeable
        for _ in range(200):
            p = int(rng.integers(population + 1))
            s, d = int(rng.integers(min(copies, p) + 1)), int(rng.integers(p + 1))
            values = hypergeometric(p, s, d)
            assert pmf[p, s, d, : len(values)].tolist() == values and not pmf[p, s, d, len(values) :].any()


def test_the_leader_of_a_fresh_deal_names_the_rank_it_holds_most_of():
    info = GameInfo.of(bluff_envs.make(GAME, raw=True))
    env = bluff_envs.make(GAME, raw=True)
    env.reset(seed=0)
    observation = env.observe(env.agent_selection)
    for name in HEURISTICS:
        got = batched_agent(name, info).act(observation["observation"][None], observation["action_mask"][None],
                                            np.zeros(1))
        assert NAME0 <= got[0] < ADD0 and got[0] == make_agent(name, info, 0).decide(observation, 0.0)
