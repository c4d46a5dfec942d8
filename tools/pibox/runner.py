"""How the checks run a command inside the box: the `Runner` seam, and the real one.

`Box` asks a runner for every command it runs in the box; the real `NsenterRunner` enters
the booted box's namespaces with nsenter (from the host, as root). tests/pibox hand `Box` a
fake runner that records the commands and answers from a script, so the checks' logic is
tested without a box.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
from pathlib import Path
from typing import Protocol

from tools.pibox.constants import BOX_PATH


class Runner(Protocol):
    """Runs commands as root inside the box, with a clean environment.

    `leader` is the box's PID 1 as the host sees it; it changes when the box reboots
    (`find_leader` finds the new one, and the box sets it)."""

    leader: int

    def run(self, argv: list[str], timeout: float, input: str | None = None
            ) -> subprocess.CompletedProcess[str]:
        """Run `argv` to its end; stdout and stderr captured as text."""
        ...

    def start(self, argv: list[str], interactive: bool = False) -> subprocess.Popen[str]:
        """Start `argv` and return at once: its stdout (with stderr) is a text pipe, and
        with `interactive` so is its stdin, line-buffered."""
        ...

    def find_leader(self) -> int:
        """The box's PID 1 now (0 while there is none: the box is between two boots)."""
        ...


class NsenterRunner:
    """The real runner: nsenter into the namespaces of the box systemd-nspawn booted."""

    def __init__(self, leader: int, nspawn: int = 0) -> None:
        self.leader = leader
        self.nspawn = nspawn  # systemd-nspawn's pid (it starts the box again when it reboots)

    def command(self, argv: list[str]) -> list[str]:
        """argv run as root inside the box's namespaces with a clean environment."""
        return ["nsenter", "-t", str(self.leader), "-m", "-u", "-i", "-n", "-p", "-C",
                "-r", "-w", "--", "env", "-i", f"PATH={BOX_PATH}", "HOME=/root",
                "LANG=C.UTF-8", "TERM=dumb", *argv]

    def run(self, argv: list[str], timeout: float, input: str | None = None
            ) -> subprocess.CompletedProcess[str]:
        """Run `argv` in the box to its end; output captured."""
        return subprocess.run(self.command(argv), capture_output=True, text=True,
                              timeout=timeout, input=input)

    def start(self, argv: list[str], interactive: bool = False) -> subprocess.Popen[str]:
        """Start `argv` in the box; its output (stderr with stdout) is a pipe."""
        if interactive:
            return subprocess.Popen(self.command(argv), stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True, bufsize=1)
        return subprocess.Popen(self.command(argv), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)

    def find_leader(self) -> int:
        """The box's PID 1 now: the descendant of the loop around nspawn (box.sh) whose
        own pid is 1; 0 while there is none (the box is between two boots)."""
        def children(pid: int) -> list[int]:
            out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
            return [int(p) for p in out.stdout.split()]
        level = [self.nspawn]
        for _depth in range(4):
            level = [child for pid in level for child in children(pid)]
            for pid in level:
                with contextlib.suppress(OSError):
                    status = Path(f"/proc/{pid}/status").read_text()
                    if re.search(r"^NSpid:.*\s1$", status, re.M):
                        return pid
        return 0
