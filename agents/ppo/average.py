"""One policy from several checkpoints of a run: the mean of their weights.

``bluff average CKPT CKPT … --out FILE``. A policy trained against a pool that keeps changing
does not settle: from one checkpoint to the next it moves its weak spots around, and an
exploiter of the last one finds whichever weak spot it has now (Seven Spades: one more step of
the same recipe took one seed's exploitability from +0.103 to +0.341 and the other's from +0.084
to +0.041). Fictitious play's answer is the *average* strategy, not the last. Checkpoints of one
run lie close together in weight space, so the mean of their weights (as in stochastic weight
averaging) is a policy between them; measured, it is harder to exploit than the last checkpoint
alone (README: Seven Spades' averaged table entries).

The result is a checkpoint that plays (``ppo:FILE``) and warm-starts (``copy_weights``) like any
other: the last checkpoint's metadata with ``averaged_from`` (each source's name, steps and
sha256) and the averaged ``policy.npz``. It has no training state, so it cannot be resumed.
Only checkpoints of one game, the same options and the same network are averaged.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.ppo import checkpoint


def average(sources: Sequence[str | os.PathLike], out: str | os.PathLike) -> Path:
    """Write to ``out`` the checkpoint whose policy weights are the mean of ``sources``' (at
    least two checkpoints, or run directories for their final agents); returns its path."""
    if len(sources) < 2:
        raise ValueError(f"average: give at least two checkpoints, not {len(sources)}")
    out = Path(out)
    if out.suffix != ".zip":
        raise ValueError(f"average: --out {out} must be a .zip file")
    paths = [checkpoint.resolve(source) for source in sources]
    if len(set(paths)) < len(paths):
        raise ValueError("average: a checkpoint is given twice: " + ", ".join(str(p) for p in paths))
    metas = [checkpoint.read_metadata(path) for path in paths]
    policies = [checkpoint.read_policy(path).to_arrays() for path in paths]
    last_meta, last = metas[-1], policies[-1]
    for path, meta, arrays in zip(paths[:-1], metas, policies):
        _check_alike(path, meta, arrays, paths[-1], last_meta, last)
    averaged = {key: (np.mean([p[key] for p in policies], axis=0).astype(np.float32)
                      if _is_weight(key) else value)
                for key, value in last.items()}
    meta = {**last_meta, "averaged_from": [
        {"checkpoint": path.name, "num_timesteps": meta["num_timesteps"], "sha256": _sha256(path)}
        for path, meta in zip(paths, metas)]}
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(checkpoint.FOLDER + "metadata.json", json.dumps(meta, indent=2))
        archive.writestr(checkpoint.FOLDER + "policy.npz", checkpoint.npz_bytes(averaged))
    os.replace(tmp, out)
    return out


def _is_weight(key: str) -> bool:
    return key[:1] in ("w", "b") and key[1:].isdigit()


def _check_alike(path: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray], last_path: Path,
                 last_meta: dict[str, Any], last: dict[str, np.ndarray]) -> None:
    """``ValueError`` naming both files when ``path`` is not the same game, options and network
    as ``last_path``."""
    for key in ("game", "env_version", "options", "action_names", "observation_layout"):
        if meta.get(key) != last_meta.get(key):
            raise ValueError(f"average: {path} and {last_path} differ in {key} ({str(meta.get(key))[:80]} against "
                             f"{str(last_meta.get(key))[:80]}); only checkpoints of one game and options are averaged")
    if set(arrays) != set(last):
        raise ValueError(f"average: {path} and {last_path} are different networks (parts {sorted(arrays)} against "
                         f"{sorted(last)})")
    for key, value in arrays.items():
        same = value.shape == last[key].shape if _is_weight(key) else np.array_equal(value, last[key])
        if not same:
            raise ValueError(f"average: {path} and {last_path} are different networks (their {key} differ: "
                             f"{value.shape} against {last[key].shape}); only one network's checkpoints are averaged")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
