"""Control buttons on the Pi's GPIO (Confirm, Undo, End phase, Roll, ...) through gpiozero.

Each button reports two gestures as a `ControlEvent`:
- "press": released before `hold_time` seconds, reported once the contact has stayed open for
  `debounce` seconds (so a long press never also counts as a press, and a bouncing release
  is one release),
- "long_press": held for `hold_time` seconds (reported while still held, once per hold).
Debounce is done here, in `PressGesture`, the same on every pin factory: the contact opening
for less than `debounce` (chatter, a bouncing release) does not end the press, so a hold with
a glitch in it stays one long press, timed from its first closing; a closing that opens again
within `debounce` and stays open is a glitch and reports nothing. `debounce` is also passed
to gpiozero as `bounce_time`, which real pins filter with (lgpio: the level must be stable
that long); gpiozero's mock pins ignore it. The hold and settle deadlines run on timers
(`call_later`, default `threading.Timer`), so tests can drive them with a fake clock.

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
from typing import Literal, Protocol

from gpiozero import BadPinFactory, DigitalInputDevice, GPIOZeroError
from gpiozero.pins import Factory

from hardware.backends import BUTTON_BACKENDS
from hardware.control_names import CONTROL_NAMES
from hardware.device import HardwareDevice
from hardware.errors import HardwareError, HardwareUnavailable

log = logging.getLogger(__name__)


EventKind = Literal["press", "long_press"]

# Deadlines are compared with this much slack, so a timer computed as now + (deadline - now)
# that lands a rounding error early still counts as on time (1 us is far below any bounce).
_SLACK = 1e-6


@dataclass(frozen=True)
class ControlEvent:
    """A gesture on a control button: `name` from CONTROL_NAMES, `kind` press or long_press."""

    name: str
    kind: EventKind


class Cancellable(Protocol):
    """What `call_later` returns: a scheduled call that `cancel()` stops."""

    def cancel(self) -> None:
        """Stop the call if it has not run yet."""


CallLater = Callable[[float, Callable[[], None]], Cancellable]


def thread_timer(delay: float, fn: Callable[[], None]) -> Cancellable:
    """Run `fn` after `delay` seconds on a daemon `threading.Timer` (the default call_later)."""
    timer = threading.Timer(delay, fn)
    timer.daemon = True
    timer.start()
    return timer


class PressGesture:
    """Debounce and long-press detection for one button, fed with times in seconds.

    Pure and thread-safe: `down(t)` (contact closed), `up(t)` (contact opened) and `poll(t)`
    return the gestures due at `t`, oldest first; `next_deadline()` is when `poll` must run
    next (the hold time, or the end of the debounce after an opening), None if idle."""

    def __init__(self, debounce: float = 0.03, hold_time: float = 1.0) -> None:
        if debounce < 0:
            raise ValueError(f"debounce must be 0 or more seconds, got {debounce!r}")
        if hold_time <= 0:
            raise ValueError(f"hold_time must be more than 0 seconds, got {hold_time!r}")
        self.debounce = debounce
        self.hold_time = hold_time
        self._lock = threading.Lock()
        self._down_at: float | None = None  # first closing of the press in progress
        self._open_at: float | None = None  # contact open since, not yet for `debounce`
        self._long_reported = False

    @property
    def is_down(self) -> bool:
        """True while a press is in progress (including a not yet debounced opening)."""
        return self._down_at is not None

    def down(self, t: float) -> list[EventKind]:
        """The contact closed at `t`: a new press, or the same one if it opened < debounce ago."""
        with self._lock:
            events = self._due(t)
            if self._down_at is None:
                self._down_at, self._open_at, self._long_reported = t, None, False
            else:
                self._open_at = None  # chatter: the press goes on
            return events + self._due(t)

    def up(self, t: float) -> list[EventKind]:
        """The contact opened at `t`; the press ends once it stays open for `debounce`."""
        with self._lock:
            events = self._due(t)
            if self._down_at is not None and self._open_at is None:
                self._open_at = t
            return events + self._due(t)

    def poll(self, t: float) -> list[EventKind]:
        """The gestures that fell due by `t` (a settled release, a reached hold time)."""
        with self._lock:
            return self._due(t)

    def next_deadline(self) -> float | None:
        """The time the next gesture can fall due, or None if nothing is pending."""
        with self._lock:
            if self._down_at is None:
                return None
            if self._open_at is not None:
                return self._open_at + self.debounce
            return None if self._long_reported else self._down_at + self.hold_time

    def _due(self, t: float) -> list[EventKind]:
        down_at, open_at = self._down_at, self._open_at
        if down_at is None:
            return []
        if open_at is not None:
            if t + _SLACK < open_at + self.debounce:
                return []
            self._down_at = self._open_at = None
            glitch = open_at - down_at + _SLACK < self.debounce
            return [] if self._long_reported or glitch else ["press"]
        if not self._long_reported and t + _SLACK >= down_at + self.hold_time:
            self._long_reported = True
            return ["long_press"]
        return []


def pin_factory_for(backend: str) -> Factory | None:
    """The gpiozero pin factory for a config backend name (`hardware.backends.BUTTON_BACKENDS`):
    "gpio" -> None (gpiozero's own choice for this Pi: lgpio on Bookworm), "rpigpio" ->
    gpiozero's RPi.GPIO factory (older Raspberry Pi OS images, where RPi.GPIO is what is
    installed), "mock" -> a fresh MockFactory. ValueError for any other name ("none" opens
    no buttons)."""
    found = BUTTON_BACKENDS.get(backend)
    if found is None or not found.opener:
        names = [f"'{b.name}'" for b in BUTTON_BACKENDS.values() if b.opener]
        raise ValueError(f"unknown buttons backend {backend!r}; use "
                         f"{', '.join(names[:-1])} or {names[-1]}")
    factory: Factory | None = found.load()()
    return factory


def default_pin_factory() -> None:
    """The "gpio" backend: no factory of ours, gpiozero chooses the Pi's own."""
    return None


