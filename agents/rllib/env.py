"""Our AEC games as RLlib multi-agent environments, with the action mask RLlib's module expects.

:class:`CardGameMultiAgentEnv` runs one of our raw environments turn by turn under RLlib's
``MultiAgentEnv`` API (the new API stack): ``reset`` and ``step`` return an observation only
for the learner who is to act next, and when the game ends, every learner gets its last
observation and its reward with ``terminateds["__all__"]`` (or ``truncateds["__all__"]`` at
the game's turn limit). Our games pay rewards only at the end, so nothing is lost between a
learner's turns.

Observations are ``Dict(observations=Box(float32), action_mask=Box(0, 1, float32))``: the
game's vector under the key ``observations`` (PettingZoo's is ``observation``; RLlib's masking
module reads ``observations``) and the mask as floats, 1 for a legal action. The last
observation of a finished game has an all-zero mask, as in PettingZoo.

``env_config`` keys:

* ``game``: the game's name (``i_doubt_it``, ``believe_it_or_not``, ``seven_spades``,
  ``tarneeb``); ``options``: its options (see ``bluff list``);
* ``opponents``: agent specs (``random``, heuristics, ``ppo:<path>``, ``rllib:<path>``). Empty
  (the default): every seat is a learner, all playing one shared policy (self-play). Otherwise
  one seat per game learns (the seats take turns, game after game; in a partnership game its
  partner learns too) and each other seat is played inside ``step()`` by an agent drawn from
  ``opponents``.

Agent ids are the game's (``player_0`` …). ``reset(seed=...)`` seeds the deal and the drawing of
opponents; ``reset(options={"deck": [...]})`` plays a fixed deal, as the game's own reset does.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv

import bluff_envs
from agents.base import GameInfo
from agents.registry import make_agent
from agents.training.learner_env import partners

OBSERVATIONS = "observations"  # the key RLlib's action-masking module reads
ACTION_MASK = "action_mask"


def observation_space(game_env) -> gym.spaces.Dict:
    """The adapter's observation space for one of our raw environments."""
    agent = game_env.possible_agents[0]
    inner = game_env.observation_space(agent)
    num_actions = game_env.action_space(agent).n
    return gym.spaces.Dict(
        {OBSERVATIONS: inner["observation"], ACTION_MASK: gym.spaces.Box(0.0, 1.0, (num_actions,), np.float32)}
    )


def to_rllib(observation: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """One of our observations in the adapter's form."""
    return {OBSERVATIONS: observation["observation"], ACTION_MASK: observation["action_mask"].astype(np.float32)}


class CardGameMultiAgentEnv(MultiAgentEnv):
    """One of our games for RLlib; see the module docstring for ``env_config``."""

    def __init__(self, config: dict[str, Any] | None = None):
        super().__init__()
        config = dict(config or {})
        unknown = sorted(set(config) - {"game", "options", "opponents"})
        if unknown:
            raise ValueError(f"unknown env_config key(s) {unknown}; keys are game, options, opponents")
        if "game" not in config:
            raise ValueError("env_config needs 'game', e.g. {'game': 'i_doubt_it'}")
        self.env = bluff_envs.make(config["game"], raw=True, **dict(config.get("options") or {}))
        self.game = GameInfo.of(self.env)
        self.opponent_specs = tuple(config.get("opponents") or ())
        seats = self.env.possible_agents
        self.possible_agents = list(seats)
        self.agents = list(seats)
        space = observation_space(self.env)
        action_space = self.env.action_space(seats[0])
        self.observation_spaces = {a: space for a in seats}
        self.action_spaces = {a: action_space for a in seats}
        self.observation_space = gym.spaces.Dict(self.observation_spaces)
        self.action_space = gym.spaces.Dict(self.action_spaces)
        # (seat, spec) -> agent, built once; building them all now reports a bad spec at once
        self._opponents: dict[tuple[int, str], Any] = {
            (s, spec): make_agent(spec, self.game, 0) for s in range(len(seats)) for spec in self.opponent_specs
        }
        self._seated: dict[str, Any] = {}  # this game's opponents by agent id
        self._rng = np.random.default_rng()
        self._games = 0
        self._observed: set[str] = set()  # learners that got an observation this game

    # -- MultiAgentEnv API ----------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.env.reset(seed=seed, options=options)
        self._seat_players()
        self._play_opponents()
        while self.env.game_state.is_over:  # over before any learner decided: nothing to learn from
            self.env.reset(options=options)
            self._seat_players()
            self._play_opponents()
        agent = self.env.agent_selection
        self._observed = {agent}
        return {agent: to_rllib(self.env.observe(agent))}, {}

    def step(self, action_dict: dict[str, Any]):
        env = self.env
        agent = env.agent_selection
        if agent not in action_dict:
            raise ValueError(f"it is {agent}'s turn; got actions for {sorted(action_dict)}")
        env.step(int(action_dict[agent]))
        self._play_opponents()
        if not env.game_state.is_over:
            agent = env.agent_selection
            self._observed.add(agent)
            return {agent: to_rllib(env.observe(agent))}, {agent: 0.0}, {"__all__": False}, {"__all__": False}, {}
        # the end: the last observation and the reward (our games pay only now) of every
        # learner that played; one that never came to decide has no episode to end
        ended = [a for a in self.agents if a in self._observed]
        observations = {a: to_rllib(env.observe(a)) for a in ended}
        rewards = {a: float(env.rewards[a]) for a in ended}
        truncated = bool(env.game_state.truncated)
        return (observations, rewards, {**{a: not truncated for a in ended}, "__all__": not truncated},
                {**{a: truncated for a in ended}, "__all__": truncated}, {})

    def render(self) -> str:
        return self.env.game_state.render_text(self.env.possible_agents.index(self.env.agent_selection))

    # -- internals ------------------------------------------------------------------------

    def _seat_players(self) -> None:
        """Choose this game's learners and draw the opponents of the other seats."""
        seats = self.env.possible_agents
        self._games += 1
        if not self.opponent_specs:
            self.agents = list(seats)
            self._seated = {}
            return
        learner = (self._games - 1) % len(seats)  # the seats take turns at learning
        team = {learner, *partners(self.game, learner)}
        self.agents = [seats[s] for s in sorted(team)]
        self._seated = {}
        for s, agent in enumerate(seats):
            if s in team:
                continue
            spec = self.opponent_specs[int(self._rng.integers(len(self.opponent_specs)))]
            player = self._opponents[(s, spec)]
            player.seed(int(self._rng.integers(2**32)))
            self._seated[agent] = player

    def _play_opponents(self) -> None:
        env = self.env
        while not env.game_state.is_over and env.agent_selection in self._seated:
            agent = env.agent_selection
            env.step(int(self._seated[agent].act(env.observe(agent))))
