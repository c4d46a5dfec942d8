"""The unit's TasksMax against the threads `riskboard serve` really starts.

Under `TasksMax=64` the service died at start on every Pi ("can't start new thread"):
waitress alone runs 64 workers. This test starts a real `riskboard serve --sim` (the same
threads as on a Pi: waitress's pool, the table loop, painter, Pico link and one hold timer
per button; the emulated Pico's thread stands in for the GPIO library's callback thread),
counts its threads once it serves, and compares the count with the unit's number.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pi_app.web.serve import DEFAULT_THREADS

from .test_unit_file import SERVICE, one

HEADROOM = 16  # threads the table may add before the unit must be raised
LOOSEST = 1.5  # TasksMax above this many times the count no longer tracks it


def serve_threads(data_dir: Path) -> int:
    """The thread count of a `riskboard serve --sim` once it is serving and settled."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RISKBOARD_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pi_app", "serve", "--sim", "--host", "127.0.0.1",
         "--port", "0", "--data", str(data_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "serving on" in line:
                break
        else:
            raise AssertionError(f"serve ended without serving (exit {proc.wait()})")
        tasks = Path(f"/proc/{proc.pid}/task")
        counts: list[int] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            counts.append(len(list(tasks.iterdir())))
            if len(counts) >= 8 and len(set(counts[-8:])) == 1:  # unchanged for 2 s
                break
            time.sleep(0.25)
        return max(counts)
    finally:
        proc.kill()
        proc.wait(timeout=30)


@pytest.mark.slow
def test_tasks_max_covers_the_threads_serve_starts(tmp_path: Path) -> None:
    tasks_max = int(one(SERVICE, "TasksMax"))
    threads = serve_threads(tmp_path / "data")
    assert threads > DEFAULT_THREADS, f"only {threads} threads: waitress's pool did not start"
    assert threads + HEADROOM <= tasks_max, (
        f"riskboard serve runs {threads} threads; TasksMax={tasks_max} in "
        f"deploy/riskboard.service leaves less than {HEADROOM} to spare: raise it")
    assert tasks_max <= LOOSEST * threads, (
        f"TasksMax={tasks_max} is far above the {threads} threads serve runs: lower it to "
        f"about {threads + 2 * HEADROOM} so it still catches a thread leak")
