"""Control buttons: debounce and long press (PressGesture), and gpiozero wiring (MockFactory)."""

from __future__ import annotations

import threading
import time

import pytest

from hardware.controls import ControlButtons, ControlEvent, PressGesture, pin_factory_for
from hardware.errors import HardwareUnavailable


class FakeTime:
    """A clock the test moves by hand, and the timers ControlButtons schedules on it:
    `advance(s)` runs every timer that falls due, in order, with the clock at its due time."""

    def __init__(self) -> None:
        self.now = 100.0
        self._timers: list[FakeTimer] = []

    def __call__(self) -> float:
        return self.now

    def call_later(self, delay: float, fn) -> FakeTimer:
        timer = FakeTimer(self.now + delay, fn)
        self._timers.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        end = self.now + seconds
        while True:
            due = [t for t in self._timers if not t.cancelled and t.due <= end]
            if not due:
                break
            timer = min(due, key=lambda t: t.due)
            self._timers.remove(timer)
            self.now = max(self.now, timer.due)
            timer.fn()
        self.now = end


class FakeTimer:
    """One scheduled call; `cancel()` stops it."""

    def __init__(self, due: float, fn) -> None:
        self.due, self.fn, self.cancelled = due, fn, False

    def cancel(self) -> None:
        self.cancelled = True


# -- PressGesture: the pure debounce / long-press unit ------------------------------------


def run(gesture: PressGesture, *steps: tuple[str, float]) -> list[tuple[float, str]]:
    """Feed ("down"|"up"|"poll", t) steps; return (t, event) for every event reported."""
    seen = []
    for action, t in steps:
        seen += [(t, event) for event in getattr(gesture, action)(t)]
    return seen


def test_short_press_reports_press_once_the_contact_stayed_open_for_debounce():
    gesture = PressGesture(debounce=0.03, hold_time=1.0)
    assert run(gesture, ("down", 0.0), ("up", 0.15), ("poll", 0.17)) == []
    assert gesture.poll(0.18) == ["press"]
    assert not gesture.is_down


def test_press_bounce_is_one_press():
    gesture = PressGesture(debounce=0.03)
    steps = [("down", 0.000), ("up", 0.002), ("down", 0.004), ("up", 0.006),
             ("down", 0.008), ("up", 0.200), ("poll", 0.230), ("poll", 0.5)]
    assert run(gesture, *steps) == [(0.230, "press")]


def test_release_bounce_adds_no_press():
    gesture = PressGesture(debounce=0.03)
    steps = [("down", 0.0), ("up", 0.2), ("down", 0.202), ("up", 0.204), ("poll", 0.234),
             ("poll", 1.0)]
    assert run(gesture, *steps) == [(0.234, "press")]
    assert not gesture.is_down


def test_glitch_shorter_than_debounce_reports_nothing_and_leaves_the_button_up():
    gesture = PressGesture(debounce=0.03)
    assert run(gesture, ("down", 5.0), ("up", 5.01), ("poll", 5.05), ("poll", 9.0)) == []
    assert not gesture.is_down


def test_two_deliberate_presses_are_two_presses():
    gesture = PressGesture(debounce=0.03)
    steps = [("down", 0.0), ("up", 0.1), ("poll", 0.2), ("down", 0.3), ("up", 0.4),
             ("poll", 0.5)]
    assert run(gesture, *steps) == [(0.2, "press"), (0.5, "press")]


def test_a_new_press_after_an_unreported_release_first_reports_the_old_one():
    # the settle timer may run late; the next press must not swallow the previous one
    gesture = PressGesture(debounce=0.03)
    steps = [("down", 0.0), ("up", 0.1), ("down", 0.14), ("up", 0.3), ("poll", 0.33)]
    assert run(gesture, *steps) == [(0.14, "press"), (0.33, "press")]


def test_long_press_reports_once_at_hold_time_and_no_press_at_release():
    gesture = PressGesture(debounce=0.03, hold_time=1.0)
    steps = [("down", 0.0), ("poll", 0.99), ("poll", 1.0), ("poll", 1.2), ("up", 1.5),
             ("poll", 1.6)]
    assert run(gesture, *steps) == [(1.0, "long_press")]


