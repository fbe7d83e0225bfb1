"""Seven Spades: rules, view and options. The environment is ``bluff_envs.seven_spades_v0``."""

from bluff_envs.seven_spades.config import SevenSpadesConfig
from bluff_envs.seven_spades.game import SevenSpades
from bluff_envs.seven_spades.rules import SevenSpadesState

__all__ = ["SevenSpades", "SevenSpadesConfig", "SevenSpadesState"]
