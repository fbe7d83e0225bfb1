"""Self-play training with sb3-contrib's MaskablePPO, from a :class:`TrainConfig` to a run directory.

A run directory holds everything a run wrote::

    config.yaml        the resolved config (every default filled in)
    run.json           seeds, library versions, and one entry per session (start, resume)
    train.log          the progress lines (steps, speed, ETA, self-play and eval results)
    logs/              TensorBoard event files and one progress_<session>.csv per session
    evals.jsonl        one line per evaluation against the baselines
    checkpoints/       step_<steps>.zip: resumable models with metadata (see checkpoint.py);
                       average.zip: the final agent where checkpoint.average_last averages
    result.json        written at the end: final checkpoint, steps, last evaluation

The loop: ``num_envs`` learner games (on the vector engine by default, ``engine: reference``
for one :class:`~agents.training.learner_env.LearnerEnv` each) play against opponents drawn
from the pool; every ``opponents.snapshot_every`` steps the current policy joins the pool as a
frozen snapshot; every ``eval.every`` steps the learner plays the evaluation field on duplicate
deals; every ``checkpoint.every`` steps a checkpoint is written. All of that happens between
rollouts, when the policy is not changing. The run's agent is its last checkpoint, or with
``checkpoint.average_last`` the mean of the weights of its newest ones. ``resume=True``
continues from the newest checkpoint: the model, its step count, the opponent pool and its
results.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from agents.base import SYMMETRIC, GameInfo
from agents.ppo import checkpoint
from agents.training.config import TrainConfig, config_from_dict, on_schedule
from agents.training.evaluate import EvalResult, evaluate
from agents.ppo.frozen_policy import FrozenPolicy
from agents.training.pool import OpponentPool, score_of
from agents.training.run_dir import RunDirectoryError, claim_run_dir
from agents.training.seeds import RunSeeds, eval_deal_seeds, periodic_eval_seed  # noqa: F401 - the error is part of this API

RECENT_GAMES = 500  # self-play results shown in the progress line and TensorBoard
PROGRESS_EVERY_S = 15.0
# what a resumed run may change: how long and how it runs, not what it learns from
RESUME_MAY_CHANGE = ("total_steps", "vec_env", "torch_threads", "eval.workers")


def default_run_dir(config_path: str | Path, config: TrainConfig) -> Path:
    """``runs/train/<config name>_seed<seed>``: the same place again for ``--resume``."""
    return Path("runs") / "train" / f"{Path(config_path).stem}_seed{config.seed}"


def train(config: TrainConfig, run_dir: str | Path, *, resume: bool = False, echo: Callable[[str], None] = print) -> Path:
    """Train (or resume) in ``run_dir``; returns the final checkpoint."""
    return Trainer(config, Path(run_dir), resume=resume, echo=echo).run()


class Trainer:
    def __init__(self, config: TrainConfig, run_dir: Path, *, resume: bool, echo: Callable[[str], None]):
        self.run_dir = run_dir
        self.echo = echo
        # one writer per run directory, until run() ends
        self._lock, self.config = claim_run_dir(
            run_dir, config, resume, reload=lambda data, source: config_from_dict(data, source=source),
            latest_checkpoint=checkpoint.latest, may_change=RESUME_MAY_CHANGE,
        )
        self.resume_from = checkpoint.latest(run_dir) if resume else None
        c = self.config
        self.seeds = RunSeeds(c.seed, avoid=eval_deal_seeds(c.eval.seed, c.eval.deals, c.eval.final_deals))
        import bluff_envs

        self.game = GameInfo.of(bluff_envs.make(c.game.name, raw=True, **c.game.options))
        # how its checkpoints play as the agent it trains: through the game's symmetry, if it learns so
        self.play_suffix = SYMMETRIC if c.learner.symmetric else ""
        self.pool = OpponentPool(
            c.opponents.fixed,
            c.opponents.sampling,
            latest_share=c.opponents.latest_share,
            self_play_share=c.opponents.self_play_share,
            pfsp_power=c.opponents.pfsp_power,
            max_snapshots=c.opponents.max_snapshots,
            results_window=c.opponents.results_window,
            tables=c.opponents.tables,
            table_share=c.opponents.table_share,
        )
        self.last_eval: EvalResult | None = None
        self.stop_requested = False

    # -- the run directory --------------------------------------------------------------------

    def _log_session(self, steps: int, env_seeds: list[int]) -> int:
        path = self.run_dir / "run.json"
        run = json.loads(path.read_text()) if path.exists() else {"seed": self.config.seed, "sessions": []}
        run["versions"] = checkpoint.library_versions()
        run["sessions"].append(
            {
                "started": _now(),
                "resumed_from": str(self.resume_from) if self.resume_from else None,
                "steps_at_start": steps,
                "env_seeds": env_seeds,
                "command": " ".join(sys.argv),
            }
        )
        path.write_text(json.dumps(run, indent=2))
        return len(run["sessions"])

    def say(self, line: str) -> None:
        self.echo(line)
        with open(self.run_dir / "train.log", "a") as log:
            log.write(f"{_now()} {line}\n")

    # -- training -------------------------------------------------------------------------------

    def run(self) -> Path:
        """Train to ``total_steps``; returns the run's agent. The run directory is free again
        when it returns or raises."""
        try:
            return self._run()
        finally:
            self._lock.close()

    def _run(self) -> Path:
        import torch

        c = self.config
        torch.set_num_threads(c.torch_threads)
        steps_done = 0
        if self.resume_from is not None:
            meta = checkpoint.read_metadata(self.resume_from)
            steps_done = meta["num_timesteps"]
            self._load_pool(self.resume_from)
        self._add_known_exploiters()
        trained = steps_done >= c.total_steps
        if trained and (self.run_dir / "result.json").exists():
            self.say(f"already trained {steps_done:,} of {c.total_steps:,} steps; nothing to do")
            return self._final_agent(self.resume_from)
        stale = self.run_dir / checkpoint.CHECKPOINTS / checkpoint.AVERAGE
        if stale.exists() and not trained:  # the mean of checkpoints this session goes beyond
            stale.unlink()
            self.say(f"removed {stale.name}, an average of fewer steps than the run will have")
        env_seeds = self.seeds.envs(steps_done, c.num_envs)  # a resumed run deals new games
        session = self._log_session(steps_done, env_seeds)
        venv = self._make_vec_env(env_seeds, steps_done)
        try:
            if self.resume_from is not None and checkpoint.is_legacy(self.resume_from):
                model = checkpoint.legacy_model(self.resume_from, venv)  # only with the trust switch
                self.say(f"resuming from {self.resume_from.name} (old format, trusted) at step {model.num_timesteps:,}")
            elif self.resume_from is not None:
                model = self._new_model(venv)
                checkpoint.restore(model, self.resume_from)
                self.say(f"resuming from {self.resume_from.name} at step {model.num_timesteps:,}")
            else:
                model = self._new_model(venv)
                self.say(f"training {c.game.name} for {c.total_steps:,} steps in {self.run_dir}")
            model.set_logger(self._logger(session))
            if self.resume_from is None and c.warm_start.teacher is not None:
                self._warm_start(model)
            if self.resume_from is None and c.eval.every:
                self.evaluate(model)  # where self-play starts from: the baseline of the curves
                model.logger.dump(model.num_timesteps)  # logged at step 0, not at the first rollout's end
            callback = SelfPlayCallback(self)
            started, steps_before = time.perf_counter(), model.num_timesteps
            self.learn_seconds = self.learn_steps = 0
            if trained:  # stopped between its last checkpoint and its result: only the final evaluation is left
                self.say(f"already trained {steps_done:,} of {c.total_steps:,} steps; the final evaluation is left")
            try:
                with self._stop_on_interrupt():
                    if not trained:
                        model.learn(c.total_steps - model.num_timesteps, callback=callback, reset_num_timesteps=False)
                if self.stop_requested:
                    raise KeyboardInterrupt
                self.learn_seconds = time.perf_counter() - started
                self.learn_steps = model.num_timesteps - steps_before
            except KeyboardInterrupt:
                # the weights are those of the last rollout's end: save that state, so a resumed
                # run takes the same steps, checkpoints and evaluations as an uninterrupted one
                model.num_timesteps -= (model.rollout_buffer.pos + 1) * model.n_envs
                path = self.save(model, torch_rng=callback.torch_rng)
                self.say(f"interrupted; saved {path.name} at step {model.num_timesteps:,} (the last rollout's end); "
                         "continue with --resume")
                raise
            final = self._final_agent(self.resume_from if trained else self.save(model))
            result = self.evaluate(model, final=True, agent=final)
            model.logger.dump(model.num_timesteps)
            self._write_result(final, model.num_timesteps, result)
            return final
        finally:
            try:
                venv.close()
            except (EOFError, BrokenPipeError, ConnectionError):
                pass

    @contextmanager
    def _stop_on_interrupt(self):
        """Ctrl-C during learning asks the callback to stop at the next step (never in the
        middle of an update), instead of raising wherever the signal lands."""
        self.stop_requested = False
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def request_stop(signum, frame):
            if self.stop_requested:  # a second Ctrl-C: stop at once
                raise KeyboardInterrupt
            self.stop_requested = True
            self.say("interrupt: stopping at the next step to save a checkpoint (Ctrl-C again to abort)")

        previous = signal.signal(signal.SIGINT, request_stop)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)

    def _warm_start(self, model) -> None:
        from agents.ppo.warm_start import copied_policy, warm_start
        from agents.training.learner_env import LearnerEnv
        from agents.training.vector_learner import VectorLearnerEnv

        c, w = self.config, self.config.warm_start
        settings = self._env_settings()

        def make_env() -> LearnerEnv | VectorLearnerEnv:
            if c.engine == "vector":
                return VectorLearnerEnv(c.game.name, c.game.options, self.pool.payload(), num_envs=c.num_envs,
                                        seeds=self.seeds.warm_start_envs(c.num_envs), **settings)
            return LearnerEnv(c.game.name, c.game.options, self.pool.payload(), seed=self.seeds.warm_start_env(), **settings)

        # fine-tuning: the config checked the teacher's network; read here, it is checked again
        copy_from = copied_policy(w.teacher, self.game, c.network) if w.copy_weights else None
        fit = warm_start(model, make_env, w.teacher, w.decisions, w.epochs, w.batch_size, w.learning_rate, w.entropy_coef,
                         self.seeds.warm_start, self.say, dagger_rounds=w.dagger_rounds, freeze=lambda: self.frozen(model),
                         copy_from=copy_from, symmetry=self.game.symmetry if c.learner.symmetric else None)
        for key, value in fit.items():
            model.logger.record(f"warm_start/{key}", value)

    def _env_settings(self) -> dict[str, Any]:
        c = self.config
        settings = {
            "seat": c.learner.seat,
            "partner": c.learner.partner,
            "per_seat": c.opponents.per_seat,
            "shaping": c.learner.shaping,
            "shaping_gamma": c.ppo.gamma,
        }
        if c.league.exploiter_tables:
            settings["exploiter_tables"] = c.league.exploiter_tables
            settings["exploiter_table_draw"] = c.league.exploiter_table_draw
        if c.learner.symmetric:
            settings["symmetric_snapshots"] = True
        return settings

    def _make_vec_env(self, seeds: list[int], steps_done: int = 0):
        from stable_baselines3.common.vec_env import VecMonitor

        from agents.ppo.vec import make_vec_env
        from agents.training.vector_learner import VectorLearnerEnv

        c = self.config
        if c.engine == "vector":
            venv = VectorLearnerEnv(c.game.name, c.game.options, self.pool.payload(), num_envs=c.num_envs,
                                    seeds=seeds, first_seat=0, **self._env_settings())
            if c.learner.symmetric:  # it sees every decision relabelled (the config allows it on this engine only)
                from agents.training.symmetric_learner import SymmetricLearner

                venv = SymmetricLearner(venv, self.game.symmetry, seed=self.seeds.symmetry(steps_done))
            return VecMonitor(venv)
        return make_vec_env(
            c.game.name,
            c.game.options,
            self.pool.payload(),
            num_envs=c.num_envs,
            seeds=seeds,
            kind=c.vec_env,
            **self._env_settings(),
        )

    def _new_model(self, venv):
        import torch
        from sb3_contrib import MaskablePPO

        c, p = self.config, self.config.ppo
        activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[c.network.activation]
        return MaskablePPO(
            "MlpPolicy",
            venv,
            learning_rate=p.learning_rate,
            n_steps=p.n_steps,
            batch_size=p.batch_size,
            n_epochs=p.n_epochs,
            gamma=p.gamma,
            gae_lambda=p.gae_lambda,
            clip_range=p.clip_range,
            ent_coef=p.ent_coef,
            vf_coef=p.vf_coef,
            max_grad_norm=p.max_grad_norm,
            target_kl=p.target_kl,
            normalize_advantage=p.normalize_advantage,
            policy_kwargs=self._policy_kwargs(activation),
            seed=self.seeds.model(),
            device="cpu",
            verbose=0,
        )

    def _policy_kwargs(self, activation) -> dict:
        from agents.training.features import make_features
        from agents.training.focus import focus_pairs
        from agents.ppo.focus_extractor import FocusExtractor

        c = self.config
        kwargs = {"net_arch": {"pi": list(c.network.pi), "vf": list(c.network.vf)}, "activation_fn": activation}
        if c.network.focus or c.network.features:
            left, right = focus_pairs(self.game.layout, c.network.focus)
            features = make_features(self.game.name, self.game.layout, c.network.features)
            kwargs["features_extractor_class"] = FocusExtractor
            kwargs["features_extractor_kwargs"] = {"left": left.tolist(), "right": right.tolist(),
                                                   "features": None if features is None else features.to_dict()}
        return kwargs

    def _logger(self, session: int):
        from stable_baselines3.common.logger import CSVOutputFormat, Logger, TensorBoardOutputFormat

        logs = self.run_dir / "logs"
        logs.mkdir(exist_ok=True)
        # one TensorBoard folder for every session, so a resumed run continues the same curves
        return Logger(str(logs), [CSVOutputFormat(str(logs / f"progress_{session}.csv")), TensorBoardOutputFormat(str(logs))])

    # -- snapshots, checkpoints, evaluation ---------------------------------------------------

    def frozen(self, model) -> FrozenPolicy:
        return FrozenPolicy.from_sb3(model.policy, self.config.network.activation)

    def save(self, model, torch_rng=None) -> Path:
        c = self.config
        meta = {
            **checkpoint.game_metadata(self.game),
            "network": {"pi": list(c.network.pi), "vf": list(c.network.vf), "activation": c.network.activation,
                        "focus": {k: list(v) for k, v in c.network.focus.items()}, "features": list(c.network.features)},
            "config": c.to_dict(),
            checkpoint.SYMMETRIC: bool(c.learner.symmetric),  # it plays as it learned (ppo:<path>@plain: alone)
        }
        pool_json, pool_arrays = self.pool.state()
        extra = {"pool.json": pool_json.encode(), "pool.npz": checkpoint.npz_bytes(pool_arrays)}
        path = self.run_dir / checkpoint.CHECKPOINTS / checkpoint.checkpoint_name(model.num_timesteps)
        checkpoint.write(model, path, meta, self.frozen(model), extra, torch_rng=torch_rng)
        if c.checkpoint.keep:  # the newest `keep` of the schedule, and the newest of all (to resume from)
            found = sorted(path.parent.glob("step_*.zip"))
            kept = {*[p for p in found if self._scheduled(p)][-c.checkpoint.keep:], found[-1]}
            for old in found:
                if old not in kept:
                    old.unlink()
        return path

    def _scheduled(self, path: Path) -> bool:
        return on_schedule(self.config, checkpoint.steps_of(path))

    def _final_agent(self, last: Path) -> Path:
        """The run's agent: its last checkpoint ``last``, or with ``checkpoint.average_last`` the
        mean of the weights of that many newest checkpoints, written to ``checkpoints/average.zip``."""
        count = self.config.checkpoint.average_last
        if not count:
            return last
        from agents.ppo.average import average

        newest = [p for p in sorted(last.parent.glob("step_*.zip")) if self._scheduled(p)][-count:]
        if len(newest) < count:  # the config's check rules this out; a directory changed by hand does not
            raise RunDirectoryError(f"checkpoint.average_last: {count}, but {last.parent} holds {len(newest)} "
                                    "checkpoints of the schedule; allowed: at most as many as the run kept")
        path = average(newest, last.parent / checkpoint.AVERAGE)
        self.say(f"final agent {path.name}: the mean of {', '.join(p.name for p in newest)}")
        return path

    def _add_known_exploiters(self) -> None:
        """``league.known_exploiters`` join the pool as league exploiters (``exploiter@known<k>``),
        unless a resumed run's pool has them already."""
        from agents.ppo.agent import load

        for k, spec in enumerate(self.config.league.known_exploiters):
            member_id = f"exploiter@known{k}"
            if not any(m.id == member_id for m in self.pool.members):  # the policy a ppo: agent of the spec plays
                self.pool.add_snapshot(load(spec[len("ppo:"):].split("#", 1)[0], self.game).policy, 0, member_id)

    def _load_pool(self, path: Path) -> None:
        import io

        text = checkpoint.read_extra(path, "pool.json").decode()
        with np.load(io.BytesIO(checkpoint.read_extra(path, "pool.npz")), allow_pickle=False) as arrays:
            self.pool.load_state(text, dict(arrays))

    def evaluate(self, model, final: bool = False, agent: Path | None = None) -> EvalResult:
        """Play the evaluation field with ``agent``, by default the newest checkpoint (written
        first if need be)."""
        c = self.config
        path = agent or self.run_dir / checkpoint.CHECKPOINTS / checkpoint.checkpoint_name(model.num_timesteps)
        if not path.exists():
            path = self.save(model)
        deals = (c.eval.final_deals or c.eval.deals) if final else c.eval.deals
        # the final number on deals no periodic evaluation (and no training game) has used
        seed = c.eval.seed if final else periodic_eval_seed(c.eval.seed)
        started = time.perf_counter()
        result = evaluate(c.game.name, c.game.options, f"ppo:{path}{self.play_suffix}", c.eval.opponents, deals, seed,
                          c.eval.workers,
                          engine="auto" if c.engine == "vector" else "reference")
        self.last_eval = result
        logger = model.logger
        logger.record("eval/win_rate", result.win_rate)
        logger.record("eval/win_rate_low", result.win_interval[0])
        logger.record("eval/win_rate_high", result.win_interval[1])
        logger.record("eval/parity", result.parity)
        logger.record("eval/mean_reward", result.mean_reward)
        for key, value in result.behaviour.items():
            if value is not None:
                logger.record(f"eval/{key}", value)
        with open(self.run_dir / "evals.jsonl", "a") as out:
            out.write(json.dumps({"step": model.num_timesteps, "final": final, "time": _now(),
                                  **({"agent": path.name} if agent else {}), **result.to_dict()}) + "\n")
        which = f" ({path.name})" if agent else ""
        self.say(f"eval at step {model.num_timesteps:,}{which} vs {', '.join(c.eval.opponents)}: {result.summary()} "
                 f"({time.perf_counter() - started:.0f}s)")
        return result

    def _write_result(self, final: Path, steps: int, result: EvalResult) -> None:
        summary = {
            "game": self.config.game.name,
            "checkpoint": str(final),
            "steps": steps,
            "finished": _now(),
            "learn_seconds_this_session": round(self.learn_seconds, 1),
            "steps_per_second_this_session": round(self.learn_steps / self.learn_seconds, 1) if self.learn_steps else None,
            "eval": result.to_dict(),
        }
        (self.run_dir / "result.json").write_text(json.dumps(summary, indent=2))
        self.say(f"done: {steps:,} steps; final checkpoint {final}")


