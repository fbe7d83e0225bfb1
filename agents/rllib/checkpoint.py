"""RLlib checkpoints of our runs: RLlib's own folder, with what it takes to trust and to play it.

A checkpoint is the folder ``Algorithm.save_to_path`` writes (enough to resume training), named
``step_<env steps>`` in the run's ``checkpoints/`` folder, with one file of ours added:
``bluff_envs.json`` (the game, its env version and options, the action names, the observation
layout, the module id, the step count, the training config and the library versions). The
policy itself is the RLModule in ``learner_group/learner/rl_module/<module id>``, which
``RLModule.from_checkpoint`` restores (see :mod:`agents.rllib.agent`).

A checkpoint is written to a temporary folder and renamed, so an interrupted save never leaves
a broken "latest" checkpoint behind.
"""

from __future__ import annotations

import json
import os
import shutil
from datetime import datetime, timezone
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

from agents.base import GameInfo
from agents.ppo.checkpoint import game_metadata, library_versions

FORMAT = "bluff_envs.rllib_checkpoint/1"
METADATA = "bluff_envs.json"
CHECKPOINTS = "checkpoints"  # inside a run directory
MODULE_ID = "shared"  # the one policy every learner seat plays
MODULE_PATH = ("learner_group", "learner", "rl_module")  # where RLlib keeps the modules


def checkpoint_name(steps: int) -> str:
    return f"step_{steps:010d}"


def versions() -> dict[str, str]:
    found = library_versions()
    try:
        found["ray"] = importlib_metadata.version("ray")
    except importlib_metadata.PackageNotFoundError:
        found["ray"] = "not installed"
    return found


def save(algo, folder: Path, steps: int, game: GameInfo, config: dict[str, Any]) -> Path:
    """Save ``algo`` as ``folder/step_<steps>`` with our metadata; returns the checkpoint."""
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / checkpoint_name(steps)
    tmp = folder / (final.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    algo.save_to_path(str(tmp.resolve()))
    meta = {
        "format": FORMAT,
        **game_metadata(game),
        "module_id": MODULE_ID,
        "num_env_steps": int(steps),
        "config": config,
        "versions": versions(),
        "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    (tmp / METADATA).write_text(json.dumps(meta, indent=2))
    shutil.rmtree(final, ignore_errors=True)
    os.replace(tmp, final)
    return final


def latest(run_dir: Path) -> Path | None:
    """The checkpoint with the most steps in a run directory (or in a checkpoints folder)."""
    folder = Path(run_dir) / CHECKPOINTS
    if not folder.is_dir():
        folder = Path(run_dir)
    found = sorted(p for p in folder.glob("step_*") if p.is_dir() and (p / METADATA).is_file())
    return found[-1] if found else None


def prune(run_dir: Path, keep: int) -> None:
    """Delete all but the ``keep`` newest checkpoints (``keep=0``: keep all)."""
    if keep <= 0:
        return
    found = sorted(p for p in (Path(run_dir) / CHECKPOINTS).glob("step_*") if (p / METADATA).is_file())
    for old in found[:-keep]:
        shutil.rmtree(old, ignore_errors=True)


def resolve(path: str | os.PathLike) -> Path:
    """A checkpoint folder, or a run directory (its newest checkpoint)."""
    path = Path(path).expanduser()
    if (path / METADATA).is_file():
        return path
    if path.is_dir():
        found = latest(path)
        if found is None:
            raise ValueError(f"no RLlib checkpoint in {path} (looked for {CHECKPOINTS}/step_*/{METADATA})")
        return found
    raise ValueError(f"no RLlib checkpoint at {path}: no such checkpoint folder or run directory")


def read_metadata(path: Path) -> dict[str, Any]:
    try:
        meta = json.loads((Path(path) / METADATA).read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} is not a bluff_envs RLlib checkpoint ({METADATA}: {error})") from None
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path} is not a bluff_envs RLlib checkpoint (format {meta.get('format')!r}, expected {FORMAT!r})")
    return meta


def module_path(path: Path, meta: dict[str, Any]) -> Path:
    return Path(path).joinpath(*MODULE_PATH, meta["module_id"])


def check_compatible(meta: dict[str, Any], game: GameInfo, source: str = "checkpoint") -> None:
    """``ValueError`` naming every difference between what ``source`` was trained on and ``game``
    (the same comparison as for ``ppo:`` checkpoints; :func:`read_metadata` checked the format)."""
    from agents.ppo import checkpoint as ppo_checkpoint

    ppo_checkpoint.check_compatible({**meta, "format": ppo_checkpoint.FORMAT}, game, source)
