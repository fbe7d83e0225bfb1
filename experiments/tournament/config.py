"""Tournament configs: YAML, validated on load, every problem naming its key.

.. code-block:: yaml

    name: i_doubt_it_round_robin   # optional; default: the file's stem
    game: i_doubt_it
    options: {num_players: 4}      # the game's options (see `bluff list`)
    format: round_robin            # round_robin | gauntlet | lineups
    agents: [honest, counter, bluffer, random]    # round_robin: the pool
    # gauntlet:  challenger: honest  (or a list)   field: [random]
    # lineups:   lineups: [[honest, random, random, random], ...]
    deals: 100                     # seeded decks; each is played by every line-up in every seating
    seating: balanced              # balanced | rotations | permutations | fixed
    seed: 0
    workers: null                  # worker processes (at most this machine's cores); null: all cores
    executor: local                # or {kind: local}; other executors plug in by name
    batch_size: null               # games per task sent to a worker; null: chosen from the size
    engine: auto                   # auto | vector | reference: where games are played (same results)

Loading (the project's one loader, :mod:`agents.training.config_loader`) checks the shape
(unknown keys, wrong types, ranges), then what the values mean: the game exists, its options
build an environment, every agent spec builds an agent, line-ups fit the seats, the executor
is installed. All problems are reported together (:class:`ConfigError`), before any game is
played.
"""

import importlib.util
import math
import os
from dataclasses import asdict
from dataclasses import field as dc_field
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator
from pydantic.dataclasses import dataclass

from agents.arena import schedule as sched
from agents.arena.executor import REQUIRES, available_executors
from agents.training.config_loader import (
    CONFIG,
    MAX_DEALS,
    MAX_GAMES,
    AgentSpec,
    Allowed,
    ConfigError,
    GameName,
    Integer,
    ListOf,
    MapOf,
    SafeName,
    Seed,
    Text,
    Workers,
    agent_problems,
    check_shape,
    count_lineups,
    game_info,
    load_checked,
    load_yaml,
    plain,
)

FORMATS = ("round_robin", "gauntlet", "lineups")
WHAT = "tournament config"
__all__ = ["ConfigError", "ExecutorSpec", "TournamentConfig", "executor_problems", "named_after_file", "read_config_file",
           "validate_tournament"]

Specs = ListOf(AgentSpec, min_items=1, allowed="a non-empty list of agent specs")
LineUps = ListOf(ListOf(AgentSpec, min_items=1, allowed="a line-up: a non-empty list of agent specs, one per seat"),
                 min_items=1, allowed="a non-empty list of line-ups (lists of agent specs, one per seat)")
Options = MapOf(Any, allowed="a mapping of the game's options (see `bluff list <game>`)")
Deals = Integer(1, MAX_DEALS)
BatchSize = Integer(1, MAX_DEALS)


def read_config_file(path: str | os.PathLike) -> Any:
    """A YAML config file's data, named after the file unless it names itself."""
    data, problems = load_yaml(path)
    if problems:
        raise ConfigError(problems, str(path), WHAT)
    return named_after_file(data, path)


def named_after_file(data: Any, path: str | os.PathLike) -> Any:
    """A config's data with ``name`` set to the file's stem unless it names itself."""
    if isinstance(data, dict):
        data.setdefault("name", os.path.splitext(os.path.basename(path))[0])
    return data


@dataclass(frozen=True, config=CONFIG)
class ExecutorSpec:
    kind: Text = "local"
    address: Text | None = None  # for cluster executors (e.g. a Ray head)


def _executor_mapping(value: Any) -> Any:
    return {"kind": value} if isinstance(value, str) else value


Executor = Annotated[ExecutorSpec, BeforeValidator(_executor_mapping),
                     Allowed("an executor name (local, ray) or a mapping with keys kind, address")]


@dataclass(frozen=True, config=CONFIG, kw_only=True)
class TournamentFile:
    """A tournament config file as written (``challenger`` a spec or a list; format optional)."""

    name: SafeName = "tournament"
    game: GameName
    options: Options = dc_field(default_factory=dict)
    format: Literal[FORMATS] | None = None
    agents: Specs = ()
    challenger: Annotated[Specs, BeforeValidator(lambda v: [v] if isinstance(v, str) else v),
                          Allowed("an agent spec or a non-empty list of them")] = ()
    field: Specs = ()
    lineups: LineUps = ()
    deals: Deals = 100
    seating: Literal[sched.SEATINGS] = "balanced"
    seed: Seed = 0
    workers: Workers | None = None
    executor: Executor = dc_field(default_factory=ExecutorSpec)
    batch_size: BatchSize | None = None
    engine: Literal[sched.ENGINES] = "auto"


