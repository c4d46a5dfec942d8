"""Check 11: the miswired board brought up over HTTP, as the maker's phone does it, with the
maker's hands on the emulated Pico's buttons and the Pi's control buttons and the maker's eyes
on the LED strip decoded from the Pi's SPI bytes; the learned profile saved and live.

The maker is the scripted one of tests/bringup (`TableMaker`, the same walk the practice
bench makes on the virtual board), with the box's hands (`BoxHands`). What the maker knows of
the board is only what they see on it: which territory each LED lies in (the classic-42 board
as built) and which button sits under which territory; the table learns the rest.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from pi_app.table.miswired import PhysicalBoard
from tools.pibox.checks.game_setup import host_pin
from tools.pibox.devices import Pico, Strip
from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run
from tools.pibox.web import wait_link, wait_port

# The bring-up page's slowest LED pace (seconds an LED): the emulated Pico hears a button
# let go up to a second or two late, and a run held a beat too long is undone and held again.
PACE = 2.0
WHITE = (255, 255, 255)
WHITE_FLOOR = 32  # white through brightness and gamma; the bring-up's DIM grey stays far below


@dataclass
class BoxBoard:
    """The board as the maker sees it (tests/bringup's `SeenBoard` shape): each LED's
    territory or status group in chain order, the territory under each button (its channel
    as the board was meant to be wired; the wires say otherwise), the control buttons."""

    owners: list[str | None]
    channel_of: dict[str, int]
    controls: dict[str, int]
    nfc: bool = False
    tokens: dict[str, list[str]] = field(default_factory=dict)
    markers: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, profile: Any) -> BoxBoard:
        """classic-42 as built (its LEDs are wired as the profile says), without the
        profile's tags: a button board has no reader to put them on."""
        truth = PhysicalBoard.from_profile(profile)
        return cls(list(truth.owners), dict(truth.channel_of), dict(truth.controls),
                   truth.nfc)


class BoxHands:
    """The maker's hands and eyes in the box: a territory's button on the emulated Pico, a
    control button on the Pi's GPIO (the shim's line), the strip as SPI carried it."""

    def __init__(self, board: BoxBoard, pico: Pico, strip: Strip) -> None:
        self.board, self.pico, self.strip = board, pico, strip

    def down(self, territory: str) -> None:
        """Hold `territory`'s button down."""
        self.pico.down(self.board.channel_of[territory])

    def up(self, territory: str) -> None:
        """Let `territory`'s button go."""
        self.pico.up(self.board.channel_of[territory])

    def press(self, control: str) -> None:
        """A short press of a control button on its GPIO line."""
        self.strip.press(self.board.controls[control])

    def tag(self, territory: str, colour: str, kind: str, index: int) -> None:
        """classic-42 has buttons, no readers: the bring-up never asks for a tag."""
        raise CheckFailed(f"the bring-up asked for {colour}'s {kind} on a button board")

    def leds(self) -> list[tuple[int, int, int]]:
        """The chain as it glows: white seen as white whatever brightness and gamma made of
        it (the maker's eye), other colours as the strip carries them."""
        return [WHITE if r == g == b and r >= WHITE_FLOOR else (r, g, b)
                for r, g, b in self.strip.last()]


def check_11_bringup(run: Run) -> str:
    """11. The board, wired with two buttons' inputs crossed, is brought up over HTTP: one
    touch per territory, one hold per run of LEDs, each control pressed; saved, the learned
    profile is the service's and the Pico links under it."""
    from tests.bringup.http_maker import Http, HttpPhone
    from tests.bringup.table_maker import TableMaker

    assert run.pico is not None and run.strip is not None
    wait_port()
    http = Http("http://127.0.0.1:8080", host_pin(run.box))
    phone = HttpPhone(http)
    board = BoxBoard.of(run.profile)
    maker = TableMaker(board, None, phone, hands=BoxHands(board, run.pico, run.strip))
    start = time.monotonic()
    phone.start(PACE)
    try:
        maker.whole()
    except AssertionError as exc:
        state = phone.state()
        raise CheckFailed(f"the bring-up stopped at step {state.get('step')} "
                          f"({state.get('prompt')}): {exc}") from None
    saved = phone.save()
    took = time.monotonic() - start
    run.timings["bring-up over HTTP"] = took
    link = wait_link()
    if not link.get("connected"):
        raise CheckFailed(f"after the bring-up's save the Pico did not link: {link}")
    steps = maker.counts.by_step
    holds = steps.get("leds", {}).get("touches", 0)
    return (f"brought up in {took:.0f} s: {steps.get('sensors', {}).get('touches', 0)} "
            f"sensor touches for 42 territories, {holds} holds for the LED runs "
            f"({maker.counts.retries} held again), {maker.counts.presses} control presses, "
            f"{maker.counts.taps} taps on the phone; saved as "
            f"{(saved.get('last_saved') or {}).get('path') or saved.get('profile')}")
