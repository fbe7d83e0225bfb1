"""The training config: one typed, validated place for everything a run depends on.

A YAML file (see ``experiments/train/*.yaml``) maps onto :class:`TrainConfig`, a pydantic
dataclass read by the project's one config loader (:mod:`agents.training.config_loader`).
Loading is strict: an unknown key, a value of the wrong type or out of range, an unknown game
option or an unknown agent spec is a problem naming its key (``ppo.n_steps``, ``game.options``,
…), and every problem of the file is reported at once in one :class:`ConfigError` (a
``ValueError``) before any work starts. Everything not given takes the default shown here.
"""

import dataclasses
import re
from dataclasses import field
from pathlib import Path
from typing import Any, Literal

from pydantic.dataclasses import dataclass

from agents.training.config_loader import (
    CONFIG,
    MAX_DEALS,
    MAX_STEPS,
    AgentSpec,
    ConfigError,
    Flag,
    GameName,
    Integer,
    ListOf,
    MapOf,
    Number,
    Seed,
    Text,
    Workers,
    agent_problems,
    check_shape,
    game_info,
    load_checked,
    plain,
    read_yaml,
)

WHAT = "training config"
Steps = Integer(1, MAX_STEPS)  # a step count
Every = Integer(0, MAX_STEPS)  # steps between events; 0: none
Width = Integer(1, 65536)  # units of a hidden layer
Layers = ListOf(Width, max_items=64)
LearningRate = Number(above=0)


@dataclass(frozen=True, config=CONFIG)
class GameSection:
    name: GameName  # i_doubt_it, believe_it_or_not, seven_spades, tarneeb
    options: MapOf(Any, allowed="a mapping of the game's options (see `bluff list <game>`)") = field(default_factory=dict)


@dataclass(frozen=True, config=CONFIG)
class LearnerSection:
    seat: Integer(0, 64) | Literal["rotate"] = "rotate"  # the learner's seat: rotating, or fixed
    partner: AgentSpec = "self"  # partnership games: "self", "pool" or an agent spec
    shaping: MapOf(Number()) = field(default_factory=dict)  # potential per observation field; {}: none
    # play and learn through the game's symmetry, a relabelling drawn per decision, as ppo:<path>@symmetric
    # plays (agents.training.symmetric_learner); its snapshots and its league's targets play so too
    symmetric: Flag = False


@dataclass(frozen=True, config=CONFIG)
class PPOSection:
    """MaskablePPO's hyperparameters (``n_steps`` per environment, as in SB3)."""

    learning_rate: LearningRate = 3e-4
    n_steps: Integer(1, 10**6) = 256
    batch_size: Integer(2, 10**7) = 1024
    n_epochs: Integer(1, 10**4) = 4
    gamma: Number(0, 1) = 0.995
    gae_lambda: Number(0, 1) = 0.95
    clip_range: Number(above=0) = 0.2
    ent_coef: Number(0) = 0.01
    vf_coef: Number(0) = 0.5
    max_grad_norm: Number(above=0) = 0.5
    target_kl: Number(above=0) | None = None
    normalize_advantage: Flag = True


@dataclass(frozen=True, config=CONFIG)
class NetworkSection:
    pi: Layers = (256, 256)  # hidden layers of the policy
    vf: Layers = (256, 256)  # hidden layers of the value function
    activation: Literal["tanh", "relu"] = "tanh"
    # one-hot rank field -> per-rank fields read at that rank (agents.training.focus); {}: none
    focus: MapOf(ListOf(Text, allowed="a list of observation field names")) = field(default_factory=dict)
    # the game's derived feature sets (agents.training.features), e.g. [card_play]; (): none
    features: ListOf(Text, allowed="a list of the game's feature set names, e.g. [card_play]") = ()


@dataclass(frozen=True, config=CONFIG)
class OpponentsSection:
    fixed: ListOf(AgentSpec, min_items=1, allowed="a non-empty list of agent specs (snapshots exist only once "
                  "training has run)") = ("random",)  # agent specs always in the pool
    sampling: Literal["uniform", "latest", "pfsp"] = "pfsp"
    latest_share: Number(0, 1) = 0.5  # "latest": the newest snapshot's share
    self_play_share: Number(0, 0.95) = 0.0  # "uniform"/"pfsp": the learner's newest snapshot's share; 0: none
    pfsp_power: Number(0) = 2.0  # "pfsp": weight (1 - score) ** power
    # whole line-ups as pool members, e.g. [[never_challenge, always_challenge]]: drawn for any seat,
    # a table seats the game (its specs for the seats after the learner's in turn, cycled); (): none
    tables: ListOf(ListOf(AgentSpec, min_items=1), allowed="a list of tables, each a non-empty list of agent "
                   "specs") = ()
    # the tables' share of every draw, together (0: each is a member like any other)
    table_share: Number(0, 0.95) = 0.0
    per_seat: Flag = True  # draw an opponent per seat (a mixed field) or one for all seats
    snapshot_every: Every = 100_000  # steps between snapshots; 0: none
    max_snapshots: Integer(0, 10**4) = 10  # the learner's own; league exploiters stay
    results_window: Integer(1, 10**7) = 200  # recent games per member for PFSP


