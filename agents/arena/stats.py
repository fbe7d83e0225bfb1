"""Tournament statistics that stay honest about luck and about the number of players.

* **Win rate** per agent over the seats it held, with a Wilson 95 % interval, compared with
  its **parity share**: the win rate it would have if every game's wins were shared equally
  among the seats (1/n in a game with one winner, 1/2 with partnerships, less where games
  end drawn). An agent is better than parity only when the whole interval is above it.
* **Mean reward** with a bootstrap 95 % interval that resamples whole deals (the games of a
  duplicate deal are not independent).
* **Head-to-head**: for every two agents at one table (not partners), how often the first
  finished ahead of the second (ties count half).
* **Ratings**: Bradley–Terry (as Elo points) for two-player games; OpenSkill's Plackett–Luce
  model over the finishing order, by partnership where there are partnerships, otherwise.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from bluff_envs.behaviour import wilson  # the formula lives once, in bluff_envs
from bluff_envs.records import GameRecord

ELO_SCALE = 400.0 / math.log(10.0)


class GameResult(NamedTuple):
    game_id: str
    deal: int
    record: GameRecord


def cluster_bootstrap(sums: np.ndarray, counts: np.ndarray, samples: int, rng: np.random.Generator,
                      level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of ``sum / count`` when whole clusters (deals) are resampled."""
    if len(sums) == 0 or counts.sum() == 0:
        return math.nan, math.nan
    picks = rng.integers(len(sums), size=(samples, len(sums)))
    total, count = sums[picks].sum(axis=1), counts[picks].sum(axis=1)
    means = total[count > 0] / count[count > 0]
    tail = (1.0 - level) / 2 * 100
    lo, hi = np.percentile(means, [tail, 100 - tail])
    return float(lo), float(hi)


def bradley_terry(wins: np.ndarray, prior: float = 0.0, iterations: int = 10_000, tol: float = 1e-12) -> np.ndarray:
    """Bradley–Terry strengths from ``wins[i, j]`` (times i beat j; a tie counts half to
    each), by Hunter's MM algorithm, normalised to geometric mean 1. ``prior`` adds that many
    drawn games to every pair that met, which keeps the estimate finite when an agent won
    (or lost) all its games."""
    wins = np.asarray(wins, float)
    met = (wins + wins.T) > 0
    wins = wins + prior / 2 * met
    games = wins + wins.T
    total_wins = wins.sum(axis=1)
    p = np.ones(len(wins))
    for _ in range(iterations):
        denominator = (games / (p[:, None] + p[None, :])).sum(axis=1)
        new = np.where(denominator > 0, total_wins / np.where(denominator > 0, denominator, 1.0), p)
        new = np.maximum(new, 1e-300)
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(np.log(new) - np.log(p))) < tol:
            p = new
            break
        p = new
    return p


def elo(strengths: np.ndarray, base: float = 1500.0) -> np.ndarray:
    """Bradley–Terry strengths as Elo points: 400 points = 10:1 odds; the mean is ``base``."""
    points = ELO_SCALE * np.log(strengths)
    return points - points.mean() + base


def agent_order(results: Sequence[GameResult], preferred: Sequence[str] = ()) -> list[str]:
    seen = dict.fromkeys(preferred)
    for result in results:
        seen.update(dict.fromkeys(result.record.seats))
    present = {s for r in results for s in r.record.seats}
    return [a for a in seen if a in present]


