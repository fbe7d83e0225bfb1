"""Tournaments through the Ray executor: the same games as the local executor, resumable across
executors, and a Ray instance it did not start left running."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("ray")

from experiments.tournament import TournamentConfig, run_tournament  # noqa: E402
from agents.arena.executor import make_executor  # noqa: E402
from agents.arena.ray_executor import RayExecutor  # noqa: E402
from tests.experiments.tournament.test_run import CrashAfter, lines_of  # noqa: E402
from tests.experiments.tiny import write_config  # noqa: E402


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """The tiny tournament (3-player I Doubt It, 12 games) on two local worker processes."""
    directory = tmp_path_factory.mktemp("local")
    config = TournamentConfig.load(write_config(directory, batch_size=1))
    run_tournament(config, directory / "run", workers=2, progress=False)
    return lines_of(directory / "run"), json.loads((directory / "run" / "summary.json").read_text())


def test_executor_ray_in_a_config_plays_exactly_the_local_executors_games(tmp_path, ray_instance, local_run):
    config = TournamentConfig.load(write_config(tmp_path, batch_size=1, executor="ray", workers=2))
    assert config.executor.kind == "ray"
    run_tournament(config, tmp_path / "run", progress=False)
    lines, summary = local_run
    assert lines_of(tmp_path / "run") == lines  # every game, record by record
    assert json.loads((tmp_path / "run" / "summary.json").read_text()) == summary


def test_a_run_interrupted_locally_is_finished_by_ray_with_the_same_games(tmp_path, ray_instance, local_run):
    config = TournamentConfig.load(write_config(tmp_path, batch_size=2))
    with pytest.raises(KeyboardInterrupt):
        run_tournament(config, tmp_path / "run", executor=CrashAfter(batches=2), progress=False)
    assert len(lines_of(tmp_path / "run")) == 4
    with RayExecutor(workers=2) as executor:
        run_tournament(config, tmp_path / "run", executor=executor, progress=False, report=False)
    assert lines_of(tmp_path / "run") == local_run[0]


def test_the_executor_leaves_a_ray_instance_it_joined_running(ray_instance):
    with make_executor("ray", workers=2) as executor:
        assert isinstance(executor, RayExecutor) and executor.workers == 2
    assert ray_instance.is_initialized()


def test_a_cluster_address_is_part_of_the_executor_spec(tmp_path):
    config = TournamentConfig.load(
        write_config(tmp_path, executor={"kind": "ray", "address": "ray://head:10001"}), check=False
    )
    assert (config.executor.kind, config.executor.address) == ("ray", "ray://head:10001")
    assert "executor" not in config.outcome_key()  # which executor plays does not change the games
