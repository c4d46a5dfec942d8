"""Load a new board profile into a running table, without a restart.

After a bring-up saves a profile (`pi_app.table.bringup_desk`), the table takes its LED map
(the painter and the virtual board) and its sensor map, tokens and markers (the loop and
the board reader) on the loop thread, between two inputs, so no touch is read half with
the old map and half with the new. The link's expected sensor CRC follows from the desk.
A chain of another length than the strip opened at start, or control buttons on other
lines, take effect at the next start (the strip and the GPIO lines are opened once):
`reload_profile` says which in its answer.
"""

from __future__ import annotations

from typing import Any

from hardware.profiles import BoardProfile
from pi_app.table.board_inputs import BoardReader
from pi_app.table.lights import LedMap
from pi_app.table.wiring import Wiring


def reload_profile(loop: Any, painter: Any, service: Any, profile: BoardProfile, *,
                   strip_count: int, pins: dict[str, int]) -> dict[str, Any]:
    """Swap `profile`'s maps into the running table; returns what waits for a restart."""
    try:  # a shorter chain fits the strip as opened; a longer one waits for a restart
        leds: LedMap | None = LedMap.build(strip_count, profile.territory_leds,
                                           profile.status_leds)
    except ValueError:
        leds = None
    wiring = Wiring.from_profile(profile)

    def swap(core: Any) -> None:
        loop.wiring = wiring
        core.wiring = wiring
        settle = getattr(core.board.tracker, "settle_s", None) if core.board.tracker else None
        core.board = BoardReader(core.board.core, wiring,
                                 settle if settle is not None else loop._settle_s)
        if leds is not None:
            painter.leds = leds
            service.leds = leds
        core.publish([], state_changed=True)

    loop.call(swap)
    later = []
    if leds is None or profile.led_count > strip_count:
        later.append("led_count")
    if any(pins.get(name) != line for name, line in profile.controls.items() if name in pins):
        later.append("controls")
    return {"restart_for": later}