def standings(results: Sequence[GameResult], agents: Sequence[str], bootstrap: int = 2000, seed: int = 0) -> dict[str, dict[str, Any]]:
    """Per agent: games, seats, wins, win rate (winning seats / seats) with a Wilson interval
    over games (an agent's share of winning seats in each game), parity share, mean reward with
    a deal-bootstrap interval. Parity is one number for every agent: the share of all seats of
    all the games that won (what an agent no better than the others would get), so draws and
    truncated games, which have no winner, lower it for everybody alike."""
    rng = np.random.default_rng(seed)
    deals = sorted({r.deal for r in results})
    deal_index = {d: i for i, d in enumerate(deals)}
    table = {a: {"games": set(), "seats": 0, "wins": 0, "draws": 0, "game_wins": 0.0,
                 "reward_sum": np.zeros(len(deals)), "reward_n": np.zeros(len(deals))} for a in agents}
    for result in results:
        record = result.record
        won = set(record.winners)
        mine: dict[str, list[bool]] = {}
        for seat, spec in enumerate(record.seats):
            row = table[spec]
            row["games"].add(result.game_id)
            row["seats"] += 1
            row["wins"] += seat in won
            row["draws"] += not won
            row["reward_sum"][deal_index[result.deal]] += record.rewards[seat]
            row["reward_n"][deal_index[result.deal]] += 1
            mine.setdefault(spec, []).append(seat in won)
        for spec, outcomes in mine.items():
            table[spec]["game_wins"] += sum(outcomes) / len(outcomes)
    all_seats = sum(len(r.record.seats) for r in results)
    parity = sum(len(r.record.winners) for r in results) / all_seats if all_seats else math.nan
    out = {}
    for agent in agents:
        row = table[agent]
        seats = row["seats"]
        # the interval counts games, not seats: an agent holding several seats of one game (a
        # partnership) wins or loses them together, and counting each would overstate the evidence
        lo, hi = wilson(row["game_wins"], len(row["games"]))
        mean = row["reward_sum"].sum() / seats if seats else math.nan
        out[agent] = {
            "games": len(row["games"]),
            "seats": seats,
            "wins": row["wins"],
            "draws": row["draws"],
            "win_rate": row["wins"] / seats if seats else math.nan,
            "win_rate_ci": [lo, hi],
            "parity": parity,
            "vs_parity": "above" if lo > parity else "below" if hi < parity else "level",
            "mean_reward": mean,
            "mean_reward_ci": list(cluster_bootstrap(row["reward_sum"], row["reward_n"], bootstrap, rng)),
        }
    return out


def head_to_head(results: Sequence[GameResult], agents: Sequence[str], teams: Sequence[Sequence[int]]) -> dict[str, Any]:
    """``score[a][b]``: the share of encounters in which ``a`` finished ahead of ``b``
    (ties half; ``None`` where they never met), with ``games[a][b]`` encounters (pairs of
    seats of different teams) and ``wins[a][b]`` the encounters ``a`` won."""
    index = {a: i for i, a in enumerate(agents)}
    k = len(agents)
    score, games = np.zeros((k, k)), np.zeros((k, k))
    team_of = {s: t for t, team in enumerate(teams) for s in team}
    for result in results:
        record = result.record
        n = len(record.seats)
        for i in range(n):
            for j in range(i + 1, n):
                a, b = index[record.seats[i]], index[record.seats[j]]
                if a == b or team_of[i] == team_of[j]:
                    continue
                ri, rj = record.rewards[i], record.rewards[j]
                s = 1.0 if ri > rj else 0.0 if ri < rj else 0.5
                score[a, b] += s
                score[b, a] += 1.0 - s
                games[a, b] += 1
                games[b, a] += 1
    share = [[float(score[a, b] / games[a, b]) if games[a, b] else None for b in range(k)] for a in range(k)]
    return {"agents": list(agents), "score": share, "games": games.astype(int).tolist(),
            "wins": score.tolist()}


def bradley_terry_ratings(results: Sequence[GameResult], agents: Sequence[str], teams: Sequence[Sequence[int]],
                          prior: float = 1.0, samples: int = 200, seed: int = 0) -> dict[str, dict[str, float]]:
    """Bradley–Terry strengths and Elo points from the head-to-head wins, with a 95 %
    interval of the Elo points from resampling whole deals."""
    deals = sorted({r.deal for r in results})
    by_deal = {d: [r for r in results if r.deal == d] for d in deals}
    per_deal = np.array([head_to_head(by_deal[d], agents, teams)["wins"] for d in deals])
    strengths = bradley_terry(per_deal.sum(axis=0), prior=prior)
    points = elo(strengths)
    rng = np.random.default_rng(seed)
    draws = np.array([elo(bradley_terry(per_deal[rng.integers(len(deals), size=len(deals))].sum(axis=0), prior=prior))
                      for _ in range(samples)])
    lo, hi = np.percentile(draws, [2.5, 97.5], axis=0)
    return {a: {"elo": float(points[i]), "elo_ci": [float(lo[i]), float(hi[i])], "strength": float(strengths[i])}
            for i, a in enumerate(agents)}


