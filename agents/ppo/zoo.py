"""The zoo: trained agents committed in the repository, playable as ``ppo:zoo/<name>``.

An entry is ``zoo/<name>.zip``: a checkpoint stripped to what playing needs, in the pickle-free
format of :mod:`agents.ppo.checkpoint` (``metadata.json`` with the game, options, network and
the training config; ``policy.npz``), plus ``zoo.json``: where it comes from (the run's seed,
steps, the commit it was trained at) and what was measured of it (its final evaluation, its
robustness matrix, its exploiters), so that a results table can be rebuilt from the zoo alone.

``python -m agents.ppo.zoo add CHECKPOINT_OR_RUN NAME [--robustness FILE] [--exploit FILE] [--commit SHA] [--recipe FILE]``
adds or replaces an entry; ``python -m agents.ppo.zoo exploit NAME FILE`` adds the exploiters of
another ``bluff exploit`` (e.g. from another start) to an entry's; ``python -m agents.ppo.zoo
list`` shows them; ``python -m agents.ppo.zoo table`` prints the results table of the README,
built from the entries alone;
``python -m agents.ppo.zoo_evaluation NAME…`` plays an entry's final evaluation again
(:mod:`agents.ppo.zoo_evaluation`).

A **mixture entry** (:mod:`agents.mixture`: one member drawn per game) is
``zoo/mixtures/<name>.json`` (the same fields, with its ``members``) and its members' stripped
checkpoints in ``zoo/mixtures/<name>/``; it plays as ``mix:zoo/<name>``. With ``--blend`` it is a
blend entry instead (:mod:`agents.blend`: a member drawn anew every decision; ``"play":
"blend"``), played as ``blend:zoo/<name>``.
``python -m agents.ppo.zoo add-mixture NAME SOURCE SOURCE... [--robustness FILE] [--exploit FILE]
[--commit SHA] [--recipe FILE]`` adds one; ``python -m agents.ppo.zoo_evaluation NAME --like
OTHER`` gives it a final evaluation on another entry's deals; ``exploit``, ``list`` and
``table`` take both kinds.

**Kept exploiters.** Exploiters are runs under ``runs/``, which the repository does not hold,
so transfer exploitability (``bluff transfer``) and recipes that train against known exploiters
(``league.known_exploiters``) would not reproduce from a fresh clone. ``python -m
agents.ppo.zoo keep-exploiters PATH...`` strips the final checkpoint of every finished
exploiter under the paths (the runs ``bluff transfer`` finds) into
``zoo/exploiters/<game>/<policy sha256, 16 digits>.zip``, with ``exploiter.json``: whom it was
trained against, its start, seed and steps, its run, and its edge where its ``exploit.json``
gave one (``--min-edge X``: only those that measured at least X). Named by its policy, a copy
is kept once. ``bluff transfer AGENT zoo/exploiters`` plays them, and a config names one as
``ppo:zoo/exploiters/<game>/<id>.zip``.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import subprocess
import zipfile
from pathlib import Path
from typing import Any

from agents.arena.behaviour import accuracy_text
from agents.ppo import checkpoint
from agents.training.exploit_results import first_start, interval_text, run_name, summarize
from agents.training.exploiter_runs import EXPLOITERS, KEPT, find_exploiters, is_kept_exploiter
from bluff_envs.registry import GAMES

ZOO = Path(__file__).resolve().parents[2] / "zoo"  # beside agents/ in the repository
PREFIX = "zoo/"
MIXTURES = "mixtures"  # zoo/mixtures/<name>.json, and its members in zoo/mixtures/<name>/


def location(spec_path: str) -> str:
    """``zoo/<name>`` as the zoo's file when no such path exists from here; any other path as it is."""
    if spec_path.startswith(PREFIX) and not Path(spec_path).exists():
        rest = spec_path[len(PREFIX):]
        if rest.startswith(EXPLOITERS + "/") and ".." not in Path(rest).parts:  # a kept exploiter
            if not (ZOO / rest).is_file():
                raise ValueError(f"no kept exploiter {spec_path!r} (in {ZOO / EXPLOITERS})")
            return str(ZOO / rest)
        name = rest.removesuffix(".zip")
        if not name or "/" in name or name.startswith("."):
            raise ValueError(f"zoo entry {spec_path!r}: name one entry, e.g. ppo:zoo/i_doubt_it")
        path = ZOO / f"{name}.zip"
        if not path.is_file():
            known = ", ".join(sorted(p.stem for p in ZOO.glob("*.zip"))) or "none"
            raise ValueError(f"no zoo entry {name!r} (in {ZOO}); entries: {known}")
        return str(path)
    return spec_path


