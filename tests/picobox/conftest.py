"""The Pico in a box (issue 20): these tests boot MicroPython on an emulated RP2040 and run
in ``make pico-check`` (``pytest -m picobox tests/picobox``), not in ``make test``: without
``-m picobox`` they are deselected (never skipped: pico-check runs every one of them).

Every wait is for behaviour, bounded in the emulated Pico's time (and a real-time backstop
far beyond it); no test asserts a duration. Durations are in ``bench/pico_box.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tools.picobox.box import PicoBox  # noqa: E402
from tools.picobox.pi_side import Pi, connected  # noqa: E402

PICO_TEST_TIMEOUT_S = 900


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "picobox: boots the emulated Pico (make pico-check)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave the box's tests to ``-m picobox`` (make pico-check); give them a long limit."""
    here = Path(__file__).parent
    selected = "picobox" in (config.option.markexpr or "")
    mine = [item for item in items if here in Path(str(item.fspath)).parents]
    for item in mine:
        item.add_marker(pytest.mark.picobox)
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(PICO_TEST_TIMEOUT_S))
    if not selected and mine:
        config.hook.pytest_deselected(items=mine)
        items[:] = [item for item in items if item not in mine]


@pytest.fixture(scope="module")
def classic(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pi]:
    """A classic-42 Pico (.mpy modules) with the Pi's link calling from before USB is up."""
    box = PicoBox(tmp_path_factory.mktemp("classic42"), mpy=True, seed=42, trace=True)
    with connected(box, emu_s=20) as pi:
        yield pi
