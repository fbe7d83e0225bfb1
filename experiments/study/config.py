"""Experiment files: every game of a study, the agents to train for it and its tournament.

.. code-block:: yaml

    name: quick                      # optional; default: the file's stem
    seed: 0                          # seeds every training run and tournament
    workers: null                    # processes for training runs (one each), tournaments and transfer; null: all cores
    executor: local                  # local | ray | {kind: ray, address: "ray://head:10001"}
    games:
      - game: i_doubt_it
        options: {}                  # the game's options (see `bluff list`)
        train:                       # agents to train: name -> training config
          ppo:
            base: train/i_doubt_it.yaml   # optional base file (relative to this file)
            total_steps: 20000            # any training-config key, merged over the base
          longer:                         # an agent trained from another of this game's agents: a
            base: train/i_doubt_it.yaml   # trained agent's name as an agent spec (teacher, pool, ...)
            warm_start: {teacher: ppo, copy_weights: true}   # is its final checkpoint; trained after it
        tournament:                  # a tournament config without game, options, seed
          format: gauntlet
          challenger: [ppo, honest]  # a trained agent is named by its name here
          field: [random]
          deals: 20
        robustness:                  # optional: trained agents against the standard fields
          agents: [ppo]
          deals: 100
        exploit:                     # optional: best responses trained against trained agents
          agents: [ppo]
          steps: 1000000
          seeds: [0, 1]
          reference: true            # and the same recipe against the heuristic field
          starts: [recipe, counter]  # the agents the warm start clones (default [recipe]); largest edge counts
          recipe: exploit/i_doubt_it.yaml   # default: experiments/exploit/<game>.yaml
        transfer:                    # optional: exploiters trained before, against trained agents
          agents: [ppo]
          paths: [zoo/exploiters]    # exploiter runs or folders, relative to this file (zoo/...: the
                                     # repository's zoo); the study's own exploiters always play too
          deals: 50                  # duplicate deals each exploiter plays
          confirm: 3                 # the strongest played again on confirm_deals other deals
          confirm_deals: 1000

Everything is validated when the file is loaded, before any work, by the project's one
loader (:mod:`agents.training.config_loader`): unknown keys, wrong types, training configs (as
``bluff train`` would), tournament configs (as ``bluff tournament`` would; a trained agent
counts as an agent of its own, only not built until it exists). Every problem is reported at
once, naming its key (``games[0].train.ppo.ppo.n_steps``).

A training config may name another agent of its game's study wherever it names an agent (the
warm start's teacher, the pool, the evaluation field, ...): that agent is trained first and its
final checkpoint takes the name's place, so a chain of recipes (a league agent, then its
self-play step, then its population step) runs from one file. Agents trained from each other in
a circle are refused.
"""

import copy
import dataclasses
from dataclasses import field
from pathlib import Path
from typing import Annotated, Any

from pydantic.dataclasses import dataclass

from agents.training.config import TrainConfig, agent_specs, config_from_dict, validate_config, with_agents
from agents.training.config_loader import (
    CONFIG,
    MAX_DEALS,
    Allowed,
    ConfigError,
    GameName,
    Integer,
    ListOf,
    MapOf,
    SafeName,
    Seed,
    Workers,
    check_shape,
    game_info,
    load_checked,
    load_yaml,
)
from agents.training.exploit import EXPLOIT_STEPS, from_start
from agents.training.exploit_results import RECIPE_START
from experiments.tournament.config import (
    Executor,
    ExecutorSpec,
    Options,
    TournamentConfig,
    named_after_file,
    executor_problems,
    validate_tournament,
)

WHAT = "experiment"
__all__ = ["ConfigError", "Experiment", "GameStudy", "experiment_from_dict", "load_experiment", "trained_agent_spec"]
# tournament keys the experiment sets itself
SET_BY_EXPERIMENT = ("game", "options", "seed", "workers", "executor", "name")
RESERVED = ("self", "pool", "recipe")  # words the configs give a meaning of their own: no agent's name

TrainSpec = Annotated[dict[str, Any], Allowed("a training config (a mapping), optionally with 'base: <file>'")]
TournamentSpec = Annotated[dict[str, Any], Allowed("a tournament config (format, agents or challenger/field, deals, …)")]
RECIPES = Path(__file__).resolve().parent.parent / "exploit"  # the exploit recipes, one per game
TrainedNames = ListOf(str, min_items=1, allowed="a non-empty list of this game's trained agent names")


@dataclass(frozen=True, config=CONFIG, kw_only=True)
class RobustnessStep:
    """The robustness matrix (agents/training/robustness.py) of trained agents."""

    agents: TrainedNames
    deals: Integer(1, MAX_DEALS) = 100  # duplicate deals per field


