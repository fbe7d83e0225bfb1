"""Transfer exploitability: best responses trained before, played against an agent.

``bluff exploit`` trains fresh exploiters against one agent (:mod:`agents.training.exploit`);
their edge is a lower bound of its exploitability, and a noisy one: one seed finds the agent's
weakness, another never leaves its start's basin. Every exploiter trained before (against this
agent, against earlier agents of its line, inside a league) is a best response already paid
for, and agents trained alike tend to share their weaknesses. Believe It or Not showed it: an
exploiter trained against a mixture of four agents won +0.15 to +0.21 over parity against
each of them alone, including one whose own two exploiters had found +0.09.

:func:`transfer` gathers exploiters from run directories (:func:`find_exploiters`) and plays each
against ``n - 1`` copies of the agent (Tarneeb: the agent's partnership, the exploiter holding
the other side), the line-up ``bluff exploit`` evaluates, on fresh duplicate deals. Only
exploiters of the agent's game and options play; the others are listed as skipped.

**The winner's curse.** The largest of many edges measured on the same deals is biased upwards,
so the ``confirm`` strongest exploiters are played again on other deals (a seed of their own)
and the strongest known exploiter is the one with the largest confirmed edge (the largest of a
few confirmations leans only a little high, of hundreds of screened edges a lot). Copies of one
policy (a run reproduced, a league exploiter copied; the same ``policy.npz``) count once there:
a copy takes its original's confirmation.

Limits, as for any exploiter's edge: a lower bound (the exploiters are whatever was trained
before, not a search), and an exploiter trained against another agent measures only the
weaknesses the two agents share.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import bluff_envs
from agents.arena.schedule import derive_seed
from agents.base import GameInfo
from agents.training.evaluate import SEATING, evaluate
from agents.training.exploit_results import edge_of, interval_text
from agents.training.exploiter_runs import find_exploiters  # noqa: F401 - where bluff transfer finds them

TRANSFER_DOMAIN = 11  # derive_seed(seed, TRANSFER_DOMAIN, k): the deals (k = 0) and the confirmation's (k = 1)
MAX_SHOWN = 40  # rows of the Markdown table (every row is in transfer.json)


def transfer(game: str, options: dict[str, Any], agent: str, exploiters: Sequence[Path], *, deals: int, seed: int,
             confirm: int = 3, confirm_deals: int = 1000, workers: int = 1,
             echo: Callable[[str], None] = lambda line: None) -> dict[str, Any]:
    """Every exploiter of the agent's game and options against the agent on the same fresh deals,
    the ``confirm`` strongest again on other deals; the record ``transfer.json`` holds."""
    from agents.ppo import checkpoint

    info = GameInfo.of(bluff_envs.make(game, raw=True, **options))
    rows, skipped = [], []
    playable = []
    for path in exploiters:
        try:  # the check a ppo: agent is loaded with: the same game, version and options
            meta = checkpoint.read_metadata(path)
            checkpoint.check_compatible(meta, info, source=f"checkpoint {path}")
            if checkpoint.is_legacy(path):
                raise ValueError(f"checkpoint {path} is of the old format, which only loads by unpickling")
        except ValueError as error:
            skipped.append({"path": str(path), "why": str(error)[:300]})
            continue
        playable.append((path, meta))
    if not playable:
        raise ValueError(f"none of the {len(exploiters)} exploiter checkpoint(s) plays {game} with these options "
                         f"({len(skipped)} skipped)")
    first, second = derive_seed(seed, TRANSFER_DOMAIN, 0), derive_seed(seed, TRANSFER_DOMAIN, 1)
    for k, (path, meta) in enumerate(playable, 1):
        result = evaluate(game, options, f"ppo:{path}", [agent], deals, first, workers)
        rows.append({"exploiter": str(path), "sha256": _sha256(path.read_bytes()),
                     "policy_sha256": _sha256(checkpoint.read_extra(path, "policy.npz")),
                     "trained_against": list(meta.get("config", {}).get("opponents", {}).get("fixed", [])),
                     **_edge(result)})
        echo(f"[{k}/{len(playable)}] {rows[-1]['edge']:+.3f}  {path}")
    rows.sort(key=lambda row: row["edge"], reverse=True)
    confirmed_by_policy: dict[str, dict[str, Any]] = {}
    for row in rows:
        policy = row["policy_sha256"]
        if policy not in confirmed_by_policy:
            if len(confirmed_by_policy) == confirm:
                continue
            result = evaluate(game, options, f"ppo:{row['exploiter']}", [agent], confirm_deals, second, workers)
            confirmed_by_policy[policy] = _edge(result)
            echo(f"confirmed on {confirm_deals} other deals: {confirmed_by_policy[policy]['edge']:+.3f}  {row['exploiter']}")
        row["confirmed"] = confirmed_by_policy[policy]
    confirmed = [row for row in rows if "confirmed" in row]
    strongest = max(confirmed, key=lambda row: row["confirmed"]["edge"], default=None)
    return {"agent": agent, "game": game, "options": options, "deals": deals, "seed": seed,
            "deal_seed": first, "confirm": confirm, "confirm_deals": confirm_deals, "confirm_deal_seed": second,
            "seating": SEATING, "exploiters": len(rows), "rows": rows, "skipped": skipped,
            "strongest": None if strongest is None else {"exploiter": strongest["exploiter"],
                                                         **strongest["confirmed"]}}


def _edge(result) -> dict[str, Any]:
    """An exploiter's evaluation as ``bluff exploit`` reports it (its edge over parity), with its win interval."""
    return {**edge_of(result.to_dict()), "win_interval": list(result.win_interval)}


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def markdown(record: dict[str, Any]) -> str:
    """The record as a Markdown report: the strongest, then the exploiters by edge."""
    lines = [f"Transfer exploitability of `{record['agent']}` ({record['game']}): {record['exploiters']} exploiter(s) "
             f"trained before, each against copies of it on the same {record['deals']} fresh duplicate deals (every "
             f"rotation, {record['seating']} seating); the {min(record['confirm'], record['exploiters'])} strongest policies "
             f"again on {record['confirm_deals']} other deals. Edges over parity, Wilson 95 % intervals.", ""]
    best = record["strongest"]
    if best is not None:
        lines += [f"**Strongest known exploiter: {best['edge']:+.3f}{interval_text(best['edge_interval'])}** (confirmed; "
                  f"`{best['exploiter']}`)", ""]
    lines += ["| exploiter | trained against | edge | 95 % interval | confirmed edge | 95 % interval |",
              "|---|---|---:|---|---:|---|"]
    for row in record["rows"][:MAX_SHOWN]:
        again = row.get("confirmed")
        lines.append(f"| `{row['exploiter']}` | {', '.join(row['trained_against'])[:120]} | {row['edge']:+.3f} | "
                     f"{interval_text(row['edge_interval']).strip()} | "
                     + (f"{again['edge']:+.3f} | {interval_text(again['edge_interval']).strip()} |" if again else "– | – |"))
    if len(record["rows"]) > MAX_SHOWN:
        lines.append(f"\n{len(record['rows']) - MAX_SHOWN} more in transfer.json.")
    if record["skipped"]:
        lines.append(f"\nSkipped {len(record['skipped'])} (listed in transfer.json).")
    return "\n".join(lines) + "\n"
