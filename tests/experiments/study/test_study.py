"""The benchmark runner end to end, on a miniature experiment; experiment files validated on load."""

import copy
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


def test_agents_trained_in_parallel_are_the_agents_trained_one_after_another(tmp_path):
    """With two workers the games' agents train in processes of their own, at once; each run is
    seeded by its config alone, so the checkpoints and tournaments are the same as serially."""
    import numpy as np

    from agents.ppo import checkpoint

    experiment = tiny_experiment(tmp_path, games=("i_doubt_it", "seven_spades"))
    lines = []
    serial = run_experiment(experiment, tmp_path / "serial", workers=1, progress=False, echo=lambda line: None)
    parallel = run_experiment(experiment, tmp_path / "parallel", workers=2, progress=False, echo=lines.append)
    assert any("training 2 agents, 2 at a time" in line for line in lines)
    for game in ("i_doubt_it", "seven_spades"):
        one, other = (checkpoint.read_policy(checkpoint.resolve(tmp_path / run / game / "train" / "ppo"))
                      for run in ("serial", "parallel"))
        for a, b in zip(one.weights + one.biases, other.weights + other.biases):
            np.testing.assert_array_equal(a, b)
        assert parallel["games"][game]["tournament"]["agents"] == serial["games"][game]["tournament"]["agents"]


def test_a_study_measures_robustness_and_exploiters_of_its_agents(tmp_path):
    """``robustness`` and ``exploit`` steps: the trained agent against the standard fields and
    a best response trained against it, both in the report and the summary; run again, nothing
    is played or trained twice."""
    recipe = {"game": {"name": "seven_spades", "options": {}}, **TINY_TRAINING,
              "opponents": {"fixed": ["honest"], "snapshot_every": 0}, "eval": {"every": 0, "deals": 1, "opponents": ["honest"]},
              "warm_start": {"decisions": 200, "epochs": 1}}
    (tmp_path / "exploit.yaml").write_text(yaml.safe_dump(recipe))
    entry = {"game": "seven_spades", "options": {"num_players": 3}, "train": {"ppo": TINY_TRAINING},
             "tournament": {"format": "round_robin", "agents": ["ppo", "honest", "random"], "deals": 1},
             "robustness": {"agents": ["ppo"], "deals": 1},
             "exploit": {"agents": ["ppo"], "steps": 256, "seeds": [0], "reference": True, "recipe": "exploit.yaml",
                         "starts": ["recipe", "counter"]},
             "transfer": {"agents": ["ppo"], "deals": 1, "confirm": 1, "confirm_deals": 2}}
    path = tmp_path / "steps.yaml"
    path.write_text(yaml.safe_dump({"name": "steps", "seed": 3, "workers": 1, "games": [entry]}))
    experiment = load_experiment(path)
    assert experiment.games[0].exploit_recipe.game.options == {"num_players": 3}  # played in the study's options
    run = tmp_path / "run"
    summary = run_experiment(experiment, run, progress=False, echo=lambda line: None)
    game = summary["games"]["seven_spades"]
    rows = game["robustness"]["ppo"]["rows"]
    assert {"honest x2", "random x2", "self x2", "never + always challenge"} <= {r["field"] for r in rows}
    assert all(r["games"] == 3 and 0 <= r["win_rate"] <= 1 for r in rows)  # 1 deal in 3 rotations
    runs = game["exploit"]["ppo"]["runs"]
    assert list(runs) == ["vs_agent_seed0", "vs_field_seed0", "vs_agent_from_counter_seed0", "vs_field_from_counter_seed0"]
    assert runs["vs_agent_seed0"]["games"] >= 3
    assert (run / "seven_spades" / "exploit_field" / "vs_field_from_counter_seed0" / "result.json").is_file()
    assert set(game["exploit"]["ppo"]["by_start"]) == {"recipe", "counter"}
    report = (run / "report.md").read_text()
    assert "### Robustness of ppo" in report and "### Exploiters of ppo" in report and "| self x2 |" in report
    # transfer: the study's own four exploiters (two against the agent, two against the field) on the same deals
    record = game["transfer"]["ppo"]
    assert record["exploiters"] == 4 and all(r["games"] == 3 for r in record["rows"])
    assert sum(r["trained_against"] == ["honest"] for r in record["rows"]) == 2  # the field's exploiters
    assert record["strongest"] is not None and "### Transfer exploitability of ppo" in report
    lines = []
    again = run_experiment(experiment, run, progress=False, echo=lines.append)
    assert not any("robustness of" in line or "exploiter vs_agent" in line or "transfer" in line for line in lines)
    assert again["games"]["seven_spades"]["robustness"] == game["robustness"]
    assert again["games"]["seven_spades"]["transfer"] == game["transfer"]