@dataclass(frozen=True, config=CONFIG, kw_only=True)
class ExploitStep:
    """Exploiters (agents/training/exploit.py) of trained agents: their approximate exploitability."""

    agents: TrainedNames
    steps: Integer(1, 10**12) = EXPLOIT_STEPS  # of each exploiter
    seeds: ListOf(Seed, min_items=1) = (0, 1)
    reference: bool = True  # also the same recipe against the game's heuristic field
    recipe: str | None = None  # a training config, relative to the experiment file; default experiments/exploit/<game>.yaml
    # the agents the exploiters' warm start clones, each a start of its own ("recipe": the recipe's own teacher)
    starts: ListOf(str, min_items=1, allowed="a non-empty list of agent specs of the game, or 'recipe'") = (RECIPE_START,)


@dataclass(frozen=True, config=CONFIG, kw_only=True)
class TransferStep:
    """Transfer exploitability (agents/training/transfer.py) of trained agents: every exploiter
    under ``paths`` and the study's own (its exploit step's, under the run directory) against them."""

    agents: TrainedNames
    paths: ListOf(str) = ()  # relative to the experiment file; zoo/...: the repository's zoo (zoo/exploiters)
    deals: Integer(1, MAX_DEALS) = 50
    confirm: Integer(0, 10**4) = 3
    confirm_deals: Integer(1, MAX_DEALS) = 1000


@dataclass(frozen=True, config=CONFIG)
class GameStudy:
    """One game of a study: what to train and the tournament that compares everything."""

    game: GameName
    options: Options
    train: dict[str, TrainConfig]
    tournament: dict[str, Any]  # a tournament config, trained agents still named by name
    robustness: RobustnessStep | None = None
    exploit: ExploitStep | None = None
    exploit_recipe: TrainConfig | None = None  # the exploiters' recipe, for this game's options
    # agent -> the study's agents its training config names (trained first, their checkpoints put in)
    needs: dict[str, tuple[str, ...]] = field(default_factory=dict)
    transfer: TransferStep | None = None
    transfer_paths: tuple[str, ...] = ()  # the transfer step's paths, resolved

    def train_config(self, agent: str, checkpoints: dict[str, str]) -> TrainConfig:
        """``agent``'s training config with the study's agents it names replaced by their specs."""
        from agents.registry import unlabelled

        needs = self.needs.get(agent, ())
        config = with_agents(self.train[agent], {name: unlabelled(checkpoints[name]) for name in needs})
        if needs:  # checked again now that the agents it names exist (e.g. their network)
            config = config_from_dict(config.to_dict(), source=f"{self.game}: the training config of {agent}")
        return config

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


@dataclass(frozen=True, config=CONFIG)
class Experiment:
    name: SafeName
    seed: Seed
    workers: Workers | None
    executor: Any  # as the file gives it: a name or a mapping (see ExperimentFile.executor)
    games: tuple[GameStudy, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        """The resolved experiment (every training config in full), as written to the run. A
        tournament's options and executor are its game's and the experiment's: one object
        each (written once in YAML, with an anchor)."""
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
                    "tournament": {**g.tournament, "options": g.options, "executor": self.executor},
                    **({"robustness": _plain(g.robustness)} if g.robustness else {}),
                    **({"exploit": {**_plain(g.exploit), "recipe": g.exploit_recipe.to_dict()}} if g.exploit else {}),
                    **({"transfer": {**_plain(g.transfer), "paths": list(g.transfer_paths)}} if g.transfer else {}),
                }
                for g in self.games
            ],
        }


def _plain(step: Any) -> dict[str, Any]:
    """A step's settings as plain YAML data (lists, not tuples)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(step).items()}


@dataclass(frozen=True, config=CONFIG, kw_only=True)
class ExperimentFile:
    """An experiment file's top level as written; each game is checked on its own (GameEntry)."""

    name: SafeName = "experiment"
    seed: Seed = 0
    workers: Workers | None = None
    executor: Executor = field(default_factory=ExecutorSpec)
    games: ListOf(Any, min_items=1, allowed="a non-empty list of games, each a mapping with keys game, options, "
                  "train, tournament")


@dataclass(frozen=True, config=CONFIG, kw_only=True)
class GameEntry:
    game: GameName
    options: Options = field(default_factory=dict)
    train: MapOf(TrainSpec, allowed="a mapping of agent names to training configs") = field(default_factory=dict)
    tournament: TournamentSpec
    robustness: RobustnessStep | None = None
    exploit: ExploitStep | None = None
    transfer: TransferStep | None = None


def load_experiment(path: str | Path) -> Experiment:
    """Read and validate an experiment file: every problem (its training configs' and
    tournaments' included) in one :class:`ConfigError`."""
    base_dir = Path(path).parent
    return load_checked(path, lambda data: validate_experiment(named_after_file(data, path), base_dir), WHAT)


