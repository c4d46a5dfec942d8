"""A small pure model of a badly wired board, and a scripted maker who brings it up.

The board (classic-42's territories) is wired as a hurried maker might: territories in a
shuffled order along the chain, one stretch of the chain glued in reverse, one territory
with 2 LEDs and one with 4, one territory whose LEDs come in two runs, a dead LED between
territories, status LEDs at the end, two sensor channels crossed, the control buttons on
other GPIO lines than classic-42's, a chip that takes its colours in "RGB" order while the
driver sends "GRB", and on the NFC board one reader plugged into a spare mux port.

The maker only sees what a person at the table sees: which LEDs are lit in which colour and
where they physically are (the model's truth), and answers as the prompt asks. Touches
(sensor presses / tags put on a reader) and phone taps are counted.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from pi_app.bringup.colour_order import logical_rgb
from pi_app.bringup.core import NEXT_COLOUR, RUN_COLOUR, BringUp
from pi_app.bringup.events import Answer, ControlPress, Press, Release, TagArrived, TagLeft

STATUS = {"turn": 1, "phase": 3, "attack_dice": 3, "defence_dice": 2}
CONTROL_GPIO = {"confirm": 24, "undo": 25, "end_phase": 12, "roll": 13, "cancel": 19,
                "blitz": 20, "cycle_dice": 21, "cards": 4}  # no "menu" button on this board
CHIP_ORDER = "RGB"
PROBE_UID = "04aabbccddeeff"


@dataclass
class MiswiredBoard:
    """The truth of one miswired board: who owns each LED index (a territory, "status:<name>"
    or None for a dead LED), each territory's sensor channel, and the tags."""

    owners: list[str | None]
    channel_of: dict[str, int]
    nfc: bool
    sensor_count: int
    tokens: dict[str, str] = field(default_factory=dict)
    markers: dict[str, list[str]] = field(default_factory=dict)
    split: str = ""
    dead: int = -1

    def leds_of(self, owner: str) -> set[int]:
        """Every LED index `owner` physically has."""
        return {i for i, o in enumerate(self.owners) if o == owner}


def build_board(territories: tuple[str, ...], colours: tuple[str, ...], *, nfc: bool,
                seed: int = 25) -> MiswiredBoard:
    """A miswired board over `territories` (see the module docstring)."""
    rng = random.Random(seed)
    order = list(territories)
    rng.shuffle(order)
    sizes = {t: 3 for t in order}
    sizes[order[5]], sizes[order[9]] = 2, 4
    split = order[14]
    blocks: list[tuple[str | None, int]] = []
    for position, territory in enumerate(order):
        if territory == split:
            blocks.append((territory, 2))  # its third LED comes after the next territory
            continue
        blocks.append((territory, sizes[territory]))
        if position > 0 and order[position - 1] == split:
            blocks.append((split, 1))
        if position == 20:
            blocks.append((None, 1))  # a dead LED between two territories
    blocks[24:32] = blocks[24:32][::-1]  # a strip run glued the other way round
    owners: list[str | None] = [owner for owner, n in blocks for _ in range(n)]
    dead = owners.index(None)
    for name, count in STATUS.items():
        owners += [f"status:{name}"] * count
    channel_of = {t: i for i, t in enumerate(territories)}
    a, b = territories[3], territories[17]
    channel_of[a], channel_of[b] = channel_of[b], channel_of[a]  # a crossed pair
    sensor_count = len(territories)
    if nfc:
        channel_of[territories[30]] = sensor_count + 3  # a reader on a spare mux port
        sensor_count += 4
    tokens = {c: f"04{i:02x}0000000001" for i, c in enumerate(colours, 1)}
    markers = {c: [f"04{i:02x}1000000001", f"04{i:02x}1000000002"]
               for i, c in enumerate(colours, 1)}
    return MiswiredBoard(owners, channel_of, nfc, sensor_count, tokens, markers, split, dead)


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

    def tap(self, what: str, value: object = None) -> None:
        """Answer on the phone; the core must accept it."""
        self.taps += 1
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
            uids = [self.board.tokens[colour]] if step == "tokens" else self.board.markers[colour]
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
