"""While a bring-up runs, a control button wired to a line no button holds is heard by its
line number (pi_app.table.bringup_lines), on gpiozero's MockFactory as on a Pi."""

from __future__ import annotations

import threading

from gpiozero.pins.mock import MockFactory

from pi_app.table.bringup_lines import LineWatcher, free_lines


def test_the_free_lines_leave_out_the_buttons_spi_the_led_pin_and_the_uart():
    lines = free_lines([5, 6], led_pin=18)
    assert 5 not in lines and 6 not in lines and 18 not in lines
    assert not set(range(7, 12)) & set(lines) and 14 not in lines and 15 not in lines
    assert {2, 4, 24, 27} <= set(lines)


def test_a_press_on_a_free_line_is_reported_by_its_number_and_a_busy_line_is_left_alone():
    from gpiozero import Button

    factory = MockFactory()

    holder = Button(24, pin_factory=factory)  # another device holds line 24
    heard: list[int] = []
    pressed = threading.Event()

    def on_press(line: int) -> None:
        heard.append(line)
        pressed.set()

    watcher = LineWatcher([24, 25], on_press, pin_factory=factory, debounce=0)
    try:
        assert set(watcher.buttons) == {25}
        factory.pin(25).drive_low()
        assert pressed.wait(60)
        assert heard == [25]
    finally:
        watcher.close()
        holder.close()


def test_the_buttons_are_opened_again_after_a_bring_up_releases_the_free_lines(tmp_path):
    """lgpio 0.2.2's alert thread goes deaf to every line when the lines claimed last (the
    free lines a bring-up watched, claimed after the buttons) are released; the buttons,
    opened again once those are released, are heard (Pi box run8: End phase on GPIO 16
    was never heard after check 11's bring-up). Here: the buttons are opened once more on
    stop, after the watcher let go of its lines."""
    from hardware.controls import ControlButtons
    from hardware.supervised import Backoff
    from pi_app.config import Config
    from pi_app.table.rig import build_rig

    openings: list[bool] = []  # at each opening of the buttons: were free lines still held?
    desk: list = []

    def open_buttons(pins, on_event, **opts):
        openings.append(bool(desk and desk[0]._lines is not None))
        return ControlButtons(pins, on_event, **opts)

    rig = build_rig(Config(), sim=True, data_dir=tmp_path, open_buttons=open_buttons,
                    backoff=lambda: Backoff(0.01, 0.05))
    desk.append(rig.service.bringup)
    rig.start()
    try:
        assert openings == [False]
        rig.service.bringup.start()
        assert rig.service.bringup._lines is not None and rig.service.bringup._lines.buttons
        rig.service.bringup.stop()
        assert openings == [False, False]  # opened again, once the free lines were released
        assert rig.service.status()["parts"]["buttons"]["state"] == "running"
    finally:
        rig.stop()
