"""The booted box as the checks see it: commands as root or as the maker (through a
`Runner`), riskboard.service's state and journal, a reboot, the box's files."""

from __future__ import annotations

import contextlib
import re
import shlex
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from tools.pibox.constants import BOX_PATH, DATA, VENV_PYTHON, VOLATILE
from tools.pibox.errors import CheckFailed
from tools.pibox.runner import Runner


@dataclass
class Box:
    """The running box: its root filesystem as the host sees it, and ways to run commands
    inside it (through a `Runner`: the real one enters the booted box, a test's fake answers
    from a script)."""

    runner: Runner
    root: Path  # the box's root filesystem as the host sees it

    @property
    def leader(self) -> int:
        """The box's PID 1 as the host sees it (a new one after each reboot)."""
        return self.runner.leader

    def run(self, argv: list[str] | str, timeout: float = 300, check: bool = True,
            input: str | None = None) -> subprocess.CompletedProcess[str]:
        """Run as root (a string is a shell command line); output captured."""
        cmd = ["bash", "-c", argv] if isinstance(argv, str) else argv
        proc = self.runner.run(cmd, timeout=timeout, input=input)
        if check and proc.returncode != 0:
            raise CheckFailed(f"`{argv if isinstance(argv, str) else shlex.join(argv)}` "
                              f"failed in the box (exit {proc.returncode}): "
                              f"{(proc.stdout + proc.stderr).strip()[-1500:]}")
        return proc

    def maker(self, line: str, timeout: float = 1800, check: bool = True
              ) -> subprocess.CompletedProcess[str]:
        """Run a shell line as the maker's own user in their home folder, as over SSH."""
        return self.run(self.maker_line(line), timeout=timeout, check=check)

    @staticmethod
    def maker_line(line: str) -> str:
        """The root shell line that runs `line` as the maker, in a login shell."""
        return shlex.join(["runuser", "-u", "maker", "--", "env", "-i", f"PATH={BOX_PATH}",
                           "HOME=/home/maker", "USER=maker", "LOGNAME=maker",
                           "LANG=C.UTF-8", "TERM=dumb", "bash", "-lc", f"cd ~ && {line}"])

    def text(self, path: str) -> str:
        """A file of the box (through the host's view of its root filesystem)."""
        return (self.root / path.lstrip("/")).read_text()

    def unit(self, prop: str) -> str:
        """A property of riskboard.service as systemd has it."""
        return self.run(["systemctl", "show", "-p", prop, "--value", "riskboard"]).stdout.strip()

    def main_pid(self) -> int:
        """The service's main process (0 when it is not running)."""
        return int(self.unit("MainPID") or 0)

    def wait_active(self, timeout: float, other_than: int = 0) -> int:
        """Wait until the service is active with a main process other than `other_than`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = self.main_pid()
            if pid and pid != other_than and self.unit("ActiveState") == "active":
                return pid
            time.sleep(0.5)
        raise CheckFailed(f"riskboard.service was not active again within {timeout:.0f} s "
                          f"(state {self.unit('ActiveState')}/{self.unit('SubState')}); "
                          f"journal: {self.journal(15)}")

    def reboot(self, timeout: float = 900) -> float:
        """`systemctl reboot` in the box; nspawn boots it again. Returns once the new boot
        has finished (`is-system-running --wait`), with the seconds it took."""
        old, start = self.leader, time.monotonic()
        self.run(["systemctl", "reboot"], check=False, timeout=120)
        while True:
            if time.monotonic() - start > timeout:
                raise CheckFailed(f"the box did not come back within {timeout:.0f} s of a "
                                  "reboot")
            leader = self.runner.find_leader()
            if leader and leader != old:
                self.runner.leader = leader
                with contextlib.suppress(subprocess.TimeoutExpired, CheckFailed):
                    state = self.run(["systemctl", "is-system-running", "--wait"],
                                     check=False, timeout=600).stdout.strip()
                    if state in ("running", "degraded"):
                        if state == "degraded":
                            failed = self.run(["systemctl", "--failed", "--no-pager"],
                                              check=False).stdout
                            raise CheckFailed(f"the box's boot after the reboot ended "
                                              f"degraded: {failed[-600:]}")
                        return time.monotonic() - start
            time.sleep(1)

    def steady(self, seconds: float) -> int:
        """Watch the service for `seconds` (the watchdog's period and more): it must stay
        active with no restart all along. Fails the moment it restarts or stops, naming
        the journal; returns how many times it was looked at."""
        deadline = time.monotonic() + seconds
        looks = 0
        while True:
            state, restarts = self.unit("ActiveState"), int(self.unit("NRestarts") or 0)
            looks += 1
            if state != "active" or restarts:
                raise CheckFailed(f"riskboard.service went {state} after {restarts} restarts "
                                  f"while it was watched; journal: {self.journal(12)}")
            if time.monotonic() >= deadline:
                return looks
            time.sleep(1)

    def journal(self, lines: int = 20) -> str:
        """The service's last journal lines, one string."""
        out = self.run(["journalctl", "-u", "riskboard", "--no-pager", "-n", str(lines),
                        "-o", "cat"], check=False).stdout
        return " | ".join(out.strip().splitlines())

    def journal_end(self, game_id: int) -> list[int]:
        """[commands journaled, last seq] of a game in the service's journal, read as the
        riskboard user (SQLite may create the -wal/-shm files, which must stay the
        service's)."""
        script = ("import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); print(*db.execute("
                  "'SELECT count(*), coalesce(max(seq), -1) FROM commands WHERE game_id = ? "
                  "AND undone = 0', (int(sys.argv[2]),)).fetchone())")
        out = self.run(["runuser", "-u", "riskboard", "--", VENV_PYTHON, "-c", script,
                        f"{DATA}/journal.sqlite", str(game_id)], timeout=120).stdout
        return [int(n) for n in out.split()]

    def proc_status(self, pid: int) -> dict[str, str]:
        """/proc/PID/status of a process in the box."""
        out = self.run(["cat", f"/proc/{pid}/status"]).stdout
        return dict(line.split(":\t", 1) for line in out.splitlines() if ":\t" in line)

    def files(self) -> set[str]:
        """Every path of the box's root filesystem outside the volatile folders."""
        prune = " -o ".join(f"-path {p}" for p in VOLATILE)
        out = self.run(f"find / -xdev \\( {prune} \\) -prune -o -print", timeout=600).stdout
        return set(out.splitlines())


def seconds(text: str) -> float:
    """A systemd time span as `systemctl show` prints it ("30s", "1min 30s", "500ms")."""
    units = {"ms": 0.001, "s": 1, "min": 60, "h": 3600}
    total = sum(float(n) * units[u] for n, u in re.findall(r"([\d.]+)\s*(ms|s|min|h)\b", text))
    if not total:
        raise CheckFailed(f"cannot read the time span {text!r}")
    return total