def rpigpio_pin_factory() -> Factory:
    """The "rpigpio" backend: gpiozero's RPi.GPIO factory, or HardwareUnavailable saying how
    to install RPi.GPIO."""
    try:
        from gpiozero.pins.rpigpio import RPiGPIOFactory
    except ImportError as exc:  # gpiozero imports RPi.GPIO here
        raise HardwareUnavailable(
            "The rpigpio buttons backend needs the RPi.GPIO package (older Raspberry Pi "
            "OS: sudo apt install python3-rpi.gpio, or pip install RPi.GPIO); on "
            "Bookworm use the 'gpio' backend."
        ) from exc
    return RPiGPIOFactory()


class ControlButtons(HardwareDevice):
    """The table's control buttons: `pins` maps a name from CONTROL_NAMES to a BCM GPIO
    number; `on_event(ControlEvent)` is called for every gesture, from gpiozero's threads
    (an edge) or a timer's (`call_later`: a hold time reached, a release settled), in order
    per button. `clock` and `call_later` are replaceable so tests can run on a fake clock.

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
        call_later: CallLater = thread_timer,
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
        self.debounce = debounce
        self._on_event = on_event
        self._clock = clock
        self._call_later = call_later
        self._closed = False
        self._gestures = {name: PressGesture(debounce, hold_time) for name in pins}
        self._locks = {name: threading.RLock() for name in pins}
        self._timers: dict[str, Cancellable] = {}
        self._buttons: dict[str, DigitalInputDevice] = {}
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

    @property
    def answered_by(self) -> str:
        """Which pin library really drives the buttons: gpiozero's factory's name without
        "Factory" ("LGPIO", "RPiGPIO", "Mock", ...); "" when no button is open."""
        for button in self._buttons.values():
            return type(button.pin_factory).__name__.removesuffix("Factory")
        return ""

    def _make_button(self, name: str, pin: int, pin_factory: Factory | None
                     ) -> DigitalInputDevice:
        # A DigitalInputDevice, not a gpiozero Button: a Button starts a thread per button
        # that wakes ten times a second to fire `when_held`, which the gestures above
        # already time without it (8 buttons: 80 wake-ups a second on an idle table).
        button = DigitalInputDevice(pin, pull_up=True, bounce_time=self.debounce or None,
                                    pin_factory=pin_factory)
        gesture = self._gestures[name]
        button.when_activated = lambda: self._step(name, gesture.down)
        button.when_deactivated = lambda: self._step(name, gesture.up)
        return button

    def _step(self, name: str, action: Callable[[float], list[EventKind]]) -> None:
        """Feed one edge (or a timer's poll) to the button's gesture, report what fell due
        and schedule the next deadline; serialised per button, so events stay in order."""
        with self._locks[name]:
            if self._closed:
                return
            now = self._clock()
            events = action(now)
            timer = self._timers.pop(name, None)
            if timer is not None:
                timer.cancel()
            deadline = self._gestures[name].next_deadline()
            if deadline is not None:
                poll = self._gestures[name].poll
                self._timers[name] = self._call_later(
                    max(0.0, deadline - now), lambda: self._step(name, poll)
                )
            for kind in events:
                self._emit(name, kind)

    def _emit(self, name: str, kind: EventKind) -> None:
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
                   "pressed": bool(button.is_active)}
            for name, button in self._buttons.items()
        }

    def close(self) -> None:
        """Release every pin and drop pending gestures; calling it again does nothing."""
        self._closed = True
        for name in list(self._timers):
            with self._locks[name]:
                timer = self._timers.pop(name, None)
                if timer is not None:
                    timer.cancel()
        buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            button.close()
