"""RLlib training end to end on a tiny budget: `bluff train` with `algorithm: rllib`, checkpoints
that play tournament games as `rllib:` agents, resume, and errors named before any work."""

from __future__ import annotations

import json

import pytest
import yaml

pytest.importorskip("ray.rllib")

import bluff_envs  # noqa: E402
from agents import GameInfo, make_agent  # noqa: E402
from agents.rllib import checkpoint  # noqa: E402
from agents.rllib.config import config_from_dict  # noqa: E402
from agents.rllib.train import RLlibTrainer  # noqa: E402
from experiments.tournament import TournamentConfig, run_tournament  # noqa: E402

TINY = {
    "algorithm": "rllib",
    "game": {"name": "i_doubt_it", "options": {"num_players": 3, "max_turns": 30}},
    "total_steps": 400,
    "opponents": ["honest", "random"],
    "ppo": {"train_batch_size": 200, "minibatch_size": 100, "num_epochs": 1},
    "network": {"hiddens": [32]},
    "env_runners": {"num_env_runners": 0, "num_envs_per_env_runner": 2},
    "checkpoint": {"every": 200, "keep": 0},
}


@pytest.fixture(autouse=True)
def trusted(monkeypatch):
    """These tests load the RLlib checkpoints they write themselves: trusted (RLlib pickles)."""
    monkeypatch.setenv("BLUFF_TRUST_PICKLE", "1")


@pytest.fixture(scope="module")
def trained(tmp_path_factory, ray_instance):
    """Two RLlib iterations through `bluff train`, which dispatches on `algorithm: rllib`."""
    from click.testing import CliRunner

    from experiments.commands.train import command

    directory = tmp_path_factory.mktemp("rllib")
    config_path = directory / "tiny_rllib.yaml"
    config_path.write_text(yaml.safe_dump(TINY))
    with pytest.MonkeyPatch.context() as patch:  # its final evaluation loads the checkpoint it wrote
        patch.setenv("BLUFF_TRUST_PICKLE", "1")
        result = CliRunner().invoke(command, [str(config_path), "--out", str(directory / "run")])
    assert result.exit_code == 0, result.output
    return directory / "run", config_path


def test_training_writes_checkpoints_with_metadata(trained):
    run, _ = trained
    found = sorted(p.name for p in (run / "checkpoints").iterdir())
    assert found[0] == "step_0000000200" and len(found) == 2  # one on the way, the final one
    meta = checkpoint.read_metadata(run / "checkpoints" / found[-1])
    assert meta["game"] == "i_doubt_it" and meta["options"]["num_players"] == 3 and meta["num_env_steps"] >= 400
    assert meta["versions"]["ray"] not in ("", "not installed")
    progress = [json.loads(line) for line in (run / "progress.jsonl").read_text().splitlines()]
    assert [p["iteration"] for p in progress] == [1, 2] and progress[-1]["steps"] == meta["num_env_steps"]
    assert json.loads((run / "result.json").read_text())["final_checkpoint"] == str(run / "checkpoints" / found[-1])


def test_the_checkpoint_plays_a_tournament(trained, tmp_path):
    run, _ = trained
    config = TournamentConfig.from_dict({
        "game": "i_doubt_it", "options": {"num_players": 3, "max_turns": 30}, "lineups": [[f"rllib:{run}", "honest", "random"]],
        "deals": 1, "seating": "rotations", "workers": 1,
    })
    summary = run_tournament(config, tmp_path / "tournament", progress=False, report=False)
    assert summary["games"] == 3
    assert summary["agents"][f"rllib:{run}"]["seats"] == 3


def test_the_checkpoint_plays_the_same_games_on_ray_tasks(trained, tmp_path):
    run, _ = trained
    plan = {"game": "i_doubt_it", "options": {"num_players": 3, "max_turns": 30},
            "lineups": [[f"rllib:{run}", "counter", "random"]], "deals": 1, "workers": 1}
    run_tournament(TournamentConfig.from_dict(plan), tmp_path / "local", progress=False, report=False)
    run_tournament(TournamentConfig.from_dict({**plan, "executor": "ray", "workers": 2}), tmp_path / "ray",
                   progress=False, report=False)

    def games(directory):
        return {line["game_id"]: line for line in map(json.loads, (directory / "results.jsonl").read_text().splitlines())}

    assert len(games(tmp_path / "ray")) == 3 and games(tmp_path / "ray") == games(tmp_path / "local")


