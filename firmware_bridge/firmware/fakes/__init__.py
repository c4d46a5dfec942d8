"""Fake MicroPython hardware so the real Pico firmware runs, unchanged, on CPython.

``install()`` makes a fresh simulated board (``World``), puts the fake ``machine``, ``rp2``
and ``micropython`` modules in ``sys.modules`` (and the fake ``time`` and ``select`` while
the firmware modules are imported), imports the firmware modules afresh and returns a
``FakePico`` holding them; ``FakePico.uninstall()`` puts everything back. Tests therefore
exercise the very code that is copied to the Pico, not a second copy of it.
"""

from __future__ import annotations

import builtins
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
        _restore(self._saved)


def _restore(saved: dict[str, Any]) -> None:
    for name in FIRMWARE_MODULES:
        sys.modules.pop(_PACKAGE + name, None)
    for name, module in saved.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module


def install(start_ms: int = 0, boot_input: bytes = b"") -> FakePico:
    """Install the fakes on a fresh simulated board and import the firmware against them.

    ``boot_input``: bytes the Pi sends while ``main.py`` boots. MicroPython runs main.py
    with Ctrl-C armed and checks for it while main.py runs its imports, so the fake USB
    stack takes those bytes at each import statement main.py executes (raising
    ``KeyboardInterrupt`` on a 0x03 unless main.py turned Ctrl-C off before). The
    exception leaves ``install`` with every fake removed again."""
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
            if name == "main" and boot_input:
                world.usb.host_send(boot_input)
                firmware[name] = _import_taking_usb_bytes(_PACKAGE + name, world.usb)
            else:
                firmware[name] = importlib.import_module(_PACKAGE + name)
    except BaseException:
        _restore(saved)
        raise
    finally:
        for name in _IMPORT_TIME_FAKES:
            previous = saved[name]
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous
    return FakePico(world, firmware, saved)


def _import_taking_usb_bytes(module: str, usb: devices.UsbSerial) -> types.ModuleType:
    """Import ``module`` with the USB stack taking the host's bytes before each of its
    import statements (as MicroPython's USB interrupt does while main.py runs)."""
    real_import = builtins.__import__

    def importing(*args: Any, **kwargs: Any) -> Any:
        if sys._getframe(1).f_globals.get("__name__") == module:  # main.py's own imports
            usb.deliver()
        return real_import(*args, **kwargs)

    builtins.__import__ = importing
    try:
        return importlib.import_module(module)
    finally:
        builtins.__import__ = real_import
