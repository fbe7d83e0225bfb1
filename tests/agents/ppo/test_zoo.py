"""The zoo: a run's checkpoint stripped to a committed entry, played as ``ppo:zoo/<name>``."""

from __future__ import annotations

import json
import zipfile

import pytest

import bluff_envs
from agents import GameInfo, make_agent
from agents.ppo import checkpoint, zoo, zoo_evaluation
from agents.ppo.train import Trainer
from agents.training.config import config_from_dict

TINY = {
    "game": {"name": "seven_spades", "options": {"num_players": 3}},
    "total_steps": 256,
    "num_envs": 4,
    "ppo": {"n_steps": 64, "batch_size": 128, "n_epochs": 1},
    "network": {"pi": [16], "vf": [16]},
    "opponents": {"fixed": ["honest"]},
    "eval": {"every": 0, "deals": 1, "final_deals": 1, "opponents": ["honest"]},
}


@pytest.fixture
def a_zoo(tmp_path, monkeypatch):
    monkeypatch.setattr(zoo, "ZOO", tmp_path / "zoo")
    final = Trainer(config_from_dict(TINY), tmp_path / "run", resume=False, echo=lambda line: None).run()
    return final


def test_an_entry_plays_as_the_checkpoint_did(a_zoo, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path / "run")  # no zoo/ folder here: the spec means the repository's zoo
    entry = zoo.add(tmp_path / "run", "seven_spades_tiny", {"robustness": {"rows": []}})
    with zipfile.ZipFile(entry) as archive:
        assert sorted(archive.namelist()) == sorted(checkpoint.FOLDER + n for n in ("metadata.json", "policy.npz", "zoo.json"))
    meta = zoo.info(entry)
    assert meta["game"] == "seven_spades" and meta["steps"] >= 256 and meta["seed"] == 0
    assert meta["final_eval"]["games"] == 3 and meta["robustness"] == {"rows": []}
    info = GameInfo.of(bluff_envs.make("seven_spades", raw=True, num_players=3))
    from_zoo = make_agent("ppo:zoo/seven_spades_tiny@greedy", info, 0)
    from_run = make_agent(f"ppo:{a_zoo}@greedy", info, 0)
    env = bluff_envs.make("seven_spades", raw=True, num_players=3)
    env.reset(seed=3)
    for _ in range(60):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        obs = env.observe(env.agent_selection)
        assert from_zoo.act(obs) == from_run.act(obs)
        env.step(from_run.act(obs))


def test_an_entry_is_evaluated_again_on_the_same_deals(a_zoo, tmp_path):
    entry = zoo.add(tmp_path / "run", "seven_spades_tiny")
    original = zoo.info(entry)["final_eval"]
    again = zoo_evaluation.evaluate(entry)
    final = again["final_eval"]
    assert again["training_eval"] == original  # the training run's own evaluation is kept beside it
    assert (final["seed"], final["deals"], final["field"], final["games"]) == (
        original["seed"], original["deals"], original["field"], original["games"])
    assert final["seating"] == "balanced" and zoo.info(entry) == again
    assert zoo_evaluation.evaluate(entry)["training_eval"] == original  # a second time keeps the first original
    assert zoo.info(entry)["final_eval"] == final  # the same deals and seeded play: the same result
    with zipfile.ZipFile(entry) as archive:
        assert sorted(archive.namelist()) == sorted(checkpoint.FOLDER + n for n in ("metadata.json", "policy.npz", "zoo.json"))


def test_an_entry_without_a_final_evaluation_is_not_evaluated_again(a_zoo, tmp_path):
    entry = zoo.add(tmp_path / "run", "bare")
    meta = zoo.info(entry)
    meta["final_eval"] = None
    zoo.rewrite(entry, meta)
    with pytest.raises(ValueError, match="'bare' has no final evaluation"):
        zoo_evaluation.evaluate(entry)


