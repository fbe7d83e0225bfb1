"""Checkpoints: a zip of JSON, NumPy arrays and tensors — nothing in it is unpickled.

A checkpoint holds, in its ``bluff_envs/`` folder:

* ``metadata.json``: the game, its env version and options, the action names, the observation
  layout (field names and sizes), the network, the step count, the training config and the
  library versions;
* ``policy.npz``: the actor frozen into numpy arrays (:class:`FrozenPolicy`), so that a
  ``ppo:<checkpoint>`` agent plays without PyTorch (read with ``allow_pickle=False``);
* ``model.pt``: what resuming needs: the SB3 policy's and its optimizer's state dicts and the
  torch generator's state, plain tensors and numbers read back with
  ``torch.load(weights_only=True)``; ``training.json``: the step and update counters;
* ``pool.json`` / ``pool.npz``: the self-play opponent pool, for resuming.

Checkpoints are written to a temporary file and renamed, so an interrupted save never leaves a
broken "latest" checkpoint behind. Checkpoints of the first format (``.../1``: SB3's own
``model.save`` zip, which pickles) still play; resuming from one unpickles it and needs the
trust switch (:mod:`agents.trust`), after which the run continues in this format.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import platform
import zipfile
from datetime import datetime, timezone
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any

import numpy as np

import bluff_envs
from agents.base import GameInfo
from agents.ppo.frozen_policy import FrozenPolicy

FORMAT = "bluff_envs.ppo_checkpoint/2"
LEGACY_FORMAT = "bluff_envs.ppo_checkpoint/1"  # SB3's pickling zip: plays, resumes only if trusted
FOLDER = "bluff_envs/"
CHECKPOINTS = "checkpoints"  # inside a run directory
AVERAGE = "average.zip"  # in CHECKPOINTS: the final agent of a run that averages (checkpoint.average_last)
_LIBRARIES = ("bluff_envs", "numpy", "gymnasium", "pettingzoo", "torch", "stable_baselines3", "sb3_contrib")


def env_version(game_name: str) -> str:
    """The environment module's versioned name, e.g. ``"i_doubt_it_v0"``."""
    return bluff_envs.game_module(game_name).raw_env.metadata["name"]


def game_metadata(game: GameInfo) -> dict[str, Any]:
    """What a policy was trained on: a checkpoint plays only where all of this is the same."""
    return {
        "game": game.name,
        "env_version": env_version(game.name),
        "options": _plain(dataclasses.asdict(game.config)),
        "num_players": game.num_players,
        "action_names": list(game.action_names),
        "observation_layout": [[name, sl.stop - sl.start] for name, sl in game.layout.items()],
        "observation_size": game.layout.size,
    }