@dataclass(frozen=True, config=CONFIG)
class LeagueSection:
    """League training (agents/ppo/league.py): exploiters join the opponent pool."""

    every: Every = 0  # steps of the main agent between two exploiters; 0: no league
    exploiter_steps: Steps = 200_000  # each exploiter's training budget
    kinds: ListOf(Literal["main", "league"], min_items=1) = ("main", "league")  # in turn: vs the main agent, vs the population
    # the teachers exploiters' warm starts clone, in turn (exploiter k: the k-th, cycling), each a start of its own;
    # empty: the main run's warm start (with copy_weights: the same copy)
    exploiter_teachers: ListOf(AgentSpec) = ()
    # the share of the main agent's games at the exploiter's table: the newest exploiter in one other seat,
    # the main agent's newest snapshot in the rest, the main agent rewarded with its copies' mean (minus the
    # exploiter's reward over n - 1; agents/training/learner_env.py); 0: none
    exploiter_tables: Number(0, 0.95) = 0.0
    # which exploiter sits there: the newest, or one of all of them alike (the mixture of the best responses so far)
    exploiter_table_draw: Literal["newest", "all"] = "newest"
    # best responses trained before (`bluff exploit` runs, other leagues' exploiters: ppo: checkpoints of this
    # game), in the pool as league exploiters from the first step (exploiter@known<k>): PFSP draws them, and the
    # exploiter's table (exploiter_table_draw: all) seats them beside the league's own; (): none
    known_exploiters: ListOf(AgentSpec) = ()


@dataclass(frozen=True, config=CONFIG)
class EvalSection:
    every: Every = 200_000  # steps between evaluations; 0: at the end only
    deals: Integer(1, MAX_DEALS) = 50  # duplicate deals, each played in every seat rotation (balanced seating)
    final_deals: Integer(0, MAX_DEALS) = 0  # the evaluation at the end; 0: as many as deals
    opponents: ListOf(AgentSpec, min_items=1) = ("random",)  # the field, seated in turn around the learner
    seed: Seed = 2024
    workers: Workers = 1  # processes playing the evaluation games


@dataclass(frozen=True, config=CONFIG)
class CheckpointSection:
    every: Steps = 200_000  # steps between checkpoints
    # the newest checkpoints of this schedule kept (besides the newest of all, which an evaluation or an
    # interruption may have written); 0: all
    keep: Integer(0, 10**6) = 3
    # the final agent is the mean of the weights of this many newest checkpoints (agents/ppo/average.py),
    # written as checkpoints/average.zip; 0: the last checkpoint
    average_last: Integer(0, 100) = 0


@dataclass(frozen=True, config=CONFIG)
class WarmStartSection:
    """Behaviour cloning of a teacher before self-play (see ``agents.ppo.warm_start``)."""

    teacher: AgentSpec | None = None  # an agent spec; null: start from a random policy
    decisions: Integer(1, 10**9) = 200_000  # teacher decisions to learn from
    epochs: Integer(1, 10**4) = 4
    batch_size: Integer(1, 10**7) = 1024
    learning_rate: LearningRate = 1e-3
    entropy_coef: Number(0) = 0.02  # keeps the clone exploring
    dagger_rounds: Integer(0, 100) = 0  # rounds where the clone plays and the teacher labels
    # a ppo: teacher of this network: start from its weights (fine-tuning), the clone fitting only the value function
    copy_weights: Flag = False