def test_unknown_entries_and_bad_names_are_refused(a_zoo, tmp_path):
    with pytest.raises(ValueError, match="no zoo entry 'nobody'"):
        zoo.location("zoo/nobody")
    with pytest.raises(ValueError, match="name one entry"):
        zoo.location("zoo/../x")
    with pytest.raises(ValueError, match="letters, digits"):
        zoo.add(tmp_path / "run", "../x")
    assert zoo.location("runs/x.zip") == "runs/x.zip"
    assert json.loads(checkpoint.read_extra(zoo.add(a_zoo, "ok"), "zoo.json"))["name"] == "ok"


def test_the_committed_entries_play_and_carry_their_results():
    entries = sorted(zoo.ZOO.glob("*.zip"))
    assert entries, "the repository's zoo is empty"
    for path in entries:
        meta = zoo.info(path)
        assert meta["game"] and meta["seed"] is not None and meta["commit"] and meta["final_eval"]["games"] >= 2000
        assert {"robustness", "exploit"} <= set(meta), path.name
        assert meta["final_eval"]["seating"] == "balanced", f"{path.name}: python -m agents.ppo.zoo_evaluation {path.stem}"
        game = meta["game"]
        env = bluff_envs.make(game, raw=True, **checkpoint.read_metadata(path)["config"]["game"]["options"])
        agent = make_agent(f"ppo:zoo/{path.stem}", GameInfo.of(env), 0)
        env.reset(seed=0)
        observation = env.observe(env.agent_selection)
        assert observation["action_mask"][agent.act(observation)]


def test_the_results_table_is_built_from_the_entries_alone(a_zoo):
    row = {"field": "honest x2", "agents": ["honest", "honest"], "games": 300, "win_rate": 0.41,
           "win_interval": [0.36, 0.47], "parity": 1 / 3, "edge": 0.41 - 1 / 3, "holds_up": True}
    selfish = {**row, "field": "self x2", "agents": ["ppo:x#copy1", "ppo:x#copy2"], "win_rate": 0.2,
               "win_interval": [0.16, 0.25], "edge": 0.2 - 1 / 3, "holds_up": False}
    runs = {"vs_agent_seed0": {"against": "agent", "edge": 0.05}, "vs_agent_seed1": {"against": "agent", "edge": 0.07},
            "vs_field_seed0": {"against": "field", "edge": 0.01}}
    entry = zoo.add(a_zoo, "tiny", {"robustness": {"rows": [row, selfish]}, "exploit": {"runs": runs}})
    table = zoo.table([entry])
    header, rule, line = table.splitlines()
    assert header.count("|") == rule.count("|") == line.count("|")
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[0] == "`tiny`" and cells[1] == "0"
    assert cells[4] == "honest x2: 0.410 [0.360, 0.470] vs 0.333 (above)"  # self x2 is no heuristic field
    assert cells[5] == "1 of 2" and cells[6] == "self x2: 0.200 [0.160, 0.250] vs 0.333 (below)"
    # two seeds, 0.05 and 0.07: standard error 0.01, Student's t with 1 df 12.706; one seed and no interval: none
    assert cells[7] == "+0.060 [-0.067, +0.187] (2 seeds; strongest single +0.070)" and cells[8] == "+0.010 (1 seed)"
    assert cells[9] == "–"  # no transfer played yet
    strongest = {"exploiter": "runs/x/vs_agent_seed0/checkpoints/s.zip", "edge": 0.151, "edge_interval": [0.133, 0.169]}
    record = {"agent": "ppo:zoo/tiny", "game": "seven_spades", "deals": 50, "seed": 0, "exploiters": 150,
              "rows": [{"exploiter": strongest["exploiter"], "edge": 0.167}] * 12, "strongest": strongest,
              "skipped": [{"path": "p", "why": "w"}]}
    zoo.add_transfer("tiny", record)
    kept = zoo.info(entry)["transfer"]
    assert kept["strongest"] == strongest and kept["skipped"] == 1 and len(kept["rows"]) == zoo.TRANSFER_ROWS
    cells = [c.strip() for c in zoo.table([entry]).splitlines()[2].strip("|").split("|")]
    assert cells[9] == "+0.151 [+0.133, +0.169] (the strongest of 150)"
    meta = zoo.info(entry)  # the uncertain challenges: accuracy, with its interval where the evaluation kept it
    meta["final_eval"]["behaviour"] = {"uncertain_challenge_accuracy": 0.315, "uncertain_bluff_rate": 0.252}
    zoo.rewrite(entry, meta)
    assert zoo.table([entry]).splitlines()[2].strip("|").split("|")[10].strip() == "0.315 / 0.252"
    meta["final_eval"]["behaviour"].update(uncertain_challenge_accuracy_low=0.261, uncertain_challenge_accuracy_high=0.375,
                                           uncertain_challenges=254)
    zoo.rewrite(entry, meta)
    assert zoo.table([entry]).splitlines()[2].strip("|").split("|")[10].strip() == "0.315 [0.261, 0.375] (254 calls) / 0.252"
    with pytest.raises(ValueError, match=r"the transfer of ppo:zoo/other \(seven_spades\) is not entry tiny's"):
        zoo.add_transfer("tiny", {**record, "agent": "ppo:zoo/other"})
    with pytest.raises(ValueError, match="not the transfer.json of a bluff transfer run"):
        zoo.add_transfer("tiny", {"runs": {}})


