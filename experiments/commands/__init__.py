"""The ``bluff`` subcommands, one module each (``experiments.cli`` loads them on first use)."""

from __future__ import annotations

import click


def _trust(ctx, param, value):
    if value:
        from agents.trust import trust_pickle

        trust_pickle(True)
    return value


trust_pickle_option = click.option(
    "--trust-pickle", is_flag=True, expose_value=False, callback=_trust, is_eager=True,
    help="Allow loading checkpoints that need unpickling (RLlib's, and PPO checkpoints of the old "
         "format): this runs code stored in those files, so only for files you trust.",
)


def disk_errors_as_messages(command):
    """A read-only directory or a full disk is the user's to fix: one line, not a traceback
    (what was written before stays valid; the same command resumes once the cause is gone)."""
    import functools

    @functools.wraps(command)
    def wrapped(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except OSError as error:
            where = f" {error.filename}" if error.filename else ""
            raise click.ClickException(
                f"cannot write or read{where}: {error.strerror or error}; finished work is kept, "
                "run the same command again once this is fixed"
            ) from None

    return wrapped
