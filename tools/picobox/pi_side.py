"""The Pi's side of the box: the project's own ``firmware_bridge.link.Link`` on the port."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

from firmware_bridge.link import SensorEvent
from tools.picobox.box import PicoBox, PicoBoxError, make_link, pico_time


class Pi:
    """The Pi's side: the project's own Link on the box's port, events recorded."""

    def __init__(self, box: PicoBox, **link_kwargs: Any) -> None:
        self.box = box
        self.events: list[SensorEvent] = []
        self._lock = threading.Lock()
        self.link = make_link(box, self._on_event, **link_kwargs)

    def _on_event(self, event: SensorEvent) -> None:
        with self._lock:
            self.events.append(event)

    def got(self, channel: int, kind: str, after: int = 0) -> bool:
        """True once an event of ``kind`` on ``channel`` arrived (from index ``after``)."""
        with self._lock:
            return any(e.channel == channel and e.kind == kind for e in self.events[after:])

    def wait(self, channel: int, kind: str, after: int = 0, emu_s: float = 5.0) -> bool:
        """Wait (in Pico time) for that event."""
        return self.box.wait_until(lambda: self.got(channel, kind, after), emu_s)

    def tap(self, channel: int, after: int = 0) -> bool:
        """Press and release a button, each time waiting for the Pi to get the event."""
        self.box.press(channel)
        if not self.wait(channel, "press", after):
            return False
        self.box.release(channel)
        return self.wait(channel, "release", after)

    def wait_connected(self, emu_s: float = 10.0, epoch_not: int | None = None) -> bool:
        """Wait for the handshake (with a boot epoch other than ``epoch_not``)."""
        def done() -> bool:
            return self.link.connected and (epoch_not is None
                                            or self.link.position[0] != epoch_not)
        return self.box.wait_until(done, emu_s)

    def status(self) -> dict[str, Any]:
        """The link's get_status()."""
        return self.link.get_status()


@contextlib.contextmanager
def connected(box: PicoBox, emu_s: float = 30.0, **link_kwargs: Any) -> Iterator[Pi]:
    """Start ``box`` and the Pi's link (calling from before the Pico's USB is up), with the
    link's clock in Pico time; yield once connected; stop both afterwards."""
    box.start()
    try:
        with pico_time(box):
            pi = Pi(box, **link_kwargs)
            pi.link.start()
            try:
                if not pi.wait_connected(emu_s=emu_s):
                    raise PicoBoxError(f"no handshake within {emu_s} Pico s: {pi.status()}")
                yield pi
            finally:
                pi.link.stop()
    finally:
        box.stop()