def test_the_agent_plays_only_legal_actions_greedy_or_mixed_and_reproducibly(trained):
    run, _ = trained
    env = bluff_envs.make("i_doubt_it", raw=True, num_players=3, max_turns=30)
    greedy = make_agent(f"rllib:{run}@greedy", GameInfo.of(env), 0)
    mixed, again = (make_agent(f"rllib:{run}", GameInfo.of(env), 7) for _ in range(2))
    env.reset(seed=4)
    for _ in range(60):
        if env.game_state.is_over:
            break
        observation = env.observe(env.agent_selection)
        action = greedy.act(observation)
        assert observation["action_mask"][action] == 1 and greedy.act(observation) == action
        sampled = mixed.act(observation)
        assert observation["action_mask"][sampled] == 1 and again.act(observation) == sampled  # same seed, same draws
        env.step(action)


def test_a_checkpoint_for_other_options_is_refused(trained):
    run, _ = trained
    other = GameInfo.of(bluff_envs.make("i_doubt_it", raw=True, num_players=4, max_turns=30))
    with pytest.raises(ValueError, match="num_players=3"):
        make_agent(f"rllib:{run}", other, 0)
    with pytest.raises(ValueError, match="trained on 'i_doubt_it'"):
        make_agent(f"rllib:{run}", GameInfo.of(bluff_envs.make("seven_spades", raw=True)), 0)


def test_resume_continues_the_step_count(trained, tmp_path):
    import shutil

    run, _ = trained
    copy = tmp_path / "run"
    shutil.copytree(run, copy)
    before = checkpoint.read_metadata(checkpoint.latest(run))["num_env_steps"]
    config = config_from_dict({**TINY, "total_steps": 600})
    final = RLlibTrainer(config, copy, resume=True, echo=lambda line: None).run()
    steps = checkpoint.read_metadata(final)["num_env_steps"]
    assert steps >= 600 and final.name == checkpoint.checkpoint_name(steps)
    sessions = json.loads((copy / "run.json").read_text())["sessions"]
    assert [s["steps_at_start"] for s in sessions] == [0, before]
    progress = [json.loads(line) for line in (copy / "progress.jsonl").read_text().splitlines()]
    assert [p["iteration"] for p in progress] == [1, 2, 3]  # RLlib's own count goes on too
    with pytest.raises(ValueError, match="ppo.learning_rate"):
        RLlibTrainer(config_from_dict({**TINY, "ppo": {**TINY["ppo"], "learning_rate": 0.1}}), copy, resume=True)
    with pytest.raises(ValueError, match="already holds a training run"):
        RLlibTrainer(config, copy, resume=False)


@pytest.mark.parametrize("change, words", [
    ({"ppo": {"n_steps": 10}}, "ppo.n_steps: unknown key; allowed: learning_rate, "),
    ({"opponents": ["nobody"]}, "opponents[0]: unknown agent 'nobody'"),
    ({"game": {"name": "i_doubt_it", "options": {"num_players": 99}}}, "game.options: option num_players=99"),
    ({"total_steps": 0}, "total_steps: out of range: int 0; allowed: an integer from 1 to"),
    ({"ppo": {"train_batch_size": 100, "minibatch_size": 200}}, "ppo.minibatch_size: 200 is larger"),
    ({"seed": -1, "eval": {"seed": 2**32}}, "seed: out of range: int -1"),
])
def test_config_errors_name_the_key(change, words):
    with pytest.raises(ValueError) as caught:
        config_from_dict({**TINY, **change})
    assert any(problem.startswith(words) for problem in caught.value.problems), caught.value.problems


def test_without_the_trust_switch_an_rllib_checkpoint_is_refused_naming_the_risk(trained, monkeypatch):
    from agents.rllib.agent import _MODULES
    from agents.trust import UntrustedFileError

    run, _ = trained
    monkeypatch.setattr("agents.rllib.agent._MODULES", {})  # not the modules loaded (trusted) before
    monkeypatch.delenv("BLUFF_TRUST_PICKLE", raising=False)
    env = bluff_envs.make("i_doubt_it", raw=True, num_players=3, max_turns=30)
    with pytest.raises(UntrustedFileError, match="runs any code stored in the file.*BLUFF_TRUST_PICKLE=1"):
        make_agent(f"rllib:{run}", GameInfo.of(env), 0)
    assert _MODULES is not None

