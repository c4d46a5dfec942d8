"""The developer's loops (issue 22.7): `make check` runs lint and the fast tests, `make test`
the whole suite; both in parallel (pytest-xdist); an empty run fails CI; and importing the
tests never shadows a real package, installed or not."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def recipe(target: str) -> list[str]:
    """The commands `make <target>` runs (`-B`: as if nothing were built), set-up left out."""
    out = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return [line for line in out.splitlines()
            if "pip install" not in line and not line.startswith(("touch", "python"))]


def test_make_check_lints_and_runs_all_but_the_slow_and_browser_tests_in_parallel() -> None:
    commands = recipe("check")
    assert any(line.endswith("ruff check .") for line in commands), commands
    [pytest] = [line for line in commands if "-m pytest" in line]
    assert '-m "not slow and not browser"' in pytest
    assert re.search(r" -n (auto|\d+)", pytest), pytest


@pytest.mark.parametrize("target", ["check", "test"])
def test_make_checks_types_right_after_lint(target: str) -> None:
    commands = recipe(target)
    [lint] = [i for i, line in enumerate(commands) if line.endswith("ruff check .")]
    assert commands[lint + 1].endswith("/mypy"), commands


def test_mypy_is_pinned_in_the_test_extra() -> None:
    pins = [dep for dep in PYPROJECT["project"]["optional-dependencies"]["test"]
            if re.match(r"mypy\b", dep)]
    assert len(pins) == 1 and re.fullmatch(r"mypy==[\d.]+", pins[0]), pins


def test_make_test_runs_every_test_in_parallel() -> None:
    commands = recipe("test")
    [pytest] = [line for line in commands if "-m pytest" in line]
    assert " -m " not in pytest.split("-m pytest", 1)[1], pytest  # no selection: everything
    assert " -k " not in pytest and re.search(r" -n (auto|\d+)", pytest), pytest


def test_make_test_hands_tests_out_one_at_a_time_so_the_long_ones_spread() -> None:
    # xdist's default hands the first worker the first sixteenth of the run in one chunk:
    # every long test, as tests/conftest.py sorts them first
    [pytest] = [line for line in recipe("test") if "-m pytest" in line]
    assert " --maxschedchunk 1" in pytest and "--dist" not in pytest, pytest


def test_pytest_xdist_is_pinned_in_the_test_extra() -> None:
    pins = [dep for dep in PYPROJECT["project"]["optional-dependencies"]["test"]
            if dep.startswith("pytest-xdist")]
    assert len(pins) == 1 and re.fullmatch(r"pytest-xdist==[\d.]+", pins[0]), pins


def test_both_markers_are_registered() -> None:
    markers = PYPROJECT["tool"]["pytest"]["ini_options"]["markers"]
    assert {line.split(":")[0] for line in markers} >= {"slow", "browser"}


def test_a_run_that_collects_nothing_fails_ci(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path), str(tmp_path)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 5, run.stdout + run.stderr  # pytest: no tests collected
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "set -euo pipefail" in ci  # any failing command, exit 5 included, fails CI
    for masking in ("|| true", "|| :", "$? -eq 5", "$? = 5", "--suppress-no-test-exit-code"):
        assert masking not in ci, masking


def collect_without_the_installed_project(*options: str) -> subprocess.CompletedProcess:
    """Collect a test of tests/hardware as a fresh clone would without `pip install -e .`: the
    editable install's import hook removed, the working directory not on sys.path."""
    code = ("import sys; "
            "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f)]; "
            "sys.path[:] = [p for p in sys.path if p not in ('', '.')]; "
            "import pytest; "
            f"sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', '--collect-only', "
            f"*{list(options)!r}, 'tests/hardware/test_ws281x_strip.py']))")
    return subprocess.run([sys.executable, "-P", "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.slow  # two pytest runs in subprocesses
def test_the_tests_folders_never_shadow_the_real_packages() -> None:
    run = collect_without_the_installed_project()
    assert run.returncode == 0, run.stdout + run.stderr
    # The check can fail: with pytest's default import mode and no pythonpath, as before,
    # tests/hardware stands in for the real `hardware` package and collection breaks.
    old = collect_without_the_installed_project("-o", "addopts=", "-o", "pythonpath=",
                                                "-o", "consider_namespace_packages=false",
                                                "--import-mode=prepend")
    assert old.returncode != 0 and "hardware" in old.stdout, old.stdout


class FakeItem:
    """Just enough of a pytest item for the suite's ordering hook."""

    def __init__(self, name: str, *markers: str) -> None:
        self.name = name
        self.markers = {marker: getattr(pytest.mark, marker).mark for marker in markers}

    def get_closest_marker(self, name: str) -> pytest.Mark | None:
        return self.markers.get(name)

    def add_marker(self, marker: pytest.MarkDecorator) -> None:
        self.markers[marker.name] = marker.mark


def test_the_long_tests_are_handed_out_first_and_the_rest_keep_their_order() -> None:
    from conftest import pytest_collection_modifyitems  # tests/conftest.py

    items = [FakeItem("a"), FakeItem("b", "slow"), FakeItem("c"), FakeItem("d", "browser"),
             FakeItem("e")]
    pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    assert [item.name for item in items] == ["b", "d", "a", "c", "e"]
    assert "timeout" in items[0].markers and "timeout" not in items[2].markers


def test_a_test_that_opens_the_browser_or_runs_install_sh_is_left_out_of_make_check(
        tmp_path: Path) -> None:
    (tmp_path / "test_some.py").write_text(
        "import pytest\n\n\n@pytest.fixture\ndef installer():\n    return None\n\n\n"
        "def test_page(chromium):\n    pass\n\n\n"
        "def test_install(installer):\n    pass\n\n\n"
        "def test_plain():\n    pass\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-p", "tests.conftest", "-c", str(ROOT / "pyproject.toml"), "--rootdir",
         str(tmp_path), "-m", "not slow and not browser", str(tmp_path)],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stdout + run.stderr
    collected = [line for line in run.stdout.splitlines() if "::" in line]
    assert collected == ["test_some.py::test_plain"], run.stdout


def shell_scripts() -> set[str]:
    """Every shell script of the project that shellcheck must lint."""
    return {str(path.relative_to(ROOT)) for pattern in (
        "deploy/*.sh", "deploy/install.d/*.sh", "tools/*.sh", "tools/pibox/*.sh")
        for path in ROOT.glob(pattern)}


def test_make_test_installs_shellcheck_and_lints_every_shell_script() -> None:
    commands = recipe("test")
    [ensure] = [i for i, line in enumerate(commands) if line == "bash tools/ensure-shellcheck.sh"]
    [lint] = [i for i, line in enumerate(commands) if line.startswith("shellcheck -x ")]
    assert ensure < lint < next(i for i, line in enumerate(commands) if "-m pytest" in line)
    assert set(commands[lint].split()[2:]) == shell_scripts()
    assert "deploy/install.d/venv.sh" in shell_scripts()


def test_make_check_lints_the_shell_scripts_when_shellcheck_is_there() -> None:
    # without it (make check needs no root) a note says the scripts were not linted
    commands = recipe("check")
    [lint] = [line for line in commands if line.startswith("if command -v shellcheck")]
    assert lint.startswith("if command -v shellcheck >/dev/null; then shellcheck -x ")
    assert set(lint.split("shellcheck -x ", 1)[1].split(";")[0].split()) == shell_scripts()
    assert "note: no shellcheck here" in "\n".join(commands)