def test_study_steps_name_trained_agents(tmp_path):
    entry = {"game": "seven_spades", "train": {"ppo": TINY_TRAINING},
             "tournament": {"format": "round_robin", "agents": ["ppo", "honest"], "deals": 1},
             "robustness": {"agents": ["honest"]}, "exploit": {"agents": ["ppo"], "recipe": "missing.yaml"},
             "transfer": {"agents": ["ppo"], "paths": [".", "nowhere"]}}
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"name": "bad", "games": [entry]}))
    with pytest.raises(ConfigError) as error:
        load_experiment(path)
    text = str(error.value)
    assert "games[0].robustness.agents: 'honest' is not trained here; allowed: the names of this game's trained agents (ppo)" in text
    assert "games[0].exploit.recipe:" in text and "missing.yaml" in text
    assert "games[0].transfer.paths[1]: 'nowhere' does not exist" in text and "transfer.paths[0]" not in text


def test_an_exploit_start_must_be_an_agent_of_the_game(tmp_path):
    entry = {"game": "seven_spades", "train": {"ppo": TINY_TRAINING},
             "tournament": {"format": "round_robin", "agents": ["ppo", "honest"], "deals": 1},
             "exploit": {"agents": ["ppo"], "starts": ["recipe", "nobody"]}}
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"name": "bad", "games": [entry]}))
    with pytest.raises(ConfigError) as error:
        load_experiment(path)
    text = str(error.value)
    assert "games[0].exploit.starts[1]:" in text and "unknown agent 'nobody'" in text and "allowed: an agent of seven_spades" in text
    assert len(text) < 4000


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
        (lambda d: d.update(games=[]), "games: empty: list []; allowed: a non-empty list of games"),
        (lambda d: d.pop("games"), "games: missing; allowed: a non-empty list of games"),
        (lambda d: d.update(games={"game": "i_doubt_it"}), "games: wrong type: mapping {'game': 'i_doubt_it'}"),
        (lambda d: d["games"].append("tarneeb"), "games[1]: wrong type: str 'tarneeb'; allowed: a mapping with keys game, "),
        (lambda d: d.update(seed=2**32), "seed: out of range: int 4294967296; allowed: an integer from 0 to 4294967295"),
        (lambda d: d.update(seed=-1), "seed: out of range: int -1"),
        (lambda d: d.update(name="../up"), "name: a name that would lead outside the run directory: str '../up'"),
        (lambda d: d.update(executor={"kind": "slurm"}), "executor.kind: unknown executor 'slurm'; allowed: local"),
        (lambda d: d["games"][0].update(game="poker"), "games[0].game: unknown game 'poker'"),
        (lambda d: d["games"][0].update(colour="red"), "games[0].colour: unknown key; allowed: game, options, train, tournament"),
        (lambda d: d["games"][0].pop("tournament"), "games[0].tournament: missing; allowed: a tournament config"),
        (lambda d: d["games"][0]["tournament"].update(dealz=3), "games[0].tournament.dealz: unknown key"),
        (lambda d: d["games"][0]["tournament"].update(deals=10**8), "games[0].tournament.deals: out of range: int 100000000"),
        (lambda d: d["games"][0]["tournament"].update(agents=["ppo", "ppo"]), "needs at least two different agents"),
        (lambda d: d["games"][0]["train"].update({"honest": {}}), "games[0].train.honest: 'honest' is already an agent of i_doubt_it"),
        (lambda d: d["games"][0]["train"].update({"ppo:x": {}}), "games[0].train.ppo:x: an agent name with ':' or '#'"),
        (lambda d: d["games"][0]["train"].update(ppo=5), "games[0].train.ppo: wrong type: int 5; allowed: a training config"),
        (lambda d: d["games"][0]["train"]["ppo"].update(seed=2**32), "games[0].train.ppo.seed: out of range: int 4294967296"),
        (lambda d: d["games"][0]["train"]["ppo"]["ppo"].update(gamma=1.5), "games[0].train.ppo.ppo.gamma: out of range: float 1.5"),
        (lambda d: d["games"][0]["train"]["ppo"].update(game={"name": "tarneeb"}), "games[0].train.ppo.game: set by the experiment"),
        (lambda d: d["games"][0]["train"]["ppo"].update(base="train/tarneeb.yaml"), "trains 'tarneeb', not 'i_doubt_it'"),
        (lambda d: d["games"][0]["train"]["ppo"].update(base=3), "games[0].train.ppo.base: wrong type: 3"),
        (lambda d: d["games"][0]["train"].update({"self": {}}), "games[0].train.self: 'self' is already an agent of i_doubt_it or a word"),
        (lambda d: d["games"][0]["train"]["ppo"].update(warm_start={"teacher": "ppo"}), "games[0].train.ppo.warm_start.teacher: unknown agent 'ppo'"),
        (lambda d: d["games"][0]["train"].update(a={**TINY_TRAINING, "warm_start": {"teacher": "b"}},
                                                 b={**TINY_TRAINING, "opponents": {"fixed": ["a"]}}),
         "games[0].train: a -> b -> a: each of these agents is trained from the next"),
    ],
)
def test_a_malformed_experiment_is_rejected_before_any_work(tmp_path, change, key):
    data = {
        "name": "bad",
        "games": [{"game": "i_doubt_it", "train": {"ppo": copy.deepcopy(TINY_TRAINING)},
                   "tournament": {"format": "round_robin", "agents": ["ppo", "honest", "random"], "deals": 1}}],
    }
    change(data)
    (tmp_path / "train").mkdir()
    (tmp_path / "train" / "tarneeb.yaml").write_text("game: {name: tarneeb}\ntotal_steps: 100\n")
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ConfigError) as error:
        load_experiment(path)
    assert any(key in problem for problem in error.value.problems), error.value.problems
    assert str(error.value).startswith(f"{path}: invalid experiment")
    assert not (tmp_path / "runs").exists()


