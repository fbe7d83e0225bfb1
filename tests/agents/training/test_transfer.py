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
    """An exploit directory with one finished exploiter and one unfinished, and a league whose
    exploiter's result names its checkpoint by a path that no longer exists (it was moved)."""
    root = tmp_path_factory.mktemp("runs")
    exploit("honest", config_from_dict(TINY), root / "exploit", seeds=(0,), steps=512, reference=False,
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
    assert [p.relative_to(runs).parts[:2] for p in found] == [("exploit", "vs_agent_seed0"), ("main", "league")]
    assert all(p.is_file() for p in found)  # the moved league exploiter: its run's own file
    assert [s["why"] for s in skipped] == ["unfinished (no result.json)"]
    again, _ = find_exploiters([found[0], runs / "exploit", runs / "exploit" / "vs_agent_seed0"])
    assert again == [found[0]]  # a checkpoint given twice over plays once
    with pytest.raises(ValueError, match="'nowhere': no such file or directory; allowed: an exploiter's checkpoint"):
        find_exploiters(["nowhere"])


def test_every_exploiter_plays_the_same_deals_and_the_strongest_again_on_others(runs):
    found, _ = find_exploiters([runs])
    record = transfer(GAME, OPTIONS, "honest", found, deals=2, seed=3, confirm=1, confirm_deals=3)
    rows = record["rows"]
    assert len(rows) == 2 and rows[0]["edge"] >= rows[1]["edge"]
    for row in rows:
        assert row["games"] == 2 * 3 and row["edge"] == pytest.approx(row["win_rate"] - row["parity"])
        assert row["edge_interval"] == pytest.approx([x - row["parity"] for x in row["win_interval"]])
        assert row["trained_against"] == ["honest"] and len(row["sha256"]) == 64
    assert rows[0]["confirmed"]["games"] == 3 * 3 and "confirmed" not in rows[1]
    assert record["strongest"] == {"exploiter": rows[0]["exploiter"], **rows[0]["confirmed"]}
    assert record["deal_seed"] != record["confirm_deal_seed"]
    assert rows[0]["sha256"] == rows[1]["sha256"]  # the league's copy is the same policy ...
    assert rows[0]["win_rate"] == rows[1]["win_rate"]  # ... so it wins the same games of the same deals
    assert transfer(GAME, OPTIONS, "honest", found, deals=2, seed=3, confirm=1, confirm_deals=3) == record
    assert "**Strongest known exploiter:" in markdown(record)


def test_exploiters_of_another_game_or_options_are_skipped(runs):
    found, _ = find_exploiters([runs])
    with pytest.raises(ValueError, match="none of the 2 exploiter checkpoint.s. plays seven_spades with these options"):
        transfer(GAME, {"num_players": 4}, "honest", found, deals=1, seed=0)
    record = transfer(GAME, OPTIONS, "honest", found, deals=1, seed=0, confirm=0)
    assert record["strongest"] is None and len(record["rows"]) == 2


def test_the_command_writes_its_report_and_refuses_a_second_writer(runs, tmp_path):
    out = tmp_path / "out"
    args = ["transfer", "honest", str(runs), "--game", GAME, "--options", json.dumps(OPTIONS), "--deals", "1",
            "--confirm", "1", "--confirm-deals", "1", "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    saved = json.loads((out / "transfer.json").read_text())
    assert saved["exploiters"] == 2 and [s["why"] for s in saved["skipped"]] == ["unfinished (no result.json)"]
    assert "Strongest known exploiter" in (out / "transfer.md").read_text()
    with exclusive(out):
        busy = CliRunner().invoke(cli, args)
    assert busy.exit_code == 1 and "Error:" in busy.output and "transfer.json" not in busy.output
    missing = CliRunner().invoke(cli, ["transfer", "honest", str(tmp_path / "empty"), "--game", GAME])
    assert missing.exit_code == 2 and "no such file or directory" in missing.output
    (tmp_path / "empty").mkdir()
    none = CliRunner().invoke(cli, ["transfer", "honest", str(tmp_path / "empty"), "--game", GAME])
    assert none.exit_code == 2 and "no finished exploiter under" in none.output
