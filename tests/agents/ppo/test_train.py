"""`bluff train` end to end on tiny budgets: subprocess environments, checkpoints that play as
``ppo:`` agents, resuming after an interruption, and checkpoints refused where they do not fit."""

from __future__ import annotations

import dataclasses
import json
import shutil
import zipfile

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo, make_agent
from agents.ppo import checkpoint
from agents.training.config import config_from_dict
from agents.ppo.train import RunDirectoryError, SelfPlayCallback, Trainer

TINY = {
    "game": {"name": "i_doubt_it"},
    "total_steps": 2048,
    "num_envs": 2,
    "vec_env": "subproc",
    "ppo": {"n_steps": 256, "batch_size": 256, "n_epochs": 1},
    "network": {"pi": [32], "vf": [32], "focus": {"claim_rank": ["hand", "known_cards"], "required_rank": ["hand"]}},
    "opponents": {"fixed": ["random", "honest"], "snapshot_every": 512, "sampling": "pfsp"},
    "eval": {"every": 0, "deals": 1, "opponents": ["honest"]},
    "checkpoint": {"every": 1024, "keep": 0},
    "warm_start": {"teacher": "honest", "decisions": 300, "epochs": 2, "batch_size": 64, "dagger_rounds": 1},
}


def game_info(**options) -> GameInfo:
    return GameInfo.of(bluff_envs.make("i_doubt_it", raw=True, **options))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A finished tiny run under SubprocVecEnv."""
    run_dir = tmp_path_factory.mktemp("run")
    final = Trainer(config_from_dict(TINY), run_dir, resume=False, echo=lambda line: None).run()
    return run_dir, final


def test_a_tiny_run_writes_its_run_directory(run):
    run_dir, final = run
    assert final == checkpoint.latest(run_dir)
    for name in ("config.yaml", "run.json", "train.log", "evals.jsonl", "result.json"):
        assert (run_dir / name).is_file(), name
    assert list((run_dir / "logs").glob("events.out.tfevents.*")) and (run_dir / "logs" / "progress_1.csv").is_file()
    steps = sorted(int(p.stem.split("_")[1]) for p in (run_dir / "checkpoints").glob("step_*.zip"))
    assert steps[-1] >= 2048 and 1024 in steps
    result = json.loads((run_dir / "result.json").read_text())
    assert result["steps"] == steps[-1] and result["eval"]["games"] == 4  # one deal, four rotations
    log = (run_dir / "train.log").read_text()
    assert "warm start: cloned honest from" in log and "eval at step" in log
    assert "warm start, DAgger round 1: the clone agreed with honest on" in log


def test_a_checkpoint_carries_what_it_was_trained_on(run):
    meta = checkpoint.read_metadata(run[1])
    assert meta["game"] == "i_doubt_it" and meta["env_version"] == "i_doubt_it_v0"
    assert meta["options"]["num_players"] == 4 and meta["options"]["max_cards_per_play"] == 4
    layout = game_info().layout
    assert meta["observation_layout"] == [[name, sl.stop - sl.start] for name, sl in layout.items()]
    assert sum(size for _, size in meta["observation_layout"]) == meta["observation_size"]
    assert meta["config"]["ppo"]["n_steps"] == 256 and meta["network"]["pi"] == [32]
    assert {"torch", "stable_baselines3", "sb3_contrib", "bluff_envs"} <= set(meta["versions"])
    pool = json.loads(checkpoint.read_extra(run[1], "pool.json"))
    assert any(m["id"].startswith("snapshot@") for m in pool["members"])


def test_the_checkpoint_plays_as_a_ppo_agent_in_a_tournament(run):
    from experiments.tournament import evaluate

    spec = f"ppo:{run[1]}"
    outcome = evaluate("i_doubt_it", [spec, "random", "honest", "random"], deals=1, seed=3)
    assert outcome["games"] == 4 and outcome["agents"][spec]["seats"] == 4
    by_dir = make_agent(f"ppo:{run[1].parent.parent}", game_info(), 0)  # a run directory: its newest checkpoint
    assert by_dir.policy.num_actions == 16


def restored_model(path, tmp_path):
    """A MaskablePPO built from the run's config, with the checkpoint's weights restored."""
    trainer = Trainer(config_from_dict({**TINY, "vec_env": "dummy"}), tmp_path / "restore", resume=False, echo=lambda line: None)
    model = trainer._new_model(trainer._make_vec_env(trainer.seeds.envs(0, 2)))
    checkpoint.restore(model, path)
    return model


def test_the_ppo_agent_chooses_as_maskable_ppo_does(run, tmp_path):
    model = restored_model(run[1], tmp_path)
    assert model.num_timesteps == checkpoint.read_metadata(run[1])["num_timesteps"]
    agent = make_agent(f"ppo:{run[1]}@greedy", game_info(), 0)
    env = bluff_envs.make("i_doubt_it", raw=True)
    env.reset(seed=11)
    for _ in range(200):
        obs = env.observe(env.agent_selection)
        expected, _ = model.predict(obs["observation"], action_masks=obs["action_mask"], deterministic=True)
        action = agent.act(obs)
        assert action == int(expected) and obs["action_mask"][action]
        env.step(action)
        if env.terminations[env.agent_selection]:
            break


def test_an_interrupted_run_resumes_and_continues_the_step_count(run, tmp_path, monkeypatch):
    run_dir = tmp_path / "resumed"
    config = config_from_dict({**TINY, "vec_env": "dummy", "total_steps": 3072})
    interrupt_at, rollout_start = 1700, 1536  # rollouts of 256 steps x 2 environments
    original = SelfPlayCallback._on_step

    def interrupted(self):
        if self.num_timesteps >= interrupt_at:
            self.trainer.stop_requested = True  # what Ctrl-C does
        return original(self)

    monkeypatch.setattr(SelfPlayCallback, "_on_step", interrupted)
    with pytest.raises(KeyboardInterrupt):
        Trainer(config, run_dir, resume=False, echo=lambda line: None).run()
    saved = checkpoint.latest(run_dir)
    # saved as it stood at the last rollout's end: the steps of the unfinished rollout are redone
    assert checkpoint.read_metadata(saved)["num_timesteps"] == rollout_start
    interrupt_at = rollout_start
    with pytest.raises(RunDirectoryError, match="--resume"):
        Trainer(config, run_dir, resume=False, echo=lambda line: None)
    monkeypatch.setattr(SelfPlayCallback, "_on_step", original)
    final = Trainer(config, run_dir, resume=True, echo=lambda line: None).run()
    meta = checkpoint.read_metadata(final)
    assert meta["num_timesteps"] == 3072  # counted on from 1536, and stopped where an uninterrupted run stops
    sessions = json.loads((run_dir / "run.json").read_text())["sessions"]
    assert [s["steps_at_start"] for s in sessions] == [0, interrupt_at]
    log = (run_dir / "logs" / "progress_2.csv").read_text().splitlines()
    steps = [int(float(v)) for v in _column(log, "time/total_timesteps")]
    assert steps[0] > interrupt_at and steps == sorted(steps)
    changed = config.replace(seed=99)
    with pytest.raises(RunDirectoryError, match="seed"):
        Trainer(changed, run_dir, resume=True, echo=lambda line: None)


def test_average_last_makes_the_mean_of_the_newest_checkpoints_the_runs_agent(tmp_path):
    run_dir = tmp_path / "averaged"
    config = config_from_dict({**TINY, "vec_env": "dummy", "warm_start": {}, "total_steps": 2048,
                               "checkpoint": {"every": 512, "keep": 3, "average_last": 3}})
    final = Trainer(config, run_dir, resume=False, echo=lambda line: None).run()
    assert final == run_dir / "checkpoints" / "average.zip"
    newest = sorted((run_dir / "checkpoints").glob("step_*.zip"))
    assert [checkpoint.read_metadata(p)["num_timesteps"] for p in newest] == [1024, 1536, 2048]
    meta = checkpoint.read_metadata(final)
    assert [(m["checkpoint"], m["num_timesteps"]) for m in meta["averaged_from"]] == [(p.name, s) for p, s in
                                                                                      zip(newest, [1024, 1536, 2048])]
    sources = [checkpoint.read_policy(p).to_arrays() for p in newest]
    averaged = checkpoint.read_policy(final).to_arrays()
    assert np.array_equal(averaged["w0"], np.mean([a["w0"] for a in sources], axis=0).astype(np.float32))
    assert not np.array_equal(averaged["w0"], sources[-1]["w0"])
    # the run directory plays as its averaged agent; the final evaluation and result.json are its
    assert checkpoint.resolve(run_dir) == final and make_agent(f"ppo:{run_dir}", game_info(), 0).act
    assert json.loads((run_dir / "result.json").read_text())["checkpoint"] == str(final)
    last_eval = json.loads((run_dir / "evals.jsonl").read_text().splitlines()[-1])
    assert last_eval["final"] and last_eval["agent"] == "average.zip"
    assert "final agent average.zip: the mean of step_0000001024.zip, step_0000001536.zip, step_0000002048.zip" \
        in (run_dir / "train.log").read_text()
    # a finished run resumed does nothing and names the same agent; extended, it averages its newest again
    assert Trainer(config, run_dir, resume=True, echo=lambda line: None).run() == final
    # stopped after its last checkpoint, before its result: resumed, it plays the same final evaluation
    result = json.loads((run_dir / "result.json").read_text())
    (run_dir / "result.json").unlink()
    lines = []
    assert Trainer(config, run_dir, resume=True, echo=lines.append).run() == final
    assert "already trained 2,048 of 2,048 steps; the final evaluation is left" in lines
    again = json.loads((run_dir / "result.json").read_text())
    assert again["eval"] == result["eval"] and again["checkpoint"] == str(final) and again["steps"] == 2048
    assert [c["num_timesteps"] for c in map(checkpoint.read_metadata, sorted(final.parent.glob("step_*.zip")))] == [
        1024, 1536, 2048]  # no checkpoint written or pruned
    longer = config.replace(total_steps=2560)
    lines = []
    assert Trainer(longer, run_dir, resume=True, echo=lines.append).run() == final
    assert "removed average.zip, an average of fewer steps than the run will have" in lines
    assert [m["num_timesteps"] for m in checkpoint.read_metadata(final)["averaged_from"]] == [1536, 2048, 2560]


def test_an_interrupted_averaging_run_averages_the_checkpoints_of_the_schedule(tmp_path, monkeypatch):
    run_dir = tmp_path / "interrupted"
    # rollouts of 512 steps; checkpoints at 1024 and 2048 (and an evaluation's at 1536 in between)
    config = config_from_dict({**TINY, "vec_env": "dummy", "warm_start": {}, "total_steps": 2048,
                               "eval": {**TINY["eval"], "every": 768},
                               "checkpoint": {"every": 1024, "keep": 2, "average_last": 2}})
    original = SelfPlayCallback._on_step

    def interrupted(self):
        if self.num_timesteps >= 1700:
            self.trainer.stop_requested = True
        return original(self)

    monkeypatch.setattr(SelfPlayCallback, "_on_step", interrupted)
    with pytest.raises(KeyboardInterrupt):
        Trainer(config, run_dir, resume=False, echo=lambda line: None).run()
    names = sorted(p.name for p in (run_dir / "checkpoints").glob("step_*.zip"))
    # 1536: an evaluation's, saved again at the interruption; step 0's (the first evaluation's) is gone
    assert names == ["step_0000001024.zip", "step_0000001536.zip"]
    monkeypatch.setattr(SelfPlayCallback, "_on_step", original)
    final = Trainer(config, run_dir, resume=True, echo=lambda line: None).run()
    assert [m["num_timesteps"] for m in checkpoint.read_metadata(final)["averaged_from"]] == [1024, 2048]
    # neither the evaluation's nor the interruption's checkpoint counts against keep, nor stays
    assert sorted(p.name for p in (run_dir / "checkpoints").glob("*.zip")) == [
        "average.zip", "step_0000001024.zip", "step_0000002048.zip"]


def _column(lines: list[str], name: str) -> list[str]:
    header = lines[0].split(",")
    return [row.split(",")[header.index(name)] for row in lines[1:] if row.split(",")[header.index(name)]]


@pytest.mark.parametrize(
    ("game", "options", "message"),
    [
        ("seven_spades", {}, "trained on 'i_doubt_it' and cannot play 'seven_spades'"),
        ("i_doubt_it", {"num_players": 3}, "option num_players=4 .this game has 3."),
        ("i_doubt_it", {"rank_order": "ascending"}, "option rank_order='descending' .this game has 'ascending'."),
    ],
)
def test_a_checkpoint_for_another_game_or_options_is_refused(run, game, options, message):
    info = GameInfo.of(bluff_envs.make(game, raw=True, **options))
    with pytest.raises(ValueError, match=message):
        make_agent(f"ppo:{run[1]}", info, 0)


def test_a_checkpoint_for_another_env_version_is_refused(run, tmp_path):
    copy = tmp_path / "old.zip"
    with zipfile.ZipFile(run[1]) as source, zipfile.ZipFile(copy, "w") as target:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "bluff_envs/metadata.json":
                meta = json.loads(data)
                meta["env_version"] = "i_doubt_it_v9"
                data = json.dumps(meta).encode()
            target.writestr(item, data)
    with pytest.raises(ValueError, match="env version i_doubt_it_v9 .this installation has i_doubt_it_v0."):
        make_agent(f"ppo:{copy}", game_info(), 0)
    not_ours = tmp_path / "plain.zip"
    shutil.copy(run[1], not_ours)
    with zipfile.ZipFile(not_ours, "w") as archive:
        archive.writestr("data", "{}")
    with pytest.raises(ValueError, match="not a bluff_envs PPO checkpoint"):
        make_agent(f"ppo:{not_ours}", game_info(), 0)
    with pytest.raises(ValueError, match="no checkpoint at"):
        make_agent(f"ppo:{tmp_path / 'missing.zip'}", game_info(), 0)


def test_copy_weights_fine_tunes_from_the_teachers_own_policy(run, tmp_path):
    """With ``warm_start.copy_weights`` the learner starts as the teacher checkpoint's actor,
    exactly, and its games fit only the value function."""
    teacher = f"ppo:{run[1]}"
    config = config_from_dict({**TINY, "total_steps": 512, "eval": {**TINY["eval"], "every": 100_000},
                               "warm_start": {"teacher": teacher, "copy_weights": True, "decisions": 200, "epochs": 1}})
    Trainer(config, tmp_path, resume=False, echo=lambda line: None).run()
    start, taught = checkpoint.read_policy(tmp_path / "checkpoints" / checkpoint.checkpoint_name(0)), checkpoint.read_policy(run[1])
    assert len(start.weights) == len(taught.weights)
    for mine, theirs in zip(start.weights + start.biases, taught.weights + taught.biases):
        assert (mine == theirs).all()
    assert f"warm start: copied the weights of {teacher}, fitted its value from" in (tmp_path / "train.log").read_text()
    # another network cannot take those weights: refused before anything trains
    with pytest.raises(ValueError, match=r"warm_start.copy_weights: the teacher .* another network \(pi \[32\] \(this config: \[64\]\)"):
        config_from_dict({**TINY, "network": {**TINY["network"], "pi": [64]},
                          "warm_start": {"teacher": teacher, "copy_weights": True}})



def test_copy_weights_may_add_feature_sets_after_the_teachers(tmp_path):
    """A config may read more derived features than its teacher (its ``features`` extending the
    teacher's): the copy reads the new ones through zero weights, so it starts out playing
    exactly as the teacher, and the checkpoints it writes carry the wider network."""
    from agents.ppo.warm_start import copied_policy
    from tests.agents.training.test_feature_kernels import observations

    teacher = "ppo:zoo/seven_spades_league_seed0"
    network = {"pi": [128, 128], "vf": [32], "activation": "tanh", "features": ["doubt", "pace"]}
    config = config_from_dict({
        "game": {"name": "seven_spades", "options": {"num_players": 3}}, "total_steps": 256, "num_envs": 2,
        "ppo": {"n_steps": 128, "batch_size": 128, "n_epochs": 1}, "network": network,
        "opponents": {"fixed": ["counter"], "snapshot_every": 0}, "eval": {"every": 0, "deals": 1, "opponents": ["counter"]},
        "checkpoint": {"every": 100_000, "keep": 0},
        "warm_start": {"teacher": teacher, "copy_weights": True, "decisions": 100, "epochs": 1}})
    info = GameInfo.of(bluff_envs.make("seven_spades", raw=True, num_players=3))
    taught = make_agent(teacher, info, 0).policy
    copy = copied_policy(teacher, info, config.network)
    assert copy.features.names == ("doubt", "pace") and copy.weights[0].shape[0] == taught.weights[0].shape[0] + 4
    assert not copy.weights[0][-4:].any()
    rows, _ = observations("seven_spades", {"num_players": 3}, rows_wanted=400)
    np.testing.assert_array_equal(copy.logits(rows), taught.logits(rows))
    Trainer(config, tmp_path, resume=False, echo=lambda line: None).run()
    assert f"warm start: copied the weights of {teacher}, fitted its value from" in (tmp_path / "train.log").read_text()
    final = checkpoint.latest(tmp_path)
    assert checkpoint.read_metadata(final)["network"]["features"] == ["doubt", "pace"]
    assert checkpoint.read_policy(final).weights[0].shape == copy.weights[0].shape
    # features that do not extend the teacher's are another network
    with pytest.raises(ValueError, match=r"another network \(features \['doubt'\] \(this config: \['pace', 'doubt'\]\)\)"):
        copied_policy(teacher, info, dataclasses.replace(config.network, features=("pace", "doubt")))
