"""LEDs driven from the Pi's own GPIO by rpi-ws281x (Raspberry Pi 1 to 4 only).

rpi-ws281x is imported lazily, and only after the platform check passed: off a Pi (or on a
Pi 5) its strip fails to start and then crashes the interpreter at exit, so we refuse first,
with a sentence, by raising `HardwareUnavailable`. Tests inject a fake module instead.

GPIO pins and the peripheral rpi-ws281x uses for them:
  10 -> SPI, the default and recommended wiring (no root with /dev/spidev0.0 and
        /dev/gpiomem; needs SPI enabled and a fixed core clock: core_freq=250 on a Pi 3B+/Zero
        2 W, core_freq=500 and core_freq_min=500 on a Pi 4, see the rpi_ws281x README). A
        frame goes out in one SPI transfer of 12 bytes an LED, which spidev refuses when it
        is longer than its buffer (4096 bytes, 339 LEDs, unless `spidev.bufsiz=` raises it),
  18 or 12 -> PWM channel 0, 13 or 19 -> PWM channel 1 (root, and on-board audio off),
  21 -> PCM (root).
"""

from __future__ import annotations

import atexit
import importlib
import logging
from collections.abc import Sequence
from pathlib import Path
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
# The spidev driver's buffer: one SPI transfer may not be longer (its module parameter
# bufsiz, 4096 bytes unless the kernel command line sets spidev.bufsiz=).
SPIDEV_BUFSIZ_FILE = Path("/sys/module/spidev/parameters/bufsiz")
SPIDEV_DEFAULT_BUFSIZ = 4096
# What a maker adds to /boot/firmware/cmdline.txt for a longer strip (room for 2700 LEDs).
SPIDEV_RAISED_BUFSIZ = 32768


def spi_frame_bytes(count: int, frequency_hz: int = 800_000) -> int:
    """The bytes of one SPI transfer rpi-ws281x sends for `count` LEDs (its ws2811.c: room
    for 4 colours an LED, 8 bits each, 3 SPI bits a bit, then 55 us low for the latch,
    rounded down to 8 bytes and 8 added: PCM_BYTE_COUNT)."""
    bits = count * 4 * 8 * 3 + 55 * frequency_hz * 3 // 1_000_000
    return ((bits >> 3) & ~0x7) + 8


def spidev_bufsiz(path: Path = SPIDEV_BUFSIZ_FILE) -> int:
    """The spidev driver's buffer size on this Pi (the default while it cannot be read)."""
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return SPIDEV_DEFAULT_BUFSIZ


def spi_led_limit(bufsiz: int = SPIDEV_DEFAULT_BUFSIZ, frequency_hz: int = 800_000) -> int:
    """The most LEDs whose frame fits one SPI transfer of `bufsiz` bytes."""
    count = bufsiz // 12
    while count and spi_frame_bytes(count, frequency_hz) > bufsiz:
        count -= 1
    return count


def spi_bufsiz_fix(count: int, bufsiz: int, frequency_hz: int = 800_000) -> str:
    """The sentence for a strip too long for spidev's buffer: the real fix, on the kernel
    command line."""
    return (f"a frame of {count} LEDs is {spi_frame_bytes(count, frequency_hz)} bytes, more "
            f"than the SPI driver's buffer of {bufsiz} bytes ({spi_led_limit(bufsiz)} LEDs): "
            f"add spidev.bufsiz={max(SPIDEV_RAISED_BUFSIZ, spi_frame_bytes(count) + 4096)} to "
            "the end of the single line in /boot/firmware/cmdline.txt and reboot the Pi.")


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
        spi_bufsiz: int | None = None,
    ) -> None:
        if gpio_pin not in WS281X_PINS:
            pins = ", ".join(str(p) for p in sorted(WS281X_PINS))
            raise ValueError(f"rpi-ws281x cannot drive GPIO {gpio_pin}; use one of {pins}")
        super().__init__(count, output, colour_order)
        self.gpio_pin = gpio_pin
        self._ws = module if module is not None else load_ws281x_module(platform)
        # On SPI every frame is one transfer: a strip longer than spidev's buffer would
        # start and then fail at every frame, so it is refused here with the fix.
        # `spi_bufsiz` stands for the driver's (read from sysfs when None).
        bufsiz = spi_bufsiz if spi_bufsiz is not None else spidev_bufsiz()
        if gpio_pin == 10 and spi_frame_bytes(count, frequency_hz) > bufsiz:
            fix = spi_bufsiz_fix(count, bufsiz, frequency_hz)
            raise HardwareUnavailable(f"The LEDs cannot run on GPIO 10 (SPI): {fix}")
        self._frequency_hz = frequency_hz
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
                + driver_fix(str(exc), gpio_pin) + _missing_nodes(str(exc), gpio_pin)
            ) from exc
        log.info("event=leds.open backend=ws281x gpio=%d count=%d", gpio_pin, count)

    def _write(self, pixels: Sequence[Pixel], data: bytes) -> None:
        set_pixel, color = self._strip.setPixelColor, self._color
        for index in range(self._count):
            base = 3 * index
            set_pixel(index, color(data[base], data[base + 1], data[base + 2]))
        try:
            self._strip.show()
        except RuntimeError as exc:  # rpi-ws281x's render failed: say what to do
            fix = driver_fix(str(exc), self.gpio_pin)
            if self.gpio_pin == 10 and "code -14" in str(exc):
                # spidev refused the transfer: what the kernel says its buffer is, the fix
                fix = ("SPI refused the frame: " + spi_bufsiz_fix(
                    self._count, spidev_bufsiz(), self._frequency_hz) + " If it is already "
                    "raised, check that the core clock is fixed (core_freq=250 on a Pi 3, "
                    "core_freq=500 and core_freq_min=500 on a Pi 4).")
            raise HardwareUnavailable(
                f"The LED driver could not send a frame on GPIO {self.gpio_pin} ({exc}); {fix}"
            ) from exc

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
          "which install.sh writes, then one reboot) and so must /dev/gpiomem (rpi-ws281x "
          "sets GPIO 10 to its SPI function through it: Raspberry Pi OS always has it, a "
          "container or another OS may not pass it through); the service's user must be in the "
          "spi and gpio groups (install.sh adds it; `id riskboard` shows them), and the core "
          "clock must be fixed (core_freq=250 on a Pi 3, core_freq=500 and core_freq_min=500 "
          "on a Pi 4)."),
    -14: ("SPI refused the LED data: a strip of more than 339 LEDs needs the SPI driver's "
          "buffer raised (spidev.bufsiz=32768 at the end of the line in "
          "/boot/firmware/cmdline.txt, then a reboot); otherwise check that the core clock is "
          "fixed (core_freq=250 on a Pi 3, core_freq=500 and core_freq_min=500 on a Pi 4) "
          "and reboot once."),
}


def _missing_nodes(message: str, gpio_pin: int) -> str:
    """For SPI's start-up failure (-13: rpi-ws281x could not open /dev/spidev0.0 or map
    /dev/gpiomem): which of the two this Pi lacks, as one more sentence ('' if neither)."""
    if gpio_pin != 10 or "code -13" not in message:
        return ""
    missing = [node for node in ("/dev/spidev0.0", "/dev/gpiomem") if not Path(node).exists()]
    return f" Here {' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing." \
        if missing else ""


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