def study_file(tmp_path, **changes) -> dict:
    data = {
        "name": "bad",
        "games": [{"game": "i_doubt_it", "train": {"ppo": copy.deepcopy(TINY_TRAINING)},
                   "tournament": {"format": "round_robin", "agents": ["ppo", "honest", "random"], "deals": 1}}],
    }
    data.update(changes)
    return data


def load(tmp_path, data):
    path = tmp_path / "study.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return load_experiment(path)


def test_an_agent_trained_from_another_of_the_study_trains_after_it_from_its_checkpoint(tmp_path):
    """A chain: ``longer`` copies ``ppo``'s final weights and plays it in its pool; it trains in a
    round after ``ppo``, and its config names ``ppo``'s run directory."""
    from agents.ppo import checkpoint

    data = study_file(tmp_path)
    entry = data["games"][0]
    entry["train"] = {"longer": {**copy.deepcopy(TINY_TRAINING), "warm_start": {"teacher": "ppo", "copy_weights": True,
                                                                               "decisions": 50, "epochs": 1},
                                 "opponents": {"fixed": ["random", "ppo"], "tables": [["ppo", "random"]]}},
                      "ppo": copy.deepcopy(TINY_TRAINING)}
    entry["tournament"]["agents"] = ["ppo", "longer", "random"]
    experiment = load(tmp_path, data)
    assert experiment.games[0].needs == {"longer": ("ppo",), "ppo": ()}
    assert experiment.to_dict()["games"][0]["train"]["longer"]["warm_start"]["teacher"] == "ppo"  # as written
    lines = []
    run = tmp_path / "run"
    summary = run_experiment(experiment, run, workers=2, progress=False, echo=lines.append)
    order = [line for line in lines if "training ppo" in line or "training longer" in line]
    assert order[0].startswith("i_doubt_it: training ppo") and "from ppo" in order[1], lines
    used = yaml.safe_load((run / "i_doubt_it" / "train" / "longer" / "config.yaml").read_text())
    source = f"ppo:{(run / 'i_doubt_it' / 'train' / 'ppo').resolve()}"
    assert used["warm_start"]["teacher"] == source and used["opponents"]["fixed"] == ["random", source]
    assert used["opponents"]["tables"] == [[source, "random"]]
    assert set(summary["games"]["i_doubt_it"]["tournament"]["agents"]) == {"ppo", "longer", "random"}
    assert checkpoint.latest(run / "i_doubt_it" / "train" / "longer") is not None
    lines = []
    run_experiment(experiment, run, progress=False, echo=lines.append)  # nothing trains again
    assert sum("already trained" in line for line in lines) == 2