def experiment_from_dict(data: Any, base_dir: str | Path = ".", source: str = "experiment") -> Experiment:
    experiment, problems = validate_experiment(data, Path(base_dir))
    if problems:
        raise ConfigError(problems, source, WHAT)
    return experiment


def validate_experiment(data: Any, base_dir: str | Path = ".") -> tuple[Experiment | None, list[str]]:
    """An experiment and its problems (every one; the experiment is None if there are any)."""
    checked = check_shape(ExperimentFile, data)
    problems = list(checked.problems)
    top = checked.value
    if top is None:
        return None, problems
    executor_ok = checked.ok("executor.kind")
    if executor_ok:
        found = executor_problems(top.executor, "executor")
        problems += found
        executor_ok = not found
    raw_executor = data.get("executor", "local") if isinstance(data, dict) else "local"
    studies = []
    for i, entry in enumerate(top.games if checked.ok("games") else ()):
        study = _study(entry, f"games[{i}].", Path(base_dir), top.seed, raw_executor if executor_ok else "local", problems)
        if study is not None:
            studies.append(study)
    if problems:
        return None, problems
    return Experiment(top.name, top.seed, top.workers, raw_executor, tuple(studies)), problems


def _study(entry: Any, where: str, base_dir: Path, seed: int, executor: Any, problems: list[str]) -> GameStudy | None:
    checked = check_shape(GameEntry, entry, where, fill={"game": "?", "tournament": {}})
    problems += checked.problems
    entry_ok = not checked.problems
    found = checked.value
    if found is None:
        return None
    ok = checked.ok
    info = None
    if ok("game", "options"):
        info, game_problems = game_info(found.game, found.options, f"{where}game", f"{where}options")
        problems += game_problems
    game, options = found.game, dict(found.options)
    trained: dict[str, TrainConfig] = {}
    entries = dict(found.train) if ok("train") else {}
    names = {agent for agent in entries if ":" not in agent and "#" not in agent}
    known = (_agent_names(info.name) if info is not None else set()) | set(RESERVED)
    for k, (agent, spec) in enumerate(entries.items()):
        key = f"{where}train.{agent}"
        if agent not in names:
            problems.append(f"{key}: an agent name with ':' or '#'; allowed: a plain word (no ':' or '#')")
            entry_ok = False
            continue
        if agent in known:
            problems.append(f"{key}: {agent!r} is already an agent of {game} or a word of the configs; allowed: a "
                            f"name of its own (not {', '.join(sorted(known))})")
            entry_ok = False
        config, found_problems = _training_config(spec, key, base_dir, game, options, seed + 1000 * k, info is not None,
                                                  frozenset(names - {agent}))
        problems += found_problems
        if config is None:
            entry_ok = False
        else:
            trained[agent] = config
    needs = {agent: tuple(sorted({spec for _, spec in agent_specs(config)} & names))
             for agent, config in trained.items()}
    circle = _circle(needs)
    if circle:
        problems.append(f"{where}train: {' -> '.join(circle)}: each of these agents is trained from the next; "
                        "allowed: agents trained from agents trained before them, never in a circle")
        entry_ok = False
    if not ok("tournament"):
        return None
    tournament = found.tournament
    for key in SET_BY_EXPERIMENT:
        if key in tournament:
            problems.append(f"{where}tournament.{key}: set by the experiment, not inside the tournament; "
                            "allowed: the other tournament keys")
            entry_ok = False
    own = {k: v for k, v in tournament.items() if k not in SET_BY_EXPERIMENT}
    data = {**own, "name": game, "game": game, "options": options, "seed": seed, "executor": executor}
    _, tournament_problems = validate_tournament(data, check=info is not None, where=f"{where}tournament.",
                                                 untrained=frozenset(names))
    problems += tournament_problems
    for step in ("robustness", "exploit", "transfer"):
        chosen = getattr(found, step) if ok(step) else None
        for agent in chosen.agents if chosen is not None else ():
            if agent not in names:
                problems.append(f"{where}{step}.agents: {agent!r} is not trained here; allowed: the names of this "
                                f"game's trained agents ({', '.join(sorted(names)) or 'none'})")
                entry_ok = False
    recipe = None
    if ok("exploit") and found.exploit is not None:
        recipe, recipe_problems = _exploit_recipe(found.exploit.recipe, f"{where}exploit.recipe", base_dir, game, options)
        problems += recipe_problems
        entry_ok = entry_ok and recipe is not None
        for i, teacher in enumerate(found.exploit.starts if recipe is not None else ()):
            try:
                from_start(recipe, teacher)
            except ValueError as error:
                problems.append(f"{where}exploit.starts[{i}]: {error}; allowed: an agent of {game}, or 'recipe'")
                entry_ok = False
    transfer_paths = []
    if ok("transfer") and found.transfer is not None:
        for i, given in enumerate(found.transfer.paths):
            path = _transfer_path(given, base_dir)
            if path is None:
                problems.append(f"{where}transfer.paths[{i}]: {given[:200]!r} does not exist (relative to "
                                f"{base_dir}, or zoo/... in the repository); allowed: exploiter runs or folders")
                entry_ok = False
            else:
                transfer_paths.append(str(path))
    if not entry_ok or tournament_problems or info is None:
        return None
    return GameStudy(game, options, trained, {**tournament, "name": game, "game": game, "options": options,
                                              "seed": seed, "executor": executor},
                     found.robustness, found.exploit, recipe, needs, found.transfer, tuple(transfer_paths))


