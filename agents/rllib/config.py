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

Loading is strict (the same loader as :mod:`agents.training.config`): an unknown key, a value
of the wrong type or out of range, an unknown game option or agent spec is a ``ValueError``
naming the key before any work starts.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from agents.training.config import GameSection, _build, _min, _plain, read_config_file


@dataclass(frozen=True)
class RLlibPPOSection:
    """PPO's hyperparameters, named as in ``bluff train`` where they mean the same."""

    learning_rate: float = field(default=3e-4, metadata=_min(0, exclusive=True))
    train_batch_size: int = field(default=4000, metadata=_min(1))  # env steps per iteration
    minibatch_size: int = field(default=512, metadata=_min(1))
    num_epochs: int = field(default=4, metadata=_min(1))
    gamma: float = field(default=0.995, metadata=_min(0))
    gae_lambda: float = field(default=0.95, metadata=_min(0))
    clip_range: float = field(default=0.2, metadata=_min(0, exclusive=True))
    ent_coef: float = field(default=0.01, metadata=_min(0))
    vf_coef: float = field(default=0.5, metadata=_min(0))
    max_grad_norm: float = field(default=0.5, metadata=_min(0, exclusive=True))


@dataclass(frozen=True)
class RLlibNetworkSection:
    hiddens: tuple[int, ...] = field(default=(256, 256), metadata=_min(1))  # policy and value networks alike
    activation: Literal["tanh", "relu"] = "tanh"


@dataclass(frozen=True)
class EnvRunnersSection:
    num_env_runners: int = field(default=0, metadata=_min(0))  # Ray actors sampling; 0: in the driver
    num_envs_per_env_runner: int = field(default=8, metadata=_min(1))


@dataclass(frozen=True)
class RaySection:
    address: str | None = None  # a running cluster ("auto", "ray://head:10001"); null: a local Ray
    num_cpus: int | None = field(default=None, metadata=_min(1))  # of a local Ray; null: all cores


@dataclass(frozen=True)
class RLlibCheckpointSection:
    every: int = field(default=50_000, metadata=_min(1))  # env steps between checkpoints
    keep: int = field(default=3, metadata=_min(0))  # newest checkpoints kept; 0: all


@dataclass(frozen=True)
class RLlibEvalSection:
    deals: int = field(default=0, metadata=_min(0))  # duplicate deals at the end; 0: no evaluation
    opponents: tuple[str, ...] = ("random",)  # the field, seated in turn around the learner
    seed: int = 2024
    workers: int = field(default=1, metadata=_min(1))


@dataclass(frozen=True)
class RLlibTrainConfig:
    game: GameSection
    total_steps: int = field(metadata=_min(1))
    algorithm: Literal["rllib"] = "rllib"
    seed: int = 0
    opponents: tuple[str, ...] = ()
    ppo: RLlibPPOSection = field(default_factory=RLlibPPOSection)
    network: RLlibNetworkSection = field(default_factory=RLlibNetworkSection)
    env_runners: EnvRunnersSection = field(default_factory=EnvRunnersSection)
    ray: RaySection = field(default_factory=RaySection)
    checkpoint: RLlibCheckpointSection = field(default_factory=RLlibCheckpointSection)
    eval: RLlibEvalSection = field(default_factory=RLlibEvalSection)

    def to_dict(self) -> dict[str, Any]:
        return _plain(dataclasses.asdict(self))

    def replace(self, **changes: Any) -> RLlibTrainConfig:
        return dataclasses.replace(self, **changes)


def is_rllib_config(path: str | Path) -> bool:
    """Whether a training config file names ``algorithm: rllib`` (any reading problem: no; the
    loader that follows reports it)."""
    try:
        data = yaml.safe_load(Path(path).read_text())
    except (OSError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and data.get("algorithm") == "rllib"


def load_config(path: str | Path) -> RLlibTrainConfig:
    return config_from_dict(read_config_file(path), source=str(path))


def config_from_dict(data: Any, source: str = "training config") -> RLlibTrainConfig:
    """Validate plain data into a :class:`RLlibTrainConfig`, then the game, options and agents."""
    config = _build(RLlibTrainConfig, data, "", source)
    _check_consistency(config, source)
    return config


def _check_consistency(config: RLlibTrainConfig, source: str) -> None:
    import bluff_envs
    from agents.base import GameInfo
    from agents.registry import make_agent

    try:
        env = bluff_envs.make(config.game.name, raw=True, **config.game.options)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{source}: game: {error}") from None
    game = GameInfo.of(env)
    specs = [("opponents", s) for s in config.opponents] + [("eval.opponents", s) for s in config.eval.opponents]
    for key, spec in specs:
        try:
            make_agent(spec, game, 0)
        except ValueError as error:
            raise ValueError(f"{source}: {key}: {error}") from None
    if config.eval.deals and not config.eval.opponents:
        raise ValueError(f"{source}: eval.opponents must name at least one agent")
    if config.ppo.minibatch_size > config.ppo.train_batch_size:
        raise ValueError(
            f"{source}: ppo.minibatch_size {config.ppo.minibatch_size} is larger than "
            f"ppo.train_batch_size {config.ppo.train_batch_size}"
        )
