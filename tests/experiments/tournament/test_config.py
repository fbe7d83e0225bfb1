"""Config errors are found on load, all at once, name their key, and stop the run before any game."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from experiments.commands.tournament import command
from experiments.tournament import ConfigError, TournamentConfig
from tests.experiments.tiny import TINY, write_config

ROOT = Path(__file__).resolve().parents[3]
KEYS = ("name, game, options, format, agents, challenger, field, lineups, deals, seating, seed, workers, executor, "
        "batch_size, engine")


def problems(**changes) -> list[str]:
    data = {**TINY, **changes}
    data = {k: v for k, v in data.items() if v is not None}
    with pytest.raises(ConfigError) as caught:
        TournamentConfig.from_dict(data)
    return caught.value.problems


@pytest.fixture
def two_cores(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)


def test_a_good_config_loads(tmp_path):
    config = TournamentConfig.load(write_config(tmp_path))
    assert config.game == "i_doubt_it" and config.format == "round_robin" and config.deals == 4
    assert len(config.tasks()) == 4 * 3


def test_a_config_is_named_after_its_file_unless_it_names_itself(tmp_path):
    data = {k: v for k, v in TINY.items() if k != "name"}
    assert TournamentConfig.load(write_config(tmp_path, **{})).name == "tiny"
    path = tmp_path / "my_cup.yaml"
    import yaml

    path.write_text(yaml.safe_dump(data))
    assert TournamentConfig.load(path).name == "my_cup"


def test_unknown_keys_are_named():
    assert problems(dealz=3) == [f"dealz: unknown key; allowed: {KEYS}"]


def test_wrong_types_are_named_all_at_once():
    found = problems(deals="ten", seed=-1, agents="honest", workers=0, seating=7)
    assert sorted(found) == sorted([
        "agents: wrong type: str 'honest'; allowed: a non-empty list of agent specs",
        "deals: wrong type: str 'ten'; allowed: an integer from 1 to 10000000",
        "seating: not one of the choices: int 7; allowed: one of 'balanced', 'rotations', 'permutations', 'fixed'",
        "seed: out of range: int -1; allowed: an integer from 0 to 4294967295",
        f"workers: out of range: int 0; allowed: an integer from 1 to {os.cpu_count()} (this machine's cores) or null",
    ])


def test_problems_of_shape_and_of_meaning_come_together():
    found = problems(agents=["honest", "sneaky", "random"], dealz=3, seed=2**32, options={"num_players": 3, "max_turns": 60})
    assert sorted(p.split(":")[0] for p in found) == ["agents[1]", "dealz", "seed"]


def test_an_unknown_agent_is_named_by_its_place():
    found = problems(agents=["honest", "sneaky", "random"])
    assert len(found) == 1 and found[0].startswith("agents[1]: unknown agent 'sneaky' for i_doubt_it")


def test_a_learned_agent_whose_checkpoint_is_missing_is_reported(tmp_path):
    found = problems(agents=["honest", f"ppo:{tmp_path}/missing.zip"])
    assert len(found) == 1 and found[0].startswith("agents[1]:")


def test_bad_game_options_are_reported_by_the_game():
    found = problems(options={"num_players": 30})
    assert found == ["options: option num_players=30 is out of range; allowed: an integer from 2 to 11"]
    found = problems(options={"jokers": True})
    assert len(found) == 1 and found[0].startswith("options: i_doubt_it: unknown option(s) 'jokers'")
    assert problems(game="poker")[0].startswith("game: unknown game 'poker'")


def test_line_ups_must_fit_the_seats():
    found = problems(agents=None, lineups=[["honest", "random"], ["honest", "random", "random"]])
    assert found == ["lineups[0]: 2 agents for the 3 seats of i_doubt_it; allowed: 3 agent specs, one per seat"]


def test_format_needs_its_keys():
    found = problems(agents=None, format="gauntlet", challenger="honest")
    assert found == ["field: missing, format gauntlet needs challenger and field; allowed: a non-empty list of agent specs"]


# (changes, the one problem expected: its start)
BAD = [
    ({"agents": ["honest", "honest"]}, "agents: a round robin needs at least two different agents"),
    ({"agents": []}, "agents: empty: list []; allowed: a non-empty list of agent specs"),
    ({"agents": ["honest", ""]}, "agents[1]: empty: str ''; allowed: an agent spec"),
    ({"agents": ["honest", 7]}, "agents[1]: wrong type: int 7; allowed: an agent spec"),
    ({"format": "swiss"}, "format: not one of the choices: str 'swiss'; allowed: one of 'round_robin', 'gauntlet', 'lineups'"),
    ({"field": ["random"]}, "field: not used by format round_robin; allowed: agents"),
    ({"agents": None, "lineups": [["honest", "random", 3]]}, "lineups[0][2]: wrong type: int 3"),
    ({"agents": None, "lineups": []}, "lineups: empty: list []; allowed: a non-empty list of line-ups"),
    ({"agents": None, "lineups": [[]]}, "lineups[0]: empty: list []; allowed: a line-up"),
    ({"options": ["num_players", 3]}, "options: wrong type: list ['num_players', 3]; allowed: a mapping of the game's options"),
    ({"options": {1: 3}}, "options.1: not a valid key (int 1); allowed: a non-empty string"),
    ({"game": None}, "game: missing; allowed: a game name: i_doubt_it, "),  # (None: the key left out)
    ({"game": ["i_doubt_it"]}, "game: wrong type: list ['i_doubt_it']; allowed: a game name"),
    ({"game": ""}, "game: empty: str ''; allowed: a game name"),
    ({"deals": 0}, "deals: out of range: int 0; allowed: an integer from 1 to 10000000"),
    ({"deals": 10**8}, "deals: out of range: int 100000000; allowed: an integer from 1 to 10000000"),
    ({"deals": True}, "deals: wrong type: bool true; allowed: an integer from 1 to 10000000"),
    ({"deals": 4.0}, "deals: wrong type: float 4.0; allowed: an integer from 1 to 10000000"),
    ({"seed": 2**32}, "seed: out of range: int 4294967296; allowed: an integer from 0 to 4294967295"),
    ({"seed": "5"}, "seed: wrong type: str '5'; allowed: an integer from 0 to 4294967295"),
    ({"batch_size": 0}, "batch_size: out of range: int 0; allowed: an integer from 1 to 10000000 or null"),
    ({"name": "../elsewhere"}, "name: a name that would lead outside the run directory: str '../elsewhere'"),
    ({"name": ".."}, "name: a name that would lead outside the run directory: str '..'"),
    ({"name": ""}, "name: empty: str ''; allowed: a non-empty name"),
    ({"executor": 3}, "executor: wrong type: int 3; allowed: an executor name (local, ray) or a mapping with keys kind, address"),
    ({"executor": {"kind": "local", "adress": "x"}}, "executor.adress: unknown key; allowed: kind, address"),
    ({"executor": {"kind": "local", "address": 5}}, "executor.address: wrong type: int 5; allowed: a non-empty string or null"),
    ({"seating": "permutations", "deals": 10**7, "options": {"num_players": 9},
      "agents": ["honest", "bluffer", "random", "counter", "always_challenge", "never_challenge", "honest#2", "random#2",
                 "counter#2"]}, "deals: 10000000 deals x 1 line-ups x up to 362880 seatings make 3628800000000 games"),
]


@pytest.mark.parametrize(("changes", "problem"), BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_a_bad_config_is_rejected_naming_the_key(changes, problem):
    found = problems(**changes)
    assert len(found) == 1 and found[0].startswith(problem), found


def test_workers_are_at_most_the_machines_cores(two_cores):
    assert TournamentConfig.from_dict({**TINY, "workers": 2}).workers == 2
    assert problems(workers=3) == ["workers: more workers than this machine's 2 cores: int 3; "
                                   "allowed: an integer from 1 to 2 (this machine's cores) or null"]


def test_a_config_keeps_its_types_when_replaced():
    import dataclasses

    config = TournamentConfig.from_dict(TINY)
    assert dataclasses.replace(config, deals=7).deals == 7
    with pytest.raises(ValueError):
        dataclasses.replace(config, deals=0)


def test_unknown_executor_is_named():
    assert problems(executor={"kind": "slurm"})[0].startswith("executor.kind: unknown executor 'slurm'; allowed: local")


def test_missing_file_is_reported(tmp_path):
    with pytest.raises(ConfigError, match="the file: not found"):
        TournamentConfig.load(tmp_path / "nope.yaml")


@pytest.mark.parametrize(("text", "problem"), [
    (b"game: i_doubt_it\nagents: [honest, \xe9]\n", "the file: not UTF-8 text (byte 0xe9 at line 2, column 18)"),
    (b"game: i_doubt_it\nagents: [honest, random\n", "the file: not valid YAML ("),
    (b"[game, i_doubt_it]\n", "the top level: wrong type: list ['game', 'i_doubt_it']; allowed: a mapping with keys name, "),
    (b"game: i_doubt_it\ngame: tarneeb\nagents: [random, honest]\n", "game: given twice (lines 1 and 2); allowed: each key once"),
])
def test_a_file_that_cannot_be_read_says_why(tmp_path, text, problem):
    path = tmp_path / "cup.yaml"
    path.write_bytes(text)
    with pytest.raises(ConfigError) as caught:
        TournamentConfig.load(path)
    assert caught.value.problems[0].startswith(problem) and str(caught.value).startswith(f"{path}: invalid tournament config")


def test_an_alias_bomb_fails_fast_with_a_short_message(tmp_path):
    text = "game: i_doubt_it\nx: &x [a,a,a,a,a,a,a,a,a]\n" + "".join(
        f"{chr(121 + i % 2)}{i}: &v{i} [{','.join(['*' + ('x' if i == 0 else f'v{i - 1}')] * 9)}]\n" for i in range(8))
    text += "lineups: [*v7]\n"
    assert len(text) < 500
    path = tmp_path / "bomb.yaml"
    path.write_text(text)
    start = time.perf_counter()
    with pytest.raises(ConfigError) as caught:
        TournamentConfig.load(path)
    assert time.perf_counter() - start < 0.5 and len(str(caught.value)) < 1000
    assert caught.value.problems == ["the file: more than 10000 values (YAML aliases expanded); allowed: at most 10000 values"]


def test_an_alias_bomb_below_the_limit_fails_fast_too(tmp_path):
    text = ("game: i_doubt_it\nx: &x [1,1,1,1,1,1,1,1,1,1]\ny: &y [*x,*x,*x,*x,*x,*x,*x,*x,*x,*x]\n"
            "lineups: [*y,*y,*y,*y,*y,*y,*y,*y,*y,*y,*y,*y,*y,*y,*y,*y,*y,*y,*y,*y]\n")
    path = tmp_path / "bomb.yaml"
    path.write_text(text)
    start = time.perf_counter()
    with pytest.raises(ConfigError) as caught:
        TournamentConfig.load(path)
    assert time.perf_counter() - start < 0.5
    assert len(caught.value.problems) == 2 + 200 and len(str(caught.value)) < 5500  # x, y unknown; 20 x 10 line-up seats
    assert str(caught.value).splitlines()[-1].startswith("  … and ")


SHIPPED = sorted((ROOT / "experiments" / "tournaments").glob("*.yaml"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_tournament_loads(path):
    config = TournamentConfig.load(path)
    assert config.name == path.stem and config.tasks()


def test_the_command_stops_before_any_game(tmp_path):
    path = write_config(tmp_path, agents=["honest", "sneaky"], deals=0)
    out = tmp_path / "run"
    result = CliRunner().invoke(command, [str(path), "--out", str(out)])
    assert result.exit_code != 0
    assert "deals: out of range: int 0; allowed: an integer from 1 to" in result.output
    assert "agents[1]: unknown agent 'sneaky'" in result.output  # reported together
    path = write_config(tmp_path, agents=["honest", "sneaky"])
    result = CliRunner().invoke(command, [str(path), "--out", str(out)])
    assert result.exit_code != 0 and "agents[1]: unknown agent 'sneaky'" in result.output
    assert not out.exists()


def test_counting_line_ups_agrees_with_listing_them():
    from agents.arena import schedule as sched
    from agents.training.config_loader import count_lineups

    for teams in (2, 3, 4):
        team_seats = tuple((s,) for s in range(teams))
        for n in range(1, 7):
            agents = [f"a{i}" for i in range(n)]
            assert count_lineups("round_robin", teams, agents=n) == len(
                sched.lineups("round_robin", teams, team_seats, agents=agents))
            assert count_lineups("gauntlet", teams, challengers=2, field=n) == len(
                sched.lineups("gauntlet", teams, team_seats, challengers=["c0", "c1"], field=agents))
    assert math.comb(5, 4) == count_lineups("round_robin", 4, agents=5)
