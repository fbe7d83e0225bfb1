"""Nothing a checkpoint holds is unpickled by default: planted payloads never run.

Each test plants a payload that would create a marker file if it were unpickled, in every
place of a checkpoint that is read, and checks that loading fails with a clear error while the
marker never appears.
"""

from __future__ import annotations

import base64
import io
import json
import pickle
import zipfile

import numpy as np
import pytest

import bluff_envs
from agents import GameInfo, make_agent
from agents.ppo import checkpoint
from agents.ppo.train import Trainer
from agents.training.config import config_from_dict
from agents.trust import UntrustedFileError
from tests.agents.ppo.test_train import TINY


class Payload:
    """Unpickling this creates ``marker``: the proof that code from a file ran."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def replaced(source, target, name, data, meta_changes=None):
    """A copy of checkpoint ``source`` with member ``name`` (under bluff_envs/ unless it has a
    slash) replaced by ``data``."""
    full = name if "/" in name or name == "data" else checkpoint.FOLDER + name
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w") as out:
        for item in src.infolist():
            if item.filename == full:
                continue
            content = src.read(item)
            if meta_changes and item.filename == checkpoint.FOLDER + "metadata.json":
                content = json.dumps({**json.loads(content), **meta_changes}).encode()
            out.writestr(item, content)
        out.writestr(full, data)
    return target


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("safe")
    config = {**TINY, "vec_env": "dummy", "total_steps": 512, "warm_start": {}, "opponents": {"fixed": ["honest"], "snapshot_every": 256},
              "checkpoint": {"every": 256, "keep": 0}}
    Trainer(config_from_dict(config), run_dir, resume=False, echo=lambda line: None).run()
    return run_dir, config


def resume(run_dir, config):
    return Trainer(config_from_dict({**config, "total_steps": 1024}), run_dir, resume=True, echo=lambda line: None).run()


def fresh_run_with(run, tmp_path, name, data, meta_changes=None):
    """A copy of the run directory whose newest checkpoint has ``name`` replaced."""
    import shutil

    source_dir, config = run
    target = tmp_path / "run"
    shutil.copytree(source_dir, target)
    newest = checkpoint.latest(target)
    for other in (target / checkpoint.CHECKPOINTS).glob("*.zip"):
        if other != newest:
            other.unlink()
    planted = replaced(newest, tmp_path / "planted.zip", name, data, meta_changes)
    planted.replace(newest)
    return target, config, newest


def test_the_checkpoint_format_holds_no_pickles(run):
    newest = checkpoint.latest(run[0])
    with zipfile.ZipFile(newest) as archive:
        names = set(archive.namelist())
    assert names == {checkpoint.FOLDER + n for n in ("metadata.json", "policy.npz", "model.pt", "training.json", "pool.json", "pool.npz")}
    assert checkpoint.read_metadata(newest)["format"] == checkpoint.FORMAT


def test_a_payload_in_the_training_state_does_not_run_on_resume(run, tmp_path):
    marker = tmp_path / "pwned"
    target, config, _ = fresh_run_with(run, tmp_path, "model.pt", pickle.dumps({"policy": Payload(marker)}))
    with pytest.raises(ValueError, match="cannot be resumed: its training state is damaged or foreign"):
        resume(target, config)
    assert not marker.exists()


def test_an_old_format_checkpoint_with_a_payload_needs_the_trust_switch(run, tmp_path, monkeypatch):
    marker = tmp_path / "pwned"
    blob = base64.b64encode(pickle.dumps(Payload(marker))).decode()
    data = json.dumps({"policy_class": {":type:": "<class 'type'>", ":serialized:": blob}})
    target, config, _ = fresh_run_with(run, tmp_path, "data", data, {"format": checkpoint.LEGACY_FORMAT})
    monkeypatch.delenv("BLUFF_TRUST_PICKLE", raising=False)
    with pytest.raises(UntrustedFileError, match="old format.*runs any code stored in the file.*BLUFF_TRUST_PICKLE=1"):
        resume(target, config)
    assert not marker.exists()


def test_a_payload_in_the_policy_arrays_does_not_run_when_played(run, tmp_path):
    marker = tmp_path / "pwned"
    buffer = io.BytesIO()
    np.save(buffer, np.array([Payload(marker)], dtype=object), allow_pickle=True)
    arrays = io.BytesIO()
    with zipfile.ZipFile(arrays, "w") as npz:
        npz.writestr("w0.npy", buffer.getvalue())
    planted = replaced(checkpoint.latest(run[0]), tmp_path / "planted.zip", "policy.npz", arrays.getvalue())
    game = GameInfo.of(bluff_envs.make("i_doubt_it", raw=True))
    with pytest.raises(ValueError, match="policy.npz is damaged or not a policy"):
        make_agent(f"ppo:{planted}", game, 0)
    assert not marker.exists()


@pytest.mark.parametrize(
    "name, data, words",
    [
        ("metadata.json", b"{not json", "metadata.json is not JSON"),
        ("metadata.json", b'{"format": "bluff_envs.ppo_checkpoint/2"}', "metadata.json lacks game"),
    ],
)
def test_damaged_metadata_is_a_clear_error(run, tmp_path, name, data, words):
    planted = replaced(checkpoint.latest(run[0]), tmp_path / "planted.zip", name, data)
    with pytest.raises(ValueError, match=words):
        make_agent(f"ppo:{planted}", GameInfo.of(bluff_envs.make("i_doubt_it", raw=True)), 0)


def test_damaged_policy_arrays_are_refused_when_loaded(run, tmp_path):
    from agents.ppo.frozen_policy import FrozenPolicy

    policy = checkpoint.read_policy(checkpoint.latest(run[0]))
    arrays = policy.to_arrays()
    for change, words in (
        ({"b0": np.zeros(3, np.float32)}, "do not chain"),
        ({"w1": np.full_like(arrays["w1"], np.nan)}, "NaN or infinite"),
    ):
        with pytest.raises(ValueError, match=words):
            FrozenPolicy.from_arrays({**arrays, **change})
    missing = {k: v for k, v in arrays.items() if k != "b1"}
    with pytest.raises(ValueError, match="policy arrays lack b1"):
        FrozenPolicy.from_arrays(missing)


def test_resume_on_an_empty_directory_is_an_error(tmp_path, run):
    from agents.training.run_dir import RunDirectoryError

    with pytest.raises(RunDirectoryError, match="nothing to resume .* holds no checkpoint"):
        Trainer(config_from_dict(run[1]), tmp_path / "empty", resume=True, echo=lambda line: None)


def test_two_trainers_cannot_write_one_run_directory(tmp_path, run):
    from agents.training.run_dir import RunDirectoryError

    first = Trainer(config_from_dict(run[1]), tmp_path / "one", resume=False, echo=lambda line: None)
    with pytest.raises(RunDirectoryError, match="another run is writing to"):
        Trainer(config_from_dict(run[1]), tmp_path / "one", resume=False, echo=lambda line: None)
    first._lock.close()