def test_chatter_in_the_middle_of_a_hold_keeps_it_one_long_press():
    # the review's case: a 2 ms glitch at 0.15 s of a 0.75 s hold, hold_time 0.3 s
    gesture = PressGesture(debounce=0.03, hold_time=0.3)
    steps = [("down", 0.0), ("up", 0.15), ("down", 0.152), ("poll", 0.3), ("up", 0.75),
             ("poll", 0.78), ("poll", 2.0)]
    assert run(gesture, *steps) == [(0.3, "long_press")]


def test_release_just_before_hold_time_is_a_press_even_if_it_settles_after():
    gesture = PressGesture(debounce=0.03, hold_time=0.3)
    steps = [("down", 0.0), ("up", 0.29), ("poll", 0.3), ("poll", 0.32)]
    assert run(gesture, *steps) == [(0.32, "press")]


def test_hold_time_reached_while_the_contact_chatters_reports_at_the_re_close():
    gesture = PressGesture(debounce=0.03, hold_time=0.3)
    steps = [("down", 0.0), ("up", 0.29), ("poll", 0.3), ("down", 0.31), ("up", 0.6),
             ("poll", 0.7)]
    assert run(gesture, *steps) == [(0.31, "long_press")]


def test_next_deadline_is_the_hold_time_then_the_settle_time():
    gesture = PressGesture(debounce=0.03, hold_time=0.3)
    assert gesture.next_deadline() is None
    gesture.down(1.0)
    assert gesture.next_deadline() == pytest.approx(1.3)
    gesture.up(1.1)
    assert gesture.next_deadline() == pytest.approx(1.13)


def test_no_press_in_progress_reports_nothing():
    assert PressGesture().poll(50.0) == []
    assert PressGesture().up(50.0) == []


# -- ControlButtons over gpiozero's MockFactory ------------------------------------------


@pytest.fixture
def clock():
    return FakeTime()


@pytest.fixture
def events():
    return []


def make_buttons(mock_factory, events, clock, **kwargs):
    return ControlButtons(
        {"confirm": 17, "undo": 27}, events.append, pin_factory=mock_factory, clock=clock,
        call_later=clock.call_later, **kwargs,
    )


def test_pressing_a_button_emits_press_after_the_release_settles(mock_factory, events, clock):
    with make_buttons(mock_factory, events, clock):
        pin = mock_factory.pin(17)
        pin.drive_low()
        clock.advance(0.1)
        pin.drive_high()
        assert events == []
        clock.advance(0.03)
        assert events == [ControlEvent("confirm", "press")]


def test_each_button_reports_its_own_name(mock_factory, events, clock):
    with make_buttons(mock_factory, events, clock):
        for gpio in (27, 17):
            mock_factory.pin(gpio).drive_low()
            clock.advance(0.1)
            mock_factory.pin(gpio).drive_high()
            clock.advance(0.1)
    assert [e.name for e in events] == ["undo", "confirm"]


def test_bouncing_contact_gives_one_press(mock_factory, events, clock):
    with make_buttons(mock_factory, events, clock):
        pin = mock_factory.pin(17)
        for _ in range(3):
            pin.drive_low()
            clock.advance(0.002)
            pin.drive_high()
            clock.advance(0.002)
        pin.drive_low()
        clock.advance(0.15)
        pin.drive_high()
        clock.advance(0.5)
    assert events == [ControlEvent("confirm", "press")]


def test_chatter_during_a_hold_still_gives_one_long_press(mock_factory, clock):
    # a 2 ms glitch at 0.15 s during a 0.75 s hold, hold_time 0.3 s: a long press at 0.3 s
    seen = []
    buttons = ControlButtons({"undo": 27}, lambda e: seen.append((clock.now, e)),
                             pin_factory=mock_factory, hold_time=0.3, clock=clock,
                             call_later=clock.call_later)
    start = clock.now
    with buttons:
        pin = mock_factory.pin(27)
        pin.drive_low()
        clock.advance(0.15)
        pin.drive_high()
        clock.advance(0.002)
        pin.drive_low()
        clock.advance(0.598)
        pin.drive_high()
        clock.advance(0.5)
    assert [event for _t, event in seen] == [ControlEvent("undo", "long_press")]
    assert seen[0][0] == pytest.approx(start + 0.3)


def test_debounce_is_also_given_to_gpiozero_as_bounce_time(mock_factory, events, clock):
    with make_buttons(mock_factory, events, clock, debounce=0.02):
        assert mock_factory.pin(17).bounce == pytest.approx(0.02)


