"""Benchmark: `riskboard serve --sim` from process start to its first HTTP answers.

Starts the service in a fresh data folder (as `make run` does), then asks, as fast as it
can connect, for `/` (the table page: the first HTTP answer a phone gets) and
`/api/status` (the table's own state: the rules, journal and demo game are up). Each run
is a new process; the line gives the median of RUNS runs. Aim: the first answer within
0.7 s (issue 15 item 4); the table's answer is reported beside it (no aim). Python's
bytecode cache is allowed (PYTHONDONTWRITEBYTECODE is dropped for the service and a
warm-up run fills it), as on an installed machine. Beside the wall time, the CPU time
(user + system, all threads) the service had used by its first answer: on a machine busy
with other work the wall time grows, the CPU time hardly does.

    .venv/bin/python -m bench.serve_start
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

RUNS = 5
AIM_FIRST_S = 0.7
GIVE_UP_S = 30.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _command() -> list[str]:
    script = Path(sys.executable).with_name("riskboard")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pi_app"]


def _get(url: str) -> int | None:
    """The HTTP status of `url`, or None when nothing answers yet."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except OSError:
        return None


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) process `pid` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run() -> tuple[float, float, float]:
    """Seconds from spawning serve to the page's 200 and to /api/status's 200, and the
    CPU seconds the service had used by the page's 200."""
    port = _free_port()
    data = Path(tempfile.mkdtemp(prefix="riskboard-bench-")) / "data"
    env = dict(os.environ, RISKBOARD_HOST_PIN="135790")
    env.pop("RISKBOARD_CONFIG", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    base = f"http://127.0.0.1:{port}"
    start = time.perf_counter()
    server = subprocess.Popen(
        [*_command(), "serve", "--sim", "--port", str(port), "--data", str(data)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    page = status = cpu = None
    try:
        while time.perf_counter() - start < GIVE_UP_S:
            if page is None and _get(base + "/") == 200:
                page = time.perf_counter() - start
                cpu = _cpu_s(server.pid)
            if page is not None and _get(base + "/api/status") == 200:
                status = time.perf_counter() - start
                break
            if server.poll() is not None:
                raise RuntimeError(f"serve exited with {server.returncode}")
            time.sleep(0.005)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(data.parent, ignore_errors=True)
    if page is None or status is None or cpu is None:
        raise RuntimeError(f"serve did not answer within {GIVE_UP_S:.0f} s")
    return page, status, cpu


def main() -> None:
    """Run serve RUNS times; print the medians and OK/MISS against the aim."""
    pages, statuses, cpus = [], [], []
    one_run()  # warm-up: the bytecode cache and the page cache
    for _ in range(RUNS):
        page, status, cpu = one_run()
        pages.append(page)
        statuses.append(status)
        cpus.append(cpu)
    pages.sort()
    statuses.sort()
    page, status, cpu = pages[RUNS // 2], statuses[RUNS // 2], sorted(cpus)[RUNS // 2]
    verdict = "OK" if page < AIM_FIRST_S else "MISS"
    print(f"serve --sim start: first page answer median {page * 1000:.0f} ms "
          f"(best {pages[0] * 1000:.0f}, CPU {cpu * 1000:.0f}), "
          f"/api/status median {status * 1000:.0f} ms "
          f"(best {statuses[0] * 1000:.0f}) over {RUNS} runs "
          f"(aim first answer < {AIM_FIRST_S * 1000:.0f} ms) {verdict}")


if __name__ == "__main__":
    main()
