"""Tournament configs: YAML, validated on load, every error naming its key.

.. code-block:: yaml

    name: i_doubt_it_round_robin   # optional; default: the file's stem
    game: i_doubt_it
    options: {num_players: 4}      # the game's options (see `bluff list`)
    format: round_robin            # round_robin | gauntlet | lineups
    agents: [honest, counter, bluffer, random]    # round_robin: the pool
    # gauntlet:  challenger: honest  (or a list)   field: [random]
    # lineups:   lineups: [[honest, random, random, random], ...]
    deals: 100                     # seeded decks; each is played by every line-up in every seating
    seating: rotations             # rotations | permutations | fixed
    seed: 0
    workers: null                  # worker processes; null: all cores
    executor: local                # or {kind: local}; other executors plug in by name
    batch_size: null               # games per task sent to a worker; null: chosen from the size

Loading checks the shape (unknown keys, wrong types), then what the values mean: the game
exists, its options build an environment, every agent spec builds an agent, line-ups fit the
seats. All problems are reported together (:class:`ConfigError`), before any game is played.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from agents.arena import schedule as sched
from agents.arena.executor import REQUIRES, available_executors

FORMATS = ("round_robin", "gauntlet", "lineups")


class ConfigError(ValueError):
    """A config with problems; ``problems`` lists ``"key: what is wrong"`` messages."""

    def __init__(self, problems: list[str], source: str = "config"):
        self.problems = problems
        super().__init__(f"{source}: " + ("\n  ".join(["invalid tournament config", *problems])))


def read_config_file(path: str | os.PathLike) -> Any:
    """A YAML config file's data, named after the file unless it names itself."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError([f"file not found: {path}"], str(path))
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        raise ConfigError([f"not valid YAML: {error}"], str(path)) from None
    if isinstance(data, dict):
        data.setdefault("name", path.stem)
    return data


@dataclass(frozen=True)
class ExecutorSpec:
    kind: str = "local"
    address: str | None = None  # for cluster executors (e.g. a Ray head)


@dataclass(frozen=True)
class TournamentConfig:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    format: str = "round_robin"
    agents: tuple[str, ...] = ()
    challengers: tuple[str, ...] = ()
    field: tuple[str, ...] = ()
    lineups: tuple[tuple[str, ...], ...] = ()
    deals: int = 100
    seating: str = "rotations"
    seed: int = 0
    workers: int | None = None
    executor: ExecutorSpec = ExecutorSpec()
    batch_size: int | None = None
    name: str = "tournament"

    # -- what the tournament plays --------------------------------------------------------

    def num_players(self) -> int:
        import bluff_envs

        return bluff_envs.make(self.game, raw=True, **self.options).unwrapped.game.num_players

    def teams(self) -> tuple[tuple[int, ...], ...]:
        return sched.partnerships(self.game, self.num_players())

    def all_lineups(self) -> list[tuple[str, ...]]:
        return sched.lineups(
            self.format, self.num_players(), self.teams(), agents=self.agents, challengers=self.challengers,
            field=self.field, explicit=self.lineups,
        )

    def tasks(self) -> list[sched.GameTask]:
        return sched.schedule(self.game, self.options, self.all_lineups(), self.deals, self.seed, self.seating)

    def agent_specs(self) -> list[str]:
        """Every distinct agent spec, in the order the config names them."""
        specs = [*self.agents, *self.challengers, *self.field, *(s for lineup in self.lineups for s in lineup)]
        return list(dict.fromkeys(specs))

    def outcome_key(self) -> dict[str, Any]:
        """What the games depend on (not how they are run): a resumed run must match it."""
        data = asdict(self)
        for key in ("workers", "executor", "batch_size", "name"):
            data.pop(key)
        return _plain(data)

    def to_dict(self) -> dict[str, Any]:
        return _plain(asdict(self))

    # -- loading --------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike, check: bool = True) -> TournamentConfig:
        return cls.from_dict(read_config_file(path), check=check, source=str(path))

    @classmethod
    def from_dict(cls, data: Any, *, check: bool = True, where: str = "", source: str = "config") -> TournamentConfig:
        """Build and validate a config; ``where`` prefixes key names in messages (a tournament
        inside a larger experiment file); ``check=False`` skips building the game and agents."""
        problems: list[str] = []
        config = _parse(data, where, problems)
        if config is not None and not problems and check:
            config.check(problems, where)
        if problems:
            raise ConfigError(problems, source)
        return config

    def check(self, problems: list[str] | None = None, where: str = "") -> None:
        """Build the environment and every agent once; problems go to ``problems`` (or raise)."""
        own = problems is None
        problems = [] if own else problems
        _check(self, where, problems)
        if own and problems:
            raise ConfigError(problems)


