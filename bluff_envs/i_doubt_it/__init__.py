"""I Doubt It (Cheat): actions, rules, view, game and options. The environment is
``bluff_envs.i_doubt_it_v0``."""

from bluff_envs.i_doubt_it.config import IDoubtItConfig
from bluff_envs.i_doubt_it.game import IDoubtIt
from bluff_envs.i_doubt_it.rules import IDoubtItState

__all__ = ["IDoubtIt", "IDoubtItConfig", "IDoubtItState"]
