"""Control buttons on the Pi's GPIO (Confirm, Undo, End phase, Roll, ...) through gpiozero.

Each button reports two gestures as a `ControlEvent`:
- "press": released before `hold_time` seconds (reported at release, so a long press never
  also counts as a press),
- "long_press": held for `hold_time` seconds (reported while still held, once per hold).
Debounce is done here, in `PressGesture`, the same on every pin factory (gpiozero's mock pins
ignore `bounce_time`): a release within `debounce` seconds of the press, or a press within
`debounce` seconds of the release, is contact bounce and ignored.

Buttons are wired from the GPIO pin to ground and use the Pi's internal pull-up. With
`pin_factory=MockFactory()` (or `pin_factory_for("mock")`) the whole thing runs with no Pi;
a test presses a button with `factory.pin(17).drive_low()` and releases it with
`drive_high()`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

from gpiozero import BadPinFactory, Button, GPIOZeroError
from gpiozero.pins import Factory

from hardware.control_names import CONTROL_NAMES
from hardware.device import HardwareDevice
from hardware.errors import HardwareError, HardwareUnavailable

log = logging.getLogger(__name__)


EventKind = Literal["press", "long_press"]


@dataclass(frozen=True)
class ControlEvent:
    """A gesture on a control button: `name` from CONTROL_NAMES, `kind` press or long_press."""

    name: str
    kind: EventKind


class PressGesture:
    """Debounce and long-press detection for one button, fed with edge timestamps (seconds).

    Pure and thread-safe: `down(t)`, `up(t)` and `held()` return the gesture to report, or
    None. `held()` is called by gpiozero once the button stayed down for hold_time."""

    def __init__(self, debounce: float = 0.03) -> None:
        if debounce < 0:
            raise ValueError(f"debounce must be 0 or more seconds, got {debounce!r}")
        self.debounce = debounce
        self._lock = threading.Lock()
        self._down_at: float | None = None
        self._up_at: float | None = None
        self._long_reported = False

    @property
    def is_down(self) -> bool:
        """True while a (debounced) press is in progress."""
        return self._down_at is not None

    def down(self, t: float) -> EventKind | None:
        """The contact closed at time `t`; a press never reports on its own."""
        with self._lock:
            if self._down_at is not None:
                return None
            if self._up_at is not None and t - self._up_at < self.debounce:
                return None  # release bounce
            self._down_at, self._long_reported = t, False
            return None

    def up(self, t: float) -> EventKind | None:
        """The contact opened at time `t`: a short press reports "press"."""
        with self._lock:
            if self._down_at is None:
                return None
            if t - self._down_at < self.debounce:
                return None  # press bounce: still down
            self._down_at, self._up_at = None, t
            return None if self._long_reported else "press"

    def held(self) -> EventKind | None:
        """The button stayed down for the hold time: report "long_press" once per hold."""
        with self._lock:
            if self._down_at is None or self._long_reported:
                return None
            self._long_reported = True
            return "long_press"


def pin_factory_for(backend: str) -> Factory | None:
    """The gpiozero pin factory for a config backend name: "gpio" -> None (gpiozero's own
    choice for this Pi, e.g. lgpio), "mock" -> a fresh MockFactory."""
    if backend == "gpio":
        return None
    if backend == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    raise ValueError(f"unknown buttons backend {backend!r}; use 'gpio' or 'mock'")


class ControlButtons(HardwareDevice):
    """The table's control buttons: `pins` maps a name from CONTROL_NAMES to a BCM GPIO
    number; `on_event(ControlEvent)` is called from gpiozero's threads for every gesture.

    A context manager; `close()` releases the pins."""

    def __init__(
        self,
        pins: Mapping[str, int],
        on_event: Callable[[ControlEvent], None],
        pin_factory: Factory | None = None,
        hold_time: float = 1.0,
        *,
        debounce: float = 0.03,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        unknown = sorted(set(pins) - set(CONTROL_NAMES))
        if unknown:
            raise ValueError(
                f"unknown control button {unknown[0]!r}; known: {', '.join(CONTROL_NAMES)}"
            )
        seen: dict[int, str] = {}
        for name, pin in pins.items():
            if pin in seen:
                raise ValueError(f"GPIO {pin} is given to both {seen[pin]!r} and {name!r}")
            seen[pin] = name
        if hold_time <= 0:
            raise ValueError(f"hold_time must be more than 0 seconds, got {hold_time!r}")
        self.hold_time = hold_time
        self._on_event = on_event
        self._clock = clock
        self._gestures = {name: PressGesture(debounce) for name in pins}
        self._buttons: dict[str, Button] = {}
        for name, pin in pins.items():
            try:
                self._buttons[name] = self._make_button(name, pin, pin_factory)
            except BadPinFactory as exc:
                self.close()
                raise HardwareUnavailable(
                    "The control buttons found no GPIO on this machine; "
                    "use the 'mock' buttons backend to run without a Pi."
                ) from exc
            except GPIOZeroError as exc:
                self.close()
                raise HardwareError(f"control button {name!r} on GPIO {pin}: {exc}") from exc
        log.info("event=controls.open buttons=%s", ",".join(f"{n}:{p}" for n, p in pins.items()))

    def _make_button(self, name: str, pin: int, pin_factory: Factory | None) -> Button:
        button = Button(pin, pull_up=True, hold_time=self.hold_time, pin_factory=pin_factory)
        gesture = self._gestures[name]
        button.when_pressed = lambda: self._emit(name, gesture.down(self._clock()))
        button.when_released = lambda: self._emit(name, gesture.up(self._clock()))
        button.when_held = lambda: self._emit(name, gesture.held())
        return button

    def _emit(self, name: str, kind: EventKind | None) -> None:
        if kind is None:
            return
        log.debug("event=controls.%s button=%s", kind, name)
        try:
            self._on_event(ControlEvent(name, kind))
        except Exception:
            log.exception("event=controls.handler_failed button=%s kind=%s", name, kind)

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the buttons this table has."""
        return tuple(self._buttons)

    def get_status(self) -> dict[str, object]:
        """A JSON-ready snapshot: each button's pin and whether it is pressed right now."""
        return {
            name: {"pin": button.pin.info.name if button.pin else None,
                   "pressed": bool(button.is_pressed)}
            for name, button in self._buttons.items()
        }

    def close(self) -> None:
        """Release every pin; calling it again does nothing."""
        buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            button.close()