KEYS = ("name", "game", "options", "format", "agents", "challenger", "field", "lineups", "deals", "seating",
        "seed", "workers", "executor", "batch_size")


def _parse(data: Any, where: str, problems: list[str]) -> TournamentConfig | None:
    if not isinstance(data, dict):
        problems.append(f"{where or 'the config'}: expected a mapping of keys, got {type(data).__name__}")
        return None
    key = lambda k: f"{where}{k}"  # noqa: E731 - the name a message shows
    for unknown in sorted(set(data) - set(KEYS), key=str):
        problems.append(f"{key(unknown)}: unknown key; keys are {', '.join(KEYS)}")

    def get(k, kinds, default, what):
        value = data.get(k, default)
        if value is default and k not in data:
            return default
        ok = isinstance(value, kinds) and not (isinstance(value, bool) and bool not in _tuple(kinds))
        if not ok:
            problems.append(f"{key(k)}: expected {what}, got {value!r}")
            return default
        return value

    game = get("game", str, None, "a game name")
    if "game" not in data:
        problems.append(f"{key('game')}: missing; name the game, e.g. game: i_doubt_it")
    options = get("options", dict, {}, "a mapping of game options")
    if options:
        for name in options:
            if not isinstance(name, str):
                problems.append(f"{key('options')}: option names must be strings, got {name!r}")
    fmt = get("format", str, None, f"one of {', '.join(FORMATS)}")
    if fmt is not None and fmt not in FORMATS:
        problems.append(f"{key('format')}: {fmt!r} is not a format; formats are {', '.join(FORMATS)}")
        fmt = None
    agents = _specs(data, "agents", key, problems)
    challenger = data.get("challenger")
    challengers = (challenger,) if isinstance(challenger, str) else _specs(data, "challenger", key, problems)
    field_ = _specs(data, "field", key, problems)
    lineups = ()
    if "lineups" in data:
        raw = data["lineups"]
        if not isinstance(raw, list) or not raw:
            problems.append(f"{key('lineups')}: expected a non-empty list of line-ups (lists of agent specs)")
        else:
            parsed = []
            for i, lineup in enumerate(raw):
                if not isinstance(lineup, list) or not lineup or not all(isinstance(s, str) and s for s in lineup):
                    problems.append(f"{key('lineups')}[{i}]: expected a list of agent specs, got {lineup!r}")
                else:
                    parsed.append(tuple(lineup))
            lineups = tuple(parsed)
    if fmt is None:
        fmt = "lineups" if "lineups" in data else ("gauntlet" if "challenger" in data else "round_robin")
    needs = {"round_robin": ("agents",), "gauntlet": ("challenger", "field"), "lineups": ("lineups",)}[fmt]
    for k in needs:
        if k not in data:
            problems.append(f"{key(k)}: missing; format {fmt} needs {' and '.join(needs)}")
    for k in sorted({"agents", "challenger", "field", "lineups"} - set(needs)):
        if k in data:
            problems.append(f"{key(k)}: not used by format {fmt}")
    if fmt == "round_robin" and len(set(agents)) < 2 and "agents" in data:
        problems.append(f"{key('agents')}: a round robin needs at least two different agents")
    deals = _integer(data, "deals", 100, 1, key, problems)
    seating = get("seating", str, "rotations", f"one of {', '.join(sched.SEATINGS)}")
    if seating not in sched.SEATINGS:
        problems.append(f"{key('seating')}: {seating!r} is not a seating; seatings are {', '.join(sched.SEATINGS)}")
    seed = _integer(data, "seed", 0, 0, key, problems)
    workers = _integer(data, "workers", None, 1, key, problems, none_ok=True)
    batch_size = _integer(data, "batch_size", None, 1, key, problems, none_ok=True)
    executor = _executor(data.get("executor", "local"), key("executor"), problems)
    name = get("name", str, "tournament", "a name")
    if problems:
        return None
    return TournamentConfig(
        game=game, options=dict(options), format=fmt, agents=agents, challengers=challengers, field=field_,
        lineups=lineups, deals=deals, seating=seating, seed=seed, workers=workers, executor=executor,
        batch_size=batch_size, name=name,
    )