def folder(given: str | Path) -> Path:
    """A path as given when it exists from here, else ``zoo/...`` in the repository's zoo (e.g.
    ``zoo/exploiters`` from any working directory), else as given."""
    path = Path(given)
    rest = str(given)[len(PREFIX):]
    if not path.exists() and str(given).startswith(PREFIX) and ".." not in Path(rest).parts and (ZOO / rest).exists():
        return ZOO / rest
    return path


def info(path: Path) -> dict[str, Any]:
    """An entry's ``zoo.json`` (a mixture entry: its file)."""
    if path.suffix == ".json":
        return json.loads(path.read_text())
    return json.loads(checkpoint.read_extra(path, "zoo.json"))


def entries() -> list[Path]:
    """Every entry's file: the checkpoints, then the mixtures."""
    return [*sorted(ZOO.glob("*.zip")), *sorted((ZOO / MIXTURES).glob("*.json"))]


def entry_file(name: str) -> Path:
    """Entry ``name``'s file, a checkpoint's or a mixture's; ``ValueError`` if there is none."""
    mixture = ZOO / MIXTURES / f"{name}.json"
    if _good_name(name) and mixture.is_file() and not (ZOO / f"{name}.zip").exists():
        return mixture
    return Path(location(PREFIX + name))


def spec_of(path: Path) -> str:
    """How the entry at ``path`` plays: ``ppo:zoo/<name>``, ``mix:zoo/<name>`` or ``blend:zoo/<name>``."""
    if path.suffix != ".json":
        return f"ppo:{PREFIX}{path.stem}"
    return f"{info(path).get('play', 'mix')}:{PREFIX}{path.stem}"


def mixture_members(name: str, play: str = "mix") -> list[str]:
    """The member specs of mixture entry ``name`` (``mix:zoo/<name>``), or with ``play="blend"``
    of blend entry ``name`` (``blend:zoo/<name>``); each entry plays only as it was added."""
    path = ZOO / MIXTURES / f"{name}.json"
    entries_of = [p for p in sorted((ZOO / MIXTURES).glob("*.json")) if info(p).get("play", "mix") == play]
    if not _good_name(name) or path not in entries_of:
        kind = "mixture" if play == "mix" else "blend"
        raise ValueError(f"no zoo {kind} {name!r} (in {ZOO / MIXTURES}); {kind}s: "
                         f"{', '.join(p.stem for p in entries_of) or 'none'}")
    return [f"ppo:{path.parent / name / member['file']}" for member in info(path)["members"]]


def add_mixture(sources: list[str | Path], name: str, extras: dict[str, Any] | None = None,
                commit: str | None = None, play: str = "mix") -> Path:
    """Mixture entry ``name`` of the checkpoints ``sources`` (alike; one of them per game), each
    stripped into ``zoo/mixtures/<name>/``; its seed and steps are those of the last source.
    ``play="blend"``: a blend entry (:mod:`agents.blend`: a member drawn anew every decision),
    played as ``blend:zoo/<name>``."""
    if play not in ("mix", "blend"):
        raise ValueError(f"a mixture entry plays as 'mix' or 'blend', not {play!r}")
    if not _good_name(name):
        raise ValueError(f"zoo name {name!r}: letters, digits, '_' and '-' only")
    if len(sources) < 2:
        raise ValueError(f"a mixture entry needs two checkpoints or more, not {len(sources)}")
    paths = [checkpoint.resolve(s) for s in sources]
    metas = [checkpoint.read_metadata(p) for p in paths]
    games = {(m["game"], json.dumps(m.get("config", {}).get("game", {}).get("options", {}), sort_keys=True)) for m in metas}
    if len(games) > 1:
        raise ValueError(f"the checkpoints of a mixture play one game with one set of options, not {sorted(games)}")
    folder = ZOO / MIXTURES / name
    folder.mkdir(parents=True, exist_ok=True)
    members = []
    for k, (path, meta) in enumerate(zip(paths, metas)):
        file = f"{k}_{path.stem}.zip"
        _write(folder / file, path, {"member_of": name, "source": str(path), "steps": meta["num_timesteps"]})
        members.append({"file": file, "source": str(path), "steps": meta["num_timesteps"],
                        "sha256": hashlib.sha256(path.read_bytes()).hexdigest()})
    entry = {"name": name, "game": metas[-1]["game"], "seed": metas[-1].get("config", {}).get("seed"),
             "steps": metas[-1]["num_timesteps"], "commit": commit or _commit(), "source": [str(p) for p in paths],
             "members": members, "play": play, "final_eval": None, **(extras or {})}
    out = ZOO / MIXTURES / f"{name}.json"
    rewrite(out, entry)
    return out


