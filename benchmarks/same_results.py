"""Digests of everything a refactor must leave unchanged, to compare two checkouts.

    python benchmarks/same_results.py --out DIR

writes ``DIR/digests.json``: for every game and option family, a SHA-256 over 10^4 seeded
random steps (every observation, mask, reward, termination and truncation seen through the
public AEC API); the SHA-256 of ``results.jsonl`` of a shipped tournament config; and the
SHA-256 of the weights of a short seeded training run. Run it in both checkouts (the
older one with ``PYTHONPATH`` pointing at it) and compare the two files.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import yaml

import bluff_envs

ROOT = Path(__file__).resolve().parents[1]
OPTION_FAMILIES = {
    "i_doubt_it": [{}, {"num_players": 7}, {"rank_order": "ascending", "last_play_checked": False, "max_cards_per_play": None}],
    "believe_it_or_not": [{}, {"num_players": 3}, {"num_players": 5, "deck": 52, "num_decks": 2, "discard_quads": True}],
    "seven_spades": [{}, {"num_players": 2}, {"num_players": 7, "free_turn": True}],
    "tarneeb": [{}, {"variant": "egyptian"}, {"bidding": "single_round", "all_pass": "dealer_bids_7", "allow_no_trump": True, "episode": "deal"}],
}


def observation_digest(game: str, options: dict, steps: int = 10_000) -> str:
    env = bluff_envs.make(game, raw=True, **options)
    rng = np.random.default_rng(0)
    digest = hashlib.sha256()
    seed = 0
    env.reset(seed=seed)
    for _ in range(steps):
        agent = env.agent_selection
        for other in env.possible_agents:  # every seat's view, not only the actor's
            if other in env.agents:
                ob = env.observe(other)
                digest.update(ob["observation"].tobytes())
                digest.update(ob["action_mask"].tobytes())
        _, reward, term, trunc, _ = env.last()
        digest.update(np.array([reward, term, trunc], np.float64).tobytes())
        if term or trunc:
            env.step(None)
            if not env.agents:
                seed += 1
                env.reset(seed=seed)
            continue
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return digest.hexdigest()


def tournament_digest(out: Path) -> str:
    run = out / "tournament"
    subprocess.run(
        ["bluff", "tournament", str(ROOT / "experiments/tournaments/i_doubt_it.yaml"), "--out", str(run),
         "--workers", "1", "--no-progress"],  # one worker: lines in schedule order, so bytes compare
        check=True, stdout=subprocess.DEVNULL,
    )
    return hashlib.sha256((run / "results.jsonl").read_bytes()).hexdigest()


def training_digest(out: Path) -> str:
    config = yaml.safe_load((ROOT / "experiments/train/i_doubt_it.yaml").read_text())
    config.update(total_steps=8192, num_envs=4)
    config["warm_start"].update(decisions=2000, epochs=1)
    config["ppo"].update(n_steps=256, batch_size=256)
    config["opponents"].update(snapshot_every=4096)
    config["eval"].update(every=4096, deals=4, final_deals=4)
    config["checkpoint"].update(every=4096)
    path = out / "train.yaml"
    path.write_text(yaml.safe_dump(config))
    run = out / "train"
    subprocess.run(["bluff", "train", str(path), "--out", str(run)], check=True, stdout=subprocess.DEVNULL)
    import torch

    newest = max(run.rglob("*.zip"), key=lambda p: p.stat().st_mtime)
    with zipfile.ZipFile(newest) as archive:
        names = archive.namelist()
        if "bluff_envs/model.pt" in names:  # the pickle-free checkpoint: the policy's state dict
            state = torch.load(io.BytesIO(archive.read("bluff_envs/model.pt")), weights_only=True)["policy"]
        else:  # SB3's own zip (format 1)
            state = torch.load(io.BytesIO(archive.read("policy.pth")), weights_only=True)
    digest = hashlib.sha256()
    for name in sorted(state):
        digest.update(name.encode())
        digest.update(state[name].cpu().numpy().tobytes())
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--skip", nargs="*", default=[], choices=["observations", "tournament", "training"])
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    digests: dict[str, str] = {}
    if "observations" not in args.skip:
        for game, families in OPTION_FAMILIES.items():
            for k, options in enumerate(families):
                digests[f"observations/{game}/{k}"] = observation_digest(game, options)
    if "tournament" not in args.skip:
        digests["tournament/i_doubt_it"] = tournament_digest(args.out)
    if "training" not in args.skip:
        digests["training/i_doubt_it"] = training_digest(args.out)
    (args.out / "digests.json").write_text(json.dumps(digests, indent=1) + "\n")
    json.dump(digests, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
