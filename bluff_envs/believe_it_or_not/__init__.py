"""Believe It or Not (Верю — не верю): actions, rules, view, game and options. The environment
is ``bluff_envs.believe_it_or_not_v0``."""

from bluff_envs.believe_it_or_not.config import BelieveItOrNotConfig
from bluff_envs.believe_it_or_not.game import BelieveItOrNot
from bluff_envs.believe_it_or_not.rules import BelieveItOrNotState

__all__ = ["BelieveItOrNot", "BelieveItOrNotConfig", "BelieveItOrNotState"]
