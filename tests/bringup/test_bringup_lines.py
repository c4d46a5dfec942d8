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
