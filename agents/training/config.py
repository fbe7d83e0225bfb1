"""The training config: one typed, validated place for everything a run depends on.

A YAML file (see ``experiments/train/*.yaml``) maps onto :class:`TrainConfig`. Loading is
strict: an unknown key, a value of the wrong type or out of range, an unknown game option or an
unknown agent spec is a ``ValueError`` naming the key (``ppo.n_steps``, ``game.options``, …)
before any work starts. Everything not given takes the default shown here.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml


def _min(low: float, *, exclusive: bool = False) -> dict:
    return {"min": low, "exclusive": exclusive}


@dataclass(frozen=True)
class GameSection:
    name: str  # i_doubt_it, believe_it_or_not, seven_spades, tarneeb
    options: dict[str, Any] = field(default_factory=dict)  # the game's keyword options


@dataclass(frozen=True)
class LearnerSection:
    seat: int | Literal["rotate"] = "rotate"  # the learner's seat: rotating, or fixed
    partner: str = "self"  # partnership games: "self", "pool" or an agent spec
    shaping: dict[str, float] = field(default_factory=dict)  # potential per observation field; {}: none


@dataclass(frozen=True)
class PPOSection:
    """MaskablePPO's hyperparameters (``n_steps`` per environment, as in SB3)."""

    learning_rate: float = field(default=3e-4, metadata=_min(0, exclusive=True))
    n_steps: int = field(default=256, metadata=_min(1))
    batch_size: int = field(default=1024, metadata=_min(2))
    n_epochs: int = field(default=4, metadata=_min(1))
    gamma: float = field(default=0.995, metadata=_min(0))
    gae_lambda: float = field(default=0.95, metadata=_min(0))
    clip_range: float = field(default=0.2, metadata=_min(0, exclusive=True))
    ent_coef: float = field(default=0.01, metadata=_min(0))
    vf_coef: float = field(default=0.5, metadata=_min(0))
    max_grad_norm: float = field(default=0.5, metadata=_min(0, exclusive=True))
    target_kl: float | None = None
    normalize_advantage: bool = True


@dataclass(frozen=True)
class NetworkSection:
    pi: tuple[int, ...] = (256, 256)  # hidden layers of the policy
    vf: tuple[int, ...] = (256, 256)  # hidden layers of the value function
    activation: Literal["tanh", "relu"] = "tanh"
    # one-hot rank field -> per-rank fields read at that rank (agents.training.focus); {}: none
    focus: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the game's derived feature sets (agents.training.features), e.g. [card_play]; (): none
    features: tuple[str, ...] = ()


@dataclass(frozen=True)
class OpponentsSection:
    fixed: tuple[str, ...] = ("random",)  # agent specs always in the pool
    sampling: Literal["uniform", "latest", "pfsp"] = "pfsp"
    latest_share: float = field(default=0.5, metadata=_min(0))  # "latest": the newest snapshot's share
    pfsp_power: float = field(default=2.0, metadata=_min(0))  # "pfsp": weight (1 - score) ** power
    per_seat: bool = True  # draw an opponent per seat (a mixed field) or one for all seats
    snapshot_every: int = field(default=100_000, metadata=_min(0))  # steps between snapshots; 0: none
    max_snapshots: int = field(default=10, metadata=_min(0))
    results_window: int = field(default=200, metadata=_min(1))  # recent games per member for PFSP


@dataclass(frozen=True)
class EvalSection:
    every: int = field(default=200_000, metadata=_min(0))  # steps between evaluations; 0: at the end only
    deals: int = field(default=50, metadata=_min(1))  # duplicate deals, each played in every seat rotation
    final_deals: int = field(default=0, metadata=_min(0))  # the evaluation at the end; 0: as many as deals
    opponents: tuple[str, ...] = ("random",)  # the field, seated in turn around the learner
    seed: int = 2024
    workers: int = field(default=1, metadata=_min(1))  # processes playing the evaluation games


@dataclass(frozen=True)
class CheckpointSection:
    every: int = field(default=200_000, metadata=_min(1))  # steps between checkpoints
    keep: int = field(default=3, metadata=_min(0))  # newest checkpoints kept; 0: all


