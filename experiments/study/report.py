"""The study's one report: learning curves, then each game's tournament (standings with
intervals, ratings, head to head, bluff and challenge statistics), in ``report.md`` with PNG
plots, and every number in ``summary.json``."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

from experiments.study.config import Experiment, trained_agent_spec
from experiments.tournament.report import _pyplot, markdown, plot_head_to_head, plot_ratings, plot_win_rates


def write_report(run_dir: Path, experiment: Experiment, tournaments: dict[str, dict[str, Any]],
                 steps: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """``report.md``, its plots and ``summary.json``; ``steps``: each game's robustness matrices
    and exploiters (``{game: {"robustness": {agent: …}, "exploit": {agent: …}}}``)."""
    run_dir = Path(run_dir)
    plots = run_dir / "plots"
    plots.mkdir(exist_ok=True)
    run = json.loads((run_dir / "run.json").read_text())
    summary: dict[str, Any] = {"name": experiment.name, "seed": experiment.seed, "versions": run["versions"],
                               "sessions": len(run["sessions"]), "games": {}}
    lines = [
        f"# Study: {experiment.name}",
        "",
        f"Seed {experiment.seed}; {len(experiment.games)} game(s); "
        + ", ".join(f"{k} {v}" for k, v in run["versions"].items()),
        "",
        "How to read it: for every game, the learning curve of each trained agent (its win rate "
        "against the evaluation field while it trained, with 95 % intervals, and the parity share "
        "an agent no better than the field would get), then the tournament: standings (win rate "
        "with its Wilson 95 % interval against parity; *above* means the whole interval is above "
        "parity), ratings, head-to-head shares and the agents' bluffing and challenging; where the "
        "study asks for them, each trained agent's robustness matrix (the standard fields, fresh "
        "duplicate deals) and its exploiters (best responses trained against it: the edge over parity).",
        "",
    ]
    for study in experiment.games:
        game = study.game
        names = {trained_agent_spec(run_dir, game, agent): agent for agent in study.train}
        training = {agent: _training(run_dir / game / "train" / agent) for agent in study.train}
        tournament = _renamed(tournaments[game], names)
        extra = (steps or {}).get(game, {})
        summary["games"][game] = {"options": study.options, "training": training, "tournament": tournament, **extra}
        lines += [f"## {game}", ""]
        if training:
            curve = plots / f"{game}_learning.png"
            _plot_learning(game, training, curve)
            lines += ["### Training", "", "| agent | steps | steps/s | final win rate | 95 % CI | parity | bluff rate | challenge accuracy |",
                      "|---|---:|---:|---:|---|---:|---:|---:|"]
            for agent, t in training.items():
                final = t.get("final_eval") or {}
                lo, hi = final.get("win_interval", [math.nan, math.nan])
                behaviour = final.get("behaviour", {})
                lines.append(
                    f"| {agent} | {t.get('steps', 0):,} | {t.get('steps_per_second', 0):,.0f} | "
                    f"{_f(final.get('win_rate'))} | [{_f(lo)}, {_f(hi)}] | {_f(final.get('parity'))} | "
                    f"{_f(behaviour.get('bluff_rate'))} | {_f(behaviour.get('challenge_accuracy'))} |"
                )
            lines += ["", f"![learning curves](plots/{curve.name})", ""]
        lines += ["### Tournament", ""]
        if tournament["games"]:  # the tournament's own plots, redrawn with the agents' names
            plot_win_rates(tournament, plots / f"{game}_win_rates.png")
            plot_head_to_head(tournament, plots / f"{game}_head_to_head.png")
            plot_ratings(tournament, plots / f"{game}_ratings.png")
        body = markdown(tournament).replace("](plots/", f"](plots/{game}_")
        body = body.split("\n", 1)[1]  # its title: this section's heading says it
        body = body.replace("\n## ", "\n#### ")
        lines += [body, ""]
        for agent in extra.get("robustness", {}):
            lines += [f"### Robustness of {agent}", "", (run_dir / game / "robustness" / agent / "robustness.md").read_text(), ""]
        for agent in extra.get("exploit", {}):
            lines += [f"### Exploiters of {agent}", "", (run_dir / game / "exploit" / agent / "exploit.md").read_text(), ""]
        for agent in extra.get("transfer", {}):
            lines += [f"### Transfer exploitability of {agent}", "",
                      (run_dir / game / "transfer" / agent / "transfer.md").read_text(), ""]
    (run_dir / "report.md").write_text("\n".join(lines) + "\n")
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1, default=str) + "\n")
    return summary


def _training(run: Path) -> dict[str, Any]:
    """What a training run did: its result, its evaluations, its reward curve."""
    out: dict[str, Any] = {"run": str(run)}
    if (run / "result.json").exists():
        result = json.loads((run / "result.json").read_text())
        out.update(steps=result["steps"], steps_per_second=result.get("steps_per_second_this_session"),
                   checkpoint=result["checkpoint"], final_eval=result.get("eval"))
    evals = run / "evals.jsonl"
    out["evals"] = [json.loads(line) for line in evals.read_text().splitlines() if line.strip()] if evals.exists() else []
    curve = []
    for progress in sorted((run / "logs").glob("progress_*.csv")):
        with open(progress) as f:
            for row in csv.DictReader(f):
                # the game's own reward (ep_rew_mean would include any shaping bonus)
                steps = row.get("time/total_timesteps")
                reward = row.get("selfplay/mean_reward") or row.get("rollout/ep_rew_mean")
                if steps and reward:
                    curve.append((int(float(steps)), float(reward)))
    out["reward_curve"] = sorted(curve)
    return out


def _plot_learning(game: str, training: dict[str, dict[str, Any]], path: Path) -> None:
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
    for agent, t in training.items():
        evals = [e for e in t["evals"] if "step" in e or "steps" in e]
        if evals:
            steps = [e.get("step", e.get("steps")) for e in evals]
            rates = [e["win_rate"] for e in evals]
            lows = [e["win_interval"][0] for e in evals]
            highs = [e["win_interval"][1] for e in evals]
            left.plot(steps, rates, marker="o", label=agent)
            left.fill_between(steps, lows, highs, alpha=0.2)
            left.axhline(evals[-1]["parity"], color="grey", linestyle="--", linewidth=1)
        if t["reward_curve"]:
            xs, ys = zip(*t["reward_curve"])
            right.plot(xs, ys, label=agent)
    left.set(title=f"{game}: win rate vs the evaluation field", xlabel="steps", ylabel="win rate (95 % CI)")
    right.set(title="mean game reward in self-play", xlabel="steps", ylabel="reward")
    for ax in (left, right):
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def _renamed(summary: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """The tournament summary with trained agents called by their names, not their paths."""
    text = json.dumps(summary)
    for spec, name in names.items():
        text = text.replace(json.dumps(spec)[1:-1], name)
    return json.loads(text)


def _f(value) -> str:
    return "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.3f}"
