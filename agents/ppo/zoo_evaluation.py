"""A zoo entry's final evaluation played again, on the same deals, with the evaluation as it is now.

``python -m agents.ppo.zoo_evaluation NAME…`` (``--workers N``): for each entry, the same field,
deals and deal seed as its ``final_eval``, played by :func:`agents.training.evaluate.evaluate`
today (its seating, its statistics). The new result becomes the entry's ``final_eval``; the one
its training run wrote is kept as ``training_eval``.

``--missing-fields``: instead, play the standard robustness fields the entry's matrix lacks (a
heuristic or diagnostic added to the game after the matrix was played) on the matrix's own
deals, once a stored row has been played again to the same result, and put them in the matrix
where :func:`agents.training.robustness.standard_fields` puts them. Fields of earlier
checkpoints and other agents are never added: their files may be gone.

``--like OTHER``: instead, a final evaluation on entry OTHER's field, deals and seed, for an
entry no training run evaluated (a mixture entry; it records ``like: OTHER``).

A module of its own: making a ``ppo:zoo/<name>`` agent loads :mod:`agents.ppo.zoo`, so that
module imports no evaluation.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import bluff_envs
from agents.base import GameInfo
from agents.ppo import checkpoint, zoo
from agents.training.evaluate import evaluate as play
from agents.training.robustness import ROBUSTNESS_DOMAIN, Row, standard_fields


def evaluate(path: Path, workers: int = 1) -> dict[str, Any]:
    """Play the entry at ``path`` again on its final evaluation's deals; returns the entry as
    rewritten. ``training_eval`` is set the first time only, so that evaluating twice keeps
    what the training run measured."""
    entry = zoo.info(path)
    final = entry.get("final_eval")
    if not final or final.get("seed") is None or not final.get("deals") or not final.get("field"):
        raise ValueError(f"zoo entry {path.stem!r} has no final evaluation to play again (its field, deals and seed)")
    result = play(entry["game"], _options(path), _agent(path), final["field"], final["deals"], final["seed"], workers)
    entry.setdefault("training_eval", final)
    entry["final_eval"] = result.to_dict()
    zoo.rewrite(path, entry)
    return zoo.info(path)


def evaluate_like(path: Path, other: Path, workers: int = 1) -> dict[str, Any]:
    """The final evaluation of the entry at ``path`` (a mixture's, which no run wrote) played on
    the field, deals and seed of the entry at ``other``'s; returns the entry as rewritten."""
    entry, final = zoo.info(path), zoo.info(other).get("final_eval")
    if not final or final.get("seed") is None or not final.get("deals") or not final.get("field"):
        raise ValueError(f"zoo entry {other.stem!r} has no final evaluation to play like (its field, deals and seed)")
    if zoo.info(other)["game"] != entry["game"]:
        raise ValueError(f"zoo entry {other.stem!r} plays {zoo.info(other)['game']}, not {entry['game']}")
    result = play(entry["game"], _options(path), _agent(path), final["field"], final["deals"], final["seed"], workers)
    entry["final_eval"] = {**result.to_dict(), "like": other.stem}
    zoo.rewrite(path, entry)
    return zoo.info(path)


def _agent(path: Path) -> str:
    return zoo.spec_of(path) if path.suffix == ".json" else f"ppo:{path}"


def _options(path: Path) -> dict[str, Any]:
    """The game options the entry plays (a mixture or blend: its first member's)."""
    if path.suffix == ".json":
        path = Path(zoo.mixture_members(path.stem, zoo.info(path).get("play", "mix"))[0].removeprefix("ppo:"))
    return checkpoint.read_metadata(path)["config"]["game"]["options"]


def add_missing_fields(path: Path, workers: int = 1) -> list[dict[str, Any]]:
    """Play the standard fields missing from the robustness matrix of the entry at ``path`` on
    the matrix's deals and insert them; returns the rows added (none: the entry is left as it
    is). Refused when the matrix's first heuristic row no longer plays to its stored result
    (the deals or the agents' play changed since: play the whole matrix again)."""
    from agents.arena.schedule import derive_seed

    entry = zoo.info(path)
    matrix = entry.get("robustness")
    if not isinstance(matrix, dict) or not matrix.get("rows") or not matrix.get("deals") or matrix.get("seed") is None:
        raise ValueError(f"zoo entry {path.stem!r} has no robustness matrix to complete (its rows, deals and seed)")
    options = matrix.get("options") or _options(path)
    game = GameInfo.of(bluff_envs.make(entry["game"], raw=True, **options))
    agent = _agent(path)
    fields = standard_fields(game, agent)
    stored = {row["field"]: row for row in matrix["rows"]}
    missing = [name for name in fields if name not in stored and not name.startswith("self ")]
    if not missing:
        return []
    deal_seed = derive_seed(matrix["seed"], ROBUSTNESS_DOMAIN)

    def played(field: list[str]):
        return play(entry["game"], options, agent, field, matrix["deals"], deal_seed, workers)

    check = next((row for name, row in stored.items() if name in fields and not name.startswith("self ")), None)
    if check is None:
        raise ValueError(f"zoo entry {path.stem!r}: no stored heuristic row to check the deals against")
    again = played(check["agents"])
    if (again.win_rate, again.mean_reward) != (check["win_rate"], check["mean_reward"]):
        raise ValueError(f"zoo entry {path.stem!r}: {check['field']} no longer plays as stored (win {again.win_rate:.3f}, "
                         f"stored {check['win_rate']:.3f}); play the whole matrix again with bluff robustness")
    for name in missing:
        stored[name] = Row(name, fields[name], played(fields[name])).to_dict()
    order = [name for name in fields if name in stored] + [row["field"] for row in matrix["rows"] if row["field"] not in fields]
    matrix["rows"] = [stored[name] for name in order]
    matrix["added_fields"] = [*matrix.get("added_fields", []), *missing]
    zoo.rewrite(path, entry)
    return [stored[name] for name in missing]


def main() -> None:
    parser = argparse.ArgumentParser(description="Play zoo entries' final evaluations again, on the same deals.")
    parser.add_argument("names", nargs="+", help="entry names (zoo/<name>.zip, zoo/mixtures/<name>.json)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--missing-fields", action="store_true",
                        help="instead: add the standard robustness fields each entry's matrix lacks, on its deals")
    parser.add_argument("--like", metavar="OTHER",
                        help="instead: a final evaluation for each entry on entry OTHER's field, deals and seed")
    args = parser.parse_args()
    if args.workers < 1:
        parser.error(f"--workers {args.workers}: give at least 1 process")
    try:
        for name in args.names:
            _run(zoo.entry_file(name), name, args)
    except (OSError, ValueError) as error:  # a bad name or entry: one line, no traceback
        parser.exit(1, f"error: {error}\n")


def _run(path: Path, name: str, args: argparse.Namespace) -> None:
    if args.missing_fields:
        added = add_missing_fields(path, args.workers)
        print(f"{zoo.spec_of(path)}: " + ("; ".join(f"added {row['field']}: win {row['win_rate']:.3f} [{row['win_interval'][0]:.3f}, "
                                              f"{row['win_interval'][1]:.3f}], parity {row['parity']:.3f}" for row in added)
                                    or "no standard field missing"))
        return
    final = (evaluate_like(path, zoo.entry_file(args.like), args.workers) if args.like else evaluate(path, args.workers))["final_eval"]
    low, high = final["win_interval"]
    print(f"{zoo.spec_of(path)}: win {final['win_rate']:.3f} [{low:.3f}, {high:.3f}] vs {', '.join(final['field'])} "
          f"(parity {final['parity']:.3f}, {final['games']} games, seating {final['seating']})")


if __name__ == "__main__":
    main()
