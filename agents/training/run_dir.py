"""A training run directory, claimed for a new run or a resumed one; shared by ``bluff train``
for MaskablePPO and for RLlib."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml


class RunDirError(ValueError):
    """The run directory does not fit the request (another run's, a finished run, …)."""


def prepare_run_dir(run_dir: Path, config: Any, resume: bool, *, reload: Callable[[Any, str], Any],
                    latest_checkpoint: Callable[[Path], Path | None], may_change: tuple[str, ...]) -> Any:
    """Write ``config`` to ``run_dir/config.yaml`` and return it. A resumed run must keep the
    saved config except for the keys in ``may_change`` (``reload`` parses the saved one); a
    new run must not land in a directory that already holds checkpoints."""
    saved = run_dir / "config.yaml"
    if resume and saved.exists():
        before = reload(yaml.safe_load(saved.read_text()), str(saved))
        differences = [k for k in differences_between(before.to_dict(), config.to_dict()) if k not in may_change]
        if differences:
            raise RunDirError(
                f"{run_dir} was started with another config ({', '.join(differences)} differ); "
                "resume it with the same config, or train into another --out directory"
            )
    elif not resume and latest_checkpoint(run_dir) is not None:
        raise RunDirError(f"{run_dir} already holds a training run; pass --resume to continue it, or choose another --out")
    run_dir.mkdir(parents=True, exist_ok=True)
    saved.write_text(yaml.safe_dump(config.to_dict(), sort_keys=False))
    return config


def differences_between(a: Any, b: Any, prefix: str = "") -> list[str]:
    """The dotted keys whose values differ between two nested mappings."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in sorted(set(a) | set(b)):
            out += differences_between(a.get(key), b.get(key), f"{prefix}{key}.")
        return out
    return [] if a == b else [prefix.rstrip(".")]
