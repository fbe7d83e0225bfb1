"""Local executor workers end with the process that started them, even after ``kill -9``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

SCRIPT = """
import time
from concurrent.futures import ProcessPoolExecutor
import multiprocessing
from agents.arena.executor import exit_with_parent

def pid(_):
    import os
    time.sleep(0.2)
    return os.getpid()

if __name__ == "__main__":
    import os
    pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("{method}"), initializer=exit_with_parent,
                               initargs=(os.getpid(),))
    print(" ".join(map(str, sorted(set(pool.map(pid, range(8)))))), flush=True)
    time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is dead too
        return stat.read().split()[2] != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("method", ["fork", "forkserver"])
def test_orphaned_workers_exit_when_the_parent_is_killed(tmp_path, method):
    script = tmp_path / "pool.py"
    script.write_text(SCRIPT.replace("{method}", method))
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                              cwd=os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__)))))
    workers = [int(p) for p in parent.stdout.readline().split()]
    assert workers and all(alive(p) for p in workers)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while any(alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(p) for p in workers), "workers outlived their parent"
