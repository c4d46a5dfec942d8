"""Fake MicroPython ``machine`` module: Pin, I2C, SPI, WDT, Timer over the current World.

Only the calls the riskboard firmware uses, with MicroPython's signatures and semantics
(I2C methods raise ``OSError(ENODEV)`` for an address nobody acknowledges).
"""

from __future__ import annotations

from typing import Any

from firmware_bridge.firmware.fakes import world as _world


class Pin:
    """``machine.Pin``: a GPIO; several Pin objects for one id share its state."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, pin_id: object, mode: int = -1, pull: int = -1,
                 value: int | None = None) -> None:
        self.id = pin_id
        self._state = _world.current().pin(pin_id)
        self.init(mode, pull, value)

    def init(self, mode: int = -1, pull: int = -1, value: int | None = None) -> None:
        """Reconfigure the pin (``-1`` keeps the current setting)."""
        if mode != -1:
            self._state.mode = mode
        if pull != -1:
            self._state.pull = pull
        if value is not None:
            self._state.drive(value)

    def value(self, level: int | None = None) -> int | None:
        """Read the pin, or drive it when ``level`` is given."""
        if level is None:
            return self._state.read()
        self._state.drive(level)
        return None

    def __call__(self, level: int | None = None) -> int | None:
        return self.value(level)

    def on(self) -> None:
        """Drive high."""
        self._state.drive(1)

    def off(self) -> None:
        """Drive low."""
        self._state.drive(0)

    def toggle(self) -> None:
        """Invert the driven level."""
        self._state.drive(0 if self._state.out_level else 1)


class I2C:
    """``machine.I2C``: controller-side transfers routed to the fake bus's devices."""

    def __init__(self, bus_id: int, scl: Any = None, sda: Any = None,
                 freq: int = 400000, timeout: int = 50000) -> None:
        self.bus = _world.current().i2c_bus(bus_id)
        self.freq = freq

    def scan(self) -> list[int]:
        """Addresses that acknowledge."""
        return self.bus.scan()

    def writeto(self, addr: int, buf: bytes, stop: bool = True) -> int:
        """Write ``buf`` to the device at ``addr``; returns the number of ACKs."""
        self.bus.device(addr).i2c_write(bytes(buf))
        return len(buf)

    def readfrom(self, addr: int, nbytes: int, stop: bool = True) -> bytes:
        """Read ``nbytes`` from ``addr``."""
        return bytes(self.bus.device(addr).i2c_read(nbytes))

    def readfrom_into(self, addr: int, buf: bytearray, stop: bool = True) -> None:
        """Read ``len(buf)`` bytes from ``addr`` into ``buf``."""
        data = self.bus.device(addr).i2c_read(len(buf))
        buf[:] = data

    def writeto_mem(self, addr: int, memaddr: int, buf: bytes, addrsize: int = 8) -> None:
        """Write ``buf`` starting at register ``memaddr``."""
        self.bus.device(addr).i2c_write(bytes([memaddr]) + bytes(buf))

    def readfrom_mem(self, addr: int, memaddr: int, nbytes: int, addrsize: int = 8) -> bytes:
        """Read ``nbytes`` starting at register ``memaddr``."""
        device = self.bus.device(addr)
        device.i2c_write(bytes([memaddr]))
        return bytes(device.i2c_read(nbytes))

    def readfrom_mem_into(self, addr: int, memaddr: int, buf: bytearray,
                          addrsize: int = 8) -> None:
        """Read ``len(buf)`` bytes starting at register ``memaddr`` into ``buf``."""
        buf[:] = self.readfrom_mem(addr, memaddr, len(buf))


class SPI:
    """``machine.SPI``: full-duplex transfers with the device whose chip select is low."""

    MSB = 0
    LSB = 1

    def __init__(self, bus_id: int, baudrate: int = 1000000, polarity: int = 0,
                 phase: int = 0, bits: int = 8, firstbit: int = 0, sck: Any = None,
                 mosi: Any = None, miso: Any = None) -> None:
        self.bus = _world.current().spi_bus(bus_id)
        self.baudrate = baudrate

    def write(self, buf: bytes) -> None:
        """Send ``buf`` (what comes back is dropped)."""
        self.bus.transfer(bytes(buf))

    def read(self, nbytes: int, write: int = 0) -> bytes:
        """Clock ``nbytes`` in while sending ``write``."""
        return self.bus.transfer(bytes([write]) * nbytes)

    def readinto(self, buf: bytearray, write: int = 0) -> None:
        """Clock ``len(buf)`` bytes into ``buf`` while sending ``write``."""
        buf[:] = self.bus.transfer(bytes([write]) * len(buf))

    def write_readinto(self, write_buf: bytes, read_buf: bytearray) -> None:
        """Send ``write_buf`` while receiving into ``read_buf``."""
        read_buf[:] = self.bus.transfer(bytes(write_buf))


class WDT:
    """``machine.WDT``: records its timeout and every feed; ``expired()`` says if it bit."""

    def __init__(self, id: int = 0, timeout: int = 5000) -> None:  # noqa: A002
        if not 1 <= timeout <= 8388:
            raise ValueError("rp2040 WDT timeout must be 1..8388 ms")
        world = _world.current()
        self.world = world
        self.timeout = timeout
        self.started_at = world.now
        self.feeds: list[int] = []
        world.wdt = self

    def feed(self) -> None:
        """Restart the countdown."""
        self.feeds.append(self.world.now)

    def expired(self) -> bool:
        """True when more than ``timeout`` ms passed since the last feed (a real reset)."""
        last = self.feeds[-1] if self.feeds else self.started_at
        return self.world.now - last > self.timeout


class Timer:
    """``machine.Timer``: callbacks fired by ``World.advance``."""

    ONE_SHOT = 0
    PERIODIC = 1

    def __init__(self, id: int = -1, mode: int = 1, period: int = -1,  # noqa: A002
                 freq: float = -1, callback: Any = None) -> None:
        self._timer: Any = None
        if callback is not None:
            self.init(mode=mode, period=period, freq=freq, callback=callback)

    def init(self, mode: int = 1, period: int = -1, freq: float = -1,
             callback: Any = None) -> None:
        """Start the timer."""
        world = _world.current()
        if period < 0:
            period = int(1000 / freq) if freq > 0 else 1000
        self._timer = _world.Timer(world, period, callback, mode == self.PERIODIC)
        world.timers.append(self._timer)

    def deinit(self) -> None:
        """Stop the timer."""
        if self._timer is not None:
            self._timer.active = False


def reset() -> None:
    """``machine.reset()``: the chip restarts (watchdog off, timers gone, Ctrl-C back);
    counted, and raises SystemExit so the test's call into the firmware ends there."""
    world = _world.current()
    world.resets += 1
    world.wdt = None
    world.timers.clear()
    world.kbd_intr = 3
    raise SystemExit("machine.reset()")


def unique_id() -> bytes:
    """A fixed 8-byte board id."""
    return b"\xe6\x60\x58\x38\x83\x2a\x5c\x2f"


def freq() -> int:
    """The RP2040's default system clock."""
    return 125000000