def test_the_buttons_start_no_thread_of_their_own(mock_factory, events, clock):
    # gpiozero's Button polls for `when_held` from a thread per button, 10 times a second
    # even on an idle table; the gestures time holds themselves, so nothing needs it
    before = set(threading.enumerate())
    with ControlButtons(dict(zip(("confirm", "undo", "end_phase", "roll"), (5, 6, 16, 26),
                                 strict=True)),
                        events.append, pin_factory=mock_factory, clock=clock,
                        call_later=clock.call_later):
        assert set(threading.enumerate()) - before == set()


def test_close_cancels_a_pending_press(mock_factory, events, clock):
    buttons = make_buttons(mock_factory, events, clock)
    mock_factory.pin(17).drive_low()
    clock.advance(0.1)
    mock_factory.pin(17).drive_high()
    buttons.close()
    clock.advance(1.0)
    assert events == []


def test_with_real_timers_holding_emits_long_press_while_held(mock_factory):
    held = threading.Event()
    seen = []

    def on_event(event):
        seen.append(event)
        held.set()

    buttons = ControlButtons({"undo": 27}, on_event, pin_factory=mock_factory, hold_time=0.05)
    with buttons:
        pin = mock_factory.pin(27)
        pin.drive_low()
        assert held.wait(30), "no long press for a 0.05 s hold time"
        assert seen == [ControlEvent("undo", "long_press")]
        pin.drive_high()
    assert seen == [ControlEvent("undo", "long_press")]


def test_with_real_timers_a_short_press_is_reported(mock_factory):
    pressed = threading.Event()
    seen = []

    def on_event(event):
        seen.append(event)
        pressed.set()

    with ControlButtons({"confirm": 5}, on_event, pin_factory=mock_factory, hold_time=5.0):
        pin = mock_factory.pin(5)
        pin.drive_low()
        time.sleep(0.05)  # closed for longer than the 0.03 s debounce (glitches: see above,
        pin.drive_high()  # on a fake clock: a busy machine can stretch any real-time glitch)
        assert pressed.wait(30), "no press reported after the release"
    assert seen == [ControlEvent("confirm", "press")]


def test_a_failing_handler_does_not_break_the_buttons(mock_factory, clock):
    calls = []

    def handler(event):
        calls.append(event)
        raise RuntimeError("boom")

    with ControlButtons({"roll": 23}, handler, pin_factory=mock_factory, clock=clock,
                        call_later=clock.call_later):
        for _ in range(2):
            mock_factory.pin(23).drive_low()
            clock.advance(0.1)
            mock_factory.pin(23).drive_high()
            clock.advance(0.1)
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


def test_the_buttons_say_which_pin_library_answered():
    """doctor reports what really drives the buttons, not the config's name for it."""
    from gpiozero.pins.mock import MockFactory

    from hardware.controls import ControlButtons

    with ControlButtons({"confirm": 5}, lambda event: None, pin_factory=MockFactory()) as c:
        assert c.answered_by == "Mock"
    assert ControlButtons({}, lambda event: None, pin_factory=MockFactory()).answered_by == ""


def test_the_running_service_says_which_pin_library_answered(mock_factory):
    """The line doctor reads from the running service: the service holds its buttons in a
    SupervisedButtons, whose line must name gpiozero's factory too (the Pi box found it
    saying only "gpio" while GPIOZERO_PIN_FACTORY=mock drove them)."""
    from types import SimpleNamespace

    from hardware.controls import ControlButtons
    from hardware.supervised import SupervisedButtons
    from pi_app.checks import service_checks
    from pi_app.config import ButtonConfig, Config

    config = Config(buttons=ButtonConfig(backend="gpio"))  # gpiozero's default answers
    controls = SupervisedButtons(lambda: ControlButtons({"confirm": 5}, lambda event: None),
                                 {"confirm": 5})
    assert controls.answered_by == ""  # not opened yet
    assert controls.start()
    try:
        assert controls.answered_by == "Mock"
        rig = SimpleNamespace(config=config, controls=controls, emulator=None, link=None)
        found = {f["name"]: f for f in service_checks(rig, None)}
        assert found["buttons"]["ok"], found["buttons"]
        assert found["buttons"]["detail"].startswith("gpio (gpiozero's Mock pins): confirm on "
                                                     "GPIO 5"), found["buttons"]
    finally:
        controls.close()
