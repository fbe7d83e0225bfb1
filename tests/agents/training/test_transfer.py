"""Transfer exploitability: exploiters trained before, found in run directories and played
against an agent on fresh deals, the strongest confirmed on other deals."""

from __future__ import annotations

import json
import shutil

import pytest
from click.testing import CliRunner

from agents.ppo.exploit import exploit
from agents.training.config import config_from_dict
from agents.training.run_dir import exclusive
from agents.training.transfer import find_exploiters, markdown, transfer
from experiments.cli import cli

GAME, OPTIONS = "seven_spades", {"num_players": 3}
TINY = {
    "game": {"name": GAME, "options": OPTIONS},
    "total_steps": 512,
    "num_envs": 8,
    "ppo": {"n_steps": 64, "batch_size": 256, "n_epochs": 1},
    "network": {"pi": [16], "vf": [16]},
    "opponents": {"fixed": ["counter"]},
    "eval": {"every": 0, "deals": 2, "final_deals": 2, "opponents": ["counter"]},
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """An exploit directory with two finished exploiters and one unfinished, and a league whose
    exploiter (a copy of the first) names its checkpoint by a path that no longer exists (moved)."""
    root = tmp_path_factory.mktemp("runs")
    exploit("honest", config_from_dict(TINY), root / "exploit", seeds=(0, 1), steps=512, reference=False,
            echo=lambda line: None)
    (root / "exploit" / "vs_agent_seed9" / "checkpoints").mkdir(parents=True)  # stopped before its result
    league = root / "main" / "league" / "exploiter_001"
    shutil.copytree(root / "exploit" / "vs_agent_seed0", league)
    result = json.loads((league / "result.json").read_text())
    result["checkpoint"] = "elsewhere/checkpoints/" + result["checkpoint"].rsplit("/", 1)[-1]
    (league / "result.json").write_text(json.dumps(result))
    return root


def test_finished_exploiters_are_found_and_the_rest_listed(runs):
    found, skipped = find_exploiters([runs])
    assert [p.relative_to(runs).parts[:2] for p in found] == [("exploit", "vs_agent_seed0"), ("exploit", "vs_agent_seed1"),
                                                               ("main", "league")]
    assert all(p.is_file() for p in found)  # the moved league exploiter: its run's own file
    assert [s["why"] for s in skipped] == ["unfinished (no result.json)"]
    again, _ = find_exploiters([found[0], runs / "exploit" / "vs_agent_seed0", runs / "exploit"])
    assert again == found[:2]  # a checkpoint given twice over plays once
    with pytest.raises(ValueError, match="'nowhere': no such file or directory; allowed: an exploiter's checkpoint"):
        find_exploiters(["nowhere"])


def test_every_exploiter_plays_the_same_deals_and_the_strongest_again_on_others(runs):
    found, _ = find_exploiters([runs])
    record = transfer(GAME, OPTIONS, "honest", found, deals=2, seed=3, confirm=1, confirm_deals=3)
    rows = record["rows"]
    assert len(rows) == 3 and [r["edge"] for r in rows] == sorted((r["edge"] for r in rows), reverse=True)
    for row in rows:
        assert row["games"] == 2 * 3 and row["edge"] == pytest.approx(row["win_rate"] - row["parity"])
        assert row["edge_interval"] == pytest.approx([x - row["parity"] for x in row["win_interval"]])
        assert row["trained_against"] == ["honest"] and len(row["sha256"]) == 64
    first, copy = (next(r for r in rows if r["exploiter"] == str(p)) for p in (found[0], found[2]))
    other = next(r for r in rows if r["exploiter"] == str(found[1]))
    assert copy["sha256"] == first["sha256"] and other["policy_sha256"] != first["policy_sha256"]
    assert copy["win_rate"] == first["win_rate"]  # one policy wins the same games of the same deals
    top = rows[0]
    assert top["confirmed"]["games"] == 3 * 3 and record["strongest"] == {"exploiter": top["exploiter"], **top["confirmed"]}
    # one policy confirmed (--confirm 1): its copy takes the same confirmation, the other policy none
    twins = [r for r in rows if r["policy_sha256"] == top["policy_sha256"]]
    assert all(r["confirmed"] == top["confirmed"] for r in twins)
    assert all("confirmed" not in r for r in rows if r["policy_sha256"] != top["policy_sha256"])
    assert record["deal_seed"] != record["confirm_deal_seed"]
    assert transfer(GAME, OPTIONS, "honest", found, deals=2, seed=3, confirm=1, confirm_deals=3) == record
    assert "**Strongest known exploiter:" in markdown(record)


def test_exploiters_of_another_game_or_options_are_skipped(runs):
    found, _ = find_exploiters([runs])
    with pytest.raises(ValueError, match="none of the 3 exploiter checkpoint.s. plays seven_spades with these options"):
        transfer(GAME, {"num_players": 4}, "honest", found, deals=1, seed=0)
    record = transfer(GAME, OPTIONS, "honest", found, deals=1, seed=0, confirm=0)
    assert record["strongest"] is None and len(record["rows"]) == 3


def test_the_command_writes_its_report_and_refuses_a_second_writer(runs, tmp_path):
    out = tmp_path / "out"
    args = ["transfer", "honest", str(runs), "--game", GAME, "--options", json.dumps(OPTIONS), "--deals", "1",
            "--confirm", "1", "--confirm-deals", "1", "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    saved = json.loads((out / "transfer.json").read_text())
    assert saved["exploiters"] == 3 and [s["why"] for s in saved["skipped"]] == ["unfinished (no result.json)"]
    assert "Strongest known exploiter" in (out / "transfer.md").read_text()
    with exclusive(out):
        busy = CliRunner().invoke(cli, args)
    assert busy.exit_code == 1 and "Error:" in busy.output and "transfer.json" not in busy.output
    missing = CliRunner().invoke(cli, ["transfer", "honest", str(tmp_path / "empty"), "--game", GAME])
    assert missing.exit_code == 2 and "no such file or directory" in missing.output
    (tmp_path / "empty").mkdir()
    none = CliRunner().invoke(cli, ["transfer", "honest", str(tmp_path / "empty"), "--game", GAME])
    assert none.exit_code == 2 and "no finished exploiter under" in none.output


def test_kept_exploiters_play_from_the_zoo_as_their_runs_did(runs, tmp_path, monkeypatch):
    """``keep-exploiters``: one stripped zip per distinct policy, with its record; transfer finds
    them under the zoo's folder, and a config names one as ppo:zoo/exploiters/<game>/<id>.zip."""
    from agents.ppo import zoo
    from agents.registry import make_agent
    from agents.base import GameInfo
    import bluff_envs

    monkeypatch.setattr(zoo, "ZOO", tmp_path / "zoo")
    written, skipped = zoo.keep_exploiters([runs], commit="abc")
    assert len(written) == 2  # three exploiters, the league's a copy of the first
    assert [s["why"] for s in skipped] == ["unfinished (no result.json)", f"a copy of the policy kept as {written[0].name}"]
    assert all(p.parent == tmp_path / "zoo" / "exploiters" / GAME and zoo.is_kept_exploiter(p) for p in written)
    record = json.loads(zoo.checkpoint.read_extra(written[0], zoo.KEPT))
    assert record["trained_against"] == ["honest"] and record["commit"] == "abc" and record["steps"] >= 512
    assert record["against"] == "agent" and "edge" in record and record["run"].endswith("vs_agent_seed0")  # from the run's exploit.json
    found, _ = find_exploiters([runs])
    kept, _ = find_exploiters([tmp_path / "zoo"])
    assert sorted(kept) == sorted(written)
    before = transfer(GAME, OPTIONS, "honest", found[:2], deals=2, seed=3, confirm=0)
    after = transfer(GAME, OPTIONS, "honest", kept, deals=2, seed=3, confirm=0)
    assert sorted(r["win_rate"] for r in before["rows"]) == sorted(r["win_rate"] for r in after["rows"])
    again, skipped = zoo.keep_exploiters([runs, tmp_path / "zoo"])
    assert again == written and sum(s["why"] == "already a kept exploiter" for s in skipped) == 2
    assert json.loads(zoo.checkpoint.read_extra(written[0], zoo.KEPT)) == record  # kept once, not rewritten
    edges = {json.loads(zoo.checkpoint.read_extra(p, zoo.KEPT))["edge"] for p in written}
    monkeypatch.setattr(zoo, "ZOO", tmp_path / "other_zoo")
    none, skipped = zoo.keep_exploiters([runs], min_edge=max(edges) + 0.001)
    assert none == [] and sum("is below" in s["why"] for s in skipped) == 3
    kept, skipped = zoo.keep_exploiters([runs], min_edge=min(edges))
    assert len(kept) == 2 and any("(none measured) is below" in s["why"] for s in skipped)  # the league's copy
    monkeypatch.setattr(zoo, "ZOO", tmp_path / "zoo")
    game = GameInfo.of(bluff_envs.make(GAME, raw=True, **OPTIONS))
    agent = make_agent(f"ppo:zoo/exploiters/{GAME}/{written[0].name}", game, 0)
    assert agent.policy.num_actions == len(game.action_names)
    with pytest.raises(ValueError, match="no kept exploiter"):
        make_agent(f"ppo:zoo/exploiters/{GAME}/nothing.zip", game, 0)
    elsewhere = tmp_path / "elsewhere"  # zoo/exploiters names the repository's from any directory
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    result = CliRunner().invoke(cli, ["transfer", "honest", "zoo/exploiters", "--game", GAME, "--options",
                                      json.dumps(OPTIONS), "--deals", "1", "--confirm", "0", "--out", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "t" / "transfer.json").read_text())["exploiters"] == 2