@dataclass(frozen=True, config=CONFIG)
class TrainConfig:
    game: GameSection
    total_steps: Steps  # learner decisions, over all environments
    seed: Seed = 0
    num_envs: Integer(1, 4096) = 8
    # vector: the games on bluff_envs.vector, opponents batched (agents.training.vector_learner);
    # reference: one LearnerEnv per game on the reference engine, in vec_env
    engine: Literal["vector", "reference"] = "vector"
    vec_env: Literal["dummy", "subproc"] = "dummy"  # the reference engine's vectorisation
    torch_threads: Integer(1, 1024) = 1  # of the training process
    learner: LearnerSection = field(default_factory=LearnerSection)
    ppo: PPOSection = field(default_factory=PPOSection)
    network: NetworkSection = field(default_factory=NetworkSection)
    opponents: OpponentsSection = field(default_factory=OpponentsSection)
    eval: EvalSection = field(default_factory=EvalSection)
    checkpoint: CheckpointSection = field(default_factory=CheckpointSection)
    warm_start: WarmStartSection = field(default_factory=WarmStartSection)
    league: LeagueSection = field(default_factory=LeagueSection)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (lists, dicts), as written to ``config.yaml`` in the run directory."""
        return plain(dataclasses.asdict(self))

    def replace(self, **changes: Any) -> "TrainConfig":
        return dataclasses.replace(self, **changes)


# -- loading ------------------------------------------------------------------------------


def read_config_file(path: str | Path) -> Any:
    """A training config file's data; :class:`ConfigError` naming the file if it cannot be read."""
    return read_yaml(path, WHAT)


def load_config(path: str | Path) -> TrainConfig:
    """Read and validate a training config file: every problem of the file in one :class:`ConfigError`."""
    return load_checked(path, validate_config, WHAT)


def config_from_dict(data: Any, source: str = "training config") -> TrainConfig:
    """Validate plain data into a :class:`TrainConfig` (then check game options and agents)."""
    config, problems = validate_config(data)
    if problems:
        raise ConfigError(problems, source, WHAT)
    return config


def validate_config(data: Any, *, where: str = "", semantic: bool = True,
                    untrained: frozenset[str] = frozenset()) -> tuple[TrainConfig | None, list[str]]:
    """A training config and its problems (every one; the config is None if there are any).
    ``where`` prefixes every key (a training config inside an experiment file); with
    ``semantic=False`` only the shape is checked, not the game and the agents. Agent specs in
    ``untrained`` (a study's agents, trained before this one) are taken as they stand: ``ppo:``
    agents of this config's network, built only once they exist."""
    checked = check_shape(TrainConfig, _renamed(data), where, fill={"total_steps": 1})
    problems = list(checked.problems)
    if semantic and checked.value is not None:
        problems += _check_consistency(checked.value, checked.ok, where, untrained)
    return (None if problems else checked.value), problems


def _renamed(data: Any) -> Any:
    """``data`` with the keys of earlier versions under their names now, so that their run
    directories still resume: ``league.exploiter_teacher: X`` is ``league.exploiter_teachers: [X]``."""
    league = data.get("league") if isinstance(data, dict) else None
    if not isinstance(league, dict) or "exploiter_teacher" not in league or "exploiter_teachers" in league:
        return data
    league = dict(league)
    teacher = league.pop("exploiter_teacher")
    return {**data, "league": {**league, "exploiter_teachers": [] if teacher is None else [teacher]}}


def agent_specs(config: TrainConfig, where: str = "", ok=lambda *keys: True) -> list[tuple[str, str]]:
    """Every agent spec the config names, with its key: the pool's fixed agents and tables, the
    evaluation field, the warm start's teacher, a partner, the league exploiters' teachers, the
    known exploiters."""
    named = []
    if ok("opponents.fixed"):
        named += [(f"{where}opponents.fixed[{i}]", s) for i, s in enumerate(config.opponents.fixed)]
    if ok("opponents.tables"):
        named += [(f"{where}opponents.tables[{i}][{j}]", s) for i, t in enumerate(config.opponents.tables)
                  for j, s in enumerate(t)]
    if ok("eval.opponents"):
        named += [(f"{where}eval.opponents[{i}]", s) for i, s in enumerate(config.eval.opponents)]
    if ok("warm_start.teacher") and config.warm_start.teacher is not None:
        named.append((f"{where}warm_start.teacher", config.warm_start.teacher))
    if ok("learner.partner") and config.learner.partner not in ("self", "pool"):
        named.append((f"{where}learner.partner", config.learner.partner))
    if ok("league.exploiter_teachers"):
        named += [(f"{where}league.exploiter_teachers[{i}]", s) for i, s in enumerate(config.league.exploiter_teachers)]
    if ok("league.known_exploiters"):
        named += [(f"{where}league.known_exploiters[{i}]", s) for i, s in enumerate(config.league.known_exploiters)]
    return named


def with_agents(config: TrainConfig, specs: dict[str, str]) -> TrainConfig:
    """The config with every agent spec that is a key of ``specs`` replaced by its value (a
    study's agent by its checkpoint, once trained): at each key :func:`agent_specs` names."""
    data = config.to_dict()
    for key, spec in agent_specs(config):
        if spec in specs:
            *path, last = [int(part) if part.isdigit() else part for part in re.findall(r"\w+", key)]
            place = data
            for part in path:
                place = place[part]
            place[last] = specs[spec]
    changed, problems = validate_config(data, semantic=False)
    if problems:
        raise ConfigError(problems, "the training config with the study's agents put in", WHAT)
    return changed


