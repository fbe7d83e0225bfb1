"""A round robin of the heuristics on both engines, side by side: games per second.

The same schedule (``agents.arena``: every line-up of the game's heuristics, every rotation,
duplicate deals) is played in one process, once on the reference engine (the AEC environment,
one reference heuristic decision at a time) and once on the vector engine (the games side by
side, each heuristic deciding for all its seats in one kernel call). The records must be
identical; the script says so, and the speed-up.

Run: ``python benchmarks/tournament_speed.py [--game i_doubt_it] [--games 2000]``. The target
(issue 15): I Doubt It, 4 players, 2,000 games: the vector engine >= 20x the reference.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.arena.evaluate import play_games  # noqa: E402
from agents.arena.schedule import lineups, partnerships  # noqa: E402
from agents.registry import heuristics  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="i_doubt_it")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import bluff_envs

    n = bluff_envs.make(args.game, raw=True).unwrapped.game.num_players
    agents = list(heuristics(args.game))
    if len(agents) < 2:
        agents = [*agents, "random"]
    table = lineups("round_robin", n, partnerships(args.game, n), agents=agents)
    per_deal = len(table) * n
    deals = math.ceil(args.games / per_deal)
    print(f"{args.game}: round robin of {', '.join(agents)}: {len(table)} line-ups x {n} seatings x {deals} deals "
          f"= {deals * per_deal} games")
    play_games(args.game, {}, table[:1], 1, args.seed + 1, engine="vector")  # compiled (or loaded) before timing
    timed = {}
    for engine in ("reference", "vector"):
        started = time.perf_counter()
        results = play_games(args.game, {}, table, deals, args.seed, engine=engine)
        seconds = time.perf_counter() - started
        timed[engine] = (seconds, [json.dumps(r.record.to_dict(), sort_keys=True) for r in results])
        print(f"  {engine:<9} {len(results) / seconds:10,.1f} games/s  ({seconds:.1f} s)")
    same = timed["reference"][1] == timed["vector"][1]
    print(f"  the records are {'identical' if same else 'DIFFERENT'} on both engines")
    print(f"  vector: {timed['reference'][0] / timed['vector'][0]:.1f}x the reference (target >= 20x)")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
