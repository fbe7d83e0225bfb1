"""The `bluff` command line: every subcommand is there, and `bluff list` tells the options."""

from click.testing import CliRunner

import bluff_envs
from experiments.cli import COMMANDS, cli


def test_every_subcommand_is_listed():
    result = CliRunner().invoke(cli, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


def test_list_prints_every_game_with_options_defaults_and_actions():
    result = CliRunner().invoke(cli, ["list"])
    assert result.exit_code == 0
    for game in bluff_envs.GAMES:
        assert game in result.output
    assert "max_cards_per_play   default 4 x num_decks" in result.output
    assert "13 done" in result.output and "14 doubt" in result.output
    assert "variant              default 'lebanese'" in result.output


def test_list_of_an_unknown_game_is_a_usage_error():
    result = CliRunner().invoke(cli, ["list", "poker"])
    assert result.exit_code == 2 and "unknown game 'poker'" in result.output


def test_run_rejects_a_malformed_experiment_naming_the_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("games: [{game: i_doubt_it, tournament: {agents: [honest], dealz: 3}}]\n")
    result = CliRunner().invoke(cli, ["run", str(bad), "--out", str(tmp_path / "run")])
    assert result.exit_code == 2 and "dealz" in result.output
    assert not (tmp_path / "run").exists()
