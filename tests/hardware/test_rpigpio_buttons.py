"""The `rpigpio` buttons backend: gpiozero's RPi.GPIO pin factory (older Raspberry Pi OS
images), with the fake-rpigpio package standing in for RPi.GPIO.

fake-rpigpio only mimics RPi.GPIO's names: `input()` returns a random level,
`gpio_function()` always says "output", and `add_event_detect()` never calls its callback.
So this tests what is deterministic: the BCM numbering, each button set up as an input
with the pull-up, an edge callback registered for both edges with the debounce, and the
pins released on close. The level and the edges are driven here: `input()` answers the
level the test set, and a press is the registered callback called as RPi.GPIO's edge
thread would.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from hardware.controls import ControlButtons, ControlEvent, pin_factory_for
from pi_app.config import config_from_dict

PI4_REVISION = 0xC03114  # a Pi 4 Model B: gpiozero reads it from /proc on a real Pi


class Wires:
    """The state fake-rpigpio does not keep: each pin's mode and level, its callbacks."""

    def __init__(self, gpio: Any) -> None:
        self.gpio = gpio
        self.calls: list[tuple[str, tuple, dict]] = []
        self.direction: dict[int, int] = {}
        self.level: dict[int, int] = {}
        self.callbacks: dict[int, Any] = {}

    def record(self, name: str, *args: Any, **kwargs: Any) -> None:
        self.calls.append((name, args, kwargs))

    def setup(self, channel: int, direction: int, pull_up_down: int = 0, **kw: Any) -> None:
        self.record("setup", channel, direction, pull_up_down, **kw)
        self.direction[channel] = direction
        if direction == self.gpio.IN and pull_up_down == self.gpio.PUD_UP:
            self.level.setdefault(channel, 1)  # pulled up: open contact reads high

    def add_event_detect(self, gpio: int, edge: int, callback: Any = None,
                         bouncetime: Any = None) -> None:
        self.record("add_event_detect", gpio, edge, bouncetime=bouncetime)
        self.callbacks[gpio] = callback

    def remove_event_detect(self, gpio: int) -> None:
        self.record("remove_event_detect", gpio)
        self.callbacks.pop(gpio, None)

    def cleanup(self, channel: Any = None) -> None:
        self.record("cleanup", channel)

    def edge(self, channel: int, level: int) -> None:
        """The contact changes: the level RPi.GPIO would read, then its edge callback."""
        self.level[channel] = level
        self.callbacks[channel](channel)


@pytest.fixture
def wires(monkeypatch):
    """fake-rpigpio installed as RPi.GPIO, with `Wires` keeping the pins' state."""
    from fake_rpigpio import RPi

    gpio = RPi.GPIO
    state = Wires(gpio)
    monkeypatch.setitem(sys.modules, "RPi", RPi)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", gpio)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.rpigpio", raising=False)
    for name in ("setup", "add_event_detect", "remove_event_detect", "cleanup"):
        monkeypatch.setattr(gpio, name, getattr(state, name))
    monkeypatch.setattr(gpio, "gpio_function", lambda channel: state.direction.get(
        channel, gpio.IN))
    monkeypatch.setattr(gpio, "input", lambda channel: state.level.get(channel, 1))
    modes: list[int] = []
    monkeypatch.setattr(gpio, "setmode", modes.append)
    state.modes = modes  # type: ignore[attr-defined]
    return state


@pytest.fixture
def factory(wires):
    made = pin_factory_for("rpigpio")
    made._get_revision = lambda: PI4_REVISION  # type: ignore[method-assign]
    yield made
    made.close()


class Clock:
    """A clock and `call_later` the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0
        self.pending: list[tuple[float, Any]] = []

    def __call__(self) -> float:
        return self.now

    def call_later(self, delay: float, fn: Any) -> Any:
        entry = (self.now + delay, fn)
        self.pending.append(entry)

        class Handle:
            def cancel(inner) -> None:
                if entry in self.pending:
                    self.pending.remove(entry)
        return Handle()

    def advance(self, seconds: float) -> None:
        self.now += seconds
        for due, fn in sorted(self.pending, key=lambda e: e[0]):
            if due <= self.now and (due, fn) in self.pending:
                self.pending.remove((due, fn))
                fn()


def test_buttons_are_bcm_inputs_with_pull_ups_and_both_edges_watched(wires, factory):
    gpio = wires.gpio
    buttons = ControlButtons({"confirm": 5, "undo": 6}, lambda e: None, pin_factory=factory)
    try:
        assert gpio.BCM in wires.modes
        for pin in (5, 6):
            setups = [c for c in wires.calls if c[0] == "setup" and c[1][0] == pin]
            assert setups and setups[-1][1][1:] == (gpio.IN, gpio.PUD_UP)
            [watch] = [c for c in wires.calls if c[0] == "add_event_detect" and c[1][0] == pin]
            assert watch[1][1] == gpio.BOTH and watch[2]["bouncetime"] == 30  # ms
        assert buttons.get_status() == {"confirm": {"pin": "GPIO5", "pressed": False},
                                        "undo": {"pin": "GPIO6", "pressed": False}}
    finally:
        buttons.close()
    assert {c[1][0] for c in wires.calls if c[0] == "cleanup"} >= {5, 6}
    assert not wires.callbacks  # no edge is watched once closed


def test_edges_from_rpi_gpio_become_a_press_and_a_long_press(wires, factory):
    clock = Clock()
    events: list[ControlEvent] = []
    buttons = ControlButtons({"confirm": 5}, events.append, pin_factory=factory,
                             hold_time=1.0, clock=clock, call_later=clock.call_later)
    try:
        wires.edge(5, 0)  # pressed: the pull-up is shorted to ground
        clock.advance(0.2)
        wires.edge(5, 1)
        clock.advance(0.05)
        assert events == [ControlEvent("confirm", "press")]
        wires.edge(5, 0)
        clock.advance(1.1)
        assert events[-1] == ControlEvent("confirm", "long_press")
        assert buttons.get_status()["confirm"]["pressed"] is True
    finally:
        buttons.close()


def test_the_config_accepts_the_rpigpio_backend_and_checks_its_pins_against_the_leds():
    assert config_from_dict({"buttons": {"backend": "rpigpio"}}).buttons.backend == "rpigpio"
    with pytest.raises(ValueError, match=r"leds\.gpio_pin already drives"):
        config_from_dict({"leds": {"backend": "ws281x", "gpio_pin": 18},
                          "buttons": {"backend": "rpigpio", "pins": {"roll": 18}}})


def test_without_rpi_gpio_the_backend_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "RPi", None)
    monkeypatch.setitem(sys.modules, "RPi.GPIO", None)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.rpigpio", raising=False)
    from hardware.errors import HardwareUnavailable

    with pytest.raises(HardwareUnavailable, match=r"needs the RPi\.GPIO package"):
        pin_factory_for("rpigpio")
