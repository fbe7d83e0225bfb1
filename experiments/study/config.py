"""Experiment files: every game of a study, the agents to train for it and its tournament.

.. code-block:: yaml

    name: quick                      # optional; default: the file's stem
    seed: 0                          # seeds every training run and tournament
    workers: null                    # tournament worker processes; null: all cores
    executor: local                  # local | ray | {kind: ray, address: "ray://head:10001"}
    games:
      - game: i_doubt_it
        options: {}                  # the game's options (see `bluff list`)
        train:                       # agents to train: name -> training config
          ppo:
            base: train/i_doubt_it.yaml   # optional base file (relative to this file)
            total_steps: 20000            # any training-config key, merged over the base
        tournament:                  # a tournament config without game, options, seed
          format: gauntlet
          challenger: [ppo, honest]  # a trained agent is named by its name here
          field: [random]
          deals: 20

Everything is validated when the file is loaded, before any work: unknown keys, wrong types,
training configs (as ``bluff train`` would), tournament configs (as ``bluff tournament`` would,
with each trained agent standing in as ``random`` until it exists). Every problem is reported,
naming its key.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from agents.training.config import TrainConfig, config_from_dict
from experiments.tournament.config import ConfigError, TournamentConfig, read_config_file

KEYS = ("name", "seed", "workers", "executor", "games")
GAME_KEYS = ("game", "options", "train", "tournament")
# tournament keys the experiment sets itself
SET_BY_EXPERIMENT = ("game", "options", "seed", "workers", "executor", "name")


@dataclass(frozen=True)
class GameStudy:
    """One game of a study: what to train and the tournament that compares everything."""

    game: str
    options: dict[str, Any]
    train: dict[str, TrainConfig]
    tournament: dict[str, Any]  # a tournament config, trained agents still named by name

    def tournament_config(self, checkpoints: dict[str, str], *, check: bool = False, where: str = "") -> TournamentConfig:
        """The tournament, with each trained agent replaced by ``ppo:<its run directory>``."""
        data = copy.deepcopy(self.tournament)
        for key in ("agents", "challenger", "field"):
            if key in data:
                value = data[key]
                data[key] = _swap(value, checkpoints) if isinstance(value, list) else _swap([value], checkpoints)[0]
        if "lineups" in data:
            data["lineups"] = [_swap(lineup, checkpoints) for lineup in data["lineups"]]
        return TournamentConfig.from_dict(data, check=check, where=where, source=f"tournament of {self.game}")


@dataclass(frozen=True)
class Experiment:
    name: str
    seed: int
    workers: int | None
    executor: Any
    games: tuple[GameStudy, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        """The resolved experiment (every training config in full), as written to the run."""
        return {
            "name": self.name,
            "seed": self.seed,
            "workers": self.workers,
            "executor": self.executor,
            "games": [
                {
                    "game": g.game,
                    "options": g.options,
                    "train": {name: config.to_dict() for name, config in g.train.items()},
                    "tournament": g.tournament,
                }
                for g in self.games
            ],
        }


def load_experiment(path: str | Path) -> Experiment:
    return experiment_from_dict(read_config_file(path), base_dir=Path(path).parent, source=str(path))


def experiment_from_dict(data: Any, base_dir: str | Path = ".", source: str = "experiment") -> Experiment:
    problems: list[str] = []
    experiment = _parse(data, Path(base_dir), problems)
    if problems:
        raise ConfigError(problems, source)
    return experiment


def _parse(data: Any, base_dir: Path, problems: list[str]) -> Experiment | None:
    if not isinstance(data, dict):
        problems.append(f"the experiment must be a mapping of keys, not {type(data).__name__}")
        return None
    for key in sorted(set(data) - set(KEYS), key=str):
        problems.append(f"{key}: unknown key; keys are {', '.join(KEYS)}")
    name = data.get("name", "experiment")
    if not isinstance(name, str) or not name or "/" in name:
        problems.append(f"name: expected a non-empty name without '/', got {name!r}")
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        problems.append(f"seed: expected an integer >= 0, got {seed!r}")
    workers = data.get("workers")
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        problems.append(f"workers: expected an integer >= 1 or null, got {workers!r}")
    executor = data.get("executor", "local")
    games = data.get("games")
    if not isinstance(games, list) or not games:
        problems.append("games: expected a non-empty list of games, each with a 'game' key")
        games = []
    studies = []
    for i, entry in enumerate(games):
        study = _parse_game(entry, f"games[{i}].", base_dir, seed if isinstance(seed, int) else 0, executor, problems)
        if study is not None:
            studies.append(study)
    if problems:
        return None
    return Experiment(name, seed, workers, executor, tuple(studies))


def _parse_game(entry: Any, where: str, base_dir: Path, seed: int, executor: Any, problems: list[str]):
    if not isinstance(entry, dict):
        problems.append(f"{where[:-1]}: expected a mapping with keys {', '.join(GAME_KEYS)}")
        return None
    before = len(problems)
    for key in sorted(set(entry) - set(GAME_KEYS), key=str):
        problems.append(f"{where}{key}: unknown key; keys are {', '.join(GAME_KEYS)}")
    game = entry.get("game")
    if not isinstance(game, str):
        problems.append(f"{where}game: expected a game name (see `bluff list`), got {game!r}")
        return None
    options = entry.get("options", {}) or {}
    if not isinstance(options, dict):
        problems.append(f"{where}options: expected a mapping of option names to values, got {options!r}")
        return None
    train = entry.get("train", {}) or {}
    if not isinstance(train, dict):
        problems.append(f"{where}train: expected a mapping of agent names to training configs")
        train = {}
    trained: dict[str, TrainConfig] = {}
    for k, (agent, spec) in enumerate(train.items()):
        key = f"{where}train.{agent}"
        if not isinstance(agent, str) or ":" in agent or not agent:
            problems.append(f"{key}: an agent name must be a plain word (no ':')")
            continue
        config = _training_config(spec, key, base_dir, game, options, seed + 1000 * k, problems)
        if config is not None:
            trained[agent] = config
    tournament = entry.get("tournament")
    if not isinstance(tournament, dict):
        problems.append(f"{where}tournament: expected a tournament config (format, agents or challenger/field, deals, …)")
        return None
    for key in SET_BY_EXPERIMENT:
        if key in tournament:
            problems.append(f"{where}tournament.{key}: set by the experiment, not inside the tournament")
    if len(problems) > before:
        return None
    data = {**tournament, "name": game, "game": game, "options": options, "seed": seed, "executor": executor}
    stand_ins = {name: "random" for name in trained}  # agents that do not exist yet
    try:
        GameStudy(game, options, trained, data).tournament_config(stand_ins, check=True, where=f"{where}tournament.")
    except ConfigError as error:
        problems.extend(error.problems)
        return None
    return GameStudy(game, options, trained, data)


def _training_config(spec: Any, key: str, base_dir: Path, game: str, options: dict, seed: int, problems: list[str]):
    if not isinstance(spec, dict):
        problems.append(f"{key}: expected a training config (a mapping), optionally with 'base: <file>'")
        return None
    spec = dict(spec)
    data: dict[str, Any] = {}
    base = spec.pop("base", None)
    if base is not None:
        path = base_dir / base
        try:
            data = yaml.safe_load(path.read_text()) or {}
        except (OSError, yaml.YAMLError) as error:
            problems.append(f"{key}.base: cannot read {path}: {error}")
            return None
        if data.get("game", {}).get("name", game) != game:
            problems.append(f"{key}.base: {path} trains {data['game'].get('name')!r}, not {game!r}")
            return None
    data = _merge(data, spec)
    data["game"] = {"name": game, "options": options}
    data.setdefault("seed", seed)
    try:
        return config_from_dict(data, source=key)
    except ValueError as error:
        problems.append(str(error))
        return None


def _merge(base: dict, override: dict) -> dict:
    out = dict(base)
    for key, value in override.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _swap(specs: list, names: dict[str, str]) -> list:
    return [names.get(spec, spec) if isinstance(spec, str) else spec for spec in specs]


def trained_agent_spec(run_dir: Path, game: str, agent: str) -> str:
    """The spec of an agent the study trains: its training run directory (newest checkpoint)."""
    return f"ppo:{run_dir / game / 'train' / agent}"
