"""Executors named in a tournament config are checked when the config loads."""

import importlib.util

import pytest

from experiments.tournament.config import ConfigError, TournamentConfig

BASE = {"game": "i_doubt_it", "format": "round_robin", "agents": ["honest", "random"], "deals": 1}


def test_an_executor_whose_package_is_missing_is_a_config_error(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    with pytest.raises(ConfigError, match=r"executor.kind: the 'ray' executor needs ray, which is not installed"):
        TournamentConfig.from_dict({**BASE, "executor": "ray"}, check=False)


def test_an_unknown_executor_names_the_known_ones():
    with pytest.raises(ConfigError, match=r"executor.kind: unknown executor 'slurm'; executors: local"):
        TournamentConfig.from_dict({**BASE, "executor": {"kind": "slurm"}}, check=False)
