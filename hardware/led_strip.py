"""The LED strip interface every backend implements (rpi-ws281x, bridge to the Pico, memory).

A strip is told whole frames: `show(pixels)` with exactly `count` (r, g, b) tuples, each
channel 0..255, as the lights renderer means them. The shared `OutputStage` applies gamma,
brightness and the power budget, then each pixel's channels are swapped for a chain whose
chips take another colour order than the drivers send (`colour_order`, the board profile's;
`hardware.colour_order`), before the backend writes the bytes out.
"""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Protocol

from hardware.colour_order import DEFAULT_ORDER, to_wire, wire_map
from hardware.device import HardwareDevice
from hardware.errors import DeviceClosed
from hardware.output_stage import OutputStage, Pixel

log = logging.getLogger(__name__)


class FrameSink(Protocol):
    """What frames are shown on: an `LedStrip`, or a strip that may be missing
    (`hardware.supervised.SupervisedStrip`)."""

    def show(self, pixels: Sequence[Pixel]) -> None:
        """Display one frame: exactly `count` (r, g, b) tuples."""


class LedStrip(HardwareDevice, ABC):
    """A chain of `count` RGB LEDs. Use as a context manager, or call `close()` when done;
    closing turns the LEDs off (if anything was shown) and releases the device."""

    backend: str = "abstract"

    def __init__(self, count: int, output: OutputStage | None = None,
                 colour_order: str = DEFAULT_ORDER) -> None:
        self._wire = wire_map(colour_order)  # ValueError for an unknown order
        self.colour_order = colour_order.upper()
        self._output = output if output is not None else OutputStage(count)
        if self._output.count != count:
            raise ValueError(f"output stage is for {self._output.count} LEDs, strip has {count}")
        self._count = count
        self._closed = False
        self._frames_shown = 0
        self._lock = threading.Lock()

    @property
    def count(self) -> int:
        """How many LEDs the strip has."""
        return self._count

    @property
    def output(self) -> OutputStage:
        """The gamma/brightness/power stage frames pass through (adjust brightness here)."""
        return self._output

    @property
    def closed(self) -> bool:
        """True once `close()` was called."""
        return self._closed

    def show(self, pixels: Sequence[Pixel]) -> None:
        """Display one frame: exactly `count` (r, g, b) tuples. Safe to call from any thread."""
        with self._lock:
            if self._closed:
                raise DeviceClosed(f"the {self.backend} LED strip is closed")
            data = to_wire(self._output.render(pixels), self._wire)
            self._write(pixels, data)
            self._frames_shown += 1

    def close(self) -> None:
        """Turn the LEDs off and release the device; calling it again does nothing."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                if self._frames_shown:
                    self._write(((0, 0, 0),) * self._count, self._output.blank())
            except Exception as exc:  # a link that is already down must not block the close
                log.warning("event=leds.blank_failed backend=%s error=%r", self.backend, exc)
            finally:
                self._release()

    def get_status(self) -> dict[str, object]:
        """A JSON-ready snapshot: backend, LED count, frames shown, output stage settings."""
        return {
            "backend": self.backend,
            "count": self._count,
            "closed": self._closed,
            "frames_shown": self._frames_shown,
            "colour_order": self.colour_order,
            **self._output.get_status(),
        }

    @abstractmethod
    def _write(self, pixels: Sequence[Pixel], data: bytes) -> None:
        """Send `data` (R, G, B bytes per LED, after the output stage and the colour-order
        swap) to the LEDs.
        `pixels` is the frame as requested, for backends that record it."""

    def _release(self) -> None:
        """Free the underlying device (called once, by `close()`); nothing by default."""
        return None

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open"
        return f"<{type(self).__name__} count={self._count} {state}>"


def output_pixels(data: bytes) -> list[Pixel]:
    """Output bytes back into a list of (r, g, b) tuples."""
    return list(zip(data[0::3], data[1::3], data[2::3]))