def _average_problems(config: TrainConfig, ok, where: str) -> list[str]:
    """``checkpoint.average_last`` needs that many checkpoints of trained steps, all kept."""
    c = config.checkpoint
    if not ok("checkpoint", "total_steps", "ppo.n_steps", "num_envs") or not c.average_last:
        return []
    key = f"{where}checkpoint.average_last: {c.average_last}"
    if c.average_last == 1:
        return [f"{key}; allowed: 0 (the last checkpoint is the final agent) or at least 2 checkpoints to average"]
    if c.keep and c.average_last > c.keep:
        return [f"{key}, more than the checkpoint.keep {c.keep} that stay; allowed: at most {c.keep}, or a larger keep"]
    written = scheduled_checkpoints(config)
    if c.average_last > written:
        return [f"{key}, but {config.total_steps:,} steps in rollouts of {config.ppo.n_steps * config.num_envs:,} "
                f"with a checkpoint every {c.every:,} write {written}; allowed: at most {written}, or a smaller "
                "checkpoint.every"]
    return []


def _exploiter_table_problems(config: TrainConfig, ok, where: str) -> list[str]:
    """``league.exploiter_tables`` needs exploiters (a league)."""
    if not ok("league") or not config.league.exploiter_tables:
        return []
    key = f"{where}league.exploiter_tables: {config.league.exploiter_tables}"
    if not config.league.every and not config.league.known_exploiters:
        return [f"{key} without exploiters (league.every: 0, no league.known_exploiters); allowed: 0, or a "
                "league.every above 0, or known exploiters"]
    return []


