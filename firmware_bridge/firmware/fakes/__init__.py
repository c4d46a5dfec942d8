"""Fake MicroPython hardware so the real Pico firmware runs, unchanged, on CPython.

``install()`` makes a fresh simulated board (``World``), puts the fake ``machine``, ``rp2``
and ``micropython`` modules in ``sys.modules`` (and the fake ``time`` and ``select`` while
the firmware modules are imported), imports the firmware modules afresh and returns a
``FakePico`` holding them; ``FakePico.uninstall()`` puts everything back. Tests therefore
exercise the very code that is copied to the Pico, not a second copy of it.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from firmware_bridge.firmware.fakes import devices, machine, micropython, mptime, rp2
from firmware_bridge.firmware.fakes import select as fake_select
from firmware_bridge.firmware.fakes import world as _world

FIRMWARE_MODULES = ("board_config", "sensors", "nfc", "leds", "main")
_PACKAGE = "firmware_bridge.firmware."
_GLOBAL_FAKES = {"machine": machine, "rp2": rp2, "micropython": micropython}
_IMPORT_TIME_FAKES = {"time": mptime, "select": fake_select}


class FakePico:
    """The installed fakes: ``world`` (clock, pins, buses), ``usb`` (the host's end of the
    USB serial port) and the firmware modules imported against the fakes."""

    def __init__(self, world: _world.World, firmware: dict[str, types.ModuleType],
                 saved: dict[str, Any]) -> None:
        self.world = world
        self.usb: devices.UsbSerial = world.usb
        self.firmware = firmware
        self._saved = saved
        self.board_config = firmware["board_config"]
        self.sensors = firmware["sensors"]
        self.nfc = firmware["nfc"]
        self.leds = firmware["leds"]
        self.main = firmware["main"]

    def advance(self, ms: int) -> None:
        """Let ``ms`` milliseconds of fake time pass."""
        self.world.advance(ms)

    def uninstall(self) -> None:
        """Remove the fake modules and the firmware modules imported against them."""
        for name in FIRMWARE_MODULES:
            sys.modules.pop(_PACKAGE + name, None)
        for name, module in self._saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def install(start_ms: int = 0) -> FakePico:
    """Install the fakes on a fresh simulated board and import the firmware against them."""
    world = _world.replace(_world.World(start_ms))
    world.usb = devices.UsbSerial(world)
    names = list(_GLOBAL_FAKES) + list(_IMPORT_TIME_FAKES)
    saved = {name: sys.modules.get(name) for name in names}
    sys.modules.update(_GLOBAL_FAKES)
    sys.modules.update(_IMPORT_TIME_FAKES)
    firmware: dict[str, types.ModuleType] = {}
    try:
        for name in FIRMWARE_MODULES:
            sys.modules.pop(_PACKAGE + name, None)
        for name in FIRMWARE_MODULES:
            firmware[name] = importlib.import_module(_PACKAGE + name)
    finally:
        for name in _IMPORT_TIME_FAKES:
            if saved[name] is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = saved[name]
    return FakePico(world, firmware, saved)