def _transfer_path(given: str, base_dir: Path) -> Path | None:
    """A transfer path: relative to the experiment file, or ``zoo/...`` in the repository."""
    from agents.ppo.zoo import folder

    for path in (base_dir / given, folder(given)):
        if path.exists():
            return path.resolve()
    return None


def _circle(needs: dict[str, tuple[str, ...]]) -> list[str]:
    """A circle of agents each trained from the next (first one repeated at the end), or []."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(agent: str) -> list[str]:
        state[agent] = 1
        path.append(agent)
        for other in needs.get(agent, ()):
            if state.get(other) == 1:
                return path[path.index(other):] + [other]
            if other not in state and (found := visit(other)):
                return found
        path.pop()
        state[agent] = 2
        return []

    for agent in needs:
        if agent not in state and (found := visit(agent)):
            return found
    return []


def _exploit_recipe(recipe: str | None, key: str, base_dir: Path, game: str, options: dict) -> tuple[TrainConfig | None, list[str]]:
    """The exploiters' training recipe, played in the study's game options."""
    path = base_dir / recipe if recipe else RECIPES / f"{game}.yaml"
    data, problems = load_yaml(path)
    if problems:
        return None, [f"{key}: {path}: {p}" for p in problems]
    if not isinstance(data, dict) or not isinstance(data.get("game"), dict) or data["game"].get("name") != game:
        return None, [f"{key}: {path} is not a training config for {game}; allowed: a training config whose game is {game}"]
    config, found = validate_config({**data, "game": {"name": game, "options": dict(options)}})
    return config, [f"{key}: {path}: {p}" for p in found]


def _agent_names(game: str) -> set[str]:
    from agents.registry import agent_names

    return set(agent_names(game))


def _training_config(spec: dict, key: str, base_dir: Path, game: str, options: dict, seed: int,
                     semantic: bool, untrained: frozenset[str] = frozenset()) -> tuple[TrainConfig | None, list[str]]:
    spec = dict(spec)
    data: Any = {}
    problems: list[str] = []
    if "game" in spec:
        problems.append(f"{key}.game: set by the experiment (the game and its options); allowed: the other training keys")
        spec.pop("game")
    base = spec.pop("base", None)
    if base is not None:
        if not isinstance(base, str) or not base:
            return None, [*problems, f"{key}.base: wrong type: {base!r}; allowed: the path of a training config file, "
                                     "relative to the experiment file"]
        path = base_dir / base
        data, file_problems = load_yaml(path)
        if file_problems:
            return None, [*problems, *(f"{key}.base: {path}: {p}" for p in file_problems)]
        data = {} if data is None else data
        if not isinstance(data, dict):
            return None, [*problems, f"{key}.base: {path}: the top level is not a mapping; allowed: a training config"]
        base_game = data.get("game")
        trains = base_game.get("name", game) if isinstance(base_game, dict) else game
        if trains != game:
            return None, [*problems, f"{key}.base: {path} trains {trains!r}, not {game!r}; allowed: a training config "
                                     f"for {game}"]
    data = _merge(data, spec)
    data["game"] = {"name": game, "options": options}
    data.setdefault("seed", seed)
    config, found = validate_config(data, where=f"{key}.", semantic=semantic, untrained=untrained)
    problems += found
    return (None if problems else config), problems


def _merge(base: dict, override: dict) -> dict:
    out = dict(base)
    for key, value in override.items():
        out[key] = _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _swap(specs: list, names: dict[str, str]) -> list:
    return [names.get(spec, spec) if isinstance(spec, str) else spec for spec in specs]


def trained_agent_spec(run_dir: Path, game: str, agent: str) -> str:
    """The spec of an agent the study trains: its training run directory (its final agent),
    as an absolute path (the results resolve from any directory), labelled with the agent's name
    (``#ppo``: what tables show, on the terminal and in the report alike)."""
    return f"ppo:{(Path(run_dir) / game / 'train' / agent).resolve()}#{agent}"
