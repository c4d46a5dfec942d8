"""The suite fails a hung test instead of hanging (issue 12.11): every test has a time limit."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import LONG_TEST_TIMEOUT_S

ROOT = Path(__file__).resolve().parents[1]


def test_every_test_has_a_default_time_limit(pytestconfig: pytest.Config) -> None:
    limit = float(pytestconfig.getini("timeout"))
    assert 60 <= limit < LONG_TEST_TIMEOUT_S
    assert pytestconfig.getini("timeout_method") == "signal"


@pytest.mark.slow
def test_slow_tests_get_the_long_limit(request: pytest.FixtureRequest) -> None:
    marker = request.node.get_closest_marker("timeout")
    assert marker is not None and marker.args == (LONG_TEST_TIMEOUT_S,)


@pytest.mark.timeout(7)
@pytest.mark.slow
def test_a_test_that_sets_its_own_limit_keeps_it(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("timeout").args == (7,)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_a_hung_test_fails_and_the_run_goes_on(tmp_path: Path) -> None:
    # The project's own pytest options, with the limit shortened so the check is quick.
    (tmp_path / "test_hangs.py").write_text(textwrap.dedent("""
        def test_loops_forever():
            while True:
                pass

        def test_after_it():
            assert True
    """))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path),
         "-o", "timeout=3", str(tmp_path)],
        capture_output=True, text=True, timeout=240, cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Timeout" in run.stdout, run.stdout
    assert "1 failed, 1 passed" in run.stdout, run.stdout