def _good_name(name: str) -> bool:
    return bool(name) and all(c.isalnum() or c in "_-" for c in name)


def add(source: str | Path, name: str, extras: dict[str, Any] | None = None, commit: str | None = None) -> Path:
    """Strip the checkpoint ``source`` (or a run directory's final agent) into ``zoo/<name>.zip``;
    ``commit``: the code it was trained with (default: the repository's HEAD now)."""
    if not _good_name(name):
        raise ValueError(f"zoo name {name!r}: letters, digits, '_' and '-' only")
    path = checkpoint.resolve(source)
    meta = checkpoint.read_metadata(path)
    run_dir = path.parent.parent
    result = run_dir / "result.json"
    entry = {
        "name": name,
        "game": meta["game"],
        "seed": meta.get("config", {}).get("seed"),
        "steps": meta["num_timesteps"],
        "commit": commit or _commit(),
        "source": str(path),
        "final_eval": json.loads(result.read_text())["eval"] if result.is_file() else None,
        **(extras or {}),
    }
    ZOO.mkdir(exist_ok=True)
    out = ZOO / f"{name}.zip"
    _write(out, path, entry)
    return out


def add_exploiters(name: str, summary: dict[str, Any]) -> Path:
    """Add the exploiters of ``summary`` (an ``exploit.json`` of this entry's agent, e.g. from
    another start) to entry ``name``'s, and summarize them again: the entry's exploitability is
    then the largest start's mean edge over all of them. Refused for another game, another
    budget, or a run name the entry already holds."""
    path = entry_file(name)
    runs_given = summary.get("runs") if isinstance(summary, dict) else None
    if not isinstance(runs_given, dict) or not all(isinstance(r, dict) and {"against", "seed", "edge"} <= set(r)
                                                   for r in runs_given.values()):
        raise ValueError("not the exploit.json of a bluff exploit run: it needs 'runs', each with 'against', 'seed' "
                         "and 'edge'")
    entry = info(path)
    had = entry.get("exploit")
    # an entry without exploiters takes the file's: its starts, its naming
    before = had or {"agent": spec_of(path), "game": entry["game"], "steps": summary.get("steps"),
                     "field": summary.get("field"), "starts": list(summary.get("starts") or []), "runs": {}}
    if summary.get("game") != entry["game"] or summary.get("steps") != before.get("steps"):
        raise ValueError(f"exploiters of {summary.get('game')} with {summary.get('steps')} steps cannot join entry "
                         f"{name} ({entry['game']}, exploiters of {before.get('steps')} steps)")
    given = first_start(summary)
    first = first_start(before) if had else given  # the entry's recipe start
    runs = {k: {**r, "start": r.get("start") or first} for k, r in before["runs"].items()}
    # new runs are named as the entry names its own of their kind: the start those leave unnamed
    unnamed = {against: {r["start"] for k, r in runs.items() if r["against"] == against
                         and not k.startswith(f"vs_{against}_from_")} for against in ("agent", "field")}
    for r in summary["runs"].values():
        start = r.get("start") or given
        own = unnamed.get(r["against"]) or set()
        key = run_name(r["against"], r["seed"], start, next(iter(own)) if len(own) == 1 else first)
        if key in runs:
            raise ValueError(f"entry {name} already holds exploiter {key}; allowed: exploiters of another start or seed")
        runs[key] = {**r, "start": start}
    starts = list(dict.fromkeys([*(before.get("starts") or [first]), *(r["start"] for r in runs.values())]))
    merged = {**before, "runs": runs, "starts": starts}
    entry["exploit"] = summarize(merged)
    rewrite(path, entry)
    return path


TRANSFER_ROWS = 10  # the strongest rows of a transfer.json an entry keeps (all of them count in "exploiters")