@dataclass(frozen=True)
class WarmStartSection:
    """Behaviour cloning of a teacher before self-play (see ``agents.ppo.warm_start``)."""

    teacher: str | None = None  # an agent spec; null: start from a random policy
    decisions: int = field(default=200_000, metadata=_min(1))  # teacher decisions to learn from
    epochs: int = field(default=4, metadata=_min(1))
    batch_size: int = field(default=1024, metadata=_min(1))
    learning_rate: float = field(default=1e-3, metadata=_min(0, exclusive=True))
    entropy_coef: float = field(default=0.02, metadata=_min(0))  # keeps the clone exploring
    dagger_rounds: int = field(default=0, metadata=_min(0))  # rounds where the clone plays and the teacher labels


@dataclass(frozen=True)
class TrainConfig:
    game: GameSection
    total_steps: int = field(metadata=_min(1))  # learner decisions, over all environments
    seed: int = 0
    num_envs: int = field(default=8, metadata=_min(1))
    vec_env: Literal["dummy", "subproc"] = "dummy"
    torch_threads: int = field(default=1, metadata=_min(1))  # of the training process
    learner: LearnerSection = field(default_factory=LearnerSection)
    ppo: PPOSection = field(default_factory=PPOSection)
    network: NetworkSection = field(default_factory=NetworkSection)
    opponents: OpponentsSection = field(default_factory=OpponentsSection)
    eval: EvalSection = field(default_factory=EvalSection)
    checkpoint: CheckpointSection = field(default_factory=CheckpointSection)
    warm_start: WarmStartSection = field(default_factory=WarmStartSection)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (lists, dicts), as written to ``config.yaml`` in the run directory."""
        return _plain(dataclasses.asdict(self))

    def replace(self, **changes: Any) -> TrainConfig:
        return dataclasses.replace(self, **changes)


# -- loading ------------------------------------------------------------------------------


def read_config_file(path: str | Path) -> Any:
    """A training config file's data; ``ValueError`` naming the file if it cannot be read."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as error:
        raise ValueError(f"cannot read training config {path}: {error.strerror}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise ValueError(f"{path} is not valid YAML: {error}") from None


def load_config(path: str | Path) -> TrainConfig:
    """Read and validate a training config file."""
    return config_from_dict(read_config_file(path), source=str(path))


def config_from_dict(data: Any, source: str = "training config") -> TrainConfig:
    """Validate plain data into a :class:`TrainConfig` (then check game options and agents)."""
    config = _build(TrainConfig, data, "", source)
    _check_consistency(config, source)
    return config


def _build(cls, data: Any, prefix: str, source: str):
    where = prefix.rstrip(".") or "the top level"
    if not isinstance(data, dict):
        raise ValueError(f"{source}: {where} must be a mapping of keys to values, not {_shown(data)}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields), key=str)
    if unknown:
        raise ValueError(f"{source}: unknown key {prefix}{unknown[0]}; keys of {where} are {', '.join(fields)}")
    hints = typing.get_type_hints(cls)
    values = {}
    for name, f in fields.items():
        key = prefix + name
        if name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ValueError(f"{source}: missing key {key}")
            continue
        values[name] = _value(hints[name], data[name], key, source)
        _check_range(f, values[name], key, source)
    return cls(**values)


def _value(kind, value: Any, key: str, source: str):
    if dataclasses.is_dataclass(kind):
        return _build(kind, value, key + ".", source)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        for option in args:
            try:
                return _value(option, value, key, source)
            except ValueError:
                continue
        raise ValueError(f"{source}: {key} must be {_describe(kind)}, not {_shown(value)}")
    if origin is Literal:
        if value in args and not isinstance(value, bool):
            return value
        raise ValueError(f"{source}: {key} must be one of {', '.join(map(repr, args))}, not {_shown(value)}")
    if kind is Any:
        return value
    if kind is type(None):
        if value is None:
            return None
    elif kind is bool:
        if isinstance(value, bool):
            return value
    elif kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif kind is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    elif kind is str:
        if isinstance(value, str) and value:
            return value
    elif origin is tuple:
        if isinstance(value, list):
            return tuple(_value(args[0], item, f"{key}[{i}]", source) for i, item in enumerate(value))
    elif origin is dict:
        if value is None:
            return {}
        if isinstance(value, dict) and all(isinstance(k, str) for k in value):
            return {k: _value(args[1], v, f"{key}.{k}", source) for k, v in value.items()}
    else:  # pragma: no cover - a field type this loader does not know
        raise TypeError(f"config field {key} has an unsupported type {kind}")
    raise ValueError(f"{source}: {key} must be {_describe(kind)}, not {_shown(value)}")


def _check_range(f: dataclasses.Field, value: Any, key: str, source: str) -> None:
    low = f.metadata.get("min")
    if low is None or value is None:
        return
    values = value if isinstance(value, tuple) else (value,)
    for v in values:
        if v < low or (f.metadata.get("exclusive") and v == low):
            bound = f"> {low}" if f.metadata.get("exclusive") else f">= {low}"
            raise ValueError(f"{source}: {key} must be {bound}, not {value!r}")


def _describe(kind) -> str:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_describe(a) for a in args)
    if origin is Literal:
        return " or ".join(map(repr, args))
    if origin is tuple:
        plural = {int: "integers", float: "numbers", str: "non-empty strings"}
        return f"a list of {plural.get(args[0], _describe(args[0]))}"
    if origin is dict:
        return "a mapping of names to values"
    names = {int: "an integer", float: "a number", str: "a non-empty string", bool: "true or false", type(None): "null"}
    return names.get(kind, str(kind))


def _shown(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _check_consistency(config: TrainConfig, source: str) -> None:
    """What the types alone cannot say: the game and its options exist, the agents exist, the
    batch fits in a rollout."""
    import bluff_envs
    from agents.base import GameInfo
    from agents.registry import make_agent

    try:
        env = bluff_envs.make(config.game.name, raw=True, **config.game.options)
    except (ValueError, TypeError) as error:
        raise ValueError(f"{source}: game: {error}") from None
    game = GameInfo.of(env)
    from agents.training.learner_env import potential_terms

    try:
        potential_terms(game, config.learner.shaping)
    except ValueError as error:
        raise ValueError(f"{source}: learner.shaping: {error}") from None
    from agents.training.features import make_features
    from agents.training.focus import focus_pairs

    try:
        focus_pairs(game.layout, config.network.focus)
        make_features(game.name, game.layout, config.network.features)
    except ValueError as error:
        raise ValueError(f"{source}: network.{error}") from None
    seat = config.learner.seat
    if isinstance(seat, int) and not 0 <= seat < game.num_players:
        raise ValueError(f"{source}: learner.seat must be 'rotate' or a seat from 0 to {game.num_players - 1}, not {seat}")
    specs = [("opponents.fixed", s) for s in config.opponents.fixed] + [("eval.opponents", s) for s in config.eval.opponents]
    if config.warm_start.teacher is not None:
        specs.append(("warm_start.teacher", config.warm_start.teacher))
    if config.learner.partner not in ("self", "pool"):
        specs.append(("learner.partner", config.learner.partner))
    for key, spec in specs:
        try:
            make_agent(spec, game, 0)
        except ValueError as error:
            raise ValueError(f"{source}: {key}: {error}") from None
    if not config.opponents.fixed:
        raise ValueError(f"{source}: opponents.fixed must name at least one agent (snapshots exist only once training has run)")
    if len(set(config.opponents.fixed)) != len(config.opponents.fixed):
        raise ValueError(f"{source}: opponents.fixed lists an agent twice: {list(config.opponents.fixed)}")
    if not config.eval.opponents:
        raise ValueError(f"{source}: eval.opponents must name at least one agent")
    rollout = config.ppo.n_steps * config.num_envs
    if config.ppo.batch_size > rollout:
        raise ValueError(
            f"{source}: ppo.batch_size {config.ppo.batch_size} is larger than a rollout "
            f"(ppo.n_steps {config.ppo.n_steps} x num_envs {config.num_envs} = {rollout})"
        )
    if config.opponents.latest_share > 1:
        raise ValueError(f"{source}: opponents.latest_share must be between 0 and 1, not {config.opponents.latest_share}")
