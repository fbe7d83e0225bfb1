"""Averaged checkpoints: the mean of a run's checkpoints' weights, played like any checkpoint."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
from click.testing import CliRunner

import bluff_envs
from agents import GameInfo, make_agent
from agents.ppo import checkpoint
from agents.ppo.average import average
from agents.ppo.train import Trainer
from agents.training.config import config_from_dict
from experiments.cli import cli

TINY = {
    "game": {"name": "seven_spades", "options": {"num_players": 3}},
    "total_steps": 768,
    "num_envs": 4,
    "ppo": {"n_steps": 64, "batch_size": 128, "n_epochs": 1},
    "network": {"pi": [16], "vf": [16]},
    "opponents": {"fixed": ["honest"]},
    "eval": {"every": 0, "deals": 1, "final_deals": 1, "opponents": ["honest"]},
    "checkpoint": {"every": 256, "keep": 0},
}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A tiny run with a checkpoint every 256 steps (and one of another network beside it)."""
    root = tmp_path_factory.mktemp("average")
    Trainer(config_from_dict(TINY), root / "run", resume=False, echo=lambda line: None).run()
    wider = {**TINY, "total_steps": 256, "network": {"pi": [32], "vf": [16]}}
    Trainer(config_from_dict(wider), root / "wider", resume=False, echo=lambda line: None).run()
    return root


def steps(root):
    return sorted((root / "run" / checkpoint.CHECKPOINTS).glob("step_*.zip"))


def test_the_average_is_the_mean_of_the_weights_and_plays(run):
    sources = steps(run)[-3:]
    out = average(sources, run / "run" / "checkpoints" / "average.zip")
    with zipfile.ZipFile(out) as archive:  # plays and warm-starts; nothing to resume from
        assert sorted(archive.namelist()) == [checkpoint.FOLDER + "metadata.json", checkpoint.FOLDER + "policy.npz"]
    policies = [checkpoint.read_policy(p).to_arrays() for p in sources]
    mean = checkpoint.read_policy(out).to_arrays()
    weights = [k for k in mean if k[0] in "wb" and k[1:].isdigit()]
    assert weights and all(np.allclose(mean[k], np.mean([p[k] for p in policies], axis=0)) for k in weights)
    assert not np.allclose(policies[0]["w0"], policies[-1]["w0"])  # they differ: the mean is a new policy
    meta = checkpoint.read_metadata(out)
    assert [s["num_timesteps"] for s in meta["averaged_from"]] == [checkpoint.read_metadata(p)["num_timesteps"]
                                                                   for p in sources]
    assert meta["num_timesteps"] == checkpoint.read_metadata(sources[-1])["num_timesteps"]
    assert all(len(s["sha256"]) == 64 and s["checkpoint"] == p.name for s, p in zip(meta["averaged_from"], sources))
    assert checkpoint.latest(run / "run") == steps(run)[-1]  # a run's newest checkpoint is still its last step
    env = bluff_envs.make("seven_spades", raw=True, num_players=3)
    agent = make_agent(f"ppo:{out}", GameInfo.of(env), 0)
    env.reset(seed=0)
    observation = env.observe(env.agent_selection)
    assert observation["action_mask"][agent.act(observation)]


def test_averaging_refuses_what_is_not_one_network_of_one_game(run, tmp_path):
    first = steps(run)[0]
    with pytest.raises(ValueError, match="at least two checkpoints"):
        average([first], tmp_path / "a.zip")
    with pytest.raises(ValueError, match="given twice"):
        average([first, first], tmp_path / "a.zip")
    with pytest.raises(ValueError, match="different networks.*w0"):
        average([first, run / "wider"], tmp_path / "a.zip")
    with pytest.raises(ValueError, match="must be a .zip"):
        average(steps(run)[:2], tmp_path / "a.npz")
    # another game's options: refused by name
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(first) as src, zipfile.ZipFile(other, "w") as dst:
        for name in src.namelist():
            data = src.read(name)
            if name.endswith("metadata.json"):
                meta = json.loads(data)
                meta["options"] = {**meta["options"], "num_players": 4}
                data = json.dumps(meta)
            dst.writestr(name, data)
    with pytest.raises(ValueError, match="differ in options"):
        average([other, first], tmp_path / "a.zip")
    assert not list(tmp_path.glob("a.*"))


def test_bluff_average_writes_the_checkpoint_and_says_how_to_play_it(run, tmp_path):
    out = tmp_path / "mean.zip"
    result = CliRunner().invoke(cli, ["average", *map(str, steps(run)[-2:]), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"play it as ppo:{out}" in result.output and out.is_file()
    refused = CliRunner().invoke(cli, ["average", str(steps(run)[0]), "--out", str(out)])
    assert refused.exit_code == 2 and "at least two checkpoints" in refused.output
