"""The simulated Pico and its wiring that the fake MicroPython modules talk to.

One ``World`` holds a millisecond clock (with MicroPython's 2**30 tick wrap), every GPIO
pin's state, the I2C and SPI buses with their fake devices, the watchdog, the timers, the
PIO state machines, the USB serial port and what ``micropython.kbd_intr`` was set to. The
fake ``machine``/``rp2``/``time``/``select``/``micropython`` modules all read ``CURRENT``,
which ``fakes.install()`` replaces with a fresh world for every test.
"""

from __future__ import annotations

import errno
from collections.abc import Callable
from typing import Any

TICKS_PERIOD = 1 << 30
TICKS_MAX = TICKS_PERIOD - 1
TICKS_HALF = TICKS_PERIOD // 2


class PinState:
    """One GPIO: its mode, pull, driven level, and who reads or drives it."""

    def __init__(self, pin_id: object) -> None:
        self.pin_id = pin_id
        self.mode = 0
        self.pull: int | None = None
        self.out_level = 0
        self.external: int | None = None  # a level a test forces on an input
        self.driver: Callable[[], int] | None = None  # a fake chip driving this input
        self.listeners: list[Callable[[int], None]] = []
        self.changes = 0  # how many times the driven level changed

    def read(self) -> int:
        """The level the Pico sees on this pin."""
        if self.mode == 1:
            return self.out_level
        if self.driver is not None:
            return self.driver()
        if self.external is not None:
            return self.external
        return 1 if self.pull == 1 else 0

    def drive(self, level: int) -> None:
        """The Pico drives ``level``; chips listening to the pin react to the change."""
        level = 1 if level else 0
        if level != self.out_level:
            self.changes += 1
        self.out_level = level
        for listener in self.listeners:
            listener(level)


class Timer:
    """A fake ``machine.Timer``: periodic or one-shot callbacks fired by the clock."""

    def __init__(self, world: World, period: int, callback: Callable[[Any], None],
                 periodic: bool) -> None:
        self.world = world
        self.period = max(1, period)
        self.callback = callback
        self.periodic = periodic
        self.due = world.now + self.period
        self.active = True


class World:
    """The whole simulated board: see the module docstring."""

    def __init__(self, start_ms: int = 0) -> None:
        self.now = start_ms
        self.pins: dict[object, PinState] = {}
        self.i2c_buses: dict[int, Any] = {}
        self.spi_buses: dict[int, Any] = {}
        self.wdt: Any = None
        self.timers: list[Timer] = []
        self.state_machines: dict[int, Any] = {}
        self.usb: Any = None
        self.kbd_intr = 3
        self.resets = 0

    # ---- time --------------------------------------------------------------------------
    def ticks_ms(self) -> int:
        """``time.ticks_ms()``: the clock modulo 2**30, as on MicroPython."""
        return self.now & TICKS_MAX

    def advance(self, ms: int) -> None:
        """Let ``ms`` milliseconds pass, firing timers that fall due on the way (and the
        USB stack taking what the host sent, which may raise KeyboardInterrupt)."""
        if self.usb is not None:
            self.usb.deliver()
        end = self.now + ms
        while True:
            due = [t for t in self.timers if t.active and t.due <= end]
            if not due:
                break
            timer = min(due, key=lambda t: t.due)
            self.now = max(self.now, timer.due)
            if timer.periodic:
                timer.due += timer.period
            else:
                timer.active = False
            timer.callback(timer)
        self.now = end

    # ---- pins --------------------------------------------------------------------------
    def pin(self, pin_id: object) -> PinState:
        """The state of GPIO ``pin_id`` (created on first use)."""
        if pin_id not in self.pins:
            self.pins[pin_id] = PinState(pin_id)
        return self.pins[pin_id]

    def set_input(self, pin_id: object, level: int | None) -> None:
        """Force an input level (None: back to floating / pull)."""
        self.pin(pin_id).external = level

    # ---- buses -------------------------------------------------------------------------
    def i2c_bus(self, bus_id: int) -> Any:
        """The fake I2C bus ``bus_id`` (created on first use)."""
        if bus_id not in self.i2c_buses:
            self.i2c_buses[bus_id] = I2CBus()
        return self.i2c_buses[bus_id]

    def spi_bus(self, bus_id: int) -> Any:
        """The fake SPI bus ``bus_id`` (created on first use)."""
        if bus_id not in self.spi_buses:
            self.spi_buses[bus_id] = SPIBus(self)
        return self.spi_buses[bus_id]


# ---- buses ---------------------------------------------------------------------------------


class I2CBus:
    """Devices by address, some behind a multiplexer's ports (a device with `reachable()`,
    `devices.Tca9548a`); routes each transaction."""

    def __init__(self) -> None:
        self.devices: dict[int, Any] = {}

    def attach(self, device: Any, address: int) -> Any:
        """Put ``device`` directly on the bus at ``address``."""
        self.devices[address] = device
        return device

    def _reachable(self) -> list[tuple[int, Any]]:
        out = list(self.devices.items())
        for device in self.devices.values():
            if hasattr(device, "reachable"):  # a multiplexer: what its open ports reach
                out.extend(device.reachable())
        return out

    def device(self, address: int) -> Any:
        """The one device answering ``address`` now (OSError if none, or two clash)."""
        found = [d for a, d in self._reachable() if a == address]
        if not found:
            raise no_device(address)
        if len(found) > 1:
            raise OSError(errno.EIO, "two devices answer 0x%02x: open mux ports clash" % address)
        return found[0]

    def scan(self) -> list[int]:
        """Addresses reachable now."""
        return sorted({a for a, _ in self._reachable()})


class SPIBus:
    """SPI devices by chip-select pin; a transfer goes to the one whose CS is low."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.devices: dict[object, Any] = {}

    def attach(self, device: Any, cs_pin: object) -> Any:
        """Wire ``device`` with its chip select on GPIO ``cs_pin``."""
        self.devices[cs_pin] = device
        return device

    def transfer(self, tx: bytes) -> bytes:
        """Full duplex: returns the bytes clocked in (0xFF when nobody is selected)."""
        selected = [d for pin, d in self.devices.items() if self.world.pin(pin).read() == 0]
        if len(selected) != 1:
            if len(selected) > 1:
                raise AssertionError("two SPI chip selects are low at once")
            return b"\xff" * len(tx)
        return selected[0].spi_transfer(tx)


def no_device(address: int) -> OSError:
    """The error MicroPython raises when nobody acknowledges an I2C address."""
    return OSError(errno.ENODEV, "no I2C device at 0x%02x" % address)


CURRENT = World()


def current() -> World:
    """The world the fake modules talk to now."""
    return CURRENT


def replace(world: World) -> World:
    """Make ``world`` the current one (``fakes.install`` does this per test)."""
    global CURRENT
    CURRENT = world
    return world
