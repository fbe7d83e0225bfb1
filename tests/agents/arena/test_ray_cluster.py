"""A two-node Ray cluster on this machine: the same games as the local executor, and a worker
node killed mid-tournament loses or repeats no game (benchmarks/ray_cluster.py)."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray")

ROOT = Path(__file__).resolve().parents[3]


def test_a_two_node_cluster_survives_losing_its_worker_node(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "ray_cluster.py"), "--deals", "2", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=480, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "cluster: 2 nodes alive" in done.stdout
    assert "cluster run: the same games as the local executor" in done.stdout
    assert "worker node killed mid-run: 6 of 6 games, 0 repeated; records identical to the local run" in done.stdout
