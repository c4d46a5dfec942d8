"""Fixtures for the deploy tests: run install.sh for real against a temporary root.

install.sh runs unmodified; only what cannot happen in CI is replaced: the host's
systemd, udev and pip are stub programs on PATH that record how they were called.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
INSTALL = REPO / "deploy" / "install.sh"
# The parts install.sh sources, one job each (OS check, user and folders, venv, unit, ...).
INSTALL_PARTS = sorted((REPO / "deploy" / "install.d").glob("*.sh"))


def install_script() -> str:
    """install.sh's whole text: the script and every part it sources."""
    return "".join(path.read_text() for path in [INSTALL, *INSTALL_PARTS])

PI_MODELS = {
    "pi5": "Raspberry Pi 5 Model B Rev 1.0",
    "pi4": "Raspberry Pi 4 Model B Rev 1.4",
    "pi3": "Raspberry Pi 3 Model B Plus Rev 1.3",
    "zero2w": "Raspberry Pi Zero 2 W Rev 1.0",
}

RECORDER = """#!/bin/sh
# Stub of {name}: record the call, do nothing.
echo "{name} $*" >> "{log}"
"""


@dataclass
class Run:
    """One finished install.sh run."""

    returncode: int
    stdout: str
    stderr: str


@dataclass
class Installer:
    """Runs deploy/install.sh into `root` with stub system commands on PATH."""

    root: Path
    bin_dir: Path
    calls_log: Path
    model_file: Path

    def run(self, *args: str, env: dict[str, str] | None = None, check: bool = True) -> Run:
        """Run install.sh with `args` (callers add --root unless testing RISKBOARD_ROOT)."""
        full_env = {
            "PATH": f"{self.bin_dir}:{os.environ['PATH']}",
            "HOME": str(self.root.parent),
            "LANG": "C.UTF-8",
            **(env or {}),
        }
        proc = subprocess.run(
            ["bash", str(INSTALL), *args],
            capture_output=True,
            text=True,
            env=full_env,
            timeout=300,  # a hang guard only: install.sh starts Python several times
        )
        run = Run(proc.returncode, proc.stdout, proc.stderr)
        if check and proc.returncode != 0:
            raise AssertionError(f"install.sh {args} failed:\n{proc.stdout}\n{proc.stderr}")
        return run

    def install(self, *extra: str, check: bool = True) -> Run:
        """The CI install: temporary root, no pip, no systemd."""
        return self.run(
            "--root",
            str(self.root),
            "--no-pip",
            "--no-systemctl",
            "--model-file",
            str(self.model_file),
            *extra,
            check=check,
        )

    def set_model(self, key: str | None) -> None:
        """Pretend to be this Pi model (None: not a Pi, the model file is missing)."""
        if key is None:
            self.model_file.unlink(missing_ok=True)
        else:
            self.model_file.write_bytes(PI_MODELS[key].encode() + b"\0")

    def calls(self) -> list[str]:
        """The stub commands called so far, one `name args` string each."""
        if not self.calls_log.exists():
            return []
        return self.calls_log.read_text().splitlines()

    def stub(self, name: str, script: str | None = None) -> None:
        """Put a stub `name` on PATH (default: one that records its arguments)."""
        path = self.bin_dir / name
        path.write_text(script or RECORDER.format(name=name, log=self.calls_log))
        path.chmod(0o755)

    def path(self, absolute: str) -> Path:
        """The file inside the temporary root standing for `absolute`."""
        return self.root / absolute.lstrip("/")


@pytest.fixture
def installer(tmp_path: Path) -> Installer:
    """An installer over a fresh temporary root, pretending to be a Pi 4."""
    root = tmp_path / "root"
    root.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    inst = Installer(root, bin_dir, tmp_path / "calls.log", tmp_path / "model")
    inst.set_model("pi4")
    return inst


def snapshot(root: Path) -> dict[str, tuple]:
    """Every path under root with its type, mode, content and modification time."""
    state: dict[str, tuple] = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        rel = str(path.relative_to(root))
        if path.is_symlink():
            state[rel] = ("link", os.readlink(path))
        elif path.is_dir():
            state[rel] = ("dir", st.st_mode, st.st_mtime_ns)
        else:
            state[rel] = ("file", st.st_mode, st.st_mtime_ns, path.read_bytes())
    return state


SnapshotFn = Callable[[Path], dict[str, tuple]]
