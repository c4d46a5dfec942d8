"""`make run` installs only what running needs; `make test` everything; README says how to
use the result (issue 11)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def recipe(target: str) -> str:
    """What `make <target>` would run from scratch (`-B`: as if nothing were built)."""
    return subprocess.run(["make", "-n", "-B", target], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout


def test_make_run_installs_the_project_without_the_test_extra():
    installs = [line for line in recipe("run").splitlines() if "pip install" in line]
    assert any(re.search(r"pip install --quiet -e \.$", line) for line in installs), installs
    assert not any("[test]" in line for line in installs), installs


def test_make_test_installs_the_test_extra():
    assert "pip install --quiet -e '.[test]'" in recipe("test")


def test_the_python_of_the_makefile_can_be_chosen():
    out = subprocess.run(["make", "-n", "-B", "run", "PYTHON=python3.13"], cwd=ROOT,
                         check=True, capture_output=True, text=True).stdout
    assert "python3.13 -m venv .venv" in out


def test_readme_says_how_to_use_riskboard_after_make():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for needed in (".venv/bin/riskboard", ". .venv/bin/activate", "--host 0.0.0.0",
                   "~/.local/share/riskboard", "PYTHON=python3.13"):
        assert needed in readme, needed
