"""I Doubt It (Cheat): rules, view and options. The environment is ``bluff_envs.i_doubt_it_v0``."""

from bluff_envs.i_doubt_it.config import IDoubtItConfig
from bluff_envs.i_doubt_it.rules import IDoubtIt, IDoubtItState

__all__ = ["IDoubtIt", "IDoubtItConfig", "IDoubtItState"]
