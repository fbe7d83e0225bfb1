"""The benchmark runner end to end, on a miniature experiment."""

import json

import pytest
import yaml

from experiments.study.config import load_experiment
from experiments.study.run import RunDirectoryError, run_experiment
from experiments.tournament.config import ConfigError

TINY_TRAINING = {
    "total_steps": 256,
    "num_envs": 2,
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1},
    "network": {"pi": [16], "vf": [16]},
    "opponents": {"fixed": ["random"], "snapshot_every": 128},
    "eval": {"every": 0, "deals": 1, "opponents": ["random"]},
    "checkpoint": {"every": 128},
}


def tiny_experiment(tmp_path, games=("i_doubt_it", "believe_it_or_not", "seven_spades", "tarneeb")):
    entries = []
    for game in games:
        heuristic = "rule_based" if game == "tarneeb" else "honest"
        entries.append({
            "game": game,
            "options": {"episode": "deal"} if game == "tarneeb" else {},
            "train": {"ppo": TINY_TRAINING},
            "tournament": {"format": "round_robin", "agents": ["ppo", heuristic, "random"], "deals": 1},
        })
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump({"name": "tiny", "seed": 3, "workers": 1, "games": entries}))
    return load_experiment(path)


def test_a_miniature_study_writes_the_whole_report(tmp_path):
    experiment = tiny_experiment(tmp_path)
    run = tmp_path / "run"
    summary = run_experiment(experiment, run, progress=False, echo=lambda line: None)
    report = (run / "report.md").read_text()
    for game in ("i_doubt_it", "believe_it_or_not", "seven_spades", "tarneeb"):
        assert f"## {game}" in report
        assert (run / "plots" / f"{game}_learning.png").is_file()
        assert (run / game / "tournament" / "plots" / "win_rates.png").is_file()
        standings = summary["games"][game]["tournament"]["agents"]
        heuristic = "rule_based" if game == "tarneeb" else "honest"
        assert set(standings) == {"ppo", heuristic, "random"}  # trained agents by their names
        for row in standings.values():
            lo, hi = row["win_rate_ci"]
            assert 0.0 <= lo <= row["win_rate"] <= hi <= 1.0
        assert summary["games"][game]["training"]["ppo"]["steps"] >= 256
    assert "95 % CI" in report and "[" in report
    assert (run / "experiment.yaml").is_file() and json.loads((run / "run.json").read_text())["seed"] == 3
    assert (run / "i_doubt_it" / "train" / "ppo" / "result.json").is_file()


def test_a_killed_study_resumes_to_the_same_results(tmp_path, monkeypatch):
    experiment = tiny_experiment(tmp_path, games=("i_doubt_it", "seven_spades"))
    whole = run_experiment(experiment, tmp_path / "whole", progress=False, echo=lambda line: None)

    from experiments.tournament import results

    appended = {"n": 0}
    original = results.ResultsFile.append

    def dies_midway(self, lines):
        appended["n"] += 1
        if appended["n"] == 2:  # the first tournament is under way
            raise KeyboardInterrupt
        return original(self, lines)

    monkeypatch.setattr(results.ResultsFile, "append", dies_midway)
    with pytest.raises(KeyboardInterrupt):
        run_experiment(experiment, tmp_path / "killed", workers=1, progress=False, echo=lambda line: None)
    monkeypatch.setattr(results.ResultsFile, "append", original)
    assert not (tmp_path / "killed" / "report.md").exists()
    lines = []
    resumed = run_experiment(experiment, tmp_path / "killed", progress=False, echo=lines.append)
    assert any("already trained" in line for line in lines)
    for game in ("i_doubt_it", "seven_spades"):
        assert resumed["games"][game]["tournament"]["agents"] == whole["games"][game]["tournament"]["agents"]
        ids = [json.loads(x)["game_id"] for x in (tmp_path / "killed" / game / "tournament" / "results.jsonl").read_text().splitlines()]
        assert len(ids) == len(set(ids)) == whole["games"][game]["tournament"]["games"]


def test_a_run_directory_of_another_experiment_is_refused(tmp_path):
    experiment = tiny_experiment(tmp_path, games=("seven_spades",))
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "experiment.yaml").write_text("name: something else\n")
    with pytest.raises(RunDirectoryError, match="holds another experiment"):
        run_experiment(experiment, tmp_path / "run", progress=False, echo=lambda line: None)


@pytest.mark.parametrize(
    "change, key",
    [
        (lambda d: d.update(colour="red"), "colour: unknown key"),
        (lambda d: d["games"][0].update(options={"num_players": 99}), "num_players=99"),
        (lambda d: d["games"][0]["tournament"].update(agents=["ppo", "genius"]), "genius"),
        (lambda d: d["games"][0]["train"]["ppo"].update(total_steps="lots"), "total_steps"),
        (lambda d: d["games"][0]["train"]["ppo"].update(base="train/missing.yaml"), "games[0].train.ppo.base"),
        (lambda d: d["games"][0]["tournament"].update(seed=4), "games[0].tournament.seed: set by the experiment"),
        (lambda d: d.update(games=[]), "games: expected a non-empty list"),
    ],
)
def test_a_malformed_experiment_is_rejected_before_any_work(tmp_path, change, key):
    data = {
        "name": "bad",
        "games": [{"game": "i_doubt_it", "train": {"ppo": dict(TINY_TRAINING)},
                   "tournament": {"format": "round_robin", "agents": ["ppo", "honest", "random"], "deals": 1}}],
    }
    change(data)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises((ConfigError, ValueError)) as error:
        load_experiment(path)
    assert key in str(error.value)
    assert not (tmp_path / "runs").exists()


def test_the_shipped_experiments_are_valid():
    for name in ("quick", "full"):
        experiment = load_experiment(f"experiments/{name}.yaml")
        assert {g.game for g in experiment.games} == {"i_doubt_it", "believe_it_or_not", "seven_spades", "tarneeb"}