def on_schedule(config: TrainConfig, steps: int) -> bool:
    """Whether a checkpoint at ``steps`` is one of the schedule's: at the first rollout's end at
    or past a multiple of ``checkpoint.every`` (``agents.ppo.train`` checks between rollouts),
    or at the run's end; not one that an evaluation between them or an interruption wrote."""
    every, rollout = config.checkpoint.every, config.ppo.n_steps * config.num_envs
    return steps >= config.total_steps or (steps > 0 and steps // every > (steps - rollout) // every)


def scheduled_checkpoints(config: TrainConfig) -> int:
    """How many checkpoints of the schedule (:func:`on_schedule`) a run of ``config`` writes."""
    rollout, every = config.ppo.n_steps * config.num_envs, config.checkpoint.every
    between = -(-config.total_steps // rollout) - 1  # rollout ends before the last, where they are checked
    # a rollout at least as long as `every` passes a multiple each time; a shorter one, once per multiple
    return (between if every <= rollout else between * rollout // every) + 1


def _check_consistency(config: TrainConfig, ok, where: str, untrained: frozenset[str] = frozenset()) -> list[str]:
    """What the types alone cannot say: the game and its options exist, the agents exist, the
    batch fits in a rollout. Only parts whose shape was right (``ok``) are checked."""
    problems: list[str] = []
    if ok("ppo.batch_size", "ppo.n_steps", "num_envs"):
        rollout = config.ppo.n_steps * config.num_envs
        if config.ppo.batch_size > rollout:
            problems.append(
                f"{where}ppo.batch_size: {config.ppo.batch_size} is larger than a rollout (ppo.n_steps "
                f"{config.ppo.n_steps} x num_envs {config.num_envs} = {rollout}); allowed: at most {rollout}"
            )
    if ok("opponents.fixed") and len(set(config.opponents.fixed)) != len(config.opponents.fixed):
        problems.append(f"{where}opponents.fixed: lists an agent twice: {list(config.opponents.fixed)}; "
                        "allowed: each agent once")
    if ok("opponents.tables") and len(set(config.opponents.tables)) != len(config.opponents.tables):
        problems.append(f"{where}opponents.tables: lists a table twice: {[list(t) for t in config.opponents.tables]}; "
                        "allowed: each table once")
    if ok("opponents.self_play_share", "opponents.sampling") and config.opponents.self_play_share \
            and config.opponents.sampling == "latest":
        problems.append(f"{where}opponents.self_play_share: {config.opponents.self_play_share} with sampling 'latest'; "
                        "allowed: 0 with 'latest' (its latest_share is the newest snapshot's share), a share up to "
                        "0.95 with 'uniform' or 'pfsp'")
    if ok("opponents.table_share", "opponents.tables", "opponents.self_play_share") and config.opponents.table_share:
        if not config.opponents.tables:
            problems.append(f"{where}opponents.table_share: {config.opponents.table_share} without tables; "
                            "allowed: 0, or a share with opponents.tables")
        elif config.opponents.table_share + config.opponents.self_play_share >= 1.0:
            problems.append(f"{where}opponents.table_share: {config.opponents.table_share} with self_play_share "
                            f"{config.opponents.self_play_share}; allowed: the two together below 1")
    problems += _average_problems(config, ok, where)
    problems += _exploiter_table_problems(config, ok, where)
    w = config.warm_start
    if ok("warm_start.copy_weights", "warm_start.teacher") and w.copy_weights \
            and not str(w.teacher).startswith("ppo:") and w.teacher not in untrained:
        problems.append(f"{where}warm_start.copy_weights: true with teacher {w.teacher!r}; allowed: true only with a "
                        "ppo: teacher (a checkpoint trained with this config's network), false otherwise")
    if ok("warm_start.teacher") and str(w.teacher).startswith("mix:"):  # a clone sees one teacher, not one per game
        problems.append(f"{where}warm_start.teacher: {w.teacher!r} is a mixture; allowed: a single agent spec "
                        "(random, a heuristic, ppo:<checkpoint>)")
    if ok("warm_start.copy_weights", "warm_start.dagger_rounds") and w.copy_weights and w.dagger_rounds:
        problems.append(f"{where}warm_start.dagger_rounds: {w.dagger_rounds} with copy_weights (the copy plays as its "
                        "teacher, DAgger has nothing to correct); allowed: 0 with copy_weights")
    if not ok("game"):
        return problems
    game, found = game_info(config.game.name, config.game.options, f"{where}game.name", f"{where}game.options")
    if game is None:
        return problems + found
    from agents.training.features import make_features
    from agents.training.focus import focus_pairs
    from agents.training.learner_env import potential_terms

    if ok("learner.shaping"):
        try:
            potential_terms(game, config.learner.shaping)
        except ValueError as error:
            problems.append(f"{where}learner.shaping: {error}")
    if ok("network.focus"):
        try:
            focus_pairs(game.layout, config.network.focus)
        except ValueError as error:
            problems.append(f"{where}network.{error}")
    if ok("network.features"):
        try:
            make_features(game.name, game.layout, config.network.features)
        except ValueError as error:
            problems.append(f"{where}network.{error}")
    seat = config.learner.seat
    if ok("learner.seat") and isinstance(seat, int) and not 0 <= seat < game.num_players:
        problems.append(f"{where}learner.seat: out of range: int {seat}; "
                        f"allowed: 'rotate' or a seat from 0 to {game.num_players - 1}")
    partner = config.learner.partner
    if ok("learner.partner") and partner != "self" and not any(len(team) > 1 for team in game.teams):
        problems.append(f"{where}learner.partner: {partner!r}, but {game.name} has no partnerships; allowed: 'self'")
    if ok("learner.symmetric", "engine") and config.learner.symmetric:
        if game.symmetry is None:
            problems.append(f"{where}learner.symmetric: true, but {game.name} has no symmetry (its cards cannot be "
                            "relabelled); allowed: false")
        elif config.engine != "vector":
            problems.append(f"{where}learner.symmetric: true with engine {config.engine!r}; allowed: true only on "
                            "the vector engine")
    if ok("league.exploiter_tables") and config.league.exploiter_tables and any(len(team) > 1 for team in game.teams):
        problems.append(f"{where}league.exploiter_tables: {config.league.exploiter_tables}, but {game.name} is played "
                        "in partnerships (its exploiter holds a whole side); allowed: 0")
    if ok("league.known_exploiters"):
        problems += [f"{where}league.known_exploiters[{i}]: {spec!r} is not a checkpoint that samples from its "
                     "policy; allowed: ppo:<checkpoint or run> (a temperature may follow, never @greedy)"
                     for i, spec in enumerate(config.league.known_exploiters)
                     if not spec.startswith("ppo:") or spec.endswith("@greedy")]
    problems += agent_problems(agent_specs(config, where, ok), game, skip=untrained)
    if ok("warm_start", "network") and w.copy_weights and str(w.teacher).startswith("ppo:") \
            and not any(p.startswith(f"{where}warm_start.teacher:") for p in problems):
        from agents.ppo.warm_start import copied_policy

        try:
            copied_policy(w.teacher, game, config.network)
        except ValueError as error:
            problems.append(f"{where}warm_start.copy_weights: {error}; allowed: a teacher with this config's network, "
                            "or false")
    return problems
