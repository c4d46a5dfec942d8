"""Which machine we run on: Raspberry Pi model detection from the device tree.

The LED driver rpi-ws281x pokes the PWM/PCM/SPI peripherals of the Broadcom SoCs of the
Raspberry Pi 1 to 4 (BCM2835/6/7, BCM2711). The Pi 5 family (Pi 5, Pi 500, Compute Module 5)
routes its GPIO through the RP1 chip, which rpi-ws281x does not drive; there the LEDs are
driven by the Pico over the bridge instead. Off a Pi the library must never be touched: a
strip that failed to start crashes the interpreter at exit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

DEVICE_TREE_MODEL = Path("/proc/device-tree/model")
# /proc/device-tree is a link to the firmware's device tree in sysfs; a container (the Pi
# box of tools/pibox) may have only this one.
SYSFS_MODEL = Path("/sys/firmware/devicetree/base/model")

# Model strings as the firmware writes them, e.g. "Raspberry Pi 4 Model B Rev 1.4",
# "Raspberry Pi Zero 2 W Rev 1.0", "Raspberry Pi Compute Module 4 Rev 1.0",
# "Raspberry Pi Compute Module 4S Rev 1.0", "Raspberry Pi 400 Rev 1.0",
# "Raspberry Pi Model B Plus Rev 1.2" (a Pi 1).
# A pattern maps to a family, or (with a number group) to a table number -> family; a number
# missing from the table is an unknown model, never guessed.
_PI_NUMBERS = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 400: 4, 500: 5}
# CM1 has no number; CM3/CM3+ = BCM2837; CM4 and CM4S = BCM2711; CM5 = BCM2712 (RP1);
# CM0 = RP3A0, the Zero 2 W's BCM2710A1, a Pi 3 family SoC.
_CM_NUMBERS = {0: 3, 1: 1, 3: 3, 4: 4, 5: 5}
_FAMILY_PATTERNS: tuple[tuple[re.Pattern[str], int | dict[int, int]], ...] = (
    (re.compile(r"\bCompute Module (\d+)S?\b"), _CM_NUMBERS),
    (re.compile(r"\bZero 2\b"), 3),  # BCM2710A1, the Pi 3's SoC
    (re.compile(r"\bZero\b"), 1),  # BCM2835
    (re.compile(r"\bPi (\d+)\b"), _PI_NUMBERS),
    (re.compile(r"\bPi Model [AB]\b"), 1),
    (re.compile(r"\bCompute Module\b"), 1),  # the first CM carries no number
)

WS281X_FAMILIES = frozenset({1, 2, 3, 4})


@dataclass(frozen=True)
class Platform:
    """What this machine is: `model` is the device-tree model text (None off a Pi/Linux board),
    `family` the Raspberry Pi generation 1..5 (None if not a Raspberry Pi, or a Raspberry Pi
    model this code does not know)."""

    model: str | None
    family: int | None

    @property
    def is_raspberry_pi(self) -> bool:
        """True on any Raspberry Pi, known model or not."""
        return self.model is not None and "Raspberry Pi" in self.model

    @property
    def supports_ws281x(self) -> bool:
        """True where rpi-ws281x can drive the LEDs from the Pi's own GPIO (Pi 1 to 4)."""
        return self.family in WS281X_FAMILIES

    def ws281x_refusal(self) -> str | None:
        """A sentence saying why rpi-ws281x cannot be used here, or None if it can."""
        if self.supports_ws281x:
            return None
        if self.family is None and self.is_raspberry_pi:
            return (
                f"The ws281x LED backend is refused on an unknown Raspberry Pi model "
                f"({self.model!r}): rpi-ws281x is only known to work on the Pi 1 to 4 "
                "families; use the 'bridge' backend so the Pico drives the LEDs."
            )
        if self.family is None:
            seen = f"this machine reports {self.model!r}" if self.model else "this is not a Pi"
            return (
                f"The ws281x LED backend only runs on a Raspberry Pi 1 to 4 and {seen}; "
                "use the 'memory' backend to simulate the LEDs."
            )
        return (
            f"The ws281x LED backend cannot drive the GPIO of a {self.model} (the Pi 5 family's "
            "RP1 chip is not supported by rpi-ws281x); use the 'bridge' backend so the Pico "
            "drives the LEDs."
        )


def parse_model(model: str | None) -> Platform:
    """Classify a device-tree model string (None or empty = not a Raspberry Pi)."""
    if not model:
        return Platform(model=None, family=None)
    model = model.strip("\x00\n ")
    if "Raspberry Pi" not in model:
        return Platform(model=model, family=None)
    for pattern, family in _FAMILY_PATTERNS:
        match = pattern.search(model)
        if match:
            if isinstance(family, dict):
                return Platform(model=model, family=family.get(int(match.group(1))))
            return Platform(model=model, family=family)
    return Platform(model=model, family=None)


def detect_platform(model_path: Path | str | None = None) -> Platform:
    """Read the device-tree model file (default: /proc/device-tree/model, else the same file
    in sysfs) and classify the machine; never raises."""
    paths = [Path(model_path)] if model_path is not None else [DEVICE_TREE_MODEL, SYSFS_MODEL]
    for path in paths:
        try:
            text = path.read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        return parse_model(text)
    return Platform(model=None, family=None)
