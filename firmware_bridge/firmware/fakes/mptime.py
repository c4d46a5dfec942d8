"""Fake MicroPython ``time`` module: ``ticks_ms``/``ticks_diff``/``sleep_ms`` on the World clock.

Anything else (``time.time``, ``time.monotonic``...) is the real CPython ``time``, so
installing this module as ``time`` while the firmware is imported harms nobody.
"""

from __future__ import annotations

import time as _real_time
from typing import Any

from firmware_bridge.firmware.fakes import world as _world


def ticks_ms() -> int:
    """Milliseconds on the fake clock, wrapping at 2**30 like MicroPython."""
    return _world.current().ticks_ms()


def ticks_us() -> int:
    """Microseconds on the fake clock (millisecond resolution), wrapping at 2**30."""
    return (_world.current().now * 1000) & _world.TICKS_MAX


def ticks_add(ticks: int, delta: int) -> int:
    """``ticks + delta`` on the wrapping tick circle."""
    return (ticks + delta) & _world.TICKS_MAX


def ticks_diff(a: int, b: int) -> int:
    """Signed ``a - b`` on the wrapping tick circle, as MicroPython computes it."""
    return ((a - b + _world.TICKS_HALF) & _world.TICKS_MAX) - _world.TICKS_HALF


def sleep_ms(ms: int) -> None:
    """Let fake time pass (timers fire); returns at once in real time."""
    _world.current().advance(max(0, int(ms)))


def sleep_us(us: int) -> None:
    """Let fake time pass, rounded up to whole milliseconds."""
    _world.current().advance((max(0, int(us)) + 999) // 1000)


def sleep(seconds: float) -> None:
    """Let fake time pass."""
    _world.current().advance(int(seconds * 1000))


def __getattr__(name: str) -> Any:
    return getattr(_real_time, name)
