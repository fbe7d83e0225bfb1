"""League training: exploiters are trained during the run and join the main agent's pool."""

from __future__ import annotations

import json

import pytest

from agents.ppo import checkpoint
from agents.ppo.train import Trainer
from agents.training.config import config_from_dict
from agents.ppo.league import exploiter_dir, finished

TINY = {
    "game": {"name": "seven_spades", "options": {"num_players": 3}},
    "total_steps": 1024,
    "num_envs": 8,
    "ppo": {"n_steps": 32, "batch_size": 128, "n_epochs": 1},
    "network": {"pi": [16], "vf": [16]},
    "opponents": {"fixed": ["honest", "counter"], "snapshot_every": 256, "max_snapshots": 8},
    "eval": {"every": 0, "deals": 1, "final_deals": 2, "opponents": ["honest"]},
    "checkpoint": {"every": 512},
    "league": {"every": 300, "exploiter_steps": 256},
}


def test_exploiters_of_both_kinds_join_the_pool(tmp_path):
    lines = []
    run = tmp_path / "run"
    final = Trainer(config_from_dict(TINY), run, resume=False, echo=lines.append).run()
    assert finished(run, 1) and finished(run, 2)
    log = "\n".join(lines)
    assert "exploiter 1 (main exploiter)" in log and "exploiter 2 (league exploiter)" in log
    pool = json.loads(checkpoint.read_extra(final, "pool.json"))
    ids = [m["id"] for m in pool["members"]]
    assert "exploiter@1" in ids and "exploiter@2" in ids and "honest" in ids
    # the league exploiter played the population: the fixed agents, the main agent, its snapshots
    population = sorted(p.name for p in (run / "league" / "population_002").iterdir())
    assert "main.zip" in population and any(name.startswith("snapshot_") for name in population)
    second = (exploiter_dir(run, 2) / "config.yaml").read_text()
    assert "honest" in second and "sampling: pfsp" in second


@pytest.mark.parametrize("engine", ["vector", "reference"])
def test_the_main_agent_plays_at_its_exploiters_table(tmp_path, monkeypatch, engine):
    """``league.exploiter_tables``: once the first exploiter joins, part of the main agent's
    games seat it with the main agent's copies, and the progress line gives its score there."""
    import agents.ppo.train

    monkeypatch.setattr(agents.ppo.train, "PROGRESS_EVERY_S", 0.0)  # a progress line after every rollout
    lines = []
    config = {**TINY, "engine": engine, "vec_env": "dummy",
              "league": {"every": 300, "exploiter_steps": 256, "kinds": ["main"], "exploiter_tables": 0.5}}
    run = tmp_path / "run"
    Trainer(config_from_dict(config), run, resume=False, echo=lines.append).run()
    assert finished(run, 1) and finished(run, 2)
    scores = [line for line in lines if "exploiter at its table" in line]
    assert scores, lines
    # the exploiters themselves train as usual, never at a table of their own
    assert "exploiter_tables: 0.0" in (exploiter_dir(run, 1) / "config.yaml").read_text()


