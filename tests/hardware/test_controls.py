"""Control buttons: debounce and long press (PressGesture), and gpiozero wiring (MockFactory)."""

from __future__ import annotations

import threading

import pytest

from hardware.controls import ControlButtons, ControlEvent, PressGesture, pin_factory_for
from hardware.errors import HardwareUnavailable


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# -- PressGesture: the pure debounce / long-press unit ------------------------------------


def test_short_press_reports_press_at_release():
    gesture = PressGesture(debounce=0.03)
    assert gesture.down(0.0) is None
    assert gesture.up(0.15) == "press"


def test_press_bounce_is_one_press():
    gesture = PressGesture(debounce=0.03)
    edges = [gesture.down(0.000), gesture.up(0.002), gesture.down(0.004), gesture.up(0.006),
             gesture.down(0.008), gesture.up(0.200)]
    assert [e for e in edges if e] == ["press"]


def test_release_bounce_adds_no_press():
    gesture = PressGesture(debounce=0.03)
    gesture.down(0.0)
    assert gesture.up(0.2) == "press"
    assert gesture.down(0.202) is None
    assert gesture.up(0.204) is None
    assert not gesture.is_down


def test_glitch_shorter_than_debounce_reports_nothing():
    gesture = PressGesture(debounce=0.03)
    gesture.down(5.0)
    assert gesture.up(5.01) is None


def test_two_deliberate_presses_are_two_presses():
    gesture = PressGesture(debounce=0.03)
    gesture.down(0.0)
    first = gesture.up(0.1)
    gesture.down(0.3)
    assert (first, gesture.up(0.4)) == ("press", "press")


def test_long_press_reports_once_and_no_press_at_release():
    gesture = PressGesture(debounce=0.03)
    gesture.down(0.0)
    assert gesture.held() == "long_press"
    assert gesture.held() is None
    assert gesture.up(1.5) is None


def test_held_without_a_press_reports_nothing():
    assert PressGesture().held() is None


# -- ControlButtons over gpiozero's MockFactory ------------------------------------------


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def events():
    return []


def make_buttons(mock_factory, events, clock, **kwargs):
    return ControlButtons(
        {"confirm": 17, "undo": 27}, events.append, pin_factory=mock_factory, clock=clock,
        **kwargs,
    )


def test_pressing_a_button_emits_press(mock_factory, events, clock):
    with make_buttons(mock_factory, events, clock):
        pin = mock_factory.pin(17)
        pin.drive_low()
        clock.now += 0.1
        pin.drive_high()
    assert events == [ControlEvent("confirm", "press")]


def test_each_button_reports_its_own_name(mock_factory, events, clock):
    with make_buttons(mock_factory, events, clock):
        for gpio in (27, 17):
            mock_factory.pin(gpio).drive_low()
            clock.now += 0.1
            mock_factory.pin(gpio).drive_high()
            clock.now += 0.1
    assert [e.name for e in events] == ["undo", "confirm"]


def test_bouncing_contact_gives_one_press(mock_factory, events, clock):
    with make_buttons(mock_factory, events, clock):
        pin = mock_factory.pin(17)
        for _ in range(3):
            pin.drive_low()
            clock.now += 0.002
            pin.drive_high()
            clock.now += 0.002
        pin.drive_low()
        clock.now += 0.15
        pin.drive_high()
    assert events == [ControlEvent("confirm", "press")]


def test_holding_a_button_emits_long_press_while_held(mock_factory, clock):
    held = threading.Event()
    seen = []

    def on_event(event):
        seen.append(event)
        held.set()

    buttons = ControlButtons({"undo": 27}, on_event, pin_factory=mock_factory,
                             hold_time=0.05, clock=clock)
    with buttons:
        pin = mock_factory.pin(27)
        pin.drive_low()
        assert held.wait(2.0), "no long press within 2 s for a 0.05 s hold time"
        assert seen == [ControlEvent("undo", "long_press")]
        clock.now += 1.0
        pin.drive_high()
    assert seen == [ControlEvent("undo", "long_press")]


def test_a_failing_handler_does_not_break_the_buttons(mock_factory, clock):
    calls = []

    def handler(event):
        calls.append(event)
        raise RuntimeError("boom")

    with ControlButtons({"roll": 23}, handler, pin_factory=mock_factory, clock=clock):
        for _ in range(2):
            mock_factory.pin(23).drive_low()
            clock.now += 0.1
            mock_factory.pin(23).drive_high()
            clock.now += 0.1
    assert len(calls) == 2


def test_default_pin_factory_is_gpiozeros_which_the_tests_set_to_mock(mock_factory, events):
    with ControlButtons({"roll": 23}, events.append) as buttons:
        assert buttons.get_status() == {"roll": {"pin": "GPIO23", "pressed": False}}
        mock_factory.pin(23).drive_low()
        assert buttons.get_status()["roll"]["pressed"] is True


def test_close_releases_the_pins_for_reuse(mock_factory, events):
    ControlButtons({"confirm": 17}, events.append, pin_factory=mock_factory).close()
    with ControlButtons({"undo": 17}, events.append, pin_factory=mock_factory) as again:
        assert again.names == ("undo",)


def test_unknown_button_name_is_refused(mock_factory, events):
    with pytest.raises(ValueError, match="unknown control button 'fire'"):
        ControlButtons({"fire": 4}, events.append, pin_factory=mock_factory)


def test_two_buttons_on_one_pin_are_refused(mock_factory, events):
    with pytest.raises(ValueError, match="GPIO 5 is given to both 'confirm' and 'undo'"):
        ControlButtons({"confirm": 5, "undo": 5}, events.append, pin_factory=mock_factory)


def test_mock_backend_gives_a_mock_factory_and_gpio_gives_gpiozeros_default():
    from gpiozero.pins.mock import MockFactory

    assert isinstance(pin_factory_for("mock"), MockFactory)
    assert pin_factory_for("gpio") is None
    with pytest.raises(ValueError, match="unknown buttons backend"):
        pin_factory_for("serial")


def test_no_gpio_on_this_machine_is_explained(monkeypatch, events):
    from gpiozero import BadPinFactory, Device

    def no_factory():
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    with pytest.raises(HardwareUnavailable, match="use the 'mock' buttons backend"):
        ControlButtons({"confirm": 5}, events.append)
