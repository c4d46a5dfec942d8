"""Fixtures: a fresh fake Pico (fake machine/rp2/time) with the firmware imported against it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_bridge.firmware import fakes


@pytest.fixture
def pico() -> Iterator[fakes.FakePico]:
    """The fakes installed on a new simulated board; removed again after the test."""
    installed = fakes.install()
    try:
        yield installed
    finally:
        installed.uninstall()
