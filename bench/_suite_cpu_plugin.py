"""The pytest plugin of `bench.suite_cpu`: each process of the run (an xdist worker, or the
one process) joins a cpuacct cgroup of its own under the run's, before any test starts a
browser, and writes one JSON line per test: its node id, kind (browser, slow or other) and
the CPU seconds its process tree used from the test's setup to its teardown."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bench.suite_cpu import GROUP_ENV, OUT_ENV, usage_s

_group: Path | None = None
_out: Path | None = None


def pytest_configure(config: pytest.Config) -> None:
    """Join this process's own cgroup (a worker's id, or "main" without xdist)."""
    global _group, _out
    controller = not hasattr(config, "workerinput") and bool(
        config.getoption("numprocesses", None))
    if not os.environ.get(GROUP_ENV) or controller:
        return  # the xdist controller runs no test
    name = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _group = Path(os.environ[GROUP_ENV]) / name
    _group.mkdir(exist_ok=True)
    (_group / "cgroup.procs").write_text(str(os.getpid()))
    _out = Path(os.environ[OUT_ENV]) / f"{name}.jsonl"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem):
    """Record the CPU `item` cost this process's cgroup, setup to teardown."""
    if _group is None or _out is None:
        yield
        return
    before = usage_s(_group)
    yield
    kind = ("browser" if item.get_closest_marker("browser") else
            "slow" if item.get_closest_marker("slow") else "other")
    with _out.open("a") as f:
        f.write(json.dumps({"nodeid": item.nodeid, "kind": kind,
                            "cpu": usage_s(_group) - before}) + "\n")
