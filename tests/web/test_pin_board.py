"""The host's sign-in confirmation on the board (issue 21.3): the table lets the web see a
control-button press before the game does (`LocalTableService.watch_presses`)."""

from __future__ import annotations

import time

from hardware.controls import ControlEvent
from pi_app.table.loop import NewGameSpec

CLASSIC = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})


def wait_until(check, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_watched_press_is_kept_from_the_game_and_others_reach_it(tables):
    table = tables(CLASSIC)
    service = table.app.extensions["riskboard"].table
    seen: list[tuple[str, bool]] = []

    def watcher(button: str, long: bool) -> bool:
        seen.append((button, long))
        return button == "confirm" and long

    service.watch_presses(watcher)
    before = table.mark()
    table.loop.post_control(ControlEvent("confirm", "long_press"))
    wait_until(lambda: seen == [("confirm", True)])
    assert table.mark() == before  # the game never saw it: no refusal, no command
    table.loop.post_control(ControlEvent("end_phase", "press"))
    wait_until(lambda: len(seen) == 2)
    wait_until(lambda: table.mark() != before)  # this one reached the game (a refusal or more)
    assert seen[1] == ("end_phase", False)