def add_transfer(name: str, record: dict[str, Any]) -> Path:
    """Keep with entry ``name`` the transfer exploitability of a ``transfer.json`` played
    against it (``bluff transfer``, :mod:`agents.training.transfer`): its deals, how many
    exploiters played, the strongest confirmed one and the strongest rows. Refused for another
    game or another agent; a later record replaces an earlier one."""
    path = entry_file(name)
    needed = {"agent", "game", "deals", "seed", "exploiters", "rows", "strongest"}
    if not isinstance(record, dict) or not needed <= set(record):
        raise ValueError(f"not the transfer.json of a bluff transfer run: it needs {', '.join(sorted(needed))}")
    entry = info(path)
    spec = spec_of(path)
    if record["game"] != entry["game"] or record["agent"] != spec:
        raise ValueError(f"the transfer of {str(record['agent'])[:120]} ({record['game']}) is not entry {name}'s "
                         f"({spec}, {entry['game']})")
    kept = ("agent", "deals", "seed", "deal_seed", "confirm", "confirm_deals", "confirm_deal_seed", "seating",
            "exploiters", "strongest")
    entry["transfer"] = {**{k: record.get(k) for k in kept}, "skipped": len(record.get("skipped") or ()),
                         "rows": list(record["rows"][:TRANSFER_ROWS])}
    rewrite(path, entry)
    return path


def keep_exploiters(paths: list[str | Path], commit: str | None = None,
                    min_edge: float | None = None) -> tuple[list[Path], list[dict[str, str]]]:
    """Strip the final checkpoint of every finished exploiter under ``paths`` (as ``bluff
    transfer`` finds them) into ``zoo/exploiters/<game>/<policy sha256[:16]>.zip`` with its
    record, unless kept before; with ``min_edge``, only those whose ``exploit.json`` measured
    at least that edge. The files (one per distinct policy) and the runs skipped, with why."""
    found, skipped = find_exploiters(paths)
    written: dict[Path, None] = {}
    for path in found:
        if is_kept_exploiter(path):
            skipped.append({"path": str(path), "why": "already a kept exploiter"})
            continue
        try:
            meta = checkpoint.read_metadata(path)
            policy = checkpoint.read_extra(path, "policy.npz")
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
            skipped.append({"path": str(path), "why": str(error)[:300]})
            continue
        config = meta.get("config") or {}
        run = path.parent.parent
        record = {"game": meta["game"], "options": (config.get("game") or {}).get("options", {}),
                  "trained_against": list((config.get("opponents") or {}).get("fixed") or ()),
                  "start": (config.get("warm_start") or {}).get("teacher"), "seed": config.get("seed"),
                  "steps": meta.get("num_timesteps"), "run": str(run), "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                  "policy_sha256": hashlib.sha256(policy).hexdigest(), "commit": commit or _commit(),
                  **_exploit_row(run)}
        if min_edge is not None and not record.get("edge", float("-inf")) >= min_edge:
            measured = f"{record['edge']:+.3f}" if "edge" in record else "none measured"
            skipped.append({"path": str(path), "why": f"its edge ({measured}) is below {min_edge:+.3f}"})
            continue
        if meta["game"] not in GAMES:  # the folder is named after it: never a path of the checkpoint's making
            skipped.append({"path": str(path), "why": f"game {str(meta['game'])[:80]!r} is none of {', '.join(GAMES)}"})
            continue
        out = ZOO / EXPLOITERS / meta["game"] / f"{record['policy_sha256'][:16]}.zip"
        if out in written:
            skipped.append({"path": str(path), "why": f"a copy of the policy kept as {out.name}"})
            continue
        written.setdefault(out, None)
        if out.is_file():  # kept before: its record stays as it was
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        _write(out, path, record, KEPT)
    return list(written), skipped


def _exploit_row(run: Path) -> dict[str, Any]:
    """The edge ``bluff exploit`` measured for exploiter run ``run`` (its ``exploit.json``), if any."""
    try:
        row = json.loads((run.parent / "exploit.json").read_text())["runs"][run.name]
        return {k: row[k] for k in ("against", "edge", "edge_interval", "games", "deal_seed") if k in row}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def rewrite(path: Path, entry: dict[str, Any]) -> None:
    """Replace the entry's ``zoo.json`` (a mixture's file), keeping its checkpoint parts as they are."""
    if path.suffix == ".json":  # written beside it and moved into place, as a checkpoint entry
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(entry, indent=2) + "\n")
        tmp.replace(path)
        return
    _write(path, path, entry)


