"""RLlib PPO training, from an :class:`~agents.rllib.config.RLlibTrainConfig` to a run directory.

A run directory holds::

    config.yaml        the resolved config (every default filled in)
    run.json           seed, library versions, one entry per session (start, resume)
    train.log          the progress lines (steps, speed, ETA, episode lengths)
    progress.jsonl     one line per RLlib iteration: steps, seconds, steps/s, returns
    checkpoints/       step_<env steps>/: RLlib checkpoints with our metadata (checkpoint.py)
    evals.jsonl        the final evaluation against the baselines (with eval.deals > 0)
    result.json        written at the end: final checkpoint, steps, evaluation

The algorithm is RLlib's PPO on its new API stack: :class:`~agents.rllib.env.CardGameMultiAgentEnv`
(every seat a learner sharing one policy, or one learning seat among ``opponents``) and
:class:`~agents.rllib.module.ActionMaskingPPOModule`. Each iteration samples
``ppo.train_batch_size`` env steps (with ``env_runners.num_env_runners`` Ray actors, or in this
process with 0) and updates the policy. ``resume=True`` restores the newest checkpoint (model,
optimizer, connector states, step count) and carries on.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from agents.base import GameInfo
from agents.rllib import checkpoint
from agents.rllib.checkpoint import MODULE_ID
from agents.rllib.config import RLlibTrainConfig, config_from_dict
from agents.training.run_dir import claim_run_dir

PROGRESS_EVERY_S = 15.0
RESUME_MAY_CHANGE = ("total_steps", "env_runners.num_env_runners", "ray.address", "ray.num_cpus", "eval.workers")


def default_run_dir(config_path: str | Path, config: RLlibTrainConfig) -> Path:
    """``runs/train/<config name>_seed<seed>``, as for ``bluff train``."""
    return Path("runs") / "train" / f"{Path(config_path).stem}_seed{config.seed}"


def ppo_config(config: RLlibTrainConfig):
    """RLlib's ``PPOConfig`` for a training config (the new API stack, one shared module)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from agents.rllib.env import CardGameMultiAgentEnv
    from agents.rllib.module import ActionMaskingPPOModule

    c, p = config, config.ppo
    module = RLModuleSpec(
        module_class=ActionMaskingPPOModule,
        model_config={"fcnet_hiddens": list(c.network.hiddens), "fcnet_activation": c.network.activation,
                      "head_fcnet_hiddens": [], "vf_share_layers": False},
    )
    env_config = {"game": c.game.name, "options": dict(c.game.options), "opponents": list(c.opponents)}
    return (
        PPOConfig()
        # RLlib's env check steps with unmasked random actions, which our games reject
        .environment(CardGameMultiAgentEnv, env_config=env_config, disable_env_checking=True)
        .env_runners(num_env_runners=c.env_runners.num_env_runners,
                     num_envs_per_env_runner=c.env_runners.num_envs_per_env_runner, num_cpus_per_env_runner=1)
        .multi_agent(policies={MODULE_ID}, policy_mapping_fn=_shared_policy, policies_to_train=[MODULE_ID])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={MODULE_ID: module}))
        .training(lr=p.learning_rate, train_batch_size_per_learner=p.train_batch_size,
                  minibatch_size=p.minibatch_size, num_epochs=p.num_epochs, gamma=p.gamma, lambda_=p.gae_lambda,
                  clip_param=p.clip_range, entropy_coeff=p.ent_coef, vf_loss_coeff=p.vf_coef,
                  grad_clip=p.max_grad_norm, grad_clip_by="global_norm")
        .debugging(seed=c.seed, log_level="ERROR")
    )


def _shared_policy(agent_id, episode=None, **kwargs) -> str:
    return MODULE_ID  # every learner seat plays (and trains) the same policy


def train(config: RLlibTrainConfig, run_dir: str | Path, *, resume: bool = False, echo: Callable[[str], None] = print) -> Path:
    """Train (or resume) in ``run_dir``; returns the final checkpoint."""
    return RLlibTrainer(config, Path(run_dir), resume=resume, echo=echo).run()