@dataclass(frozen=True, config=CONFIG)
class TournamentConfig:
    game: GameName
    options: Options = dc_field(default_factory=dict)
    format: Literal[FORMATS] = "round_robin"
    agents: ListOf(AgentSpec) = ()
    challengers: ListOf(AgentSpec) = ()
    field: ListOf(AgentSpec) = ()
    lineups: ListOf(ListOf(AgentSpec, min_items=1)) = ()
    deals: Deals = 100
    seating: Literal[sched.SEATINGS] = "balanced"
    seed: Seed = 0
    workers: Workers | None = None
    executor: ExecutorSpec = dc_field(default_factory=ExecutorSpec)
    batch_size: BatchSize | None = None
    engine: Literal[sched.ENGINES] = "auto"  # where the games are played, never what they give
    name: SafeName = "tournament"

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
        return sched.schedule(self.game, self.options, self.all_lineups(), self.deals, self.seed, self.seating,
                              self.engine)

    def agent_specs(self) -> list[str]:
        """Every distinct agent spec, in the order the config names them."""
        specs = [*self.agents, *self.challengers, *self.field, *(s for lineup in self.lineups for s in lineup)]
        return list(dict.fromkeys(specs))

    def outcome_key(self) -> dict[str, Any]:
        """What the games depend on (not how they are run): a resumed run must match it."""
        data = asdict(self)
        for key in ("workers", "executor", "batch_size", "engine", "name"):
            data.pop(key)
        return plain(data)

    def to_dict(self) -> dict[str, Any]:
        return plain(asdict(self))

    # -- loading --------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike, check: bool = True) -> "TournamentConfig":
        """Read and validate a tournament config file: every problem in one :class:`ConfigError`."""
        return load_checked(path, lambda data: validate_tournament(named_after_file(data, path), check=check), WHAT)

    @classmethod
    def from_dict(cls, data: Any, *, check: bool = True, where: str = "", source: str = "config") -> "TournamentConfig":
        """Build and validate a config; ``where`` prefixes key names in messages (a tournament
        inside a larger experiment file); ``check=False`` skips building the game and agents."""
        config, problems = validate_tournament(data, check=check, where=where)
        if problems:
            raise ConfigError(problems, source, WHAT)
        return config

    def check(self, problems: list[str] | None = None, where: str = "") -> None:
        """Build the environment and every agent once; problems go to ``problems`` (or raise)."""
        found = _check(self, where)
        if problems is None:
            if found:
                raise ConfigError(found, what=WHAT)
        else:
            problems.extend(found)


def validate_tournament(data: Any, *, check: bool = True, where: str = "", untrained: frozenset[str] = frozenset(),
                        ) -> tuple[TournamentConfig | None, list[str]]:
    """A tournament config and its problems (every one; the config is None if there are any).
    ``where`` prefixes every key; ``check=False`` skips building the game and agents; specs in
    ``untrained`` name agents that do not exist yet (a study's, before training): they count as
    agents of their own but are not built."""
    checked = check_shape(TournamentFile, data, where, fill={"game": "?"})
    problems = list(checked.problems)
    file, ok = checked.value, checked.ok
    if file is None:
        return None, problems
    given = set(data) if isinstance(data, dict) else set()
    fmt = file.format or ("lineups" if "lineups" in given else ("gauntlet" if "challenger" in given else "round_robin"))
    needs = {"round_robin": ("agents",), "gauntlet": ("challenger", "field"), "lineups": ("lineups",)}[fmt]
    for k in needs if ok("format") else ():  # (a format refused: which keys it needs is unknown)
        if k not in given:
            problems.append(f"{where}{k}: missing, format {fmt} needs {' and '.join(needs)}; allowed: a non-empty "
                            "list of agent specs" + (" (or one spec)" if k == "challenger" else ""))
    for k in sorted({"agents", "challenger", "field", "lineups"} - set(needs)) if ok("format") else ():
        if k in given:
            problems.append(f"{where}{k}: not used by format {fmt}; allowed: {', '.join(needs)}")
    if fmt == "round_robin" and ok("agents") and "agents" in given and len(set(file.agents)) < 2:
        problems.append(f"{where}agents: a round robin needs at least two different agents, got {list(file.agents)}; "
                        "allowed: a list of at least two different agent specs")
    if ok("executor.kind"):
        problems += executor_problems(file.executor, f"{where}executor")
    if ok("engine", "game") and file.engine == "vector":
        problems += engine_problems(file, f"{where}engine")
    config = TournamentConfig(
        game=file.game, options=dict(file.options), format=fmt, agents=file.agents, challengers=file.challenger,
        field=file.field, lineups=file.lineups, deals=file.deals, seating=file.seating, seed=file.seed,
        workers=file.workers, executor=file.executor, batch_size=file.batch_size, engine=file.engine, name=file.name,
    )
    if check and ok("game", "options"):
        problems += _check(config, where, untrained, ok=ok)
    return (None if problems else config), problems


