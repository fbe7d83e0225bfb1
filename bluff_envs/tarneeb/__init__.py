"""Tarneeb (Lebanese and Egyptian): rules, scoring, view and options. The environment is
``bluff_envs.tarneeb_v0``."""

from bluff_envs.tarneeb.config import TarneebConfig
from bluff_envs.tarneeb.game import Tarneeb
from bluff_envs.tarneeb.rules import TarneebState

__all__ = ["Tarneeb", "TarneebConfig", "TarneebState"]