class RLlibTrainer:
    def __init__(self, config: RLlibTrainConfig, run_dir: Path, *, resume: bool, echo: Callable[[str], None] = print):
        self.run_dir = Path(run_dir)
        self.echo = echo
        # one writer per run directory, until run() ends
        self._lock, self.config = claim_run_dir(
            self.run_dir, config, resume, reload=lambda data, source: config_from_dict(data, source=source),
            latest_checkpoint=checkpoint.latest, may_change=RESUME_MAY_CHANGE,
        )
        self.resume_from = checkpoint.latest(self.run_dir) if resume else None
        import bluff_envs

        self.game = GameInfo.of(bluff_envs.make(config.game.name, raw=True, **config.game.options))
        self.steps_per_second: float | None = None  # of the last session's sampling and learning

    # -- the run directory ----------------------------------------------------------------

    def say(self, line: str) -> None:
        self.echo(line)
        with open(self.run_dir / "train.log", "a") as log:
            log.write(f"{_now()} {line}\n")

    def _log_session(self, steps: int) -> None:
        path = self.run_dir / "run.json"
        run = json.loads(path.read_text()) if path.exists() else {"seed": self.config.seed, "sessions": []}
        run["versions"] = checkpoint.versions()
        run["sessions"].append({"started": _now(), "resumed_from": str(self.resume_from) if self.resume_from else None,
                                "steps_at_start": steps, "command": " ".join(sys.argv)})
        path.write_text(json.dumps(run, indent=2))

    # -- training -------------------------------------------------------------------------

    def run(self) -> Path:
        c = self.config
        steps = 0
        if self.resume_from is not None:
            steps = checkpoint.read_metadata(self.resume_from)["num_env_steps"]
            if steps >= c.total_steps:
                self.say(f"already trained {steps:,} of {c.total_steps:,} steps; nothing to do")
                return self.resume_from
        self._log_session(steps)
        ray, own_ray = _start_ray(c)
        algo = None
        try:
            algo = ppo_config(c).build_algo()
            if self.resume_from is not None:
                from agents.trust import require_pickle_trust

                require_pickle_trust(f"RLlib checkpoint {self.resume_from}")  # RLlib's state is pickled
                algo.restore_from_path(str(self.resume_from.resolve()))
                self.say(f"resuming from {self.resume_from.name} at step {steps:,}")
            else:
                self.say(f"training {c.game.name} with RLlib PPO for {c.total_steps:,} env steps in {self.run_dir}")
            try:
                steps = self._iterate(algo, steps)
            except KeyboardInterrupt:
                path = self._save(algo, steps)
                self.say(f"interrupted at step {steps:,}; saved {path.name}; continue with --resume")
                raise
            final = self._save(algo, steps)
        finally:
            if algo is not None:
                algo.stop()
            if own_ray:
                ray.shutdown()
            self._lock.close()
        evaluation = self._evaluate(final, steps)
        (self.run_dir / "result.json").write_text(json.dumps(
            {"final_checkpoint": str(final), "steps": steps, "steps_per_second": self.steps_per_second,
             "evaluation": evaluation, "finished": _now()}, indent=2))
        return final

    def _iterate(self, algo, steps: int) -> int:
        c = self.config
        start_steps, started, shown = steps, time.perf_counter(), 0.0
        next_checkpoint = (steps // c.checkpoint.every + 1) * c.checkpoint.every
        with open(self.run_dir / "progress.jsonl", "a") as progress:
            while steps < c.total_steps:
                result = algo.train()
                runners = result.get("env_runners", {})
                steps += int(runners.get("num_env_steps_sampled", 0))
                elapsed = time.perf_counter() - started
                self.steps_per_second = (steps - start_steps) / elapsed if elapsed > 0 else None
                line = {"steps": steps, "iteration": int(result.get("training_iteration", 0)), "seconds": round(elapsed, 2),
                        "steps_per_second": self.steps_per_second, "episodes": _number(runners.get("num_episodes")),
                        "episode_len_mean": _number(runners.get("episode_len_mean")),
                        "return_mean": _number(runners.get("module_episode_returns_mean", {}).get(MODULE_ID))}
                progress.write(json.dumps(line) + "\n")
                progress.flush()
                if steps >= next_checkpoint and steps < c.total_steps:
                    self._save(algo, steps)
                    next_checkpoint = (steps // c.checkpoint.every + 1) * c.checkpoint.every
                if time.perf_counter() - shown >= PROGRESS_EVERY_S or steps >= c.total_steps:
                    shown = time.perf_counter()
                    self.say(_progress_line(line, c.total_steps))
        return steps

    def _save(self, algo, steps: int) -> Path:
        path = checkpoint.save(algo, self.run_dir / checkpoint.CHECKPOINTS, steps, self.game, self.config.to_dict())
        checkpoint.prune(self.run_dir, self.config.checkpoint.keep)
        return path

    def _evaluate(self, final: Path, steps: int) -> dict[str, Any] | None:
        e = self.config.eval
        if not e.deals:
            return None
        from agents.training.evaluate import evaluate

        result = evaluate(self.game.name, dict(self.config.game.options), f"rllib:{final}", list(e.opponents),
                          e.deals, e.seed, e.workers)
        self.say(f"evaluation at step {steps:,} against {', '.join(e.opponents)}: {result.summary()}")
        entry = {"steps": steps, "checkpoint": str(final), **result.to_dict()}
        with open(self.run_dir / "evals.jsonl", "a") as evals:
            evals.write(json.dumps(entry) + "\n")
        return entry


def _start_ray(config: RLlibTrainConfig):
    """``(ray, whether we started it)``: the running Ray instance of this process if there is one,
    else the cluster at ``ray.address``, else a local instance of ``ray.num_cpus`` CPUs."""
    try:
        import ray
    except ImportError:
        raise ImportError('RLlib training needs Ray: pip install -e ".[ray]"') from None
    if ray.is_initialized():
        return ray, False
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if config.ray.address is None and config.ray.num_cpus is not None:
        options["num_cpus"] = config.ray.num_cpus
    # no address: a local instance of its own, never a cluster that happens to run on this machine
    ray.init(address=config.ray.address or "local", **options)
    return ray, True


def _number(value) -> float | None:
    """A metric as a plain float (RLlib reports numpy scalars), or None when absent."""
    return None if value is None else float(value)


def _progress_line(line: dict[str, Any], total: int) -> str:
    rate = line["steps_per_second"]
    eta = max(0, total - line["steps"]) / rate if rate else float("nan")
    parts = [f"step {line['steps']:,}/{total:,}", f"{rate:,.0f} steps/s" if rate else "", f"ETA {eta / 60:.1f} min"]
    if line.get("episode_len_mean") is not None:
        parts.append(f"episode length {line['episode_len_mean']:.0f}")
    return "  ".join(p for p in parts if p)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
