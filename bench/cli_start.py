"""Benchmark: how quickly the command line answers, against a bare Python start.

Runs `riskboard odds 10 10 --json` and `riskboard --help`, each RUNS times, interleaved
with `python -c pass` (the same interpreter: what no import of ours can beat), and prints
the medians, and the ratio to the bare start. Aim: odds under 100 ms wall (issue 15 item 4).
Python's bytecode cache is allowed (PYTHONDONTWRITEBYTECODE is dropped for the children and
one warm-up run fills it), as on any installed machine: pip compiles an installed package.

    .venv/bin/python -m bench.cli_start
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

RUNS = 15
AIM_ODDS_MS = 100.0


def _riskboard() -> list[str]:
    script = Path(sys.executable).with_name("riskboard")
    return [str(script)] if script.exists() else [sys.executable, "-m", "pi_app"]


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _wall(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   env=ENV)
    return time.perf_counter() - start


def main() -> None:
    """Time each command RUNS times; print median ms, ratio to bare Python, OK/MISS."""
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "riskboard odds 10 10 --json": [*_riskboard(), "odds", "10", "10", "--json"],
        "riskboard --help": [*_riskboard(), "--help"],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for argv in commands.values():
        _wall(argv)  # warm-up: the bytecode cache and the page cache
    for _ in range(RUNS):
        for name, argv in commands.items():
            times[name].append(_wall(argv))
    median = {name: sorted(t)[RUNS // 2] * 1000 for name, t in times.items()}
    bare = median["python -c pass"]
    print(f"python -c pass: median {bare:.0f} ms over {RUNS} runs")
    for name in list(commands)[1:]:
        line = (f"{name}: median {median[name]:.0f} ms, {median[name] / bare:.2f}x a bare "
                "python start")
        if "odds" in name:
            verdict = "OK" if median[name] < AIM_ODDS_MS else "MISS"
            line += f" (aim < {AIM_ODDS_MS:.0f} ms) {verdict}"
        print(line)


if __name__ == "__main__":
    main()
