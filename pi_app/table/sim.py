"""The virtual board for `riskboard serve --sim`, tests and benchmarks.

The emulated Pico runs the real firmware core behind a pty (reached by the same pyserial
link as real hardware), LEDs go to an in-memory strip, the control buttons run on
gpiozero's MockFactory, and a demo 3-player Classic game starts if none is running so a
newcomer sees a lit board at once. `press_button` drives a mock control button the way a
finger would (a long press holds it past the hold time). `physical_board(profile, seed)` is
how the virtual board is really wired: as the profile says, or miswired by `seed`
(`riskboard serve --sim --miswired SEED`, `pi_app.table.miswired`).
"""

from __future__ import annotations

import time
from typing import Any

from firmware_bridge.emulator import Emulator
from firmware_bridge.firmware.core import FirmwareCore
from hardware.profiles import BoardProfile
from pi_app.table.loop import NewGameSpec
from pi_app.table.miswired import PhysicalBoard, miswired

DEMO_GAME = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})


class VirtualPico(Emulator):
    """The emulated Pico of a virtual board: flashed for the profile (its sensor count and
    sensor-map CRC), on a board that may be wired otherwise (`physical`). At each boot it
    reports, as the firmware does, every NFC reader the profile has that does not answer
    on its port because the board's reader sits elsewhere; `led_count` is the chain's true
    length (the virtual board knows it; a real chain cannot tell)."""

    def __init__(self, profile: BoardProfile, physical: PhysicalBoard | None = None) -> None:
        self._readers = [s.channel for s in profile.sensors.values() if s.kind == "nfc"]
        self.silent_readers: list[int] = []
        self.rewired(physical)
        self.led_count = physical.led_count if physical is not None else profile.led_count
        super().__init__(sensor_count=profile.sensor_count, profile_crc=profile.sensor_crc(),
                         board_id=profile.name)

    def rewired(self, physical: PhysicalBoard | None) -> None:
        """The board's readers moved (`physical` is how they sit now): from the next boot
        the Pico reports those of the profile's ports that no reader answers on."""
        wired = set(physical.channel_of.values()) if physical is not None else set(self._readers)
        self.silent_readers = [c for c in sorted(self._readers) if c not in wired]

    def _new_core(self) -> FirmwareCore:
        core = super()._new_core()
        for channel in self.silent_readers:  # the firmware's own words (main.py)
            core.report_fault(f"event=nfc.setup channel={channel} model=pn532 "
                              "error=no answer from the reader")
        return core


def make_emulator(profile: BoardProfile, physical: PhysicalBoard | None = None
                  ) -> VirtualPico:
    """A virtual Pico flashed for `profile` (same sensor count and sensor-map CRC), on a
    board wired as `physical` says (None: as the profile says)."""
    return VirtualPico(profile, physical)


def physical_board(profile: BoardProfile, seed: int = 0) -> PhysicalBoard | None:
    """The virtual board's true wiring: None (exactly as `profile` says) when `seed` is 0,
    else a board miswired by `seed` over the profile's territories and tags."""
    return miswired(profile, seed) if seed else None


def press_button(factory: Any, pin: int, long: bool = False, hold_time: float = 1.0) -> None:
    """Press and release a MockFactory button on BCM `pin` (held past `hold_time` if long)."""
    device = factory.pin(pin)
    device.drive_low()
    time.sleep(hold_time + 0.15 if long else 0.05)
    device.drive_high()