def _write(out: Path, source: Path, entry: dict[str, Any], record: str = "zoo.json") -> None:
    """``out``: the playing parts of checkpoint ``source`` and ``entry`` as ``record``,
    written beside it and moved into place (a reader never sees half an entry)."""
    tmp = out.with_name(out.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as archive:
        for part in ("metadata.json", "policy.npz"):
            archive.writestr(checkpoint.FOLDER + part, checkpoint.read_extra(source, part))
        archive.writestr(checkpoint.FOLDER + record, json.dumps(entry, indent=2))
    tmp.replace(out)


TABLE_HEADER = (
    "| entry | seed | steps | final evaluation | strongest heuristic field | robustness: fields held | worst field "
    "| exploiter edge (largest start's mean of seeds, 95 % t interval over them) | field exploiter edge "
    "| strongest known exploiter (bluff transfer: confirmed edge, Wilson 95 %) | uncertain challenges: accuracy [deal bootstrap 95 %] (calls) / bluff base rate |\n"
    "|---|---:|---:|---|---|---:|---|---:|---:|---:|---|\n"
)
DIAGNOSTICS = ("random", "always_challenge", "never_challenge", "always_claim")  # fields of these are not "heuristic fields"


def table(paths: list[Path] | None = None) -> str:
    """The results table of every entry (or those at ``paths``), one row each, from its ``zoo.json``:
    the final evaluation against the recipe's heuristic field (Wilson 95 % interval), the
    robustness matrix (fields where it holds up, the worst field), the exploiters' mean edge
    over parity against the agent and against the heuristic field, the strongest known
    exploiter's confirmed edge (``bluff transfer``), and the accuracy of its uncertain
    challenges (with its deal-bootstrap interval and the number of calls, where the evaluation
    kept them) against the base rate of bluffs among those claims."""
    rows = []
    for path in (paths if paths is not None else entries()):
        rows.append(_row(path.stem if path.suffix == ".zip" else spec_of(path), info(path)))
    return TABLE_HEADER + "".join(rows)


def _row(name: str, entry: dict[str, Any]) -> str:
    final = entry.get("final_eval") or {}
    interval = final.get("win_interval") or (float("nan"), float("nan"))
    field = ", ".join(final.get("field") or ()) or "?"
    strength = (f"{final.get('win_rate', float('nan')):.3f} [{interval[0]:.3f}, {interval[1]:.3f}] vs {field}, "
                f"parity {final.get('parity', float('nan')):.3f}")
    matrix = (entry.get("robustness") or {}).get("rows") or []
    held = f"{sum(r['holds_up'] for r in matrix)} of {len(matrix)}" if matrix else "–"
    worst = min(matrix, key=lambda r: r["edge"]) if matrix else None
    heuristic = [r for r in matrix if all(":" not in a and "#" not in a and a not in DIAGNOSTICS for a in r["agents"])]
    strongest = min(heuristic, key=lambda r: r["edge"]) if heuristic else None
    worst_text, strongest_text = _field_text(worst), _field_text(strongest)
    exploit = summarize(copy.deepcopy(entry["exploit"])) if entry.get("exploit") else {}
    runs = exploit.get("runs") or {}

    def edge(against: str) -> str:
        if f"edge_vs_{against}" not in exploit:
            return "–"
        best = exploit[f"start_vs_{against}"]
        seeds = sum(r["against"] == against and r["start"] == best for r in runs.values())
        starts = sum(against in e for e in exploit["by_start"].values())
        where = f"{seeds} seed{'s' if seeds > 1 else ''}" + (f" from {best}, the largest of {starts} starts" if starts > 1 else "")
        strongest = exploit[f"strongest_vs_{against}"]["edge"]
        single = f"; strongest single {strongest:+.3f}" if seeds > 1 or starts > 1 else ""
        interval = interval_text(exploit.get(f"interval_vs_{against}"))
        return f"{exploit['edge_vs_' + against]:+.3f}{interval} ({where}{single})"

    known = (entry.get("transfer") or {}).get("strongest")
    transfer = "–" if not known else (f"{known['edge']:+.3f}{interval_text(known['edge_interval'])} (the strongest of "
                                      f"{entry['transfer']['exploiters']})")
    behaviour = final.get("behaviour") or {}
    accuracy, base = behaviour.get("uncertain_challenge_accuracy"), behaviour.get("uncertain_bluff_rate")
    informed = f"{accuracy_text(behaviour)} / {base:.3f}" if accuracy is not None and base is not None else "–"
    return (f"| `{name}` | {entry.get('seed')} | {entry['steps'] / 1e6:.2f}M | {strength} | {strongest_text} | "
            f"{held} | {worst_text} | {edge('agent')} | {edge('field')} | {transfer} | {informed} |\n")


def _field_text(row: dict[str, Any] | None) -> str:
    """A matrix row as ``field: win [lo, hi] vs parity p (above|level|below)``."""
    if row is None:
        return "–"
    lo, hi = row["win_interval"]
    where = "above" if lo > row["parity"] else "below" if hi < row["parity"] else "level"
    return f"{row['field']}: {row['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] vs {row['parity']:.3f} ({where})"


def _commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ZOO.parent, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description="The zoo of committed agents.")
    sub = parser.add_subparsers(dest="command", required=True)
    adding = sub.add_parser("add", help="add or replace an entry")
    adding.add_argument("source")
    adding.add_argument("name")
    adding.add_argument("--robustness", type=Path, help="a robustness.json to keep with it")
    adding.add_argument("--exploit", type=Path, help="an exploit.json to keep with it")
    adding.add_argument("--commit", help="the commit it was trained at (default: HEAD)")
    adding.add_argument("--recipe", type=Path, help="the training config it comes from (e.g. experiments/train/<x>.yaml)")
    mixing = sub.add_parser("add-mixture", help="add or replace a mixture entry: one of its checkpoints per game")
    mixing.add_argument("name")
    mixing.add_argument("sources", nargs="+", help="two checkpoints or more (or run directories)")
    for option, text in (("--robustness", "a robustness.json to keep with it"), ("--exploit", "an exploit.json to keep with it")):
        mixing.add_argument(option, type=Path, help=text)
    mixing.add_argument("--commit", help="the commit it was trained at (default: HEAD)")
    mixing.add_argument("--recipe", type=Path, help="the training config it comes from")
    mixing.add_argument("--blend", action="store_true",
                        help="a blend entry (blend:zoo/<name>): a member drawn anew every decision, not every game")
    joining = sub.add_parser("exploit", help="add the exploiters of an exploit.json (e.g. another start) to an entry's")
    joining.add_argument("name")
    joining.add_argument("exploit", type=Path)
    known = sub.add_parser("transfer", help="keep a transfer.json (bluff transfer) of an entry's agent with it")
    known.add_argument("name")
    known.add_argument("transfer", type=Path)
    keeping = sub.add_parser("keep-exploiters", help="keep the exploiters under the paths in zoo/exploiters/<game>/")
    keeping.add_argument("paths", nargs="+", help="exploiter runs, or directories holding them (as bluff transfer)")
    keeping.add_argument("--commit", help="the commit they were trained at (default: HEAD)")
    keeping.add_argument("--min-edge", type=float, help="only those whose exploit.json measured at least this edge")
    sub.add_parser("list", help="the entries")
    sub.add_parser("table", help="the results table of the entries (markdown), as in the README")
    args = parser.parse_args()
    try:
        _run(args)
    except (OSError, ValueError) as error:  # a bad name, file or entry: one line, no traceback
        parser.exit(1, f"error: {error}\n")


