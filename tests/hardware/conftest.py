"""Fixtures for the hardware tests: every test gets a fresh gpiozero MockFactory."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory


@pytest.fixture(autouse=True)
def mock_factory() -> Iterator[MockFactory]:
    """A fresh MockFactory as gpiozero's default, restored and reset after the test."""
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved
