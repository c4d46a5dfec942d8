"""The one list of LED and button backends: each name, what opens it and whether it needs a Pi.

As gpiozero keeps one registry of pin factories, loaded by name on first use, the table keeps
one of its own backends here: the config's choices (`[leds] backend`, `[buttons] backend`),
`open_strip` (hardware/leds.py) and `pin_factory_for` (hardware/controls.py) all read it,
and a backend's module is imported only when that backend is opened (rpi-ws281x and RPi.GPIO
are never loaded off a Pi). This module imports nothing of its own: the config loads it.

`opener` is "module:attribute", the callable that opens the backend: for an LED backend it
takes (count, **options) and returns a strip; for a button backend it takes nothing and
returns a gpiozero pin factory (None: gpiozero's own choice). A backend with no opener
("none" buttons) opens nothing. `pi_only` marks a backend on the Pi's own GPIO header: it
runs only on a Raspberry Pi, and its pins are shared with the other GPIO backends.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Backend:
    """One LED or button backend (see the module docstring)."""

    name: str
    opener: str
    pi_only: bool

    def load(self) -> Callable[..., Any]:
        """The callable that opens this backend (its module imported now)."""
        module, _, attribute = self.opener.partition(":")
        return getattr(importlib.import_module(module), attribute)  # type: ignore[no-any-return]


def _registry(*backends: Backend) -> dict[str, Backend]:
    return {b.name: b for b in backends}


LED_BACKENDS = _registry(
    Backend("ws281x", "hardware.ws281x_strip:Ws281xStrip", pi_only=True),
    Backend("bridge", "hardware.leds:open_bridge", pi_only=False),
    Backend("memory", "hardware.leds:MemoryStrip", pi_only=False),
)

BUTTON_BACKENDS = _registry(
    Backend("gpio", "hardware.controls:default_pin_factory", pi_only=True),
    Backend("rpigpio", "hardware.controls:rpigpio_pin_factory", pi_only=True),
    Backend("mock", "gpiozero.pins.mock:MockFactory", pi_only=False),
    Backend("none", "", pi_only=False),
)
