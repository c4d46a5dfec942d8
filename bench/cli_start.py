"""Benchmark: how quickly the command line answers, against a bare Python start.

Runs `riskboard odds 10 10 --json` and `riskboard --help`, each RUNS times, interleaved
with `python -c pass` (the same interpreter: what no import of ours can beat), and prints
the medians, and the ratio to the bare start. Aim: odds under 100 ms wall (issue 15 item 4),
and `--help` too (it imports no subcommand); each line ends OK or MISS.
Python's bytecode cache is allowed (PYTHONDONTWRITEBYTECODE is dropped for the children and
one warm-up run fills it), as on any installed machine: pip compiles an installed package.
Each line also gives the median CPU time (user + system) of the process: on a machine
busy with other work the wall time grows, the CPU time hardly does.

    .venv/bin/python -m bench.cli_start
"""

from __future__ import annotations

import os
import resource
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


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of `argv`."""
    cpu, start = _cpu(), time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
                   env=ENV)
    return time.perf_counter() - start, _cpu() - cpu


def main() -> None:
    """Time each command RUNS times; print median ms, ratio to bare Python, OK/MISS."""
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "riskboard odds 10 10 --json": [*_riskboard(), "odds", "10", "10", "--json"],
        "riskboard --help": [*_riskboard(), "--help"],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for argv in commands.values():
        _run(argv)  # warm-up: the bytecode cache and the page cache
    for _ in range(RUNS):
        for name, argv in commands.items():
            wall, cpu = _run(argv)
            times[name].append(wall)
            cpus[name].append(cpu)
    median = {name: sorted(t)[RUNS // 2] * 1000 for name, t in times.items()}
    cpu_ms = {name: sorted(t)[RUNS // 2] * 1000 for name, t in cpus.items()}
    bare = median["python -c pass"]
    for name in list(commands)[1:]:  # every line ends OK/MISS: --help has the odds' aim
        verdict = "OK" if median[name] < AIM_ODDS_MS else "MISS"
        print(f"{name}: median {median[name]:.0f} ms (CPU {cpu_ms[name]:.0f} ms) over {RUNS} "
              f"runs, {median[name] / bare:.2f}x a bare python start ({bare:.0f} ms, CPU "
              f"{cpu_ms['python -c pass']:.0f} ms) (aim < {AIM_ODDS_MS:.0f} ms) {verdict}")


if __name__ == "__main__":
    main()
