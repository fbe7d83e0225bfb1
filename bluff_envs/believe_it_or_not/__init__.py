"""Believe It or Not (Верю — не верю): rules, view and options. The environment is
``bluff_envs.believe_it_or_not_v0``."""

from bluff_envs.believe_it_or_not.config import BelieveItOrNotConfig
from bluff_envs.believe_it_or_not.rules import BelieveItOrNot, BelieveItOrNotState

__all__ = ["BelieveItOrNot", "BelieveItOrNotConfig", "BelieveItOrNotState"]
