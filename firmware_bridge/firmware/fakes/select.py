"""Fake MicroPython ``select`` module: ``poll`` over the fake USB stdin."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

POLLIN = 0x0001
POLLOUT = 0x0004
POLLERR = 0x0008
POLLHUP = 0x0010


class _Poll:
    def __init__(self) -> None:
        self._objects: list[tuple[Any, int]] = []

    def register(self, obj: Any, eventmask: int = POLLIN | POLLOUT) -> None:
        self._objects.append((obj, eventmask))

    def unregister(self, obj: Any) -> None:
        self._objects = [(o, m) for o, m in self._objects if o is not obj]

    def poll(self, timeout: int = -1) -> list[tuple[Any, int]]:
        out = []
        for obj, mask in self._objects:
            obj.owner.deliver()
            events = 0
            if mask & POLLIN and obj.owner.to_pico:
                events |= POLLIN
            if mask & POLLOUT:
                events |= POLLOUT
            if events:
                out.append((obj, events))
        return out

    def ipoll(self, timeout: int = -1, flags: int = 0) -> Iterator[tuple[Any, int]]:
        return iter(self.poll(timeout))


def poll() -> _Poll:
    """A poll object (only stream objects of the fake USB port can be registered)."""
    return _Poll()