def test_the_readme_results_table_is_the_zoo_table():
    readme = (zoo.ZOO.parent / "README.md").read_text()
    start, end = "<!-- zoo table: python -m agents.ppo.zoo table -->\n", "<!-- end of zoo table -->"
    assert start in readme and end in readme
    assert readme.split(start, 1)[1].split(end, 1)[0] == zoo.table()


def test_exploiters_of_another_start_join_an_entry(a_zoo):
    runs = {f"vs_agent_seed{s}": {"against": "agent", "seed": s, "edge": e} for s, e in ((0, 0.0), (1, 0.0625))}
    zoo.add(a_zoo, "tiny", {"exploit": {"game": "seven_spades", "steps": 512, "teacher": "counter", "runs": runs}})
    other = {"game": "seven_spades", "steps": 512, "starts": ["bluffer"],
             "runs": {f"vs_agent_from_bluffer_seed{s}": {"against": "agent", "start": "bluffer", "seed": s, "edge": e}
                      for s, e in ((0, 0.125), (1, 0.25))}}
    path = zoo.add_exploiters("tiny", other)
    exploit = zoo.info(path)["exploit"]
    assert sorted(exploit["runs"]) == ["vs_agent_from_bluffer_seed0", "vs_agent_from_bluffer_seed1", "vs_agent_seed0",
                                       "vs_agent_seed1"]
    assert exploit["starts"] == ["counter", "bluffer"] and exploit["runs"]["vs_agent_seed0"]["start"] == "counter"
    assert exploit["by_start"] == {"counter": {"agent": 0.03125}, "bluffer": {"agent": 0.1875}}
    assert exploit["edge_vs_agent"] == 0.1875 and exploit["start_vs_agent"] == "bluffer"
    cells = [c.strip() for c in zoo.table([path]).splitlines()[2].strip("|").split("|")]
    assert cells[7] == "+0.188 [-0.607, +0.982] (2 seeds from bluffer, the largest of 2 starts; strongest single +0.250)"
    with pytest.raises(ValueError, match="already holds exploiter vs_agent_from_bluffer_seed0"):
        zoo.add_exploiters("tiny", other)
    with pytest.raises(ValueError, match="cannot join entry tiny"):
        zoo.add_exploiters("tiny", {**other, "steps": 1024})
    with pytest.raises(ValueError, match="not the exploit.json of a bluff exploit run"):
        zoo.add_exploiters("tiny", {"runs": {"x": {"edge": 0.1}}})


