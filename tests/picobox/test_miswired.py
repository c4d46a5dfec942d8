"""A miswired board on the emulated Pico (issue 25): the real firmware on MicroPython, its
chips wired otherwise than the profile says, and the bring-up core (pi_app.bringup) fed by
the Pi's own link learns the truth: two crossed 74HC165 inputs, LED chips in RGB order, two
PN532 readers on each other's mux ports and one on a spare port. The LED chain's reversed
run is shown as the board shows it, and a profile naming the chips' order lights them right
through the firmware's GRB packing. The reader on a spare port is never polled by the
firmware (it scans the profile's ports): the Pico reports the empty port's channel instead.

A scripted maker reads only what a person at the table sees (the emulated chain's pixels by
place on the board) and touches the buttons and readers under the territories the phone
names; the core hears only what the link delivers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from hardware.leds import BridgeStrip
from hardware.output_stage import OutputStage
from hardware.profiles import load_profile
from pi_app.board_match import board_problems
from pi_app.bringup.colour_order import logical_rgb
from pi_app.bringup.core import BringUp, facts_from_rules
from pi_app.bringup.events import Answer, Press, Release, TagArrived, TagLeft
from tools.picobox.box import Miswiring, PicoBox
from tools.picobox.pi_side import Pi, connected

FACTS = facts_from_rules()
CROSSED = (3, 17)  # buttons of these channels drive each other's 74HC165 input
REVERSED = (30, 38)  # chain LEDs 30..38 glued the other way round
SWAPPED_READERS = (2, 20)  # reader 2 plugged into reader 20's mux port (and 20 into 2's)
SPARE = (33, 0x75, 7)  # reader 33 on a spare port of the last mux
UID = bytes.fromhex("04aabbccddeeff")


class Maker:
    """Answers the bring-up core with what the link delivers from the emulated board."""

    def __init__(self, pi: Pi, nfc: bool) -> None:
        self.pi, self.box = pi, pi.box
        self.core = BringUp(FACTS, led_count=135, nfc=nfc)
        self.seen = 0  # link events fed to the core so far
        self.tags: dict[int, str] = {}

    def now(self) -> float:
        return self.box.emu_s

    def tap(self, what: str, value: object = None) -> None:
        outcome = self.core.handle(Answer(what, value), self.now())
        assert outcome.accepted, (what, value, outcome)

    def feed(self) -> None:
        """Hand the core every sensor event the link delivered since the last call."""
        for event in self.pi.events[self.seen:]:
            self.seen += 1
            if event.kind == "press":
                core_event: object = Press(event.channel)
            elif event.kind == "release":
                core_event = Release(event.channel)
            elif event.kind == "tag_present":
                self.tags[event.channel] = (event.uid or b"").hex()
                core_event = TagArrived(event.channel, self.tags[event.channel])
            else:
                core_event = TagLeft(event.channel, self.tags.pop(event.channel, ""))
            outcome = self.core.handle(core_event, self.now())  # type: ignore[arg-type]
            assert outcome.accepted, (event, outcome)

    def seen_first_led(self) -> str:
        """Show the core's frame on the chain; the colour letter LED 0 shows on the board."""
        frame = self.core.view(self.now()).frame
        before = len(self.box.events())
        self.pi.link.send_led_frame(frame)
        shown = self.box.wait_event(lambda e: e["ev"] == "leds" and e["n"] == len(frame),
                                    emu_s=5, after=before)
        assert shown is not None, "the frame never reached the chain"
        return next(c for c in "RGB" if tuple(shown["pixels"][0]) == logical_rgb(c))

    def touch_button(self, button: int) -> None:
        """Press and release the button under a territory (its button's own number)."""
        start = len(self.pi.events)
        self.box.press(button)
        self.box.run_for(0.05)  # past the 20 ms debounce
        self.box.release(button)
        assert self.box.wait_until(lambda: len(self.pi.events) >= start + 2, emu_s=5)
        self.feed()

    def touch_reader(self, reader: int) -> None:
        """Put the probe tag on the reader under a territory and take it away."""
        start = len(self.pi.events)
        self.box.tag(reader, UID)
        assert self.box.wait_until(lambda: len(self.pi.events) > start, emu_s=5), reader
        self.box.tag(reader, None)
        assert self.box.wait_until(lambda: len(self.pi.events) >= start + 2, emu_s=5)
        self.feed()


