"""Tiny tournaments for the tests: a few short games each."""

from __future__ import annotations

from pathlib import Path

import yaml

TINY = {
    "name": "tiny",
    "game": "i_doubt_it",
    "options": {"num_players": 3, "max_turns": 60},
    "agents": ["honest", "bluffer", "random"],
    "deals": 4,
    "seed": 5,
}


def write_config(directory: Path, **changes) -> Path:
    path = Path(directory) / "tiny.yaml"
    path.write_text(yaml.safe_dump({**TINY, **changes}, sort_keys=False))
    return path