class StoppedInFirstExploiter(Trainer):
    """Its exploiters (the league trains them with the main run's Trainer class) stop halfway
    through their budget, as a Ctrl-C there would leave them: a checkpoint, no result."""

    def run(self):
        if not self.run_dir.name.startswith("exploiter_"):
            return super().run()
        self.config = self.config.replace(total_steps=self.config.total_steps // 2)
        super().run()
        (self.run_dir / "result.json").unlink()
        raise KeyboardInterrupt


def test_an_interrupted_exploiter_is_resumed_not_skipped(tmp_path):
    """Ctrl-C inside the first exploiter's training: the main run saves its rollout's start
    (without the exploiter), and the resumed run resumes the exploiter's own run, then goes on."""
    run = tmp_path / "run"
    config = config_from_dict({**TINY, "total_steps": 768, "league": {"every": 300, "exploiter_steps": 512}})
    try:
        StoppedInFirstExploiter(config, run, resume=False, echo=lambda line: None).run()
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the interruption did not reach the main run")
    assert not finished(run, 1) and (exploiter_dir(run, 1) / "checkpoints").is_dir()
    final = Trainer(config, run, resume=True, echo=lambda line: None).run()
    assert finished(run, 1)
    sessions = json.loads((exploiter_dir(run, 1) / "run.json").read_text())["sessions"]
    assert len(sessions) == 2 and sessions[1]["resumed_from"]  # resumed, not started over
    assert "exploiter@1" in [m["id"] for m in json.loads(checkpoint.read_extra(final, "pool.json"))["members"]]


def test_a_self_play_share_keeps_exploiters_and_stays_out_of_their_runs(tmp_path):
    """With ``self_play_share`` the learner's newest snapshot takes its share of the draws; only
    the learner's snapshots count towards ``max_snapshots``, and exploiters train without one."""
    run = tmp_path / "run"
    config = {**TINY, "opponents": {**TINY["opponents"], "self_play_share": 0.5, "max_snapshots": 1}}
    final = Trainer(config_from_dict(config), run, resume=False, echo=lambda line: None).run()
    members = json.loads(checkpoint.read_extra(final, "pool.json"))["members"]
    ids = [m["id"] for m in members]
    assert ids[:2] == ["honest", "counter"] and "exploiter@1" in ids and "exploiter@2" in ids
    assert len([i for i in ids if i.startswith("snapshot@")]) == 1
    for index in (1, 2):
        assert "self_play_share: 0.0" in (exploiter_dir(run, index) / "config.yaml").read_text()


def test_exploiters_clone_their_own_teachers_in_turn(tmp_path):
    """``league.exploiter_teachers``: exploiter k's warm start clones the k-th (cycling),
    whatever the main run's warm start (there: a clone of counter)."""
    config = {**TINY, "league": {"every": 300, "exploiter_steps": 256, "kinds": ["main"],
                                 "exploiter_teachers": ["honest", "bluffer"]},
              "warm_start": {"teacher": "counter", "decisions": 200, "epochs": 1}}
    lines = []
    Trainer(config_from_dict(config), tmp_path / "run", resume=False, echo=lines.append).run()
    exploiter = (exploiter_dir(tmp_path / "run", 1) / "train.log").read_text()
    assert "warm start: cloned honest from" in exploiter
    assert "warm start: cloned bluffer from" in (exploiter_dir(tmp_path / "run", 2) / "train.log").read_text()
    assert "warm start: cloned counter from" in "\n".join(lines)
    assert "teacher: counter" in (tmp_path / "run" / "config.yaml").read_text()


def test_known_exploiters_join_the_pool_from_the_first_step(tmp_path, monkeypatch):
    """``league.known_exploiters``: best responses trained before sit in the pool as league
    exploiters from the start (no league needed for the exploiter's table), each the policy of
    its checkpoint; a resumed run keeps them once; a greedy one is refused."""
    import io

    import numpy as np

    import agents.ppo.train
    from agents.training.config_loader import ConfigError
    from agents.training.pool import OpponentPool

    monkeypatch.setattr(agents.ppo.train, "PROGRESS_EVERY_S", 0.0)
    earlier = Trainer(config_from_dict({**TINY, "league": {}}), tmp_path / "earlier", resume=False,
                      echo=lambda line: None).run()
    league = {"known_exploiters": [f"ppo:{earlier}", f"ppo:{earlier}@temperature=2"], "exploiter_tables": 0.5,
              "exploiter_table_draw": "all"}
    config = config_from_dict({**TINY, "total_steps": 512, "league": league})
    lines, run = [], tmp_path / "run"
    Trainer(config, run, resume=False, echo=lines.append).run()
    assert any("exploiter at its table" in line for line in lines), lines
    final = Trainer(config.replace(total_steps=1024), run, resume=True, echo=lambda line: None).run()
    pool = json.loads(checkpoint.read_extra(final, "pool.json"))
    ids = [m["id"] for m in pool["members"]]
    assert ids.count("exploiter@known0") == 1 and ids.count("exploiter@known1") == 1
    saved = OpponentPool()
    with np.load(io.BytesIO(checkpoint.read_extra(final, "pool.npz")), allow_pickle=False) as arrays:
        saved.load_state(checkpoint.read_extra(final, "pool.json").decode(), dict(arrays))
    known = {m.id: m.policy for m in saved.members if m.id.startswith("exploiter@known")}
    policy = checkpoint.read_policy(earlier)
    rows = np.random.default_rng(0).random((5, policy.observation_size)).astype(np.float32)
    assert np.array_equal(known["exploiter@known0"].logits(rows), policy.logits(rows))
    assert np.allclose(known["exploiter@known1"].logits(rows), policy.logits(rows) / 2, atol=1e-5)
    with pytest.raises(ConfigError, match=r"league.known_exploiters\[0\]: .*never @greedy"):
        config_from_dict({**TINY, "league": {"known_exploiters": [f"ppo:{earlier}@greedy"]}})
