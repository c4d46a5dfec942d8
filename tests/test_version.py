"""Which riskboard is running, as a user asks it (issue 34.5): `riskboard --version`, the
first line of `riskboard doctor`, and the host's /api/status (the host page). The number is
pyproject's `version`, read here from pyproject.toml itself."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

from pi_app.cli import main

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT_VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
    "version"]


def test_version_prints_pyprojects_version_and_exits_0():
    done = subprocess.run([sys.executable, "-m", "pi_app", "--version"], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"riskboard {PYPROJECT_VERSION}\n"


def test_help_lists_the_version_option(capsys):
    assert main([]) == 2
    assert "--version" in capsys.readouterr().out


def test_doctor_names_the_version_first(tmp_path, capsys):
    main(["doctor", "--sim", "--data", str(tmp_path)])
    first = capsys.readouterr().out.splitlines()[0]
    assert first == f"riskboard {PYPROJECT_VERSION}"
