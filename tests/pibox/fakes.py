"""A fake `Runner` for the Pi box's checks: it records every command run "in the box" and
answers from a script, so a check's logic runs without a box."""

from __future__ import annotations

import re
import shlex
import subprocess
from dataclasses import dataclass, field


@dataclass
class Answer:
    """What one scripted command prints and how it exits."""

    stdout: str = ""
    returncode: int = 0
    stderr: str = ""


@dataclass
class FakeRunner:
    """Answers each command with the first scripted answer whose pattern it matches (a
    regular expression searched in the command line, `bash -c LINE` read as LINE); a list of
    answers is used one at a time, its last one again and again. An unscripted command fails
    the test: a check's every command is one the test expected."""

    script: list[tuple[str, Answer | list[Answer]]] = field(default_factory=list)
    leader: int = 100
    leaders: list[int] = field(default_factory=list)  # what find_leader answers, in turn
    calls: list[list[str]] = field(default_factory=list)

    def on(self, pattern: str, stdout: str = "", returncode: int = 0, stderr: str = ""
           ) -> FakeRunner:
        """Script one more answer (chainable)."""
        self.script.append((pattern, Answer(stdout, returncode, stderr)))
        return self

    def on_each(self, pattern: str, *answers: Answer) -> FakeRunner:
        """Script answers to be given in turn to the commands matching `pattern`."""
        self.script.append((pattern, list(answers)))
        return self

    @staticmethod
    def line(argv: list[str]) -> str:
        """The command as the patterns see it."""
        if argv[:2] == ["bash", "-c"] and len(argv) == 3:
            return argv[2]
        return shlex.join(argv)

    def lines(self) -> list[str]:
        """Every command run so far, as the patterns see them."""
        return [self.line(argv) for argv in self.calls]

    def run(self, argv: list[str], timeout: float, input: str | None = None
            ) -> subprocess.CompletedProcess[str]:
        """Record `argv`; answer from the script."""
        self.calls.append(list(argv))
        line = self.line(argv)
        for pattern, answer in self.script:
            if re.search(pattern, line):
                if isinstance(answer, list):
                    answer = answer.pop(0) if len(answer) > 1 else answer[0]
                return subprocess.CompletedProcess(argv, answer.returncode, answer.stdout,
                                                   answer.stderr)
        raise AssertionError(f"unscripted command in the box: {line}")

    def start(self, argv: list[str], interactive: bool = False) -> subprocess.Popen[str]:
        """The fake starts nothing: a test that reaches here scripted too little."""
        raise AssertionError(f"unscripted long-running command in the box: {self.line(argv)}")

    def find_leader(self) -> int:
        """The next scripted PID 1 (0: between two boots)."""
        return self.leaders.pop(0) if self.leaders else 0
