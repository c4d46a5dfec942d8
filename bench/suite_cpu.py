"""Benchmark: what the test suite costs in CPU, browsers included, and where it goes.

`make test` on this 2-core machine is bound by CPU, and most of it is Chromium's, which
`time` sees only in part (a browser process is counted only once reaped, and a worker's
session Chromium is reaped at the worker's end, after its last test). This runs the suite as
`make test` does (pytest-xdist, one test at a time) inside a cgroup of its own (cgroup v1
`cpuacct`, as root), each xdist worker in a child cgroup joined before its first test, so its
Chromium, Playwright driver and servers are counted with it. Per test: the worker's CPU from
the test's setup to its teardown. It prints the run's wall time, its whole CPU, the CPU by
file (top 25) and by kind (browser, slow, other), and the load average before and after.

Run (root, from the checkout): .venv/bin/python -m bench.suite_cpu [--jobs 4] [pytest args…]
e.g. `python -m bench.suite_cpu tests/web/test_browser_matrix.py`. No cgroup (not root, or no
cpuacct): it says so and stops.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CPUACCT = Path("/sys/fs/cgroup/cpuacct")
PLUGIN = "bench._suite_cpu_plugin"
OUT_ENV = "RISKBOARD_SUITE_CPU_OUT"
GROUP_ENV = "RISKBOARD_SUITE_CPU_GROUP"


def usage_s(group: Path) -> float:
    """The CPU seconds the cgroup `group` and its children have used."""
    return int((group / "cpuacct.usage").read_text()) / 1e9


def main(argv: list[str] | None = None) -> None:
    """Run the suite (or the given pytest arguments) in a cgroup and print its CPU."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=4, help="xdist workers (0: none)")
    args, pytest_args = parser.parse_known_args(argv)
    if not (CPUACCT / "cpuacct.usage").exists() or not os.access(CPUACCT, os.W_OK):
        print(f"bench.suite_cpu: needs root and cgroup v1 cpuacct at {CPUACCT}; not here")
        return
    group = CPUACCT / f"riskboard-suite-{os.getpid()}"
    group.mkdir()
    out = Path(tempfile.mkdtemp(prefix="suite-cpu-"))
    xdist = ["-n", str(args.jobs), "--maxschedchunk", "1"] if args.jobs else ["-p", "no:xdist"]
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", PLUGIN,
               *xdist, *pytest_args]
    env = {**os.environ, OUT_ENV: str(out), GROUP_ENV: str(group)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as `make test` runs it
    load_before = os.getloadavg()[0]
    started = time.monotonic()
    # stopped (Ctrl-C, kill): the run's whole tree goes with it, and the cgroups are removed
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    finished = False
    try:
        join = group / "cgroup.procs"
        proc = subprocess.Popen(command, env=env,
                                preexec_fn=lambda: join.write_text(str(os.getpid())))
        code = proc.wait()
        wall = time.monotonic() - started
        total = usage_s(group)
        finished = True
    finally:
        for child in [*group.iterdir()]:
            if child.is_dir():
                _move_out_and_remove(child, kill=not finished)
        _move_out_and_remove(group, kill=not finished)
    report(out, wall, total, load_before, os.getloadavg()[0], code)


def _move_out_and_remove(group: Path, kill: bool) -> None:
    """Kill (`kill`) or hand to the root cgroup any process still in `group`; remove it."""
    for pid in (group / "cgroup.procs").read_text().split():
        try:
            if kill:
                os.kill(int(pid), signal.SIGKILL)
            else:
                (CPUACCT / "cgroup.procs").write_text(pid)
        except OSError:  # gone meanwhile
            pass
    for _ in range(50):  # a killed process leaves its cgroup once it is reaped
        if not (group / "cgroup.procs").read_text().split():
            break
        time.sleep(0.1)
    try:
        group.rmdir()
    except OSError as e:
        print(f"bench.suite_cpu: could not remove {group}: {e}")


def report(out: Path, wall: float, total: float, load_before: float, load_after: float,
           code: int) -> None:
    """Print the run's figures from the per-test records the workers wrote into `out`."""
    tests = [json.loads(line) for f in out.glob("*.jsonl") for line in f.read_text().splitlines()]
    by_file: dict[str, float] = collections.Counter()
    by_kind: dict[str, float] = collections.Counter()
    for t in tests:
        by_file[t["nodeid"].split("::")[0]] += t["cpu"]
        by_kind[t["kind"]] += t["cpu"]
    counted = sum(by_kind.values())
    print(f"pytest exit {code}; {len(tests)} tests; wall {wall:.0f} s; CPU {total:.0f} s "
          f"(in tests {counted:.0f} s; the rest: start-up, collection, Chromium start); "
          f"load {load_before:.1f} -> {load_after:.1f}")
    print("by kind: " + ", ".join(f"{k} {v:.0f} s" for k, v in by_kind.most_common()))
    print("by file (CPU-s, top 25):")
    for name, cpu in collections.Counter(by_file).most_common(25):
        print(f"  {cpu:7.1f}  {name}")


if __name__ == "__main__":
    main()
