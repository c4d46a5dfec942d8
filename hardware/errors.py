"""The tree of errors raised by the hardware layer, so callers catch as broadly as they need.

    HardwareError
     ├── HardwareUnavailable   the device cannot be used on this machine (not a Pi, no driver)
     ├── DeviceClosed          a closed device was asked to do something
     └── ProfileError          a board profile file is wrong (names the file and line)
"""

from __future__ import annotations

from pathlib import Path


class HardwareError(Exception):
    """Base of every error the hardware layer raises on purpose."""


class HardwareUnavailable(HardwareError):
    """The requested device cannot run here; the message says why and what to do instead."""


class DeviceClosed(HardwareError):
    """A device was used after `close()`."""


class ProfileError(HardwareError, ValueError):
    """A board profile is invalid. `.path` and `.line` locate the problem when known."""

    def __init__(self, problem: str, path: Path | str | None = None, line: int | None = None):
        self.problem = problem
        self.path = Path(path) if path is not None else None
        self.line = line
        where = ""
        if self.path is not None:
            where = self.path.name
            if line is not None:
                where += f" line {line}"
            where += ": "
        super().__init__(where + problem)
