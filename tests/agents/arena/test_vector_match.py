"""Tournament games on the vector engine give the reference engine's records, byte for byte.

Schedules of every game (round robins of random and the heuristics, labelled copies, several
options) are played by ``play_batch`` on both engines and their results lines compared; with
fewer slots than games, so that slots take new games as theirs end. (A whole tournament on
either engine: ``tests/experiments/tournament/test_engines.py``.)
"""

from __future__ import annotations

import dataclasses
import json

import pytest

import bluff_envs
from agents.arena import match, vector_match
from agents.arena.executor import batches_of
from agents.arena.schedule import lineups, partnerships, schedule
from agents.batched import batched_specs

CASES = [
    pytest.param("i_doubt_it", {}, id="i_doubt_it"),
    pytest.param("i_doubt_it", {"num_players": 3, "max_cards_per_play": 2, "last_play_checked": False, "max_turns": 25},
                 id="idi-3p-truncated"),
    pytest.param("believe_it_or_not", {}, id="believe_it_or_not"),
    pytest.param("believe_it_or_not", {"num_players": 3, "deck": 36}, id="bion-3p-36"),
    pytest.param("seven_spades", {}, id="seven_spades"),
    pytest.param("seven_spades", {"num_players": 5, "max_turns": 8}, id="seven-spades-5p-truncated"),
    pytest.param("tarneeb", {}, id="tarneeb"),
    pytest.param("tarneeb", {"episode": "deal", "variant": "egyptian"}, id="tarneeb-egyptian-deal"),
]


def round_robin(game: str, options: dict, deals: int, engine: str, seed: int = 3):
    n = bluff_envs.make(game, raw=True, **options).unwrapped.game.num_players
    specs = batched_specs(game)
    agents = specs if len(specs) > 2 else [*specs, f"{specs[-1]}#copy"]
    teams = partnerships(game, n)
    return schedule(game, options, lineups("round_robin", n, teams, agents=agents)[:6], deals, seed, "rotations", engine)


def lines(tasks, slots=None) -> list[str]:
    if slots is None:
        return [json.dumps(x, sort_keys=True) for x in match.play_batch(tasks)]
    records = vector_match.play_tasks(tasks, vector_match.VectorTable(slots))
    return [json.dumps(match.result_line(t, r), sort_keys=True) for t, r in zip(tasks, records)]


@pytest.mark.parametrize("game, options", CASES)
def test_the_vector_engine_plays_the_reference_games(game, options):
    tasks = round_robin(game, options, deals=2, engine="reference")
    if game == "tarneeb":
        tasks = tasks[:16]
    reference = lines(tasks)
    vector = [dataclasses.replace(t, engine="vector") for t in tasks]
    assert lines(vector) == reference
    assert lines(vector, slots=5) == reference  # games stream through 5 slots
    if "max_turns" in options:
        assert any(json.loads(x)["truncated"] for x in reference)


def test_auto_picks_the_vector_engine_when_every_agent_has_a_batched_form(monkeypatch):
    played = []
    monkeypatch.setattr(vector_match, "play_tasks", lambda tasks, table: played.append(len(tasks)) or [])
    tasks = round_robin("seven_spades", {}, deals=1, engine="auto")
    assert match.on_vector_engine(tasks)
    match.play_batch(tasks[:3])
    assert played == [3]
    assert not match.on_vector_engine([dataclasses.replace(t, engine="reference") for t in tasks])
    # vector batches are big: hundreds of games, not the reference's 16
    assert len(batches_of(round_robin("seven_spades", {}, deals=40, engine="auto"), 1)[0]) >= 64


def test_an_agent_without_a_batched_form_keeps_auto_on_the_reference_engine(tmp_path):
    tasks = round_robin("seven_spades", {}, deals=1, engine="auto")
    other = [dataclasses.replace(t, seats=("rllib:nowhere", *t.seats[1:])) for t in tasks]
    assert not match.on_vector_engine(other)
    with pytest.raises(ValueError, match="engine 'vector': agent 'rllib:nowhere' has no batched form"):
        match.on_vector_engine([dataclasses.replace(t, engine="vector") for t in other])


@pytest.mark.parametrize("game, options", [pytest.param("believe_it_or_not", {}, id="believe_it_or_not"),
                                           pytest.param("tarneeb", {}, id="tarneeb")])
def test_mixtures_play_the_reference_games_on_the_vector_engine(game, options):
    """A mixture's seat is its member's, drawn from the agent seed, game by game, as
    ``MixtureAgent`` plays it; labelled copies of a mixture draw apart."""
    n = bluff_envs.make(game, raw=True, **options).unwrapped.game.num_players
    specs = batched_specs(game)
    mix = "mix:" + "+".join(specs[:3])
    lineup = (mix, f"{mix}#copy", *specs[: n - 2])
    tasks = schedule(game, options, [lineup], 6 if game == "tarneeb" else 3, 5, "rotations", "reference")
    assert vector_match.can_play(tasks)
    from agents.mixture import member_and_seed

    drawn = {member_and_seed(3, seed)[0] for t in tasks for spec, seed in zip(t.seats, t.agent_seeds) if spec.startswith("mix:")}
    assert len(drawn) == 3  # every member plays somewhere
    reference = lines(tasks)
    assert lines([dataclasses.replace(t, engine="vector") for t in tasks], slots=3) == reference
