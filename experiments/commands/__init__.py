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
