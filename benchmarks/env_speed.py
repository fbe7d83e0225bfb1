"""Environment throughput, ours side by side with PettingZoo's classic environments.

Random legal play through the full AEC loop (``agent_iter`` / ``last()`` — so one observation
every step — and a masked uniform action, drawn cheaply so that the harness weighs little), on two paths measured separately:

* ``raw``: ``raw_env`` on both sides (our agents, tournaments and training use this path);
* ``env``: ``env()`` on both sides, i.e. with PettingZoo's three standard wrappers.

Peers: PettingZoo's ``connect_four_v3`` and ``texas_holdem_v4`` (``pip install -e .[bench]``),
and, for Tarneeb, OpenSpiel's C++ ``spades`` (bidding and trick play, with an observation
tensor each step) when ``open_spiel`` is installed. Measurements alternate between the
environments in every round, each figure is the median over the rounds, and time is this
process's CPU time, so that a busy machine affects all sides alike.

    python benchmarks/env_speed.py                 # every game, default options
    python benchmarks/env_speed.py --games i_doubt_it --rounds 7 --seconds 2
"""

from __future__ import annotations

import argparse
import random
import statistics
import time


import bluff_envs

# CPU time of this process: steadier than wall time on a shared machine, and the same thing
# when the machine is quiet
_clock = time.process_time

# the bars the issues set, per path: peer -> minimum ratio ours / peer
TARGETS = {"raw": {"connect_four_v3": 3.0, "texas_holdem_v4": 10.0}, "env": {"connect_four_v3": 1.3}}


def aec_runner(make):
    """Steps and episodes played in ``seconds`` of random AEC play on ``make()``."""
    env = make()
    rng = random.Random(0)  # the harness must cost little: it is the same on every side
    env.reset(seed=0)  # seed once: re-seeding every episode is costly for some peers

    def run(seconds: float) -> tuple[int, int, float]:
        steps = games = 0
        start = _clock()
        while _clock() - start < seconds:
            env.reset()
            steps += play_episode(env, rng)
            games += 1
        return steps, games, _clock() - start

    return run


def play_episode(env, rng: random.Random, after_step=None) -> int:
    """One episode, already reset, of masked uniform random play through the AEC loop;
    ``after_step(env)`` runs after every step while agents remain. Returns the steps."""
    steps = 0
    for _ in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            action = None
        else:
            legal = observation["action_mask"].nonzero()[0]
            action = int(legal[rng.randrange(len(legal))])
        env.step(action)
        steps += 1
        if after_step is not None and env.agents:
            after_step(env)
    return steps


def openspiel_runner(name: str):
    """The same loop on an OpenSpiel game: an observation tensor and legal actions each step."""
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, int, float]:
        steps = games = 0
        start = _clock()
        while _clock() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                player = state.current_player()
                state.observation_tensor(player)
                legal = state.legal_actions(player)
                state.apply_action(legal[rng.randrange(len(legal))])
                steps += 1
            games += 1
        return steps, games, _clock() - start

    return run


class NullEnv:
    """A do-nothing AEC environment (4 players, 300 steps, one cached observation): the
    ceiling of this harness, to put the ratios in perspective."""

    def __new__(cls):
        from gymnasium import spaces
        from pettingzoo import AECEnv

        import numpy as np

        class Null(AECEnv):
            metadata = {"name": "null", "render_modes": [], "is_parallelizable": False}

            def __init__(self):
                super().__init__()
                self.possible_agents = [f"player_{i}" for i in range(4)]
                self.obs = np.zeros(200, np.float32)
                self.mask = np.ones(16, np.int8)
                self.action_spaces = {a: spaces.Discrete(16) for a in self.possible_agents}

            def reset(self, seed=None, options=None):
                self.agents = list(self.possible_agents)
                self.rewards = {a: 0.0 for a in self.agents}
                self._cumulative_rewards = dict(self.rewards)
                self.terminations = {a: False for a in self.agents}
                self.truncations = dict(self.terminations)
                self.infos = {a: {} for a in self.agents}
                self.agent_selection, self.turn = self.agents[0], 0

            def observe(self, agent):
                return {"observation": self.obs.copy(), "action_mask": self.mask.copy()}

            def step(self, action):
                if self.terminations[self.agent_selection]:
                    return self._was_dead_step(action)
                self.turn += 1
                if self.turn >= 300:
                    self.terminations = dict.fromkeys(self.agents, True)
                self.agent_selection = self.possible_agents[self.turn % 4]

        return Null()


