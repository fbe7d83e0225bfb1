"""RLlib training configs: ``algorithm: rllib`` YAML files, validated like ``bluff train``'s.

.. code-block:: yaml

    algorithm: rllib
    game: {name: i_doubt_it, options: {}}
    total_steps: 200000          # env steps sampled (every learner seat's decisions)
    seed: 0
    opponents: []                # []: self-play, every seat plays the one shared policy;
                                 # else agent specs for the seats that do not learn
    ppo: {learning_rate: 0.0003, train_batch_size: 4000, minibatch_size: 512, num_epochs: 4, ...}
    network: {hiddens: [256, 256], activation: tanh}
    env_runners: {num_env_runners: 0, num_envs_per_env_runner: 8}
    ray: {address: null, num_cpus: null}
    checkpoint: {every: 50000, keep: 3}
    eval: {deals: 0, opponents: [random], seed: 2024, workers: 1}

Loading is strict (the project's one loader, :mod:`agents.training.config_loader`, as for
``bluff train``'s configs): an unknown key, a value of the wrong type or out of range, an
unknown game option or agent spec is a problem naming its key, and every problem of the file
is reported at once in one :class:`ConfigError` (a ``ValueError``) before any work starts.
"""

import dataclasses
from dataclasses import field
from pathlib import Path
from typing import Any, Literal

from pydantic.dataclasses import dataclass

from agents.training.config import GameSection, Layers, LearningRate, Steps, read_config_file
from agents.training.config_loader import (
    CONFIG,
    MAX_DEALS,
    AgentSpec,
    ConfigError,
    Integer,
    ListOf,
    Number,
    Seed,
    Text,
    Workers,
    agent_problems,
    check_shape,
    game_info,
    load_checked,
    load_yaml,
    plain,
)

WHAT = "RLlib training config"
__all__ = ["ConfigError", "RLlibTrainConfig", "config_from_dict", "is_rllib_config", "load_config", "read_config_file",
           "validate_config"]


@dataclass(frozen=True, config=CONFIG)
class RLlibPPOSection:
    """PPO's hyperparameters, named as in ``bluff train`` where they mean the same."""

    learning_rate: LearningRate = 3e-4
    train_batch_size: Integer(1, 10**8) = 4000  # env steps per iteration
    minibatch_size: Integer(1, 10**8) = 512
    num_epochs: Integer(1, 10**4) = 4
    gamma: Number(0, 1) = 0.995
    gae_lambda: Number(0, 1) = 0.95
    clip_range: Number(above=0) = 0.2
    ent_coef: Number(0) = 0.01
    vf_coef: Number(0) = 0.5
    max_grad_norm: Number(above=0) = 0.5


@dataclass(frozen=True, config=CONFIG)
class RLlibNetworkSection:
    hiddens: Layers = (256, 256)  # policy and value networks alike
    activation: Literal["tanh", "relu"] = "tanh"


@dataclass(frozen=True, config=CONFIG)
class EnvRunnersSection:
    num_env_runners: Integer(0, 10**5) = 0  # Ray actors sampling; 0: in the driver
    num_envs_per_env_runner: Integer(1, 4096) = 8


@dataclass(frozen=True, config=CONFIG)
class RaySection:
    address: Text | None = None  # a running cluster ("auto", "ray://head:10001"); null: a local Ray
    num_cpus: Integer(1, 10**6) | None = None  # of a local Ray; null: all cores


@dataclass(frozen=True, config=CONFIG)
class RLlibCheckpointSection:
    every: Steps = 50_000  # env steps between checkpoints
    keep: Integer(0, 10**6) = 3  # newest checkpoints kept; 0: all


@dataclass(frozen=True, config=CONFIG)
class RLlibEvalSection:
    deals: Integer(0, MAX_DEALS) = 0  # duplicate deals at the end; 0: no evaluation
    opponents: ListOf(AgentSpec) = ("random",)  # the field, seated in turn around the learner
    seed: Seed = 2024
    workers: Workers = 1


@dataclass(frozen=True, config=CONFIG)
class RLlibTrainConfig:
    game: GameSection
    total_steps: Steps
    algorithm: Literal["rllib"] = "rllib"
    seed: Seed = 0
    opponents: ListOf(AgentSpec) = ()
    ppo: RLlibPPOSection = field(default_factory=RLlibPPOSection)
    network: RLlibNetworkSection = field(default_factory=RLlibNetworkSection)
    env_runners: EnvRunnersSection = field(default_factory=EnvRunnersSection)
    ray: RaySection = field(default_factory=RaySection)
    checkpoint: RLlibCheckpointSection = field(default_factory=RLlibCheckpointSection)
    eval: RLlibEvalSection = field(default_factory=RLlibEvalSection)

    def to_dict(self) -> dict[str, Any]:
        return plain(dataclasses.asdict(self))

    def replace(self, **changes: Any) -> "RLlibTrainConfig":
        return dataclasses.replace(self, **changes)


def is_rllib_config(path: str | Path) -> bool:
    """Whether a training config file names ``algorithm: rllib`` (any reading problem: no; the
    loader that follows reports it)."""
    data, _ = load_yaml(path)
    return isinstance(data, dict) and data.get("algorithm") == "rllib"


def load_config(path: str | Path) -> RLlibTrainConfig:
    """Read and validate an RLlib training config file: every problem in one :class:`ConfigError`."""
    return load_checked(path, validate_config, WHAT)


def config_from_dict(data: Any, source: str = "training config") -> RLlibTrainConfig:
    """Validate plain data into a :class:`RLlibTrainConfig`, then the game, options and agents."""
    config, problems = validate_config(data)
    if problems:
        raise ConfigError(problems, source, WHAT)
    return config


def validate_config(data: Any, *, where: str = "") -> tuple[RLlibTrainConfig | None, list[str]]:
    """An RLlib training config and its problems (every one; the config is None if there are any)."""
    checked = check_shape(RLlibTrainConfig, data, where, fill={"total_steps": 1})
    problems = list(checked.problems)
    if checked.value is not None:
        problems += _check_consistency(checked.value, checked.ok, where)
    return (None if problems else checked.value), problems


def _check_consistency(config: RLlibTrainConfig, ok, where: str) -> list[str]:
    problems: list[str] = []
    if ok("eval.deals", "eval.opponents") and config.eval.deals and not config.eval.opponents:
        problems.append(f"{where}eval.opponents: empty, but eval.deals is {config.eval.deals}; "
                        "allowed: at least one agent spec (or eval.deals: 0)")
    if ok("ppo.minibatch_size", "ppo.train_batch_size") and config.ppo.minibatch_size > config.ppo.train_batch_size:
        problems.append(
            f"{where}ppo.minibatch_size: {config.ppo.minibatch_size} is larger than ppo.train_batch_size "
            f"{config.ppo.train_batch_size}; allowed: at most {config.ppo.train_batch_size}"
        )
    if not ok("game"):
        return problems
    game, found = game_info(config.game.name, config.game.options, f"{where}game.name", f"{where}game.options")
    if game is None:
        return problems + found
    named = []
    if ok("opponents"):
        named += [(f"{where}opponents[{i}]", s) for i, s in enumerate(config.opponents)]
    if ok("eval.opponents"):
        named += [(f"{where}eval.opponents[{i}]", s) for i, s in enumerate(config.eval.opponents)]
    return problems + agent_problems(named, game)
