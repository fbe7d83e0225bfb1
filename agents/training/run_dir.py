"""Run directories: one writer at a time, and a training run claimed for a new run or a resumed
one. The lock is shared by every kind of run (training with MaskablePPO or RLlib, tournaments,
studies); the claim by ``bluff train`` for both algorithms."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml


class RunDirectoryError(ValueError):
    """The run directory does not fit the request (another run's, one being written, nothing to
    resume, …)."""


def inside(root: Path, *names: str, what: str = "name") -> Path:
    """``root / names[0] / …``, each name one plain path component taken from a config: never
    empty, ``.``, ``..``, absolute, or holding a path separator, so the result stays in ``root``.
    ``ValueError`` naming ``what`` otherwise."""
    path = Path(root)
    for name in names:
        text = str(name)
        if (not text or text in (".", "..") or "/" in text or "\\" in text or "\0" in text
                or text.startswith("~") or Path(text).is_absolute()):
            shown = text if len(text) <= 60 else text[:57] + "..."
            raise ValueError(
                f"{what} {shown!r} cannot name a directory: it must be one plain name (letters, digits, "
                "'_', '-', '.'), not a path, so that everything stays inside the run directory"
            )
        path = path / text
    return path


LOCK = ".lock"
_HELD: set[Path] = set()  # run directories this process writes to (record locks do not see those)


class RunLock:
    """``run_dir``'s lock, held until :meth:`close` (or the process ends, however it ends)."""

    def __init__(self, run_dir: Path, file):
        self.run_dir, self.file = run_dir, file

    def close(self) -> None:
        if not self.file.closed:
            self.file.close()
            _HELD.discard(self.run_dir)


def lock(run_dir: Path) -> RunLock:
    """Take ``run_dir``'s lock: a POSIX record lock, which belongs to this process alone (not to
    its forked workers) and goes with it, plus this process's own list. ``RunDirectoryError``
    if another run, in this process or another, is writing there."""
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    key = run_dir.resolve()
    busy = RunDirectoryError(f"another run is writing to {run_dir}; wait for it to end or choose another --out")
    if key in _HELD:
        raise busy
    held = (run_dir / LOCK).open("w")
    try:
        import fcntl

        fcntl.lockf(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except ImportError:  # not a POSIX system: this process's list only
        pass
    except OSError:
        held.close()
        raise busy from None
    _HELD.add(key)
    return RunLock(key, held)


@contextmanager
def exclusive(run_dir: Path) -> Iterator[None]:
    """One writer at a time in ``run_dir``, for the ``with`` block."""
    held = lock(run_dir)
    try:
        yield
    finally:
        held.close()


def claim_run_dir(run_dir: Path, config: Any, resume: bool, **checks: Any) -> tuple[RunLock, Any]:
    """Take the run directory's lock, then :func:`prepare_run_dir` it (``checks`` are that
    function's keywords); the lock is released again if the directory does not fit."""
    held = lock(run_dir)
    try:
        return held, prepare_run_dir(Path(run_dir), config, resume, **checks)
    except BaseException:
        held.close()
        raise


def prepare_run_dir(run_dir: Path, config: Any, resume: bool, *, reload: Callable[[Any, str], Any],
                    latest_checkpoint: Callable[[Path], Path | None], may_change: tuple[str, ...]) -> Any:
    """Write ``config`` to ``run_dir/config.yaml`` and return it. A resumed run must keep the
    saved config except for the keys in ``may_change`` (``reload`` parses the saved one); a
    new run must not land in a directory that already holds checkpoints."""
    saved = run_dir / "config.yaml"
    if resume and latest_checkpoint(run_dir) is None:
        raise RunDirectoryError(
            f"nothing to resume in {run_dir}: it holds no checkpoint; start the run without --resume"
        )
    if resume and saved.exists():
        before = reload(yaml.safe_load(saved.read_text()), str(saved))
        differences = [k for k in differences_between(before.to_dict(), config.to_dict()) if k not in may_change]
        if differences:
            raise RunDirectoryError(
                f"{run_dir} was started with another config ({', '.join(differences)} differ); "
                "resume it with the same config, or train into another --out directory"
            )
    elif not resume and latest_checkpoint(run_dir) is not None:
        raise RunDirectoryError(f"{run_dir} already holds a training run; pass --resume to continue it, or choose another --out")
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