def engine_problems(file, key: str) -> list[str]:
    """``engine: vector`` needs a vector engine for the game and a batched form of every agent."""
    from agents.arena.vector_match import batched
    from agents.batched import batched_specs
    from bluff_envs.registry import game_key
    from bluff_envs.vector import ENGINES

    game = game_key(file.game)
    if game not in ENGINES:
        return [f"{key}: 'vector', but {file.game} has no vector engine; allowed: auto, reference"]
    specs = [*file.agents, *file.challenger, *file.field, *(s for lineup in file.lineups for s in lineup)]
    lacking = sorted({s for s in specs if not batched(s, game)})
    if lacking:
        return [f"{key}: 'vector', but {', '.join(lacking)} {'has' if len(lacking) == 1 else 'have'} no batched form; "
                f"allowed: auto or reference, or agents with one ({', '.join(batched_specs(game))}, ppo:<checkpoint>, "
                "mixtures of them)"]
    return []


def executor_problems(executor: ExecutorSpec, key: str) -> list[str]:
    """Whether the executor named is known and installed (a problem naming ``key.kind`` if not)."""
    kinds = available_executors()
    if executor.kind not in kinds:
        return [f"{key}.kind: unknown executor {executor.kind!r}; allowed: {', '.join(kinds)}"]
    package, install = REQUIRES.get(executor.kind, (None, None))
    if package is not None and importlib.util.find_spec(package) is None:
        usable = [k for k in kinds if k not in REQUIRES or importlib.util.find_spec(REQUIRES[k][0]) is not None]
        return [f"{key}.kind: the {executor.kind!r} executor needs {package}, which is not installed ({install}); "
                f"allowed: {', '.join(usable)}"]
    return []


def _check(config: TournamentConfig, where: str = "", untrained: frozenset[str] = frozenset(), ok=None) -> list[str]:
    """Build the environment and every agent once; the problems, each naming its key."""
    ok = ok or (lambda *keys: True)
    info, problems = game_info(config.game, config.options, f"{where}game", f"{where}options")
    if info is None:
        return problems
    n = info.num_players
    named = []
    if ok("agents"):
        named += [(f"{where}agents[{i}]", s) for i, s in enumerate(config.agents)]
    if ok("challenger"):
        if len(config.challengers) == 1:
            named += [(f"{where}challenger", config.challengers[0])]
        else:
            named += [(f"{where}challenger[{i}]", s) for i, s in enumerate(config.challengers)]
    if ok("field"):
        named += [(f"{where}field[{i}]", s) for i, s in enumerate(config.field)]
    if ok("lineups"):
        named += [(f"{where}lineups[{i}][{j}]", s) for i, lineup in enumerate(config.lineups) for j, s in enumerate(lineup)]
        for i, lineup in enumerate(config.lineups):
            if len(lineup) != n:
                problems.append(f"{where}lineups[{i}]: {len(lineup)} agents for the {n} seats of {config.game}; "
                                f"allowed: {n} agent specs, one per seat")
    problems += agent_problems(named, info, skip=untrained)
    if ok("deals", "seating", "agents", "challenger", "field", "lineups"):
        teams = sched.partnerships(config.game, n)
        lineups = count_lineups(config.format, len(teams), len(config.agents), len(config.challengers),
                                len(config.field), len(config.lineups))
        seatings = {"fixed": 1, "rotations": n, "balanced": n, "permutations": math.factorial(n)}[config.seating]
        games = lineups * seatings * config.deals
        if games > MAX_GAMES:
            problems.append(f"{where}deals: {config.deals} deals x {lineups} line-ups x up to {seatings} seatings "
                            f"make {games} games; allowed: at most {MAX_GAMES} games in a tournament")
    return problems

