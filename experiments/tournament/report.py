"""A tournament's summary (``summary.json``), report (``report.md`` with PNG plots) and the
table printed at the end of a run."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agents.arena import stats
from agents.arena.behaviour import ACCURACY, accuracy_text, behaviour as arena_behaviour
from agents.arena.stats import GameResult


def build_summary(config, results: Sequence[GameResult], scheduled: int, bootstrap: int = 2000) -> dict[str, Any]:
    """Every number of the report, JSON-ready."""
    teams = config.teams()
    agents = stats.agent_order(results, config.agent_specs())
    h2h = stats.head_to_head(results, agents, teams)
    summary = {
        "name": config.name,
        "game": config.game,
        "options": config.options,
        "format": config.format,
        "seating": config.seating,
        "deals": config.deals,
        "seed": config.seed,
        "num_players": len(results[0].record.seats) if results else config.num_players(),
        "teams": [list(t) for t in teams],
        "lineups": [list(x) for x in config.all_lineups()],
        "games": len(results),
        "games_scheduled": scheduled,
        "truncated": sum(r.record.truncated for r in results),
        "mean_decisions": (sum(r.record.steps for r in results) / len(results)) if results else 0.0,
        "agents": stats.standings(results, agents, bootstrap=bootstrap, seed=config.seed),
        "head_to_head": h2h,
        "ratings": stats.ratings(results, agents, teams, h2h) if results else None,
        "behaviour": behaviour(config, results),
    }
    return _finite(summary)


def behaviour(config, results: Sequence[GameResult]) -> dict[str, Any] | None:
    """The behaviour table: the game module's columns, each agent's rates (the uncertain accuracy
    with its deal-bootstrap interval, :mod:`agents.arena.behaviour`) and its summed counts."""
    found = arena_behaviour(results, config.seed)
    if found is None:
        return None
    return {
        "columns": [list(c) for c in found.columns],
        "agents": found.rates,
        "counts": {a: dict(c) for a, c in found.counts.items()},
    }


# -- files ----------------------------------------------------------------------------------


def write_report(run_dir: Path, summary: dict[str, Any]) -> None:
    run_dir = Path(run_dir)
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    plots = run_dir / "plots"
    plots.mkdir(exist_ok=True)
    if summary["games"]:
        plot_win_rates(summary, plots / "win_rates.png")
        plot_head_to_head(summary, plots / "head_to_head.png")
        plot_ratings(summary, plots / "ratings.png")
    (run_dir / "report.md").write_text(markdown(summary))


TRUNCATION_WARNING_SHARE = 0.01


def truncation_warning(s: dict[str, Any]) -> str:
    """A warning when more than 1 % of the games hit ``max_turns`` (they have no winner), or ""."""
    games, cut = s["games"], s["truncated"]
    if not games or cut / games <= TRUNCATION_WARNING_SHARE:
        return ""
    return (f"**Warning: {cut} of {games} games ({cut / games:.1%}) were truncated at max_turns.** They count as "
            "games without a winner, which lowers every win rate and the parity alike; raise the game's "
            "max_turns or look at which line-ups cannot finish.")


def markdown(s: dict[str, Any]) -> str:
    options = ", ".join(f"{k}={v!r}" for k, v in s["options"].items()) or "defaults"
    lines = [
        f"# Tournament: {s['name']}",
        "",
        f"- game: **{s['game']}** ({options}), {s['num_players']} players"
        + (f", partnerships {s['teams']}" if any(len(t) > 1 for t in s["teams"]) else ""),
        f"- format: {s['format']}, {len(s['lineups'])} line-up(s), seating: {s['seating']}, "
        f"{s['deals']} duplicate deal(s), seed {s['seed']}",
        f"- games: {s['games']} of {s['games_scheduled']} scheduled; truncated: {s['truncated']}; "
        f"mean decisions per game: {s['mean_decisions']:.0f}",
        "",
        "## Standings",
        "",
        *([truncation_warning(s), ""] if truncation_warning(s) else []),
        "Win rate over the seats each agent held, with its Wilson 95 % interval, against the parity "
        "share (the share of all seats of all games that won: what an agent no better than the "
        "others would get, the same for every agent). *above* / *below*: the whole interval is "
        "above / below parity. Mean reward with a 95 % bootstrap interval over deals.",
        "",
        "| agent | seats | win rate | 95 % CI | parity | vs parity | mean reward | 95 % CI | rating |",
        "|---|---:|---:|---|---:|---|---:|---|---:|",
    ]
    for agent, row in _ranked(s):
        lo, hi = row["win_rate_ci"]
        mlo, mhi = row["mean_reward_ci"]
        lines.append(
            f"| {agent} | {row['seats']} | {row['win_rate']:.3f} | [{lo:.3f}, {hi:.3f}] | {row['parity']:.3f} | "
            f"{row['vs_parity']} | {row['mean_reward']:+.3f} | [{_num(mlo, '+.3f')}, {_num(mhi, '+.3f')}] | "
            f"{_rating_text(s, agent)} |"
        )
    lines += ["", "![win rates](plots/win_rates.png)", ""]
    h = s["head_to_head"]
    lines += [
        "## Head to head",
        "",
        "Share of encounters (two agents at one table, not partners) in which the row agent finished "
        "ahead of the column agent; ties count half. Encounters in brackets.",
        "",
        "| | " + " | ".join(h["agents"]) + " |",
        "|---|" + "---:|" * len(h["agents"]),
    ]
    for i, a in enumerate(h["agents"]):
        cells = []
        for j in range(len(h["agents"])):
            g = h["games"][i][j]
            cells.append("" if i == j or not g else f"{h['score'][i][j]:.2f} ({g})")
        lines.append(f"| **{a}** | " + " | ".join(cells) + " |")
    lines += ["", "![head to head](plots/head_to_head.png)", ""]
    if s["ratings"]:
        r = s["ratings"]
        lines += [
            "## Ratings", "", f"Method: {r['method']}. The fit uses all games at once, so their order does "
            "not matter. *Nash weight* / *Nash rating*: the maximum-entropy Nash equilibrium of the "
            "meta-game whose payoff is the log-odds of finishing ahead in the head-to-head matrix, and "
            "each agent's payoff against it (Nash averaging: copies of an agent do not move it). "
            f"*{r['secondary']['method'].split(',')[0]}*: a secondary, order-dependent view.", "",
            "| agent | Elo | 95 % CI (deals resampled) | Nash weight | Nash rating | OpenSkill mu ± sigma |",
            "|---|---:|---|---:|---:|---:|",
        ]
        for a, v in sorted(r["agents"].items(), key=lambda x: -x[1]["elo"]):
            lo, hi = v["elo_ci"]
            nash, skill = r["nash"].get(a, {}), r["secondary"]["agents"].get(a, {})
            lines.append(
                f"| {a} | {v['elo']:.0f} | [{lo:.0f}, {hi:.0f}] | {_num(nash.get('weight'), '.3f')} | "
                f"{_num(nash.get('rating'), '+.3f')} | {_num(skill.get('mu'), '.1f')} ± {_num(skill.get('sigma'), '.1f')} |"
            )
        lines += ["", "![ratings](plots/ratings.png)", ""]
    b = s["behaviour"]
    if b:
        lines += ["## Behaviour", "", "From the records, replayed with full state.", "",
                  "| agent | " + " | ".join(h for _, h in b["columns"]) + " |",
                  "|---|" + "---:|" * len(b["columns"])]
        for a, rates in b["agents"].items():
            lines.append(f"| {a} | " + " | ".join(_rate(rates, k) for k, _ in b["columns"]) + " |")
        if any(f"{ACCURACY}_low" in rates for rates in b["agents"].values()):
            lines += ["", "Uncertain accuracy: [95 % interval] (calls). The interval resamples whole deals: "
                      "the calls of one deal's rotations answer the same cards."]
        lines.append("")
    return "\n".join(lines) + "\n"


# -- the table at the end of a run ----------------------------------------------------------


def print_table(summary: dict[str, Any], console=None) -> None:
    """The standings: a rich table on a terminal, a full-width markdown table in a file."""
    from experiments.terminal import print_table as show

    s = summary
    headings = (("agent", "left"), ("seats", "right"), ("win rate [95% CI]", "left"), ("parity", "right"),
                ("vs parity", "left"), ("mean reward [95% CI]", "left"), ("rating", "right"))
    rows = []
    for agent, row in _ranked(s):
        lo, hi = row["win_rate_ci"]
        mlo, mhi = row["mean_reward_ci"]
        rows.append([shown(agent, width=80), str(row["seats"]), f"{row['win_rate']:.3f} [{lo:.3f}, {hi:.3f}]", f"{row['parity']:.3f}",
                     row["vs_parity"], f"{row['mean_reward']:+.3f} [{_num(mlo, '+.3f')}, {_num(mhi, '+.3f')}]",
                     _rating_text(s, agent)])
    title = f"{s['name']}: {s['game']}, {s['games']} games, {s['num_players']} players"
    show(title, headings, rows, console)
    warning = truncation_warning(s)
    if warning:
        print(warning.replace("**", ""), flush=True)


# -- plots ----------------------------------------------------------------------------------


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_win_rates(s: dict[str, Any], path: Path) -> None:
    plt = _pyplot()
    ranked = _ranked(s)[::-1]
    names = [shown(a) for a, _ in ranked]
    rates = [r["win_rate"] for _, r in ranked]
    lows = [max(0.0, r["win_rate"] - r["win_rate_ci"][0]) for _, r in ranked]
    highs = [max(0.0, r["win_rate_ci"][1] - r["win_rate"]) for _, r in ranked]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(names) + 1.5))
    ax.barh(names, rates, xerr=[lows, highs], color="#4c72b0", capsize=4)
    for i, (_, r) in enumerate(ranked):
        ax.plot([r["parity"]] * 2, [i - 0.4, i + 0.4], color="#c44e52", linewidth=2)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (Wilson 95% interval); red: parity share")
    ax.set_title(f"{s['name']}: win rates")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_head_to_head(s: dict[str, Any], path: Path) -> None:
    import numpy as np

    plt = _pyplot()
    h = s["head_to_head"]
    score = np.array([[np.nan if v is None else v for v in row] for row in h["score"]], float)
    k = len(h["agents"])
    fig, ax = plt.subplots(figsize=(1.0 * k + 2.5, 0.8 * k + 2))
    image = ax.imshow(score, vmin=0, vmax=1, cmap="RdBu")
    labels = [shown(a) for a in h["agents"]]
    ax.set_xticks(range(k), labels, rotation=40, ha="right")
    ax.set_yticks(range(k), labels)
    for i in range(k):
        for j in range(k):
            if not np.isnan(score[i, j]):
                ax.text(j, i, f"{score[i, j]:.2f}", ha="center", va="center", fontsize=8)
    fig.colorbar(image, ax=ax, label="row finished ahead of column")
    ax.set_title(f"{s['name']}: head to head")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_ratings(s: dict[str, Any], path: Path) -> None:
    plt = _pyplot()
    r = s["ratings"]
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(r["agents"]) + 1.5))
    items = sorted(r["agents"].items(), key=lambda x: x[1]["elo"])
    errors = [[max(0.0, v["elo"] - v["elo_ci"][0]) for _, v in items], [max(0.0, v["elo_ci"][1] - v["elo"]) for _, v in items]]
    ax.barh([shown(a) for a, _ in items], [v["elo"] - 1500 for _, v in items], left=1500, xerr=errors, color="#55a868",
            capsize=4)
    ax.set_xlabel("Bradley-Terry rating, Elo scale (mean 1500; 95% interval, deals resampled)")
    ax.set_title(f"{s['name']}: ratings (all games at once)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


# -- helpers --------------------------------------------------------------------------------


def shown(agent: str, width: int = 30) -> str:
    """An agent spec short enough for a table or a plot: its label if it has one (``…#ppo``),
    else a learned agent's long checkpoint path keeps its prefix and its end (``ppo:…/train/ppo``);
    the files keep the full spec."""
    if "#" in agent:
        return agent.rsplit("#", 1)[1]
    if len(agent) <= width or ":" not in agent:
        return agent
    kind, path = agent.split(":", 1)
    return f"{kind}:…{path[-(width - len(kind) - 2):]}"


def _ranked(s):
    return sorted(s["agents"].items(), key=lambda x: -(x[1]["win_rate"] if x[1]["win_rate"] is not None else -1))


def _rating_text(s, agent) -> str:
    r = s["ratings"]
    if not r or agent not in r["agents"]:
        return ""
    return f"{r['agents'][agent]['elo']:.0f} Elo"


def _rate(rates: dict[str, Any], key: str) -> str:
    """A behaviour rate; the uncertain accuracy with its interval and its calls where it has them."""
    return accuracy_text(rates) if key == ACCURACY else _num(rates.get(key), ".3f")


def _num(value, fmt: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return format(value, fmt)


def _finite(value):
    """NaN to None, so that summary.json is strict JSON."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
