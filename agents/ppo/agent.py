"""Agents trained by ``bluff train``: the spec ``ppo:<checkpoint.zip or run directory>``.

The checkpoint's policy plays through numpy (no PyTorch needed) and, by default, samples its
mixed strategy (the masked softmax) with the agent's seeded generator, so a ``ppo:`` agent is
reproducible given its seed but not predictable; ``ppo:<path>@greedy`` takes the most likely
legal action instead, and ``ppo:<path>@temperature=T`` draws from the softmax of its logits
divided by ``T`` (a flatter mix above 1); ``ppo:<path>@symmetric`` plays it after a relabelling
of the cards drawn per decision, in a game that has one (:mod:`agents.symmetric`). A network
trained through that symmetry (``learner.symmetric``: its checkpoint's metadata says so, see
:func:`agents.ppo.checkpoint.plays_symmetric`) plays so by default, as it was trained;
``ppo:<path>@plain`` plays the network alone.
``ppo:zoo/<name>`` plays an agent of the repository's zoo (:mod:`agents.ppo.zoo`). A checkpoint
trained on another game, env version or options is refused with a ``ValueError`` that names the
difference.
"""

from __future__ import annotations

from pathlib import Path

from agents.base import Agent, GameInfo, check_policy_fits, play_mode, require_legal
from agents.ppo import checkpoint, zoo
from agents.ppo.frozen_policy import FrozenPolicy
from agents.symmetric import symmetrized


class PPOAgent(Agent):
    """A frozen MaskablePPO policy. ``sample=True`` (the default) draws from the masked softmax
    with this agent's seeded generator, as self-play snapshots and the learner itself play;
    ``sample=False`` takes the most likely legal action."""

    name = "ppo"

    def __init__(self, game: GameInfo, policy: FrozenPolicy, seed: int | None = None, *, sample: bool = True, name: str = "ppo"):
        super().__init__(game, seed)
        check_policy_fits(game, policy.observation_size, policy.num_actions)
        self.policy = policy
        self.sample = sample
        self.name = name

    def act(self, observation, view=None) -> int:
        # one uniform draw per decision when sampling, as the batched form takes them
        return self.decide(observation, float(self.rng.random()) if self.sample else None)

    def decide(self, observation, u: float | None) -> int:
        """The action for ``observation`` given the draw ``u`` (unused when greedy)."""
        mask = require_legal(observation, self.name)
        return self.policy.decide(observation["observation"], mask, u if self.sample else None)


def checkpoint_file(location: str) -> Path:
    """The checkpoint a ``ppo:`` location names: a file, a run directory's final agent, or a zoo entry."""
    return checkpoint.resolve(zoo.location(location))


def load(path: str, game: GameInfo, seed: int | None = None) -> PPOAgent:
    """The agent of spec ``ppo:<path>``: a checkpoint zip, or a run directory (its final
    agent: ``checkpoint.final``). ``ValueError`` if it was trained for another game, version or options."""
    mode = play_mode(path)
    location, greedy, temperature = mode.location, mode.greedy, mode.temperature
    if not location:
        raise ValueError("spec 'ppo:<path>' needs a checkpoint path, e.g. ppo:runs/i_doubt_it/checkpoints/step_0000100000.zip")
    file = checkpoint_file(location)
    meta = checkpoint.read_metadata(file)
    checkpoint.check_compatible(meta, game, source=f"checkpoint {file}")
    symmetric = mode.symmetric or (checkpoint.plays_symmetric(meta) and not mode.plain)
    if symmetric and greedy:  # only by default: play_mode refuses both suffixes together
        raise ValueError(f"ppo:{path[:200]}: this network was trained through the game's symmetry and plays through "
                         "it, which samples; allowed: ppo:<path>, ppo:<path>@temperature=T, or ppo:<path>@plain@greedy "
                         "(the network alone)")
    name = f"ppo:{Path(location)}" + mode.suffix()
    policy = checkpoint.read_policy(file).with_observation(game.layout.size)  # check_compatible: the same or more
    policy = policy.tempered(temperature) if temperature != 1.0 else policy
    if symmetric:
        policy = symmetrized(policy, game, f"ppo:{path}")
    return PPOAgent(game, policy, seed, sample=not greedy, name=name)
