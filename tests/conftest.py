"""Suite-wide settings: per-test time limits (a hung test fails, it never stalls the suite),
no wall-clock deadlines in property tests (a loaded machine must not fail them), and the
run's start time for parallel workers (pytest-xdist) that share test-artifacts/."""

from __future__ import annotations

import contextlib
import os
import time

import pytest
from hypothesis import settings

# The default limit (pyproject's `timeout`) suits every ordinary test. Tests marked `slow`
# (crash loops, whole games) or `browser` (real Chromium) get this one instead: the slowest of
# them take about 30 s on a loaded 2-core machine.
LONG_TEST_TIMEOUT_S = 600

# A test that asks for one of these fixtures gets its marker, whatever its file says:
# `chromium` opens the real browser; `installer` (tests/deploy) runs deploy/install.sh for
# real into a temporary root, 1-4 s apiece, as tests/deploy/test_install.py (all `slow`).
MARKED_BY_FIXTURE = {"chromium": "browser", "installer": "slow"}

# Hypothesis fails an example slower than 200 ms by default: a duration assertion that a busy
# machine trips. The examples' behaviour is what is checked; the suite's timeout catches hangs.
settings.register_profile("riskboard", deadline=None)
settings.load_profile("riskboard")


# When this run started (set once, by the main process; xdist workers inherit it): the
# screenshot folder is cleared of older files only, never of another worker's.
RUN_STARTED_ENV = "RISKBOARD_TEST_RUN_STARTED"


def pytest_configure(config: pytest.Config) -> None:
    """Note the run's start time, in the main process only."""
    if not hasattr(config, "workerinput"):
        os.environ[RUN_STARTED_ENV] = str(time.time())


@pytest.hookimpl(tryfirst=True)  # before `-m` selects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests that ask for a fixture of MARKED_BY_FIXTURE, so `make check` leaves
    them to `make test` even when their file forgets the marker; give slow and browser
    tests the long limit unless they set their own, and run them first: parallel workers
    (one test at a time, the Makefile's --maxschedchunk 1) then share out the long ones
    early, and the run does not wait at its end for one worker's last long test (the rest
    keep their order)."""
    for item in items:
        for fixture, marker in MARKED_BY_FIXTURE.items():
            if fixture in getattr(item, "fixturenames", ()) and not item.get_closest_marker(
                    marker):
                item.add_marker(getattr(pytest.mark, marker))
    items.sort(key=lambda item: not (item.get_closest_marker("slow")
                                     or item.get_closest_marker("browser")))
    for item in items:
        if item.get_closest_marker("timeout") is not None:
            continue
        if item.get_closest_marker("slow") or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.timeout(LONG_TEST_TIMEOUT_S))


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium (Debian's chromium-headless-shell) for every browser test of
    the process: (playwright, browser).

    Every browser test uses this one: Playwright's sync API cannot start a second time in a
    process while this one runs, and under pytest-xdist any test may share a worker with any
    other. Old screenshots are removed first so test-artifacts/web holds this run's only."""
    from playwright.sync_api import sync_playwright
    from web.browsing import ARGS, ARTIFACTS, HEADLESS_SHELL, one_phone

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    started = float(os.environ.get("RISKBOARD_TEST_RUN_STARTED", "inf"))
    for old in ARTIFACTS.glob("*.png"):
        with contextlib.suppress(FileNotFoundError):  # parallel workers share the folder
            if old.stat().st_mtime < started:  # an earlier run's, not another worker's
                old.unlink()
    assert os.path.exists(HEADLESS_SHELL), (
        f"{HEADLESS_SHELL} is missing: run `bash tools/ensure-browser.sh`")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=HEADLESS_SHELL, args=ARGS, headless=True)
        browser.new_context = one_phone(browser.new_context)
        yield pw, browser
        browser.close()


@pytest.fixture(autouse=True)
def _close_what_a_test_left_open(request):
    """After each browser test: close the browser contexts it opened and the pages it
    opened in contexts made before it (a module's shared context) that it left open.

    The session's one Chromium lives as long as its worker, so a page a test forgets would
    run through every later test: an open /virtual asks its server for the LED frames ten
    times a second, a table or My view keeps its live stream. Contexts and pages that
    fixtures of a wider scope made before the test are left alone."""
    if "chromium" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("chromium")[1]
    before = {context: list(context.pages) for context in browser.contexts}
    yield
    for context in list(browser.contexts):
        if context not in before:
            with contextlib.suppress(Exception):  # closed meanwhile, or the browser gone
                context.close()
            continue
        for page in list(context.pages):
            if page not in before[context]:
                with contextlib.suppress(Exception):
                    page.close()