def test_a_trained_agent_and_one_other_make_a_round_robin(tmp_path):
    data = study_file(tmp_path)
    data["games"][0]["tournament"]["agents"] = ["ppo", "random"]
    experiment = load(tmp_path, data)
    config = experiment.games[0].tournament_config({"ppo": "ppo:/runs/ppo"})
    assert config.agents == ("ppo:/runs/ppo", "random") and len(config.all_lineups()) == 3  # 2 agents, 3 seats


def test_every_problem_of_an_experiment_is_reported_at_once(tmp_path, monkeypatch):
    import os

    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    data = study_file(tmp_path, seed=-1, workers=3, colour="red")
    data["games"][0]["train"]["ppo"]["ppo"]["n_step"] = 8
    data["games"][0]["train"]["ppo"]["eval"]["workers"] = 3
    data["games"][0]["tournament"]["agents"] = ["ppo", "genius"]
    data["games"][0]["tournament"]["seed"] = 4
    data["games"].append({"game": "tarneeb", "options": {"variant": "martian"}, "tournament": {"agents": ["random", "x"]}})
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, data)
    assert sorted(p.split(":")[0] for p in caught.value.problems) == sorted([
        "seed", "workers", "colour",
        "games[0].train.ppo.ppo.n_step", "games[0].train.ppo.eval.workers",
        "games[0].tournament.seed", "games[0].tournament.agents[1]",
        "games[1].options",
    ])


def test_a_base_file_that_cannot_be_read_is_named(tmp_path):
    (tmp_path / "base.yaml").write_bytes(b"total_steps: \xff\n")
    data = study_file(tmp_path)
    data["games"][0]["train"]["ppo"]["base"] = "base.yaml"
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, data)
    assert caught.value.problems == [
        f"games[0].train.ppo.base: {tmp_path / 'base.yaml'}: the file: not UTF-8 text (byte 0xff at line 1, column 14); "
        "allowed: UTF-8 text"]


def test_an_alias_bomb_experiment_fails_fast(tmp_path):
    import time

    text = "name: bomb\na: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{','.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)) + "games: [*i]\n"
    path = tmp_path / "bomb.yaml"
    path.write_text(text)
    start = time.perf_counter()
    with pytest.raises(ConfigError) as caught:
        load_experiment(path)
    assert time.perf_counter() - start < 0.5 and len(str(caught.value)) < 1000
    assert caught.value.problems[0].startswith("the file: more than 10000 values")


def test_the_zoo_chain_trains_each_step_from_the_one_before():
    from pathlib import Path

    experiment = load_experiment(Path(__file__).resolve().parents[3] / "experiments" / "zoo_i_doubt_it.yaml")
    (study,) = experiment.games
    assert study.needs == {"league0": (), "league1": (), "selfplay0": ("league0",), "selfplay1": ("league1",),
                           "population0": ("selfplay0",), "population1": ("selfplay1",)}
    config = study.train["selfplay1"]
    assert config.seed == 1 and config.warm_start.copy_weights and config.warm_start.teacher == "league1"
    assert study.train["population1"].checkpoint.average_last == 3  # the zoo's averaged entries


@pytest.mark.parametrize("name", ["quick", "full"])
def test_the_shipped_experiments_are_valid(name):
    from pathlib import Path

    experiment = load_experiment(Path(__file__).resolve().parents[3] / "experiments" / f"{name}.yaml")
    assert experiment.name == name
    assert {g.game for g in experiment.games} == {"i_doubt_it", "believe_it_or_not", "seven_spades", "tarneeb"}
    resolved = experiment.to_dict()
    assert yaml.safe_load(yaml.safe_dump(resolved, sort_keys=False)) == resolved
    for study, game in zip(experiment.games, resolved["games"]):
        assert game["tournament"]["options"] is game["options"]  # one object: written once, with an anchor
        assert study.tournament_config({"ppo": "ppo:/runs/ppo"}).game == study.game
