"""Executors named in a tournament config are checked when the config loads."""

import importlib.util

import pytest

from experiments.tournament.config import ConfigError, TournamentConfig

BASE = {"game": "i_doubt_it", "format": "round_robin", "agents": ["honest", "random"], "deals": 1}


def test_an_executor_whose_package_is_missing_is_a_config_error(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    with pytest.raises(ConfigError) as caught:
        TournamentConfig.from_dict({**BASE, "executor": "ray"}, check=False)
    assert caught.value.problems == [
        "executor.kind: the 'ray' executor needs ray, which is not installed (pip install -e \".[ray]\"); allowed: local"]


def test_an_unknown_executor_names_the_known_ones():
    with pytest.raises(ConfigError, match=r"executor.kind: unknown executor 'slurm'; allowed: local"):
        TournamentConfig.from_dict({**BASE, "executor": {"kind": "slurm"}}, check=False)


def test_an_executor_problem_comes_with_the_others():
    with pytest.raises(ConfigError) as caught:
        TournamentConfig.from_dict({**BASE, "executor": {"kind": "slurm"}, "deals": 0, "seed": -1}, check=False)
    assert sorted(p.split(":")[0] for p in caught.value.problems) == ["deals", "executor.kind", "seed"]


def test_an_executor_is_a_name_or_a_mapping():
    assert TournamentConfig.from_dict({**BASE, "executor": "local"}, check=False).executor.kind == "local"
    config = TournamentConfig.from_dict({**BASE, "executor": {"kind": "local", "address": "x"}}, check=False)
    assert (config.executor.kind, config.executor.address) == ("local", "x")
    assert config.to_dict()["executor"] == {"kind": "local", "address": "x"} and "executor" not in config.outcome_key()
