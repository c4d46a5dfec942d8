"""LEDs driven from the Pi's own GPIO by rpi-ws281x (Raspberry Pi 1 to 4 only).

rpi-ws281x is imported lazily, and only after the platform check passed: off a Pi (or on a
Pi 5) its strip fails to start and then crashes the interpreter at exit, so we refuse first,
with a sentence, by raising `HardwareUnavailable`. Tests inject a fake module instead.

GPIO pins and the peripheral rpi-ws281x uses for them:
  10 -> SPI, the default and recommended wiring (no root with /dev/spidev0.0; needs SPI
        enabled and a fixed core clock: core_freq=250 on a Pi 3B+/Zero 2 W, core_freq=500
        and core_freq_min=500 on a Pi 4, see the rpi_ws281x README),
  18 or 12 -> PWM channel 0, 13 or 19 -> PWM channel 1 (root, and on-board audio off),
  21 -> PCM (root).
"""

from __future__ import annotations

import atexit
import importlib
import logging
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from hardware.colour_order import DEFAULT_ORDER
from hardware.errors import HardwareUnavailable
from hardware.led_strip import LedStrip
from hardware.output_stage import OutputStage, Pixel
from hardware.platform import Platform, detect_platform

log = logging.getLogger(__name__)

# GPIO -> the PWM channel rpi-ws281x must be given for it.
WS281X_PINS: dict[int, int] = {18: 0, 12: 0, 10: 0, 21: 0, 13: 1, 19: 1}


def load_ws281x_module(platform: Platform | None = None) -> ModuleType:
    """Import rpi_ws281x if this machine can run it; else raise HardwareUnavailable."""
    platform = platform if platform is not None else detect_platform()
    refusal = platform.ws281x_refusal()
    if refusal is not None:
        raise HardwareUnavailable(refusal)
    try:
        return importlib.import_module("rpi_ws281x")
    except ImportError as exc:
        raise HardwareUnavailable(
            "The ws281x LED backend needs the rpi-ws281x package, which is not installed; "
            "install it with: pip install 'riskboard[pi]'."
        ) from exc


class Ws281xStrip(LedStrip):
    """A WS281x chain on one of the Pi's GPIO pins (default GPIO 10, SPI), through rpi-ws281x.

    `module` replaces the rpi_ws281x import (tests pass a fake); without it the platform is
    checked first (`platform`, default: detected) and HardwareUnavailable explains a refusal."""

    backend = "ws281x"

    def __init__(
        self,
        count: int,
        *,
        gpio_pin: int = 10,
        dma: int = 10,
        frequency_hz: int = 800_000,
        invert: bool = False,
        output: OutputStage | None = None,
        module: Any = None,
        platform: Platform | None = None,
        colour_order: str = DEFAULT_ORDER,
    ) -> None:
        if gpio_pin not in WS281X_PINS:
            pins = ", ".join(str(p) for p in sorted(WS281X_PINS))
            raise ValueError(f"rpi-ws281x cannot drive GPIO {gpio_pin}; use one of {pins}")
        super().__init__(count, output, colour_order)
        self.gpio_pin = gpio_pin
        self._ws = module if module is not None else load_ws281x_module(platform)
        self._color = self._ws.Color
        # brightness stays 255 in the driver: ours is applied by the output stage. No
        # strip_type: rpi-ws281x then sends GRB, and LedStrip swaps channels for other chips.
        self._strip = self._ws.PixelStrip(
            count, gpio_pin, frequency_hz, dma, invert, 255, WS281X_PINS[gpio_pin]
        )
        try:
            self._strip.begin()
        except RuntimeError as exc:
            # rpi-ws281x registered _cleanup with atexit, and it finalises the driver even when
            # begin() failed, which crashes the interpreter at exit: take it off the list.
            cleanup = getattr(self._strip, "_cleanup", None)
            if cleanup is not None:
                atexit.unregister(cleanup)
            raise HardwareUnavailable(
                f"The LED driver could not start on GPIO {gpio_pin} ({exc}); "
                + driver_fix(str(exc), gpio_pin)
            ) from exc
        log.info("event=leds.open backend=ws281x gpio=%d count=%d", gpio_pin, count)

    def _write(self, pixels: Sequence[Pixel], data: bytes) -> None:
        set_pixel, color = self._strip.setPixelColor, self._color
        for index in range(self._count):
            base = 3 * index
            set_pixel(index, color(data[base], data[base + 1], data[base + 2]))
        self._strip.show()

    def _release(self) -> None:
        # rpi-ws281x frees its DMA buffers in a private _cleanup (also registered atexit, and
        # idempotent); calling it now releases the hardware at close rather than at exit.
        cleanup = getattr(self._strip, "_cleanup", None)
        if cleanup is not None:
            cleanup()
        log.info("event=leds.close backend=ws281x gpio=%d", self.gpio_pin)


# What each of rpi-ws281x's start-up failures (ws2811_init's return codes, ws2811.h) asks
# the maker to do. rpi-ws281x reads the Pi's revision itself (the device tree's
# linux,revision or /proc/cpuinfo) and refuses a board it was built before (-3).
_GENERIC_FIX = ("PWM and PCM pins need root, GPIO 10 needs SPI enabled (dtparam=spi=on), the "
                "spi group and a fixed core clock (core_freq=250 on a Pi 3, core_freq=500 and "
                "core_freq_min=500 on a Pi 4).")
_FIXES = {
    -3: ("this rpi-ws281x does not know this Pi's hardware revision (a board newer than the "
         "library): update it by running `sudo deploy/install.sh` again (it installs the "
         "newest rpi-ws281x), or drive the LEDs through the Pico (leds.backend = \"bridge\")."),
    -11: ("rpi-ws281x cannot drive that pin on this Pi: wire the LEDs to GPIO 10 (SPI) and set "
          "leds.gpio_pin = 10."),
    -13: ("SPI is off or not usable: /dev/spidev0.0 must exist (dtparam=spi=on in config.txt, "
          "which install.sh writes, then one reboot), the service's user must be in the spi "
          "group, and the core clock must be fixed (core_freq=250 on a Pi 3, core_freq=500 "
          "and core_freq_min=500 on a Pi 4)."),
    -14: ("SPI refused the LED data: check that the core clock is fixed (core_freq=250 on a "
          "Pi 3, core_freq=500 and core_freq_min=500 on a Pi 4) and reboot once."),
}


def driver_fix(message: str, gpio_pin: int) -> str:
    """The sentence naming the real fix for rpi-ws281x's start-up failure `message`
    ("ws2811_init failed with code -N (...)")."""
    import re

    found = re.search(r"code (-\d+)", message)
    code = int(found.group(1)) if found else 0
    if code in (-4, -5, -6, -9, -10) and gpio_pin != 10:
        return (f"GPIO {gpio_pin} uses the PWM/PCM hardware through /dev/mem, which needs "
                "root: wire the LEDs to GPIO 10 (SPI, no root) or run install.sh again so "
                "the service gets its root drop-in.")
    return _FIXES.get(code, _GENERIC_FIX)