def openskill_ratings(results: Sequence[GameResult], agents: Sequence[str], teams: Sequence[Sequence[int]]) -> dict[str, dict[str, float]]:
    """OpenSkill Plackett–Luce ratings from each game's finishing order (by team), games taken
    in id order. An agent holding several seats (or both seats of a partnership) is rated as
    copies of itself, and takes the mean of the copies' updated ratings."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rating = {a: model.rating(name=a) for a in agents}
    for result in sorted(results, key=lambda r: r.game_id):
        record = result.record
        lineup = [[rating[record.seats[s]] for s in team] for team in teams]
        team_rewards = [float(np.mean([record.rewards[s] for s in team])) for team in teams]
        updated = model.rate(lineup, ranks=[-r for r in team_rewards])
        copies: dict[str, list] = defaultdict(list)
        for team, new_team in zip(teams, updated):
            for s, new in zip(team, new_team):
                copies[record.seats[s]].append(new)
        for spec, news in copies.items():
            rating[spec] = model.rating(mu=float(np.mean([r.mu for r in news])),
                                        sigma=float(np.mean([r.sigma for r in news])), name=spec)
    return {a: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.mu - 3 * r.sigma} for a, r in rating.items()}


RATING_METHOD = ("Bradley-Terry by maximum likelihood over every pairwise encounter of all games "
                 "(Elo scale, mean 1500), 95 % interval from resampling deals")


def ratings(results: Sequence[GameResult], agents: Sequence[str], teams: Sequence[Sequence[int]],
            h2h: dict[str, Any]) -> dict[str, Any]:
    """Ratings fitted to all games at once, so they do not depend on the order of the games:
    Bradley–Terry over the pairwise encounters (two seats of different teams; the one with the
    higher reward wins, ties half), with deal-bootstrap intervals; the meta-game view of the
    head-to-head matrix (Nash averaging); and OpenSkill, which rates game by game and so
    depends on their order, as a labelled secondary view."""
    return {
        "method": RATING_METHOD,
        "agents": bradley_terry_ratings(results, agents, teams),
        "nash": nash_averaging(h2h),
        "secondary": {"method": "OpenSkill Plackett-Luce, games in id order (depends on their order)",
                      "agents": openskill_ratings(results, agents, teams)},
    }


def nash_averaging(h2h: dict[str, Any], eps: float = 1e-3) -> dict[str, dict[str, float]]:
    """Nash averaging (Balduzzi et al., 2018) of the head-to-head matrix: the maximum-entropy
    Nash equilibrium of the symmetric zero-sum meta-game whose payoff is the log-odds of
    finishing ahead (pairs that never met: 0), each agent's ``weight`` in it, and its
    ``rating``, its payoff against that equilibrium (0 for agents in its support, negative for
    those it leaves out). Unlike an average over the field, adding copies of an agent does not
    move it."""
    from scipy.optimize import minimize

    agents = h2h["agents"]
    k = len(agents)
    share = np.array([[0.5 if v is None else v for v in row] for row in h2h["score"]], float)
    np.fill_diagonal(share, 0.5)
    share = np.clip(share, eps, 1 - eps)
    payoff = np.log(share / (1 - share))  # antisymmetric: payoff[j, i] = -payoff[i, j]
    if k == 1:
        return {agents[0]: {"weight": 1.0, "rating": 0.0}}

    def negative_entropy(x):
        x = np.maximum(x, 1e-12)
        return float(np.sum(x * np.log(x)))

    constraints = [{"type": "eq", "fun": lambda x: x.sum() - 1.0},
                   {"type": "ineq", "fun": lambda x: x @ payoff}]  # no agent beats the mixture
    found = minimize(negative_entropy, np.full(k, 1.0 / k), bounds=[(0.0, 1.0)] * k, constraints=constraints,
                     method="SLSQP", options={"ftol": 1e-12, "maxiter": 500})
    weights = np.clip(found.x, 0.0, None)
    weights /= weights.sum()
    rating = payoff @ weights
    return {a: {"weight": round(float(weights[i]), 6), "rating": round(float(rating[i]), 6)} for i, a in enumerate(agents)}