def library_versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for name in _LIBRARIES:
        try:
            versions[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def check_compatible(meta: dict[str, Any], game: GameInfo, source: str = "checkpoint") -> int:
    """``ValueError`` naming every difference between what ``source`` was trained on and ``game``.

    One difference is allowed: options that change only the observation (``Option.observation_only``,
    e.g. Believe It or Not's ``call_record``) where the game's observation appends fields to the
    checkpoint's. Returns how many entries it appends (0: the same observation); the policy reads
    them through zero weights (:meth:`FrozenPolicy.with_observation`)."""
    if meta.get("format") not in (FORMAT, LEGACY_FORMAT):
        raise ValueError(f"{source} is not a bluff_envs PPO checkpoint (format {meta.get('format')!r}, expected {FORMAT!r})")
    if meta["game"] != game.name:
        raise ValueError(f"{source} was trained on {meta['game']!r} and cannot play {game.name!r}")
    here = game_metadata(game)
    declared = type(game.config).OPTIONS
    observation_only = {o.name for o in declared if o.observation_only}
    # an option added after the checkpoint was saved: it was trained as the option's default plays
    added = {o.name: _plain(o.default) for o in declared if o.name not in meta["options"] and not callable(o.default)}
    problems, appended = [], []  # appended: observation-only options that differ
    if meta["env_version"] != here["env_version"]:
        problems.append(f"env version {meta['env_version']} (this installation has {here['env_version']})")
    trained, now = {**added, **meta["options"]}, here["options"]
    for key in sorted(set(trained) | set(now)):
        if trained.get(key, "<absent>") != now.get(key, "<absent>"):
            difference = f"option {key}={trained.get(key, '<absent>')!r} (this game has {now.get(key, '<absent>')!r})"
            (appended if key in observation_only else problems).append(difference)
    layout, extra = meta["observation_layout"], 0
    if appended and not problems:
        if len(layout) < len(here["observation_layout"]) and here["observation_layout"][: len(layout)] == layout:
            extra = here["observation_size"] - sum(size for _, size in layout)  # read through zero weights
            layout = here["observation_layout"]
        else:
            problems += [f"{d}, which takes away observation fields the checkpoint reads (an observation-only option "
                         "may add fields, never take them away)" for d in appended]
    if not problems:
        for key, value in (("action_names", meta["action_names"]), ("observation_layout", layout)):
            if value != here[key]:
                problems.append(f"{key.replace('_', ' ')} differs from this installation's")
    if problems:
        raise ValueError(f"{source} does not fit this {game.name} game: trained with " + "; ".join(problems))
    return extra


# -- writing ------------------------------------------------------------------------------


def write(model, path: Path, meta: dict[str, Any], policy: FrozenPolicy, extra: dict[str, bytes] | None = None,
          torch_rng=None) -> Path:
    """Save ``model`` with ``meta`` (completed with format, steps, versions, time) and ``policy``;
    ``torch_rng``: the generator state to save, if not the current one."""
    import torch

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "format": FORMAT,
        **meta,
        "num_timesteps": int(model.num_timesteps),
        "versions": library_versions(),
        "saved_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    state = io.BytesIO()
    torch.save(
        {"policy": model.policy.state_dict(), "optimizer": model.policy.optimizer.state_dict(),
         "torch_rng": torch.get_rng_state() if torch_rng is None else torch_rng},
        state,
    )
    counters = {"num_timesteps": int(model.num_timesteps), "n_updates": int(model._n_updates),
                "episode_num": int(model._episode_num)}
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(FOLDER + "metadata.json", json.dumps(meta, indent=2))
        archive.writestr(FOLDER + "policy.npz", npz_bytes(policy.to_arrays()))
        archive.writestr(FOLDER + "model.pt", state.getvalue())
        archive.writestr(FOLDER + "training.json", json.dumps(counters))
        for name, data in (extra or {}).items():
            archive.writestr(FOLDER + name, data)
    os.replace(tmp, path)
    return path


def restore(model, path: Path) -> None:
    """Load a checkpoint's weights, optimizer state, generator state and counters into
    ``model`` (a MaskablePPO built from the same config), reading tensors only."""
    import pickle

    import torch

    meta = read_metadata(path)
    if meta.get("format") == LEGACY_FORMAT:
        raise ValueError(f"{path} is a checkpoint of the old format: resume it with legacy_model()")
    try:
        state = torch.load(io.BytesIO(read_extra(path, "model.pt")), map_location="cpu", weights_only=True)
        counters = json.loads(read_extra(path, "training.json"))
        model.policy.load_state_dict(state["policy"])
        model.policy.optimizer.load_state_dict(state["optimizer"])
        torch.set_rng_state(state["torch_rng"])
        model.num_timesteps = int(counters["num_timesteps"])
        model._n_updates = int(counters["n_updates"])
        model._episode_num = int(counters["episode_num"])
    except (pickle.UnpicklingError, RuntimeError, KeyError, TypeError, ValueError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} cannot be resumed: its training state is damaged or foreign ({_short(error)})") from None


def legacy_model(path: Path, venv):
    """A MaskablePPO from a checkpoint of the first format (SB3's pickling zip): only with trust."""
    from sb3_contrib import MaskablePPO

    from agents.trust import require_pickle_trust

    require_pickle_trust(f"checkpoint {path} (the old format, SB3's model.save zip)")
    return MaskablePPO.load(path, env=venv, device="cpu")


def is_legacy(path: Path) -> bool:
    return read_metadata(path).get("format") == LEGACY_FORMAT


def _short(error: Exception, limit: int = 200) -> str:
    text = f"{type(error).__name__}: {error}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


# -- reading ------------------------------------------------------------------------------


def resolve(path: str | os.PathLike) -> Path:
    """A checkpoint file, or a run directory: its final agent (:func:`final`)."""
    path = Path(path).expanduser()
    if path.is_dir():
        found = final(path)
        if found is None:
            raise ValueError(f"no checkpoint in {path} (looked for {CHECKPOINTS}/*.zip)")
        return found
    if not path.is_file():
        raise ValueError(f"no checkpoint at {path}: no such file or run directory")
    return path


def final(run_dir: Path) -> Path | None:
    """A run directory's agent: the mean of its last checkpoints where the run averages them
    (``AVERAGE``, written at its end), else its newest checkpoint."""
    folder = Path(run_dir) / CHECKPOINTS
    averaged = (folder if folder.is_dir() else Path(run_dir)) / AVERAGE
    return averaged if averaged.is_file() else latest(run_dir)


def latest(run_dir: Path) -> Path | None:
    """The checkpoint with the most steps in a run directory (or a checkpoints folder)."""
    folder = Path(run_dir) / CHECKPOINTS
    if not folder.is_dir():
        folder = Path(run_dir)
    found = sorted(folder.glob("step_*.zip"))
    return found[-1] if found else None


def read_metadata(path: Path) -> dict[str, Any]:
    try:
        meta = json.loads(read_extra(path, "metadata.json"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: its metadata.json is not JSON ({_short(error)})") from None
    missing = [k for k in REQUIRED_METADATA if not isinstance(meta, dict) or k not in meta]
    if missing:
        raise ValueError(f"{path}: its metadata.json lacks {', '.join(missing)}; it is not a bluff_envs PPO checkpoint")
    if not isinstance(meta.get(SYMMETRIC, False), bool):
        raise ValueError(f"{path}: its metadata.json says {SYMMETRIC}: {str(meta[SYMMETRIC])[:40]!r}; allowed: true "
                         "(trained through the game's symmetry) or false")
    return meta


SYMMETRIC = "symmetric"  # metadata: the policy was trained through the game's symmetry


def plays_symmetric(meta: dict[str, Any]) -> bool:
    """Whether a checkpoint's policy plays through its game's symmetry by default
    (:mod:`agents.symmetric`): its metadata's ``symmetric``, written by training and by the
    league for its members; else (checkpoints written before that) its training config's
    ``learner.symmetric``. A network trained through the symmetry has met every decision
    relabelled; played alone it is another policy."""
    if SYMMETRIC in meta:  # read_metadata has checked it is a bool
        return meta[SYMMETRIC] is True
    config = meta.get("config")
    learner = config.get("learner") if isinstance(config, dict) else None
    return isinstance(learner, dict) and learner.get("symmetric") is True


REQUIRED_METADATA = ("format", "game", "env_version", "options", "action_names", "observation_layout", "num_timesteps")


def read_policy(path: Path) -> FrozenPolicy:
    try:
        with np.load(io.BytesIO(read_extra(path, "policy.npz")), allow_pickle=False) as arrays:
            return FrozenPolicy.from_arrays(dict(arrays))
    except ValueError as error:
        raise ValueError(f"{path}: its policy.npz is damaged or not a policy ({_short(error)})") from None


def read_extra(path: Path, name: str) -> bytes:
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.read(FOLDER + name)
    except zipfile.BadZipFile:
        raise ValueError(f"{path} is not a checkpoint (not a zip file)") from None
    except KeyError:
        raise ValueError(f"{path} is not a bluff_envs PPO checkpoint (it has no {FOLDER}{name})") from None


def has_extra(path: Path, name: str) -> bool:
    with zipfile.ZipFile(path) as archive:
        return FOLDER + name in archive.namelist()


def checkpoint_name(steps: int) -> str:
    return f"step_{steps:010d}.zip"


def steps_of(path: Path) -> int:
    """The step count in a checkpoint's name (:func:`checkpoint_name`)."""
    return int(Path(path).stem.split("_", 1)[1])


def _plain(value: Any) -> Any:
    """JSON's view of a value (tuples become lists), so saved and live options compare equal."""
    return json.loads(json.dumps(value))