class SelfPlayCallback(BaseCallback):
    """Between rollouts: snapshots, pool probabilities, checkpoints, evaluations, progress.
    After every step: the learner's finished games go into the pool's results."""

    def __init__(self, trainer: Trainer):
        super().__init__()
        self.trainer = trainer
        self.recent_rewards: deque[float] = deque(maxlen=RECENT_GAMES)
        self.exploiter_scores: deque[float] = deque(maxlen=RECENT_GAMES)  # the exploiter's, at its table
        self.games = 0
        self.started = time.time()
        self.last_progress = 0.0
        self.torch_rng = None
        self.league_seen: set[int] = set()  # league marks already handled in this session

    def _on_training_start(self) -> None:
        self.steps_at_start = self.num_timesteps
        self.marks = {kind: self._mark(kind) for kind in ("snapshot", "checkpoint", "eval")}

    def _every(self, kind: str) -> int:
        c = self.trainer.config
        return {"snapshot": c.opponents.snapshot_every, "checkpoint": c.checkpoint.every, "eval": c.eval.every}[kind]

    def _mark(self, kind: str) -> int:
        every = self._every(kind)
        return self.num_timesteps // every if every else 0

    def _due(self, kind: str) -> bool:
        if not self._every(kind) or self._mark(kind) <= self.marks[kind]:
            return False
        self.marks[kind] = self._mark(kind)
        return True

    def _on_rollout_start(self) -> None:
        import torch

        trainer, pool = self.trainer, self.trainer.pool
        league = trainer.config.league.every
        index = self.num_timesteps // league if league else 0
        if index and index not in self.league_seen:  # league training: the exploiter of this mark
            self.league_seen.add(index)
            if not any(m.id == f"exploiter@{index}" for m in pool.members):  # (a resumed run has it)
                from agents.ppo.league import train_exploiter

                pool.add_snapshot(train_exploiter(trainer, self.model, index), self.num_timesteps, f"exploiter@{index}")
                self.training_env.env_method("set_opponents", pool.payload())
        if self._due("snapshot"):
            pool.add_snapshot(trainer.frozen(self.model), self.num_timesteps)
            self.training_env.env_method("set_opponents", pool.payload())
        elif pool.sampling == "pfsp":
            self.training_env.env_method("set_opponents", {"probabilities": pool.probabilities().tolist()})
        if self._due("checkpoint"):
            trainer.save(self.model)
        if self._due("eval"):
            trainer.evaluate(self.model)
        self.torch_rng = torch.get_rng_state()  # what an interrupted run saves: this rollout's start

    def _on_step(self) -> bool:
        if self.trainer.stop_requested:
            return False
        for info, done in zip(self.locals["infos"], self.locals["dones"]):
            if done and "selfplay" in info:
                game = info["selfplay"]
                self.trainer.pool.record(game["opponents"], game["reward"])
                self.recent_rewards.append(game["reward"])
                self.games += 1
                if "exploiter_table" in game:
                    self.exploiter_scores.append(score_of(game["exploiter_table"]["reward"]))
        return True

    def _on_rollout_end(self) -> None:
        logger, pool = self.logger, self.trainer.pool
        if self.recent_rewards:
            rewards = np.array(self.recent_rewards)
            logger.record("selfplay/win_rate", float(np.mean(rewards > 0)))
            logger.record("selfplay/mean_reward", float(rewards.mean()))
        logger.record("selfplay/games", self.games)
        if self.exploiter_scores:
            logger.record("league/exploiter_table_score", float(np.mean(self.exploiter_scores)))
        logger.record("pool/members", len(pool.members))
        for member, p in zip(pool.members, pool.probabilities()):
            logger.record(f"pool/score/{member.id}", pool.score(member.id))
            logger.record(f"pool/probability/{member.id}", float(p))
        now = time.time()
        if now - self.last_progress >= PROGRESS_EVERY_S:
            self.last_progress = now
            self.trainer.say(self.progress_line(now))

    def progress_line(self, now: float) -> str:
        c = self.trainer.config
        steps, total = self.num_timesteps, c.total_steps
        elapsed = now - self.started
        rate = (steps - self.steps_at_start) / elapsed if elapsed > 0 else 0.0
        eta = (total - steps) / rate if rate > 0 else float("inf")
        line = f"[{c.game.name}] {steps:,}/{total:,} steps ({steps / total:.0%})  {rate:,.0f} steps/s  elapsed {_duration(elapsed)}  ETA {_duration(eta)}"
        if self.recent_rewards:
            line += f"  self-play win {np.mean(np.array(self.recent_rewards) > 0):.0%} (last {len(self.recent_rewards)})"
        if self.exploiter_scores:
            line += f"  exploiter at its table {np.mean(self.exploiter_scores):.0%} (last {len(self.exploiter_scores)})"
        if self.trainer.last_eval is not None:
            line += f"  eval win {self.trainer.last_eval.win_rate:.0%}"
        return line


def _duration(seconds: float) -> str:
    if not np.isfinite(seconds):
        return "?"
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