def test_added_exploiters_are_named_as_the_entry_names_its_own(a_zoo):
    """An entry whose unnamed exploiters of the agent are counter's, though its ``starts`` lists
    bluffer first (and its field runs leave bluffer unnamed): more seeds of both starts keep that
    naming (bluffer's runs against the agent say "from_bluffer", counter's do not)."""
    runs = {"vs_agent_seed0": {"against": "agent", "start": "counter", "seed": 0, "edge": 0.0},
            "vs_agent_from_bluffer_seed0": {"against": "agent", "start": "bluffer", "seed": 0, "edge": 0.125},
            "vs_field_seed0": {"against": "field", "start": "bluffer", "seed": 0, "edge": 0.5}}  # its field runs: bluffer's
    zoo.add(a_zoo, "tiny", {"exploit": {"game": "seven_spades", "steps": 512, "starts": ["bluffer", "counter"],
                                        "runs": runs}})
    more = {"game": "seven_spades", "steps": 512, "starts": ["bluffer", "counter"],
            "runs": {"vs_agent_seed1": {"against": "agent", "seed": 1, "edge": 0.25},  # the file's first start: bluffer
                     "vs_agent_from_counter_seed1": {"against": "agent", "start": "counter", "seed": 1, "edge": 0.0625}}}
    exploit = zoo.info(zoo.add_exploiters("tiny", more))["exploit"]
    assert {k: r["start"] for k, r in exploit["runs"].items()} == {
        "vs_agent_seed0": "counter", "vs_agent_from_bluffer_seed0": "bluffer", "vs_field_seed0": "bluffer",
        "vs_agent_from_bluffer_seed1": "bluffer", "vs_agent_seed1": "counter"}
    assert exploit["by_start"] == {"bluffer": {"agent": 0.1875, "field": 0.5}, "counter": {"agent": 0.03125}}
    assert exploit["strongest_vs_agent"] == {"run": "vs_agent_from_bluffer_seed1", "start": "bluffer", "edge": 0.25}


def test_exploiters_join_an_entry_that_has_none_by_the_files_own_starts(a_zoo):
    """An entry added without exploiters takes its first exploit.json's starts and names; the
    game's field exploiters (trained once per game, e.g. kept in another entry) join it after."""
    zoo.add(a_zoo, "tiny")
    agent = {"game": "seven_spades", "steps": 512, "starts": ["counter"], "field": ["counter", "bluffer"],
             "runs": {f"vs_agent_seed{s}": {"against": "agent", "start": "counter", "seed": s, "edge": e}
                      for s, e in ((0, 0.0), (1, 0.0625))}}
    field = {"game": "seven_spades", "steps": 512, "starts": ["counter"],
             "runs": {"vs_field_seed0": {"against": "field", "start": "counter", "seed": 0, "edge": 0.125}}}
    zoo.add_exploiters("tiny", agent)
    exploit = zoo.info(zoo.add_exploiters("tiny", field))["exploit"]
    assert sorted(exploit["runs"]) == ["vs_agent_seed0", "vs_agent_seed1", "vs_field_seed0"]
    assert exploit["starts"] == ["counter"] and exploit["field"] == ["counter", "bluffer"]
    assert exploit["by_start"] == {"counter": {"agent": 0.03125, "field": 0.125}}


def test_the_zoo_command_reports_a_bad_entry_in_one_line(a_zoo, tmp_path, monkeypatch, capsys):
    (tmp_path / "exploit.json").write_text("{not json")
    zoo.add(a_zoo, "tiny")
    for argv in (["exploit", "nosuch", str(tmp_path / "exploit.json")], ["exploit", "tiny", str(tmp_path / "exploit.json")],
                 ["exploit", "tiny", str(tmp_path / "missing.json")]):
        monkeypatch.setattr("sys.argv", ["zoo", *argv])
        with pytest.raises(SystemExit) as stop:
            zoo.main()
        err = capsys.readouterr().err
        assert stop.value.code == 1 and err.startswith("error: ") and "Traceback" not in err and len(err) < 1000