@pytest.fixture(scope="module")
def buttons_board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pi]:
    wiring = Miswiring(swap=CROSSED, led_order="RGB", reversed_run=REVERSED)
    box = PicoBox(tmp_path_factory.mktemp("miswired"), mpy=True, seed=25, miswired=wiring)
    with connected(box, emu_s=20) as pi:
        yield pi


@pytest.fixture(scope="module")
def nfc_board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pi]:
    a, b = SWAPPED_READERS
    wiring = Miswiring(moved_readers=((a, 0x70 + b // 8, b % 8), SPARE))
    box = PicoBox(tmp_path_factory.mktemp("miswired-nfc"), board="classic-42-nfc", mpy=True,
                  seed=26, miswired=wiring)
    with connected(box, emu_s=30) as pi:
        yield pi


def test_the_bring_up_learns_the_chips_colour_order_and_the_crossed_buttons(
        buttons_board: Pi) -> None:
    maker = Maker(buttons_board, nfc=False)
    maker.tap("confirm")  # the 135 LEDs the chain shows
    while maker.core.draft.step == "colour_order":
        maker.tap("colour", maker.seen_first_led())
    assert maker.core.draft.colour_order == "RGB"
    maker.tap("order", "free")
    a, b = CROSSED
    for channel in (a, b, 0):
        maker.tap("pick", FACTS.territories[channel])
        maker.touch_button(channel)
    sensors = maker.core.draft.sensors
    assert sensors[FACTS.territories[a]] == (b, "button")
    assert sensors[FACTS.territories[b]] == (a, "button")
    assert sensors[FACTS.territories[0]] == (0, "button")


def test_a_reversed_run_lights_the_far_end_and_the_profiles_colour_order_lights_true(
        buttons_board: Pi) -> None:
    box = buttons_board.box
    first, last = REVERSED
    frame = [(0, 0, 0)] * 135
    frame[first + 1] = (255, 0, 0)
    before = len(box.events())
    # the table's strip for a profile naming colour_order = "RGB", sending through the link
    strip = BridgeStrip(buttons_board.link.send_led_frame, 135,
                        output=OutputStage(135, gamma=1.0), colour_order="RGB")
    strip.show(frame)
    shown = box.wait_event(lambda e: e["ev"] == "leds" and e["n"] == 135, emu_s=5,
                           after=before)
    assert shown is not None
    lit = {place: tuple(px) for place, px in enumerate(shown["pixels"]) if any(px)}
    assert lit == {last - 1: (255, 0, 0)}  # red, at the other end of the reversed run


def test_the_bring_up_hears_swapped_readers_and_the_pico_names_the_one_on_a_spare_port(
        nfc_board: Pi) -> None:
    status = nfc_board.status()
    box = nfc_board.box
    moved = SPARE[0]
    assert board_problems(load_profile("classic-42-nfc"), status) == [
        f"41 of the profile's 42 NFC readers answer; none on channel {moved} "
        f"({FACTS.territories[moved]}, mux 0x74 port 1)"]  # where the firmware looked
    maker = Maker(nfc_board, nfc=True)
    maker.tap("confirm")
    for shown in ("R", "G"):  # the LED steps ran on the buttons board: WS2812 chips here
        maker.tap("colour", shown)
    maker.tap("order", "free")
    a, b = SWAPPED_READERS
    maker.tap("pick", FACTS.territories[a])
    box.tag(moved, bytes.fromhex("04010203040506"))  # a tag lies on the spare-port reader
    maker.touch_reader(a)  # meanwhile the firmware polled every reader it knows
    assert maker.core.draft.sensors == {FACTS.territories[a]: (b, "nfc")}
    assert [e.channel for e in nfc_board.events] == [b, b]  # nothing from the spare port
    polls = box.stats()["pn532"]
    assert polls[str(a)]["polls"] > 0 and polls[str(moved)]["polls"] == 0
