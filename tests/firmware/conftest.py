"""Fixtures: a fresh fake Pico (fake machine/rp2/time) with the firmware imported against it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_bridge.firmware import fakes


@pytest.fixture
def pico(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[fakes.FakePico]:
    """The fakes installed on a new simulated board; removed again after the test.

    The working directory is a fresh temporary one: it plays the Pico's flash, where the
    firmware reads ``board.txt`` and writes ``maintenance.flag``."""
    monkeypatch.chdir(tmp_path)
    installed = fakes.install()
    try:
        yield installed
    finally:
        installed.uninstall()