def test_a_matrix_gets_the_standard_fields_it_lacks_on_its_own_deals(a_zoo, monkeypatch, capsys):
    from agents.training.robustness import record, robustness_matrix

    entry = zoo.add(a_zoo, "tiny")
    rows = robustness_matrix("seven_spades", {"num_players": 3}, f"ppo:{entry}", deals=1, seed=3)
    full = record(rows, agent=f"ppo:{entry}", game="seven_spades", options={"num_players": 3}, deals=1, seed=3)
    later = [row for row in full["rows"] if row["field"] not in ("always_claim x2", "random x2")]
    meta = zoo.info(entry)
    zoo.rewrite(entry, {**meta, "robustness": {**full, "rows": later}})
    added = zoo_evaluation.add_missing_fields(entry)
    assert [row["field"] for row in added] == ["always_claim x2", "random x2"]
    matrix = zoo.info(entry)["robustness"]
    assert matrix["rows"] == full["rows"]  # in their places, as the whole matrix played them
    assert matrix["added_fields"] == ["always_claim x2", "random x2"]
    assert zoo_evaluation.add_missing_fields(entry) == []  # nothing more to add
    monkeypatch.setattr("sys.argv", ["zoo_evaluation", "tiny", "--missing-fields"])
    zoo_evaluation.main()
    assert capsys.readouterr().out.strip() == "ppo:zoo/tiny: no standard field missing"

    stale = [{**later[0], "win_rate": later[0]["win_rate"] + 0.5}, *later[1:]]  # deals or play changed since
    zoo.rewrite(entry, {**meta, "robustness": {**full, "rows": stale}})
    with pytest.raises(ValueError, match="no longer plays as stored"):
        zoo_evaluation.add_missing_fields(entry)
    zoo.rewrite(entry, {**meta, "robustness": None})
    monkeypatch.setattr("sys.argv", ["zoo_evaluation", "tiny", "--missing-fields"])
    with pytest.raises(SystemExit) as stop:
        zoo_evaluation.main()
    err = capsys.readouterr().err
    assert stop.value.code == 1 and "'tiny' has no robustness matrix" in err and "Traceback" not in err


def test_the_committed_entries_matrices_hold_every_standard_field():
    from agents.training.robustness import standard_fields

    for path in sorted(zoo.ZOO.glob("*.zip")):
        matrix = zoo.info(path)["robustness"]
        game = GameInfo.of(bluff_envs.make(zoo.info(path)["game"], raw=True, **matrix["options"]))
        missing = set(standard_fields(game, f"ppo:{path}")) - {row["field"] for row in matrix["rows"]}
        assert not missing, f"{path.name} lacks {sorted(missing)}: python -m agents.ppo.zoo_evaluation {path.stem} --missing-fields"


def test_the_add_command_keeps_the_recipe_and_refuses_a_missing_one(a_zoo, tmp_path, monkeypatch, capsys):
    recipe = tmp_path / "recipe.yaml"
    recipe.write_text("game: {name: seven_spades}\n")
    monkeypatch.setattr("sys.argv", ["zoo", "add", str(a_zoo), "tiny", "--recipe", str(recipe), "--commit", "abc"])
    zoo.main()
    meta = zoo.info(zoo.ZOO / "tiny.zip")
    assert meta["recipe"] == recipe.as_posix() and meta["commit"] == "abc"
    monkeypatch.setattr("sys.argv", ["zoo", "add", str(a_zoo), "other", "--recipe", str(tmp_path / "nope.yaml")])
    with pytest.raises(SystemExit) as stop:
        zoo.main()
    assert stop.value.code == 1 and "--recipe" in capsys.readouterr().err and not (zoo.ZOO / "other.zip").exists()


