"""A zoo entry's final evaluation played again, on the same deals, with the evaluation as it is now.

``python -m agents.ppo.zoo_evaluation NAME…`` (``--workers N``): for each entry, the same field,
deals and deal seed as its ``final_eval``, played by :func:`agents.training.evaluate.evaluate`
today (its seating, its statistics). The new result becomes the entry's ``final_eval``; the one
its training run wrote is kept as ``training_eval``. A module of its own: making a
``ppo:zoo/<name>`` agent loads :mod:`agents.ppo.zoo`, so that module imports no evaluation.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from agents.ppo import checkpoint, zoo
from agents.training.evaluate import evaluate as play


def evaluate(path: Path, workers: int = 1) -> dict[str, Any]:
    """Play the entry at ``path`` again on its final evaluation's deals; returns the entry as
    rewritten. ``training_eval`` is set the first time only, so that evaluating twice keeps
    what the training run measured."""
    entry = zoo.info(path)
    final = entry.get("final_eval")
    if not final or final.get("seed") is None or not final.get("deals") or not final.get("field"):
        raise ValueError(f"zoo entry {path.stem!r} has no final evaluation to play again (its field, deals and seed)")
    options = checkpoint.read_metadata(path)["config"]["game"]["options"]
    result = play(entry["game"], options, f"ppo:{path}", final["field"], final["deals"], final["seed"], workers)
    entry.setdefault("training_eval", final)
    entry["final_eval"] = result.to_dict()
    zoo.rewrite(path, entry)
    return zoo.info(path)


def main() -> None:
    parser = argparse.ArgumentParser(description="Play zoo entries' final evaluations again, on the same deals.")
    parser.add_argument("names", nargs="+", help="entry names (zoo/<name>.zip)")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    if args.workers < 1:
        parser.error(f"--workers {args.workers}: give at least 1 process")
    for name in args.names:
        final = evaluate(Path(zoo.location(zoo.PREFIX + name)), args.workers)["final_eval"]
        low, high = final["win_interval"]
        print(f"ppo:zoo/{name}: win {final['win_rate']:.3f} [{low:.3f}, {high:.3f}] vs {', '.join(final['field'])} "
              f"(parity {final['parity']:.3f}, {final['games']} games, seating {final['seating']})")


if __name__ == "__main__":
    main()
