"""`bluff behaviour`: a tournament's claims by stage, and one clear line for what it cannot read."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from bluff_envs.behaviour import agent_counts, module_for
from bluff_envs.records import GameRecord, read_records
from experiments.cli import cli
from experiments.tournament import TournamentConfig, run_tournament
from tests.experiments.tiny import write_config


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A tiny I Doubt It tournament's results.jsonl (honest, bluffer, random)."""
    directory = tmp_path_factory.mktemp("tiny")
    run_tournament(TournamentConfig.load(write_config(directory)), directory / "run", workers=1, progress=False,
                   report=False)
    return directory / "run" / "results.jsonl"


def test_the_tables_and_the_json_of_one_agent(results, tmp_path):
    out = tmp_path / "claims.json"
    result = CliRunner().invoke(cli, ["behaviour", str(results), "--agent", "bluffer", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "### bluffer" in result.output and "### honest" not in result.output
    assert "| stage | claims | bluffs | bluffs doubted |" in result.output
    numbers = json.loads(out.read_text())
    assert numbers["game"] == "i_doubt_it" and list(numbers["agents"]) == ["bluffer"]
    stages = numbers["agents"]["bluffer"]
    plays = agent_counts((r for _, r in read_records(results)), module_for("i_doubt_it"))["bluffer"]
    assert sum(c["claims"] for c in stages.values()) == plays["plays"]  # every play, once
    assert sum(c["bluffs"] for c in stages.values()) == plays["bluffs"]
    assert stages["1 card"]["claims"] > 0
    low, high = numbers["intervals"]["bluffer"]["1 card"]["bluffs"]  # a deal bootstrap's
    assert low <= stages["1 card"]["bluffs"] / stages["1 card"]["claims"] <= high


def test_by_maker_splits_each_agents_uncertain_calls_by_whose_claim(results, tmp_path):
    out = tmp_path / "makers.json"
    result = CliRunner().invoke(cli, ["behaviour", str(results), "--by", "maker", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "## Uncertain challenge decisions by maker: i_doubt_it" in result.output
    assert "| maker | uncertain answers | bluffs (base rate) | bluffs challenged |" in result.output
    numbers = json.loads(out.read_text())
    assert numbers["by"] == "maker" and sorted(numbers["agents"]) == ["bluffer", "honest", "random"]
    counts = agent_counts((r for _, r in read_records(results)), module_for("i_doubt_it"))
    for spec, makers in numbers["agents"].items():
        assert makers["all"]["answers"] == counts[spec]["uncertain_windows"]
        assert makers["all"]["right"] == counts[spec]["uncertain_correct_challenges"]
        assert makers["all"]["certain_answers"] == counts[spec]["certain_windows"]


def test_an_unknown_agent_is_one_line_naming_the_agents_there(results):
    result = CliRunner().invoke(cli, ["behaviour", str(results), "--agent", "counter"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "no agent 'counter'" in result.output and "bluffer, honest, random" in result.output


def test_a_game_without_claims_and_a_missing_file_are_errors(tmp_path):
    tarneeb = GameRecord("tarneeb", {}, 0, [], ["rule_based"] * 4, [], [0.0] * 4, 0, False)
    path = tmp_path / "results.jsonl"
    path.write_text(tarneeb.to_json() + "\n")
    result = CliRunner().invoke(cli, ["behaviour", str(path)])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "tarneeb has no claims to split by stage" in result.output
    assert "i_doubt_it, believe_it_or_not, seven_spades" in result.output
    result = CliRunner().invoke(cli, ["behaviour", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2 and "does not exist" in result.output