def peers(path: str) -> dict:
    found = {}
    try:
        from pettingzoo.classic import connect_four_v3, texas_holdem_v4
    except ImportError:
        print("PettingZoo's classic environments are missing: pip install -e '.[bench]'")
        return found
    for module in (connect_four_v3, texas_holdem_v4):
        name = module.__name__.rsplit(".", 1)[1]
        found[name] = aec_runner(module.raw_env if path == "raw" else module.env)
    return found


def measure(runners: dict, rounds: int, seconds: float) -> dict[str, dict[str, float]]:
    samples = {name: [] for name in runners}
    for name, run in runners.items():  # warm up
        run(min(seconds, 0.3))
    for _ in range(rounds):
        for name, run in runners.items():
            steps, games, elapsed = run(seconds)
            samples[name].append((steps / elapsed, games / elapsed))
    return {
        name: {
            "steps_per_s": statistics.median(s for s, _ in rows),
            "games_per_s": statistics.median(g for _, g in rows),
        }
        for name, rows in samples.items()
    }


def main(argv=None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=None, help="our games (default: all available)")
    parser.add_argument("--paths", nargs="*", default=["raw", "env"], choices=["raw", "env"])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds (median taken)")
    parser.add_argument("--seconds", type=float, default=1.5, help="seconds per measurement")
    parser.add_argument("--no-openspiel", action="store_true", help="leave OpenSpiel's spades out")
    parser.add_argument("--ceiling", action="store_true", help="also time a do-nothing env (raw path)")
    args = parser.parse_args(argv)
    games = args.games or bluff_envs.available_games()
    results = {}
    for path in args.paths:
        runners = {}
        for game in games:
            module = bluff_envs.game_module(game)
            runners[game] = aec_runner(module.raw_env if path == "raw" else module.env)
        peer_runners = peers(path)
        runners.update(peer_runners)
        if path == "raw" and "tarneeb" in games and not args.no_openspiel:
            try:
                runners["openspiel spades"] = openspiel_runner("spades")
            except ImportError:
                print("open_spiel is missing: pip install open-spiel (only for this benchmark)")
        if path == "raw" and args.ceiling:
            runners["do-nothing env"] = aec_runner(NullEnv)
        table = measure(runners, args.rounds, args.seconds)
        results[path] = table
        print(f"\n== {path} path: {'raw_env' if path == 'raw' else 'env() with the standard wrappers'} "
              f"(median of {args.rounds} alternating rounds of {args.seconds:g} s)")
        names = [n for n in runners if n not in peer_runners and n not in ("openspiel spades", "do-nothing env")]
        others = [n for n in runners if n not in names and n != "do-nothing env"]
        header = f"{'environment':<20}{'steps/s':>10}{'games/s':>10}" + "".join(f"{'÷ ' + p:>22}" for p in others)
        print(header)
        for name in runners:
            row = table[name]
            line = f"{name:<20}{row['steps_per_s']:>10.0f}{row['games_per_s']:>10.1f}"
            if name in names:
                for peer in others:
                    ratio = row["steps_per_s"] / table[peer]["steps_per_s"]
                    bar = TARGETS.get(path, {}).get(peer)
                    mark = "" if bar is None else (f" (≥{bar:g} ok)" if ratio >= bar else f" (≥{bar:g} NO)")
                    line += f"{ratio:>10.2f}x{mark:>12}"
            print(line)
    return results


if __name__ == "__main__":
    main()
