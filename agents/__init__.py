"""Agents for bluff_envs: one protocol (``Agent.act``), built from spec strings."""

from agents.base import Agent, GameInfo, legal_actions
from agents.random_agent import RandomAgent
from agents.registry import agent_names, heuristics, make_agent, register

__all__ = ["Agent", "GameInfo", "RandomAgent", "agent_names", "heuristics", "legal_actions", "make_agent", "register"]