def _specs(data, k, key, problems) -> tuple[str, ...]:
    if k not in data:
        return ()
    value = data[k]
    if not isinstance(value, list) or not value or not all(isinstance(s, str) and s for s in value):
        problems.append(f"{key(k)}: expected a non-empty list of agent specs, got {value!r}")
        return ()
    return tuple(value)


def _integer(data, k, default, low, key, problems, none_ok=False):
    if k not in data:
        return default
    value = data[k]
    if value is None and none_ok:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        allowed = f"an integer >= {low}" + (" or null" if none_ok else "")
        problems.append(f"{key(k)}: expected {allowed}, got {value!r}")
        return default
    return value


def _executor(value, name, problems) -> ExecutorSpec:
    if isinstance(value, str):
        value = {"kind": value}
    if not isinstance(value, dict):
        problems.append(f"{name}: expected an executor name or a mapping with 'kind', got {value!r}")
        return ExecutorSpec()
    for unknown in sorted(set(value) - {"kind", "address"}, key=str):
        problems.append(f"{name}.{unknown}: unknown key; keys are kind, address")
    kind = value.get("kind", "local")
    kinds = available_executors()
    if kind not in kinds:
        problems.append(f"{name}.kind: unknown executor {kind!r}; executors: {', '.join(kinds)}")
        return ExecutorSpec()
    package, install = REQUIRES.get(kind, (None, None))
    if package is not None and importlib.util.find_spec(package) is None:
        problems.append(f"{name}.kind: the {kind!r} executor needs {package}, which is not installed: {install}")
        return ExecutorSpec()
    address = value.get("address")
    if address is not None and not isinstance(address, str):
        problems.append(f"{name}.address: expected a string such as 'ray://head:10001', got {address!r}")
        address = None
    return ExecutorSpec(kind, address)


def _check(config: TournamentConfig, where: str, problems: list[str]) -> None:
    import bluff_envs
    from agents import GameInfo, make_agent

    try:
        env = bluff_envs.make(config.game, raw=True, **config.options)
    except ValueError as error:
        key = "game" if "unknown game" in str(error) else "options"
        problems.append(f"{where}{key}: {error}")
        return
    info = GameInfo.of(env)
    n = info.num_players
    named = [(f"agents[{i}]", s) for i, s in enumerate(config.agents)]
    if len(config.challengers) == 1:
        named += [("challenger", config.challengers[0])]
    else:
        named += [(f"challenger[{i}]", s) for i, s in enumerate(config.challengers)]
    named += [(f"field[{i}]", s) for i, s in enumerate(config.field)]
    named += [(f"lineups[{i}][{j}]", s) for i, lineup in enumerate(config.lineups) for j, s in enumerate(lineup)]
    built: dict[str, str | None] = {}
    for key, spec in named:
        if spec not in built:
            try:
                make_agent(spec, info, 0)
                built[spec] = None
            except Exception as error:  # noqa: BLE001 - a loader may fail in its own way (missing file, ...)
                built[spec] = f"{type(error).__name__}: {error}" if not isinstance(error, ValueError) else str(error)
        if built[spec] is not None:
            problems.append(f"{where}{key}: {built[spec]}")
    for i, lineup in enumerate(config.lineups):
        if len(lineup) != n:
            problems.append(f"{where}lineups[{i}]: {len(lineup)} agents for the {n} seats of {config.game}")


def _plain(value):
    """Tuples to lists, recursively: the form JSON and YAML give back."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _tuple(kinds):
    return kinds if isinstance(kinds, tuple) else (kinds,)