def test_a_mixture_entry_plays_one_member_per_game_and_carries_its_results(a_zoo, tmp_path):
    """``add-mixture``: the members stripped beside the entry, played as ``mix:zoo/<name>``; its
    final evaluation on another entry's deals; exploiters join it; the table and list take it."""
    from agents.mixture import MixtureAgent

    other = tmp_path / "other.zip"
    other.write_bytes(a_zoo.read_bytes())
    zoo.add(a_zoo, "tiny")
    path = zoo.add_mixture([a_zoo, other], "both", {"recipe": "experiments/train/x.yaml"}, commit="abc")
    assert path == zoo.ZOO / "mixtures" / "both.json" and zoo.entry_file("both") == path
    entry = zoo.info(path)
    assert [m["file"] for m in entry["members"]] == ["0_step_0000000256.zip", "1_other.zip"]
    assert entry["commit"] == "abc" and entry["steps"] == 256 and entry["final_eval"] is None
    game = GameInfo.of(bluff_envs.make("seven_spades", raw=True, num_players=3))
    agent = make_agent("mix:zoo/both", game, 0)
    assert isinstance(agent, MixtureAgent) and len(agent.agents) == 2
    assert all(s.startswith(f"ppo:{zoo.ZOO / 'mixtures' / 'both'}/") for s in agent.specs)
    final = zoo_evaluation.evaluate_like(path, zoo.entry_file("tiny"))["final_eval"]
    assert final["like"] == "tiny" and final["field"] == zoo.info(zoo.entry_file("tiny"))["final_eval"]["field"]
    runs = {f"vs_agent_seed{s}": {"against": "agent", "seed": s, "edge": e} for s, e in ((0, 0.0), (1, 0.0625))}
    exploit = zoo.info(zoo.add_exploiters("both", {"game": "seven_spades", "steps": 512, "runs": runs}))["exploit"]
    assert exploit["agent"] == "mix:zoo/both" and exploit["edge_vs_agent"] == 0.03125
    rows = zoo.table().splitlines()[2:]
    assert [r.split("|")[1].strip() for r in rows] == ["`tiny`", "`mix:zoo/both`"]
    with pytest.raises(ValueError, match="no zoo mixture 'nope'"):
        make_agent("mix:zoo/nope", game, 0)
    # a blend entry: the same files, a member drawn every decision; each kind plays only as added
    blend = zoo.add_mixture([a_zoo, other], "mean", commit="abc", play="blend")
    assert zoo.info(blend)["play"] == "blend" and zoo.spec_of(blend) == "blend:zoo/mean"
    assert len(make_agent("blend:zoo/mean", game, 0).policy.policies) == 2
    with pytest.raises(ValueError, match="no zoo mixture 'mean' .*mixtures: both"):
        make_agent("mix:zoo/mean", game, 0)
    with pytest.raises(ValueError, match="no zoo blend 'both' .*blends: mean"):
        make_agent("blend:zoo/both", game, 0)
    with pytest.raises(ValueError, match="two checkpoints or more"):
        zoo.add_mixture([a_zoo], "one")
    with pytest.raises(ValueError, match="letters, digits"):
        zoo.add_mixture([a_zoo, other], "../up")


def test_the_committed_mixture_entries_play_and_carry_their_results():
    from agents.training.robustness import standard_fields

    for path in sorted((zoo.ZOO / zoo.MIXTURES).glob("*.json")):
        meta = zoo.info(path)
        assert meta["game"] and meta["seed"] is not None and meta["commit"] and meta["final_eval"]["games"] >= 2000
        assert meta["final_eval"]["seating"] == "balanced" and {"robustness", "exploit", "recipe"} <= set(meta)
        members = zoo.mixture_members(path.stem, meta.get("play", "mix"))
        assert len(members) == len(meta["members"]) >= 2
        for member, recorded in zip(members, meta["members"]):
            assert checkpoint.read_metadata(member.removeprefix("ppo:"))["num_timesteps"] == recorded["steps"]
        matrix = meta["robustness"]
        game = GameInfo.of(bluff_envs.make(meta["game"], raw=True, **matrix["options"]))
        assert not set(standard_fields(game, zoo.spec_of(path))) - {row["field"] for row in matrix["rows"]}, path.name
        agent = make_agent(zoo.spec_of(path), game, 0)
        env = bluff_envs.make(meta["game"], raw=True, **matrix["options"])
        env.reset(seed=0)
        observation = env.observe(env.agent_selection)
        assert observation["action_mask"][agent.act(observation)]
