"""`riskboard serve --sim` in a child process, for the benches that watch the service from
outside (bench.idle_cpu, bench.night): started in a temporary data folder, reached over
HTTP on 127.0.0.1 with the host PIN, stopped with SIGTERM; and what /proc says of it (CPU
time per thread by the thread's name, memory, threads, open files).

The service names its threads in the kernel (`firmware_bridge.thread_names`): the emulated
Pico's is `EMULATOR_THREAD`, a virtual part a real table does not run, so the benches
leave it out of the service's CPU time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.serve_memory import HOST_PIN, free_port, proc_kib

CONFIG = "[buttons]\nhold_time = 0.1\n[log]\nlevel = \"warning\"\n"
EMULATOR_THREAD = "pico-emulator"
CLOCK_TICK_S = 1.0 / os.sysconf("SC_CLK_TCK")
START_S = 60.0


@dataclass(frozen=True)
class ThreadCpu:
    """One thread of a process: its kernel name and the CPU seconds it has used."""

    tid: int
    name: str
    seconds: float


def thread_cpu(pid: int) -> dict[int, ThreadCpu]:
    """CPU time of every thread of `pid`, by thread id: the scheduler's nanoseconds
    (/proc/<pid>/task/<tid>/schedstat) where the kernel keeps them, else user + system
    clock ticks (…/stat). Threads that end while being read are left out."""
    out: dict[int, ThreadCpu] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            name = (task / "comm").read_text().strip()
            try:
                seconds = int((task / "schedstat").read_text().split()[0]) / 1e9
            except (OSError, ValueError, IndexError):
                fields = (task / "stat").read_text().rpartition(")")[2].split()
                seconds = (int(fields[11]) + int(fields[12])) * CLOCK_TICK_S
        except OSError:
            continue
        out[int(task.name)] = ThreadCpu(int(task.name), name, seconds)
    return out


def cpu_between(before: dict[int, ThreadCpu], after: dict[int, ThreadCpu]
                ) -> dict[str, float]:
    """CPU seconds used between two `thread_cpu` readings, summed by thread name (a
    thread that started in between counts from zero; one that ended is lost)."""
    used: dict[str, float] = {}
    for tid, now in after.items():
        then = before.get(tid)
        spent = now.seconds - (then.seconds if then is not None else 0.0)
        used[now.name] = used.get(now.name, 0.0) + spent
    return used


def open_files(pid: int) -> int:
    """How many file descriptors `pid` holds open."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def thread_count(pid: int) -> int:
    """How many threads `pid` runs."""
    return len(os.listdir(f"/proc/{pid}/task"))


def rss_mib(pid: int) -> float:
    """The resident memory of `pid` in MiB."""
    return proc_kib(pid, "VmRSS") / 1024


class ServedSim:
    """`riskboard serve --sim` with `args` in a temporary data folder, as a context
    manager: entered once its page answers and its link to the emulated Pico is up. `log`: a
    file that takes the service's log (its stderr)."""

    def __init__(self, *args: str, config: str = CONFIG, log: Path | None = None) -> None:
        self.args = args
        self.config = config
        self.log = log
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self._folder: tempfile.TemporaryDirectory[str] | None = None

    @property
    def base(self) -> str:
        """The service's address, e.g. http://127.0.0.1:41234."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        """The service's process id."""
        assert self.process is not None
        return self.process.pid

    @property
    def data(self) -> Path:
        """The service's data folder."""
        assert self._folder is not None
        return Path(self._folder.name) / "d"

    def __enter__(self) -> ServedSim:
        self._folder = tempfile.TemporaryDirectory(prefix="riskboard-bench-")
        config = Path(self._folder.name) / "config.toml"
        config.write_text(self.config)
        self.port = free_port()
        env = dict(os.environ, RISKBOARD_HOST_PIN=HOST_PIN)
        log = self.log.open("ab") if self.log is not None else subprocess.DEVNULL
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "pi_app", "serve", "--sim", "--config", str(config),
                 "--port", str(self.port), "--data", str(self.data), *self.args],
                env=env, stdout=subprocess.DEVNULL, stderr=log)
        finally:
            if log is not subprocess.DEVNULL:
                log.close()
        try:
            self.wait_connected(START_S)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        if self._folder is not None:
            self._folder.cleanup()

    def wait_connected(self, timeout: float) -> None:
        """Wait until the page answers and the link to the emulated Pico is connected."""
        end = time.monotonic() + timeout
        while True:
            try:
                if self.get("/api/status").get("link", {}).get("connected"):
                    return
            except OSError:
                pass
            if time.monotonic() > end or (self.process and self.process.poll() is not None):
                raise RuntimeError("riskboard serve --sim did not start (or its link did "
                                   "not connect)")
            time.sleep(0.1)

    def get(self, path: str, timeout: float = 10.0) -> dict[str, Any]:
        """GET a JSON document as the host."""
        request = urllib.request.Request(self.base + path, headers={"X-Host-Pin": HOST_PIN})
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return json.load(answer)

    def post(self, path: str, body: dict[str, Any], timeout: float = 10.0) -> dict[str, Any]:
        """POST a JSON body as the host; the JSON answer (an HTTP error raises)."""
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", "X-Host-Pin": HOST_PIN})
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return json.load(answer)
