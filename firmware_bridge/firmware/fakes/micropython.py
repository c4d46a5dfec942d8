"""Fake ``micropython`` module: ``const`` and ``kbd_intr`` (recorded in the World)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from firmware_bridge.firmware.fakes import world as _world


def const(value: int) -> int:
    """Compile-time constant marker: the value itself."""
    return value


def kbd_intr(char: int) -> None:
    """Set the character that raises KeyboardInterrupt (-1: none), as the REPL sees it."""
    _world.current().kbd_intr = char


def alloc_emergency_exception_buf(size: int) -> None:
    """No-op: CPython needs no emergency buffer."""


def schedule(func: Callable[[Any], None], arg: Any) -> None:
    """Run ``func(arg)`` at once."""
    func(arg)
