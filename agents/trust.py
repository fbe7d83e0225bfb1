"""The one switch that allows loading files whose format runs code (Python's pickle).

Nothing the library loads by default unpickles: PPO checkpoints are JSON, NumPy arrays (read
with ``allow_pickle=False``) and tensors (read with ``torch.load(weights_only=True)``). Two
formats need pickle, and load only when the user says he trusts the file: RLlib checkpoints
(``RLModule.from_checkpoint`` unpickles the module's class) and PPO checkpoints written before
the pickle-free format (SB3's ``model.save`` zip). The switch is the environment variable
``BLUFF_TRUST_PICKLE=1`` or the ``--trust-pickle`` flag of the ``bluff`` commands.
"""

from __future__ import annotations

import os

ENV_VAR = "BLUFF_TRUST_PICKLE"


class UntrustedFileError(ValueError):
    """A file that can only be loaded by running code stored in it, and no trust was given."""


def pickle_trusted() -> bool:
    return os.environ.get(ENV_VAR, "") in ("1", "true", "yes")


def trust_pickle(on: bool = True) -> None:
    """Set the switch for this process and the workers it starts (``--trust-pickle``)."""
    if on:
        os.environ[ENV_VAR] = "1"
    else:
        os.environ.pop(ENV_VAR, None)


def require_pickle_trust(what: str) -> None:
    """``UntrustedFileError`` unless the switch is on; the message names the risk."""
    if not pickle_trusted():
        raise UntrustedFileError(
            f"{what} can only be loaded by unpickling it, which runs any code stored in the file. "
            f"Load it only if you trust where it came from: set {ENV_VAR}=1 (or pass --trust-pickle)"
        )
