"""Whole tournaments: report files, resuming after a crash or a kill, any number of workers."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from experiments.tournament import TournamentConfig, evaluate, run_tournament
from experiments.commands.tournament import command
from agents.arena.executor import LocalExecutor
from tests.experiments.tiny import write_config


def lines_of(run_dir) -> dict[str, dict]:
    lines = [json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines()]
    by_id = {x["game_id"]: x for x in lines}
    assert len(by_id) == len(lines), "a game was played twice"
    return by_id


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    directory = tmp_path_factory.mktemp("whole")
    config = TournamentConfig.load(write_config(directory))
    run_tournament(config, directory / "run", workers=1, progress=False, report=False)
    return config, lines_of(directory / "run")


class CrashAfter(LocalExecutor):
    """Plays batches in this process and dies (as if interrupted) after ``batches`` of them."""

    def __init__(self, batches: int):
        super().__init__(workers=1)
        self.left = batches

    def run(self, batches):
        for lines in super().run(batches):
            if self.left == 0:
                raise KeyboardInterrupt
            self.left -= 1
            yield lines


def test_the_command_writes_report_summary_and_plots(tmp_path):
    result = CliRunner().invoke(command, [str(write_config(tmp_path)), "--out", str(tmp_path / "run"), "--workers", "1",
                                          "--no-progress"])
    assert result.exit_code == 0, result.output
    run = tmp_path / "run"
    summary = json.loads((run / "summary.json").read_text())
    assert summary["games"] == summary["games_scheduled"] == 12
    assert set(summary["agents"]) == {"honest", "bluffer", "random"}
    assert summary["agents"]["honest"]["parity"] <= 1 / 3
    assert summary["ratings"]["method"].startswith("Bradley-Terry by maximum likelihood")
    assert set(summary["ratings"]["nash"]) == set(summary["agents"])
    assert "order" in summary["ratings"]["secondary"]["method"]
    assert summary["behaviour"]["agents"]["honest"]["challenge_accuracy"] in (None, 1.0)  # impossible claims only
    doubts = summary["behaviour"]["agents"]["random"]  # random doubts claims it cannot prove false
    low, accuracy, high = (doubts[f"uncertain_challenge_accuracy{k}"] for k in ("_low", "", "_high"))
    assert doubts["uncertain_challenges"] > 0 and low < accuracy < high  # a deal bootstrap: 4 deals
    assert summary["behaviour"]["agents"]["honest"]["uncertain_challenge_accuracy_low"] is None  # no such call
    report = (run / "report.md").read_text()
    assert f"| {accuracy:.3f} [{low:.3f}, {high:.3f}] ({doubts['uncertain_challenges']} calls) |" in report
    for heading in ("## Standings", "## Head to head", "## Ratings", "## Behaviour", "plots/win_rates.png"):
        assert heading in report
    assert {p.name for p in (run / "plots").iterdir()} == {"win_rates.png", "head_to_head.png", "ratings.png"}
    assert "honest" in result.output and "win rate" in result.output  # the table at the end


def test_an_interrupted_tournament_resumes_to_exactly_the_uninterrupted_games(tmp_path, uninterrupted):
    config, whole = uninterrupted
    run = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):  # in batches of 2 games (the vector engine's would hold them all)
        run_tournament(dataclasses.replace(config, batch_size=2), run, executor=CrashAfter(3), progress=False, report=False)
    partial = lines_of(run)
    assert 0 < len(partial) < len(whole)
    with (run / "results.jsonl").open("a") as f:
        f.write('{"game_id": "L000-D0000')  # a torn line, as a kill during a write leaves it
    run_tournament(config, run, workers=1, progress=False, report=False)
    resumed = lines_of(run)
    assert resumed == whole
    assert all(resumed[i] == partial[i] for i in partial)  # finished games were kept, not replayed


def test_a_killed_tournament_process_resumes_to_exactly_the_uninterrupted_games(tmp_path, uninterrupted):
    config, whole = uninterrupted
    path = write_config(tmp_path, batch_size=1)
    run = tmp_path / "run"
    child = subprocess.Popen(
        [sys.executable, "-c", "from experiments.cli import main; main()", "tournament", str(path), "--out", str(run),
         "--workers", "2", "--no-progress"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    results = run / "results.jsonl"
    deadline = time.time() + 60
    while time.time() < deadline and child.poll() is None:
        if results.exists() and results.read_text().count("\n") >= 3:
            break
        time.sleep(0.02)
    os.killpg(child.pid, signal.SIGKILL)  # the tournament and its worker processes, at once
    child.wait()
    killed_at = results.read_text().count("\n")
    run_tournament(config, run, workers=2, progress=False, report=False)
    assert lines_of(run) == whole
    assert killed_at >= 3


def test_results_do_not_depend_on_the_number_of_workers(tmp_path, uninterrupted):
    config, whole = uninterrupted
    run_tournament(config, tmp_path / "two", workers=2, progress=False, report=False)
    assert lines_of(tmp_path / "two") == whole


def test_a_run_directory_of_another_tournament_is_refused(tmp_path, uninterrupted):
    config, _ = uninterrupted
    run_tournament(config, tmp_path / "run", workers=1, progress=False, report=False)
    other = TournamentConfig.load(write_config(tmp_path, seed=99))
    with pytest.raises(ValueError, match="differs in: seed"):
        run_tournament(other, tmp_path / "run", workers=1, progress=False, report=False)


def test_evaluate_plays_duplicate_deals_of_a_line_up():
    result = evaluate("i_doubt_it", ["honest", "random", "random"], options={"num_players": 3}, deals=3, seed=1)
    assert result["games"] == 9
    honest = result["agents"]["honest"]
    assert honest["seats"] == 9 and honest["parity"] == pytest.approx(1 / 3)
    assert honest["win_rate"] > honest["parity"]
    assert evaluate("i_doubt_it", ["honest", "random", "random"], options={"num_players": 3}, deals=3, seed=1,
                    workers=2) == result


def test_workers_from_a_fork_server_give_the_same_games():
    lineup = ["honest", "counter", "random"]
    options = {"num_players": 3, "max_turns": 60}
    inline = evaluate("i_doubt_it", lineup, options=options, deals=2, seed=4, workers=1)
    with LocalExecutor(2, start_method="forkserver") as executor:
        served = evaluate("i_doubt_it", lineup, options=options, deals=2, seed=4, executor=executor)
    assert served == inline


def test_two_runs_cannot_write_to_one_directory(tmp_path, uninterrupted):
    config, _ = uninterrupted
    run = tmp_path / "run"
    run.mkdir()
    holder = subprocess.Popen(  # another process holding the directory, as a running tournament does
        [sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'w'); "
         "fcntl.lockf(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)", str(run / ".lock")],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ValueError, match="another run is writing"):
            run_tournament(config, run, workers=1, progress=False, report=False)
    finally:
        holder.kill()
        holder.wait()
    run_tournament(config, run, workers=1, progress=False, report=False)
    assert (run / "results.jsonl").exists()


@pytest.mark.parametrize("name", ["../../x", "/tmp/abs", "..", "a/b", "", "~root"])
def test_a_name_from_a_config_never_leads_outside_the_run_directory(name):
    from pathlib import Path
    from types import SimpleNamespace

    from agents.training.run_dir import inside
    from experiments.tournament.runner import default_run_dir

    with pytest.raises(ValueError, match="tournament name .* cannot name a directory: it must be one plain name"):
        default_run_dir(SimpleNamespace(name=name))
    with pytest.raises(ValueError, match="trained agent name"):
        inside(Path("runs"), "i_doubt_it", "train", name, what="trained agent name")
    assert inside(Path("runs"), "quick", "i_doubt_it.v2") == Path("runs/quick/i_doubt_it.v2")


def test_a_read_only_run_directory_is_one_clear_line(tmp_path):
    from experiments.commands.tournament import command
    from tests.experiments.tiny import write_config

    if os.geteuid() == 0:  # root writes anywhere: simulate the failing write instead
        pytest.skip("read-only directories do not stop root")
    config = write_config(tmp_path)
    run_dir = tmp_path / "ro"
    run_dir.mkdir()
    run_dir.chmod(0o500)
    try:
        result = CliRunner().invoke(command, [str(config), "--out", str(run_dir), "--no-progress"])
    finally:
        run_dir.chmod(0o700)
    assert result.exit_code == 1 and "cannot write or read" in result.output and "Traceback" not in result.output


def test_a_full_disk_is_one_clear_line(tmp_path, monkeypatch):
    import errno

    from experiments.commands.tournament import command
    from experiments.tournament import results
    from tests.experiments.tiny import write_config

    def full(self, lines):
        raise OSError(errno.ENOSPC, "No space left on device", str(self.path))

    monkeypatch.setattr(results.ResultsFile, "append", full)
    result = CliRunner().invoke(command, [str(write_config(tmp_path)), "--out", str(tmp_path / "run"), "--no-progress",
                                          "--workers", "1"])
    assert result.exit_code == 1 and "No space left on device" in result.output and "Traceback" not in result.output


def test_a_damaged_tournament_json_stops_a_resume(tmp_path):
    from experiments.commands.tournament import command
    from tests.experiments.tiny import write_config

    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "tournament.json").write_text("{torn")
    result = CliRunner().invoke(command, [str(write_config(tmp_path)), "--out", str(tmp_path / "run"), "--no-progress"])
    assert result.exit_code == 1 and "tournament.json is damaged" in result.output


def test_piped_output_has_full_width_tables_and_no_progress_frames(tmp_path):
    config = write_config(tmp_path, name="a_tournament_name_long_enough_to_cut_in_eighty_columns_" + "x" * 20)
    done = subprocess.run([sys.executable, "-m", "experiments.cli", "tournament", str(config), "--out",
                           str(tmp_path / "run"), "--workers", "1"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    output = done.stdout + done.stderr
    assert "\r" not in output and "…" not in output
    assert "| agent | seats | win rate [95% CI]" in done.stdout and "x" * 20 in done.stdout


def test_on_a_terminal_the_tournament_shows_a_progress_bar(tmp_path):
    import pty

    config = write_config(tmp_path)
    command_line = [sys.executable, "-m", "experiments.cli", "tournament", str(config), "--out", str(tmp_path / "run"),
                    "--workers", "1"]
    pid, fd = pty.fork()
    if pid == 0:  # the child: stdout and stderr are the terminal, 120 columns wide
        import fcntl
        import struct
        import termios

        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        os.execv(sys.executable, command_line)
    chunks = []
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.waitpid(pid, 0)
    text = b"".join(chunks).decode(errors="replace")
    assert "game/s" in text or "games/s" in text or "it/s" in text  # tqdm's frames
    assert "┃" in text or "━" in text  # rich's table
