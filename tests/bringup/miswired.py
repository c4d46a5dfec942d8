"""A small pure model of a badly wired board, and a scripted maker who brings it up.

The board (classic-42's territories) is wired as a hurried maker might: territories in a
shuffled order along the chain, one stretch of the chain glued in reverse, one territory
with 2 LEDs and one with 4, one territory whose LEDs come in two runs, a dead LED between
territories, status LEDs at the end, two sensor channels crossed, the control buttons on
other GPIO lines than classic-42's, a chip that takes its colours in "RGB" order while the
driver sends "GRB", and on the NFC board one reader plugged into a spare mux port.

The board itself is product code (`pi_app.table.miswired`, which the virtual board runs
with `riskboard serve --sim --miswired SEED`); this module adds the scripted maker.
The maker only sees what a person at the table sees: which LEDs are lit in which colour and
where they physically are (the model's truth), and answers as the prompt asks. Touches
(sensor presses / tags put on a reader) and phone taps are counted.
"""

from __future__ import annotations

from pi_app.bringup.colour_order import logical_rgb
from pi_app.bringup.core import NEXT_COLOUR, RUN_COLOUR, BringUp
from pi_app.bringup.events import Answer, ControlPress, Press, Release, TagArrived, TagLeft
from pi_app.table.miswired import CHIP_ORDER, CONTROL_GPIO, STATUS, build_board
from pi_app.table.miswired import PhysicalBoard as MiswiredBoard

__all__ = ["CHIP_ORDER", "CONTROL_GPIO", "PROBE_UID", "STATUS", "Maker", "MiswiredBoard",
           "build_board"]

PROBE_UID = "04aabbccddeeff"


def _letter(rgb: tuple[int, int, int]) -> str:
    return next(c for c in "RGB" if logical_rgb(c) == rgb)


class Maker:
    """A scripted maker bringing `board` up through `core`, counting what they do."""

    def __init__(self, board: MiswiredBoard, core: BringUp, *, assumed: str = "GRB") -> None:
        self.board, self.core, self.assumed = board, core, assumed
        self.now = 0.0
        self.touches = 0
        self.taps = 0
        self.control_presses = 0
        self.touches_by_step: dict[str, int] = {}
        self.taps_by_step: dict[str, int] = {}

    def tap(self, what: str, value: object = None) -> None:
        """Answer on the phone; the core must accept it."""
        self.taps += 1
        step = self.core.draft.step
        self.taps_by_step[step] = self.taps_by_step.get(step, 0) + 1
        outcome = self.core.handle(Answer(what, value), self.now)
        assert outcome.accepted, (what, value, outcome)

    def _send(self, event: object) -> None:
        outcome = self.core.handle(event, self.now)  # type: ignore[arg-type]
        assert outcome.accepted, (event, outcome)

    def press(self, territory: str) -> None:
        """Touch a territory: press its button, or put a tag on its reader."""
        step = self.core.draft.step
        self.touches += 1
        self.touches_by_step[step] = self.touches_by_step.get(step, 0) + 1
        channel = self.board.channel_of[territory]
        self._send(TagArrived(channel, PROBE_UID) if self.board.nfc else Press(channel))

    def release(self, territory: str) -> None:
        """Let go of the territory (lift the finger or the tag)."""
        channel = self.board.channel_of[territory]
        self._send(TagLeft(channel, PROBE_UID) if self.board.nfc else Release(channel))

    def count_and_colours(self) -> None:
        """Say how many LEDs are really lit, then which colour the first LED shows."""
        if self.core.draft.led_count != len(self.board.owners):
            self.tap("count", len(self.board.owners))
        self.tap("confirm")
        while self.core.draft.step == "colour_order":
            shown = _letter(self.core.view(self.now).frame[0])
            self.tap("colour", CHIP_ORDER[self.assumed.index(shown)])

    def sensors(self, free_order: bool = False) -> None:
        """Touch each territory the phone names (map order), or pick then touch."""
        if free_order:
            self.tap("order", "free")
        territories = list(self.core.facts.territories)
        if free_order:
            territories.reverse()
        for territory in territories:
            if free_order:
                self.tap("pick", territory)
            assert self.core.view(self.now).prompt.params["territory"] == territory
            self.press(territory)
            self.release(territory)

    def leds(self) -> None:
        """Place every LED: hold the territory under the lit one until the newest lit LED
        is outside it; status LEDs and dead LEDs on the phone."""
        while self.core.draft.step == "leds":
            view = self.core.view(self.now)
            assert view.prompt.key == "bringup.leds.touch", view.prompt
            led = view.prompt.params["led"]
            owner = self.board.owners[led]
            if owner is None:
                self.tap("skip")  # nothing lit where the chain says an LED is
            elif owner.startswith("status:"):
                self._status_run(owner)
            else:
                self._hold(owner)

    def _hold(self, territory: str) -> None:
        mine = self.board.leds_of(territory)
        self.press(territory)
        for _ in range(len(self.board.owners)):
            frame = self.core.view(self.now).frame
            newest = [i for i, rgb in enumerate(frame) if rgb == NEXT_COLOUR]
            if newest and newest[0] not in mine:
                break
            if not newest and self.now > 0 and len(
                    [i for i, rgb in enumerate(frame) if rgb == RUN_COLOUR]) >= len(mine):
                break
            self.now += self.core.step_seconds
        self.release(territory)
        self.now += 1.0

    def _status_run(self, owner: str) -> None:
        name = owner.split(":", 1)[1]
        mine = self.board.leds_of(owner)
        self.tap("status", name)
        while True:
            lit = [i for i, rgb in enumerate(self.core.view(self.now).frame) if rgb == RUN_COLOUR]
            if len(lit) >= len(mine) or not set(lit) <= mine:
                break
            self.tap("more")
        self.tap("done")

    def controls(self) -> None:
        """Press each control the phone names; skip the ones this board lacks."""
        while self.core.draft.step == "controls":
            control = self.core.view(self.now).prompt.params["control"]
            if control in CONTROL_GPIO:
                self.control_presses += 1
                self._send(ControlPress(CONTROL_GPIO[control]))
            else:
                self.tap("skip")

    def tags(self) -> None:
        """Tap each colour's token, then its markers, on any reader."""
        reader = 0
        while self.core.draft.step in ("tokens", "markers"):
            step = self.core.draft.step
            colour = self.core.view(self.now).prompt.params["colour"]
            tags = self.board.tokens if step == "tokens" else self.board.markers
            uids = list(tags[colour])
            for uid in uids:
                reader = (reader + 7) % 42
                self.touches += 1
                self.touches_by_step[step] = self.touches_by_step.get(step, 0) + 1
                self._send(TagArrived(reader, uid))
                self._send(TagLeft(reader, uid))
            if step == "markers":
                self.tap("next")

    def check(self) -> None:
        """Look at the continent colours and confirm."""
        assert self.core.view(self.now).prompt.key == "bringup.check.continents"
        self.tap("confirm")
