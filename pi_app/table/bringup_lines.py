"""Listening to the free GPIO lines while a bring-up runs, to learn where each control
button is wired.

The table's control buttons are opened on the lines the profile names; a board wired
otherwise has buttons on other lines, which nothing would hear. While a bring-up runs,
`LineWatcher` opens a gpiozero `Button` (pulled up, as the control buttons are) on every
other line a button may use (BCM 2-27 but the SPI pins 7-11, the LED data pin and the
serial console's UART 14-15, which an input would silence until a reboot) and
reports each press by its line number. A line that cannot be opened (busy, or another
device's) is left alone: the bring-up's controls step can skip a button it never hears.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any

from hardware.gpio_pins import SPI_PINS

log = logging.getLogger("riskboard.bringup")

BUTTON_LINES = range(2, 28)
UART_LINES = (14, 15)


def free_lines(used: Iterable[int], led_pin: int | None) -> list[int]:
    """The lines a control button may be on that no opened button holds now."""
    taken = set(used) | set(SPI_PINS) | set(UART_LINES) | (
        {led_pin} if led_pin is not None else set())
    return [line for line in BUTTON_LINES if line not in taken]


class LineWatcher:
    """Buttons on `lines`, each press reported as `on_press(line)` (from gpiozero's
    threads); `close()` releases them."""

    def __init__(self, lines: Iterable[int], on_press: Callable[[int], None], *,
                 pin_factory: Any = None, debounce: float = 0.03) -> None:
        from gpiozero import Button
        from gpiozero.exc import GPIOZeroError

        self.buttons: dict[int, Any] = {}
        for line in lines:
            try:
                button = Button(line, pull_up=True, bounce_time=debounce or None,
                                pin_factory=pin_factory)
            except (GPIOZeroError, OSError, RuntimeError) as exc:
                log.info("event=bringup.line_busy gpio=%d error=%r", line, exc)
                continue
            button.when_pressed = lambda line=line: on_press(line)
            self.buttons[line] = button

    def close(self) -> None:
        """Release every line."""
        buttons, self.buttons = self.buttons, {}
        for button in buttons.values():
            button.close()
