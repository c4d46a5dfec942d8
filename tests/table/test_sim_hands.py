"""SimHands' quick presses stay quick when the test process stalls (a loaded CI machine).

A quick press is held 0.06 s; with the 0.1 s hold time the end-to-end games use, a stall of
more than 0.04 s between its two edges used to turn it into a long press (a long End phase
ends the turn instead of the attack). On a PressClock SimHands times the press itself.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.controls import ControlButtons, ControlEvent
from pi_app.table.autoplay import PressClock, SimHands

HOLD_S = 0.1
STALL_S = 0.3  # far past the hold time


def fake_rig() -> SimpleNamespace:
    """What SimHands reads of a rig: the hold time, the pins, the NFC flag, the pin factory."""
    return SimpleNamespace(
        config=SimpleNamespace(buttons=SimpleNamespace(hold_time=HOLD_S, pins={})),
        profile=SimpleNamespace(controls={"end_phase": 17}),
        loop=SimpleNamespace(wiring=SimpleNamespace(nfc=False)),
        button_factory=MockFactory())


def first_event(events: list[ControlEvent]) -> ControlEvent:
    deadline = time.monotonic() + 30
    while not events and time.monotonic() < deadline:
        time.sleep(0.01)
    assert events, "the button reported nothing"
    time.sleep(0.2)  # nothing else may follow (a press after a long press would be a bug)
    assert len(events) == 1, events
    return events[0]


def stalled_sleep(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sleep of the test thread lasts STALL_S longer (a loaded machine's stall)."""
    real = time.sleep
    monkeypatch.setattr(time, "sleep", lambda s: real(s + STALL_S))


@pytest.mark.parametrize("timed_by_hands", [True, False])
def test_a_quick_press_on_a_press_clock_stays_quick_through_a_stall(
        monkeypatch: pytest.MonkeyPatch, timed_by_hands: bool) -> None:
    rig = fake_rig()
    clock = PressClock()
    events: list[ControlEvent] = []
    opener = clock.open_buttons if timed_by_hands else ControlButtons
    buttons = opener({"end_phase": 17}, events.append, pin_factory=rig.button_factory,
                     hold_time=HOLD_S)
    try:
        hands = SimHands(rig, clock=clock if timed_by_hands else None)
        with monkeypatch.context() as patch:
            stalled_sleep(patch)
            hands.press("end_phase")
        # the control: on the real clock the same stall makes a long press
        want = "press" if timed_by_hands else "long_press"
        assert first_event(events) == ControlEvent("end_phase", want)
        assert clock() == pytest.approx(time.monotonic(), abs=1.0)  # unpinned after it
    finally:
        buttons.close()


def test_a_long_press_on_a_press_clock_is_long() -> None:
    rig = fake_rig()
    clock = PressClock()
    events: list[ControlEvent] = []
    buttons = clock.open_buttons({"end_phase": 17}, events.append,
                                 pin_factory=rig.button_factory, hold_time=HOLD_S)
    try:
        SimHands(rig, clock=clock).press("end_phase", long=True)
        assert first_event(events) == ControlEvent("end_phase", "long_press")
    finally:
        buttons.close()
