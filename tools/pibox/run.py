"""What the checks share while they run, and how one check's result is printed and kept."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.pibox.box import Box
from tools.pibox.devices import Pico, Strip
from tools.pibox.errors import CheckFailed
from tools.pibox.game import Game


@dataclass
class Run:
    """What the checks share: the box, the Pico, the game, the results and the timings."""

    box: Box
    bare_repo: Path  # the "remote" the maker clones (inside the box's filesystem)
    results: list[tuple[str, bool, str]] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    figures: list[str] = field(default_factory=list)
    pico: Pico | None = None
    strip: Strip | None = None
    game: Game | None = None
    before_install: set[str] = field(default_factory=set)
    profile: Any = None

    def check(self, name: str, fn: Callable[[], str]) -> bool:
        """Run one check, print and keep its result; a failure is a sentence, never a stop."""
        start = time.monotonic()
        print(f"pibox: check {name} ...", flush=True)
        try:
            detail = fn()
            ok = True
        except CheckFailed as exc:
            detail, ok = str(exc), False
        except Exception as exc:  # a bug or a surprise in the box: still one sentence
            detail, ok = f"{type(exc).__name__}: {exc}", False
        took = time.monotonic() - start
        self.results.append((name, ok, detail))
        print(f"pibox: check {name} {'ok' if ok else 'FAILED'} ({took:.0f} s): {detail}",
              flush=True)
        return ok

    @contextlib.contextmanager
    def timed(self, what: str) -> Iterator[None]:
        """Time a step into `timings`."""
        start = time.monotonic()
        try:
            yield
        finally:
            self.timings[what] = time.monotonic() - start

    def report(self) -> int:
        """Print every result, the timings and the figures; 1 if a check failed, else 0."""
        print("pibox: --- results ---")
        for name, ok, detail in self.results:
            print(f"pibox: {'ok    ' if ok else 'FAILED'} check {name}: {detail}")
        print("pibox: --- timings ---")
        for what, seconds in self.timings.items():
            print(f"pibox: {what}: {seconds:.0f} s")
        for line in self.figures:
            print(f"pibox: {line}")
        failed = [name for name, ok, _ in self.results if not ok]
        print(f"pibox: {len(self.results) - len(failed)} checks held, {len(failed)} did not",
              flush=True)
        return 1 if failed else 0
