"""LED strips: the interface, the in-memory and bridge implementations, and `open_strip`.

    strip = open_strip("memory", 135, brightness=0.6, supply_amps=3)
    with strip:
        strip.show([(255, 0, 0)] * 135)

Backends: "ws281x" (the Pi's GPIO, Pi 1-4; see ws281x_strip), "bridge" (frames sent to the
Pico, which drives the LEDs; the Pi 5 way), "memory" (records every frame; simulation, tests).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, cast

from hardware.backends import LED_BACKENDS
from hardware.colour_order import DEFAULT_ORDER
from hardware.errors import HardwareUnavailable
from hardware.led_strip import LedStrip, output_pixels
from hardware.output_stage import OutputStage, Pixel
from hardware.ws281x_strip import Ws281xStrip

__all__ = [
    "BACKENDS",
    "BridgeStrip",
    "LedStrip",
    "MemoryStrip",
    "Pixel",
    "Ws281xStrip",
    "open_bridge",
    "open_strip",
]

Frame = tuple[Pixel, ...]


class MemoryStrip(LedStrip):
    """A strip that keeps the frames it was shown, for simulation and tests.

    `.frames` holds the frames as requested (what the virtual board draws; a screen does its
    own gamma), `.output_frames` the same frames after the output stage and the colour-order
    swap (what real LEDs would get). Both keep the latest `history` frames (None = all);
    `.frames_shown` counts every one.
    `on_show(frame)` is called after each frame is recorded (e.g. to push it to a web page)."""

    backend = "memory"

    def __init__(
        self,
        count: int,
        *,
        output: OutputStage | None = None,
        history: int | None = 1000,
        on_show: Callable[[Frame], None] | None = None,
        colour_order: str = DEFAULT_ORDER,
    ) -> None:
        super().__init__(count, output, colour_order)
        self.frames: deque[Frame] = deque(maxlen=history)
        # the output bytes, turned into pixels only when asked (most frames never are)
        self._output_data: deque[bytes] = deque(maxlen=history)
        self.on_show = on_show

    @property
    def output_frames(self) -> tuple[Frame, ...]:
        """The frames kept, after the output stage and the colour-order swap."""
        return tuple(tuple(output_pixels(data)) for data in self._output_data)

    @property
    def last(self) -> Frame | None:
        """The most recent frame as requested, or None before the first."""
        return self.frames[-1] if self.frames else None

    @property
    def last_output(self) -> Frame | None:
        """The most recent frame after gamma, brightness and the power budget."""
        return tuple(output_pixels(self._output_data[-1])) if self._output_data else None

    @property
    def frames_shown(self) -> int:
        """How many frames were shown in total (the history may hold fewer)."""
        return self._frames_shown

    def _write(self, pixels: Sequence[Pixel], data: bytes) -> None:
        # the caller's tuples kept, lists copied (the output stage checked there are three)
        frame = cast(Frame, tuple(map(tuple, pixels)))
        self.frames.append(frame)
        self._output_data.append(data)
        if self.on_show is not None:
            self.on_show(frame)


class BridgeStrip(LedStrip):
    """LEDs driven by the Pico: each frame, after the output stage, goes to `send` (the
    bridge link's `send_led_frame`) as a list of `count` (r, g, b) tuples."""

    backend = "bridge"

    def __init__(
        self,
        send: Callable[[list[Pixel]], None],
        count: int,
        *,
        output: OutputStage | None = None,
        colour_order: str = DEFAULT_ORDER,
    ) -> None:
        if not callable(send):
            raise TypeError("BridgeStrip needs a send callable, e.g. link.send_led_frame")
        super().__init__(count, output, colour_order)
        self._send = send

    def _write(self, pixels: Sequence[Pixel], data: bytes) -> None:
        self._send(output_pixels(data))


BACKENDS = tuple(LED_BACKENDS)
_OUTPUT_OPTIONS = ("gamma", "brightness", "supply_amps", "safety_margin", "channel_ma", "idle_ma")


def open_bridge(count: int, *, send: Callable[[list[Pixel]], None] | None = None,
                **opts: Any) -> BridgeStrip:
    """The "bridge" backend's strip: frames go to the Pico through `send` (required)."""
    if send is None:
        raise HardwareUnavailable(
            "The bridge LED backend needs the serial link to the Pico (send=...)."
        )
    return BridgeStrip(send, count, **opts)


def open_strip(backend: str, count: int, **opts: Any) -> LedStrip:
    """Open the LED strip of `backend` (a name of `hardware.backends.LED_BACKENDS`:
    "ws281x", "bridge" or "memory") with `count` LEDs.

    Output options (all backends): gamma, brightness (0..1), supply_amps (None = no limit),
    safety_margin, channel_ma, idle_ma; and colour_order (the chips', e.g. "GRB"). Backend
    options: ws281x -> gpio_pin, dma, frequency_hz, invert, module, platform; bridge -> send
    (required); memory -> history, on_show. Unknown options raise TypeError naming them."""
    output_opts = {k: opts.pop(k) for k in _OUTPUT_OPTIONS if k in opts}
    if "output" not in opts:
        opts["output"] = OutputStage(count, **output_opts)
    elif output_opts:
        raise TypeError("pass either output= or output options, not both")
    found = LED_BACKENDS.get(backend)
    if found is None:
        raise ValueError(f"unknown LED backend {backend!r}; use one of {', '.join(BACKENDS)}")
    strip: LedStrip = found.load()(count, **opts)
    return strip