def _extras(args: argparse.Namespace) -> dict[str, Any]:
    extras = {}
    if args.robustness:
        extras["robustness"] = json.loads(args.robustness.read_text())
    if args.exploit:
        extras["exploit"] = json.loads(args.exploit.read_text())
    if args.recipe:
        if not args.recipe.is_file():
            raise ValueError(f"--recipe {args.recipe}: no such file")
        extras["recipe"] = args.recipe.as_posix()
    return extras


def _run(args: argparse.Namespace) -> None:
    if args.command == "add":
        print(add(args.source, args.name, _extras(args), args.commit))
    elif args.command == "exploit":
        print(add_exploiters(args.name, json.loads(args.exploit.read_text())))
    elif args.command == "transfer":
        print(add_transfer(args.name, json.loads(args.transfer.read_text())))
    elif args.command == "table":
        print(table(), end="")
    elif args.command == "add-mixture":
        print(add_mixture(args.sources, args.name, _extras(args), args.commit, "blend" if args.blend else "mix"))
    elif args.command == "keep-exploiters":
        written, skipped = keep_exploiters(args.paths, args.commit, args.min_edge)
        for path in written:
            print(path)
        for row in skipped:
            print(f"skipped {row['path']}: {row['why']}")
    else:
        for path in entries():
            entry = info(path)
            final = entry.get("final_eval") or {}
            print(f"{spec_of(path)}: {entry['game']}, seed {entry['seed']}, {entry['steps']:,} steps, commit "
                  f"{(entry.get('commit') or '?')[:10]}, final win {final.get('win_rate', float('nan')):.3f}")


if __name__ == "__main__":
    main()
