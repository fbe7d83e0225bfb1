"""A tournament writes the same ``results.jsonl`` whichever engine plays it, and ``engine:
vector`` with an agent that has no batched form is refused when the config is loaded."""

from __future__ import annotations

import pytest

from experiments.tournament import ConfigError, TournamentConfig, run_tournament


def test_a_tournament_writes_the_same_results_on_either_engine(tmp_path):
    data = {"game": "i_doubt_it", "format": "round_robin", "agents": ["honest", "counter", "bluffer", "random", "always_challenge"],
            "deals": 6, "seed": 11, "workers": 1}
    results = {}
    for engine in ("reference", "vector"):
        config = TournamentConfig.from_dict({**data, "engine": engine, "name": f"t_{engine}"})
        run_tournament(config, tmp_path / engine, progress=False, report=False)
        results[engine] = (tmp_path / engine / "results.jsonl").read_bytes()
    assert results["vector"] == results["reference"] and results["vector"].count(b"\n") == 6 * 4 * 5


def test_engine_vector_with_an_agent_it_cannot_batch_is_a_config_error():
    with pytest.raises(ConfigError, match=r"engine: 'vector', but rllib:x has no batched form"):
        TournamentConfig.from_dict({"game": "seven_spades", "format": "round_robin", "agents": ["honest", "rllib:x"],
                                    "engine": "vector"})
