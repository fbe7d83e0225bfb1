"""League training: a population in the spirit of AlphaStar's league, grown during training.

With ``league.every: K`` in a training config, every ``K`` steps of the main agent training
stops between two rollouts and an **exploiter** is trained (``league.exploiter_steps``, the
main config's network, PPO settings and warm start, in ``<run>/league/exploiter_<k>/``; with
``league.exploiter_teachers`` its warm start clones the next of them instead, so that the
exploiters come from several starts), in turn by ``league.kinds``:

* a **main exploiter** against frozen copies of the main agent as it stands (AlphaStar's main
  exploiters: they find the main agent's current weaknesses);
* a **league exploiter** against the whole population: the fixed agents and tables, the main
  agent's snapshots and the earlier exploiters, drawn by PFSP (they find what the population as
  a whole misses).

Its final policy then joins the main agent's opponent pool (``exploiter@<step>``), where PFSP
draws the members the main agent does worst against most often: the main agent must learn to
beat its exploiters, not only the field. The population lives in ``<run>/league/``: every
member the league exploiters play is written there as a small checkpoint (policy and metadata).

With ``league.exploiter_tables: s`` (games without partnerships), a share s
of the main agent's games is played at **the exploiter's table**, the line-up ``bluff exploit``
measures: the newest exploiter (``league.exploiter_table_draw: all``: one of all the exploiters,
alike) in one other seat, the main agent's newest snapshot in the rest, and the main agent
rewarded with its copies' mean, minus the exploiter's reward over n − 1
(:mod:`agents.training.learner_env`). Against a table of copies a best response needs only
one of them to lose, and a seat that wins for itself lets it; rewarded as the copies together,
the main agent learns what denies the exploiter, not only what saves its own seat. The
progress line and ``league/exploiter_table_score`` give the exploiter's score there.

Resuming: an exploiter whose run did not finish is resumed from its own checkpoint before the
main agent goes on, so an interrupted league run continues as an uninterrupted one would.
"""

from __future__ import annotations

import dataclasses
import json
import zipfile
from pathlib import Path

from agents.ppo import checkpoint
from agents.ppo.frozen_policy import FrozenPolicy

LEAGUE = "league"


def exploiter_dir(run_dir: Path, index: int) -> Path:
    return run_dir / LEAGUE / f"exploiter_{index:03d}"


def finished(run_dir: Path, index: int) -> bool:
    return (exploiter_dir(run_dir, index) / "result.json").is_file()


def write_member(path: Path, meta: dict, policy: FrozenPolicy) -> Path:
    """A population member as a playable checkpoint: metadata and policy only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(checkpoint.FOLDER + "metadata.json", json.dumps(meta, indent=2))
        archive.writestr(checkpoint.FOLDER + "policy.npz", checkpoint.npz_bytes(policy.to_arrays()))
    tmp.replace(path)
    return path


def train_exploiter(trainer, model, index: int) -> FrozenPolicy:
    """Train (or resume, or read back) exploiter ``index`` of ``trainer``'s league; returns its
    final policy."""
    from agents.training.exploit import exploiter_config

    c, run_dir = trainer.config, trainer.run_dir
    kinds = c.league.kinds
    kind = kinds[(index - 1) % len(kinds)]
    where = exploiter_dir(run_dir, index)
    meta = {**checkpoint.game_metadata(trainer.game), "format": checkpoint.FORMAT,
            "num_timesteps": int(model.num_timesteps), "network": {"pi": list(c.network.pi), "vf": list(c.network.vf),
                                                                   "activation": c.network.activation},
            "config": c.to_dict()}
    if not finished(run_dir, index):
        population = run_dir / LEAGUE / f"population_{index:03d}"
        learner_meta = {**meta, checkpoint.SYMMETRIC: bool(c.learner.symmetric)}
        main = write_member(population / "main.zip", learner_meta, trainer.frozen(model))
        played = trainer.play_suffix  # the main agent and its snapshots play as it learns (learner.symmetric)
        if kind == "main":
            opponents = [f"ppo:{main}{played}"]
        else:
            opponents = list(c.opponents.fixed) + [f"ppo:{main}{played}"]
            for member in trainer.pool.snapshots:
                path = write_member(population / f"{member.id.replace('@', '_')}.zip",
                                    learner_meta if member.is_learner else {**meta, checkpoint.SYMMETRIC: False},
                                    member.policy)
                opponents.append(f"ppo:{path}{played if member.is_learner else ''}")
        recipe = c.replace(league=type(c.league)())
        teachers = c.league.exploiter_teachers
        if teachers:  # the exploiter clones its own teacher, in turn, copying no weights
            teacher = teachers[(index - 1) % len(teachers)]
            recipe = recipe.replace(warm_start=dataclasses.replace(c.warm_start, teacher=teacher, copy_weights=False))
        config = exploiter_config(recipe, opponents, seed=c.seed * 1000 + index,
                                  steps=c.league.exploiter_steps, eval_opponents=[f"ppo:{main}{played}"])
        if kind == "league":
            config = config.replace(opponents=dataclasses.replace(config.opponents, sampling="pfsp",
                                                                  tables=c.opponents.tables))
        trainer.say(f"league: exploiter {index} ({kind} exploiter) trains {c.league.exploiter_steps:,} steps "
                    f"against {len(opponents)} member(s)")
        # the main run's own Trainer class trains it (no import of agents.ppo.train: no circle)
        type(trainer)(config, where, resume=(where / checkpoint.CHECKPOINTS).is_dir(), echo=lambda line: None).run()
    result = json.loads((where / "result.json").read_text())
    ev = result["eval"]
    trainer.say(f"league: exploiter {index} ({kind}) wins {ev['win_rate']:.1%} against the main agent "
                f"(parity {ev['parity']:.1%})")
    return checkpoint.read_policy(Path(result["checkpoint"]))
