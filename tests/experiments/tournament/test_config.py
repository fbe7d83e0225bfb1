"""Config errors are found on load, name their key, and stop the run before any game."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from experiments.tournament import ConfigError, TournamentConfig
from experiments.commands.tournament import command
from tests.experiments.tiny import TINY, write_config


def problems(**changes) -> list[str]:
    data = {**TINY, **changes}
    data = {k: v for k, v in data.items() if v is not None}
    with pytest.raises(ConfigError) as caught:
        TournamentConfig.from_dict(data)
    return caught.value.problems


def test_a_good_config_loads(tmp_path):
    config = TournamentConfig.load(write_config(tmp_path))
    assert config.game == "i_doubt_it" and config.format == "round_robin" and config.deals == 4
    assert len(config.tasks()) == 4 * 3


def test_unknown_keys_are_named():
    assert problems(dealz=3) == [
        "dealz: unknown key; keys are name, game, options, format, agents, challenger, field, lineups, deals, "
        "seating, seed, workers, executor, batch_size"]


def test_wrong_types_are_named():
    found = problems(deals="ten", seed=-1, agents="honest", workers=0, seating=7)
    assert any(p.startswith("deals: expected an integer >= 1, got 'ten'") for p in found)
    assert any(p.startswith("seed: expected an integer >= 0") for p in found)
    assert any(p.startswith("agents: expected a non-empty list of agent specs") for p in found)
    assert any(p.startswith("workers: expected an integer >= 1 or null") for p in found)
    assert any(p.startswith("seating: expected one of rotations") for p in found)


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
    assert found == ["lineups[0]: 2 agents for the 3 seats of i_doubt_it"]


def test_format_needs_its_keys():
    found = problems(agents=None, format="gauntlet", challenger="honest")
    assert found == ["field: missing; format gauntlet needs challenger and field"]


def test_unknown_executor_is_named():
    assert problems(executor={"kind": "slurm"})[0].startswith("executor.kind: unknown executor 'slurm'")


def test_missing_file_is_reported(tmp_path):
    with pytest.raises(ConfigError, match="file not found"):
        TournamentConfig.load(tmp_path / "nope.yaml")


def test_the_command_stops_before_any_game(tmp_path):
    path = write_config(tmp_path, agents=["honest", "sneaky"], deals=0)
    out = tmp_path / "run"
    result = CliRunner().invoke(command, [str(path), "--out", str(out)])
    assert result.exit_code != 0
    assert "deals: expected an integer >= 1, got 0" in result.output
    path = write_config(tmp_path, agents=["honest", "sneaky"])
    result = CliRunner().invoke(command, [str(path), "--out", str(out)])
    assert result.exit_code != 0 and "agents[1]: unknown agent 'sneaky'" in result.output
    assert not out.exists()
