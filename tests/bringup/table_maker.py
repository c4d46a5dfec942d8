"""A scripted maker bringing up the real table: the board in one hand, the phone in the other.

The hand works the virtual board the way fingers work a real one: it presses and holds a
territory's button (or puts a tag on its reader) on the channel the board's TRUE wiring
gives it (`board`: a `pi_app.table.miswired.PhysicalBoard`-like truth: `owners`,
`channel_of`, `controls`, `tokens`, `markers`, `nfc`, `shown(frame, sent_order)`), presses a
control button on its true GPIO line, and sees the LEDs as the true chain shows the frame
the table sends. The phone (`phone`: `answer(what, value)`, `state()`, `save()`) is the
bring-up page or its API. Every touch, tap and press is counted, and a run of LEDs the
table placed otherwise than the maker meant (let go a beat late on a busy machine) is
undone and held again, as a maker would; those count too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pi_app.bringup.core import NEXT_COLOUR, PLACED_COLOUR, RUN_COLOUR

WHITE = RUN_COLOUR


class Phone(Protocol):
    """The maker's phone: the bring-up page or its API."""

    def answer(self, what: str, value: Any = None) -> None: ...

    def state(self) -> dict[str, Any]: ...


@dataclass
class Counts:
    """The maker's actions: board touches, phone taps, control presses; per step too."""

    touches: int = 0
    taps: int = 0
    presses: int = 0
    retries: int = 0
    by_step: dict[str, dict[str, int]] = field(default_factory=dict)

    def add(self, step: str, what: str) -> None:
        setattr(self, what, getattr(self, what) + 1)
        self.by_step.setdefault(step, {}).setdefault(what, 0)
        self.by_step[step][what] += 1


def wait_for(check: Callable[[], Any], timeout: float = 60.0, what: str = "") -> Any:
    """Poll `check` until it returns something true (generous timeout; never asserts time)."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or check}")
        time.sleep(0.01)


class Hands(Protocol):
    """The maker's hands and eyes on the board: in the test process (`RigHands`) or over
    the virtual board's public routes (tests/bringup/http_maker.py)."""

    def down(self, territory: str) -> None: ...

    def up(self, territory: str) -> None: ...

    def press(self, control: str) -> None: ...

    def tag(self, territory: str, colour: str, kind: str, index: int) -> None: ...

    def leds(self) -> list[tuple[int, int, int]]: ...


class RigHands:
    """Hands on the virtual board inside the test process: the emulator's channels and the
    mock buttons' lines as the board's TRUE wiring (`board`) gives them."""

    def __init__(self, board: Any, rig: Any, sent_order: str, hold_time: float) -> None:
        self.board, self.rig = board, rig
        self.sent_order, self.hold_time = sent_order, hold_time

    def _channel(self, territory: str) -> int:
        return int(self.board.channel_of[territory])

    def down(self, territory: str) -> None:
        """Press (or put the probe tag on) `territory`'s sensor."""
        if self.board.nfc:
            self.rig.emulator.tag(self._channel(territory), bytes.fromhex("04aabbccddeeff"))
        else:
            self.rig.emulator.press(self._channel(territory))

    def up(self, territory: str) -> None:
        """Let go of `territory`."""
        if self.board.nfc:
            self.rig.emulator.untag(self._channel(territory))
        else:
            self.rig.emulator.release(self._channel(territory))

    def press(self, control: str) -> None:
        """A short press of `control` on its true GPIO line."""
        pin = self.rig.button_factory.pin(self.board.controls[control])
        pin.drive_low()
        time.sleep(self.hold_time)
        pin.drive_high()

    def tag(self, territory: str, colour: str, kind: str, index: int) -> None:
        """Put `colour`'s `kind` ("tokens" or "markers") tag number `index` on
        `territory`'s reader, and take it off."""
        uid = list(getattr(self.board, kind)[colour])[index]
        channel = self._channel(territory)
        self.rig.emulator.tag(channel, bytes.fromhex(uid))
        self.rig.emulator.untag(channel)

    def leds(self) -> list[tuple[int, int, int]]:
        """The chain as it glows now (physical LED index -> colour seen)."""
        return list(self.board.shown(self.rig.strip.last, self.sent_order))


class TableMaker:
    """Brings the table's board up through `phone` with `hands` on the virtual board."""

    def __init__(self, board: Any, rig: Any, phone: Phone, *, sent_order: str = "GRB",
                 hold_time: float = 0.05, hands: Hands | None = None) -> None:
        self.board, self.rig, self.phone = board, rig, phone
        self.hands = hands or RigHands(board, rig, sent_order, hold_time)
        self.counts = Counts()

    # --- what the maker sees -------------------------------------------------------------
    def leds(self) -> list[tuple[int, int, int]]:
        """The chain as it glows now (physical LED index -> colour seen)."""
        return self.hands.leds()

    def step(self) -> str:
        return str(self.phone.state()["step"])

    def tap(self, what: str, value: Any = None) -> None:
        """Answer on the phone (counted)."""
        self.counts.add(self.step(), "taps")
        self.phone.answer(what, value)

    # --- the hand on the board -----------------------------------------------------------
    def down(self, territory: str) -> None:
        """Press (or put the probe tag on) `territory`'s sensor (a counted touch)."""
        self.counts.add(self.step(), "touches")
        self.hands.down(territory)

    def up(self, territory: str) -> None:
        """Let go of `territory`."""
        self.hands.up(territory)

    def _changed(self, before: int) -> dict[str, Any]:
        return wait_for(lambda: (s := self.phone.state())["revision"] > before and s,
                        what="the bring-up to hear the board")

    # --- the walk-through --------------------------------------------------------------
    def count_and_colours(self) -> None:
        """Count the chain's LEDs (correcting the table if it lights another number), then
        name the colour the first LED shows, twice."""
        state = self.phone.state()
        if state["led_count"] != len(self.board.owners):
            self.tap("count", len(self.board.owners))
        self.tap("confirm")
        last = None
        while self.step() == "colour_order":
            shown = self.shown_first(last)
            self.tap("colour", "RGB"[max(range(3), key=lambda k: shown[k])])
            last = shown

    def shown_first(self, last: tuple[int, int, int] | None) -> tuple[int, int, int]:
        """The colour of the first LED, once the table lights it in one pure colour (and
        not the one it showed before)."""
        def pure() -> tuple[int, int, int] | None:
            colour = self.leds()[0]
            one = sorted(colour)[:2] == [0, 0] and max(colour) > 0
            return colour if one and colour != last else None

        return wait_for(pure, what="the first LED lit in one colour")

    def sensors(self) -> None:
        """Touch each territory the phone names."""
        while self.step() == "sensors":
            state = self.phone.state()
            territory = state["prompt"]["params"]["territory"]
            before = state["revision"]
            self.down(territory)
            self._changed(before)
            self.up(territory)
            self._changed(before + 1)

    def leds_step(self) -> None:
        """Place every LED: hold the territory under the white LED until the newest lit LED
        is outside it; status and dead LEDs on the phone."""
        while self.step() == "leds":
            state = self.phone.state()
            assert state["prompt"]["key"] == "bringup.leds.touch", state["prompt"]
            led = state["prompt"]["params"]["led"]
            owner = self.board.owners[led]
            if owner is None:
                self.tap("skip")
            elif owner.startswith("status:"):
                self._status_run(owner, led)
            else:
                self._hold(owner, led)

    def _run_end(self, owner: str, first: int) -> int:
        """How many LEDs of `owner` follow each other in the chain from `first`, counting
        only LEDs not placed yet (the maker sees placed ones glow dim green)."""
        placed = self.placed()
        n, index = 0, first
        while index < len(self.board.owners):
            if index in placed:
                index += 1
                continue
            if self.board.owners[index] != owner:
                break
            n += 1
            index += 1
        return n

    def placed(self) -> set[int]:
        state = self.phone.state()
        return set(state.get("placed", ()))

    def _hold(self, territory: str, first: int) -> None:
        want = self._run_end(territory, first)
        before = set(self.placed())
        for _attempt in range(4):
            revision = self.phone.state()["revision"]
            self.down(territory)
            self._changed(revision)
            # let go once the white run is as long as this territory's stretch of the chain
            # (on the LEDs as they are now: none placed before still white)
            wait_for(lambda: self._white(before) >= want, timeout=60, what=f"{territory}'s run")
            self.up(territory)
            self._changed(revision + 1)
            got = self.placed() - before
            mine = {i for i, o in enumerate(self.board.owners) if o == territory}
            if got <= mine and len(got) == want:
                return
            self.counts.retries += 1
            self.tap("undo")  # let go a beat late: the run took a foreign LED
        raise AssertionError(f"could not place {territory}'s LEDs")

    def _white(self, placed: set[int]) -> int:
        """The white LEDs, 0 while the chain still shows an earlier frame (a placed LED
        white)."""
        white = {i for i, rgb in enumerate(self.leds()) if rgb == WHITE}
        return 0 if white & placed else len(white)

    def _status_run(self, owner: str, first: int) -> None:
        want = self._run_end(owner, first)
        self.tap("status", owner.split(":", 1)[1])
        for _ in range(want - 1):
            self.tap("more")
        self.tap("done")

    def controls(self) -> None:
        """Press each control the phone names on its true line; skip those the board lacks."""
        while self.step() == "controls":
            state = self.phone.state()
            control = state["prompt"]["params"]["control"]
            line = self.board.controls.get(control)
            if line is None:
                self.tap("skip")
                continue
            self.counts.add("controls", "presses")
            self.hands.press(control)
            self._changed(state["revision"])

    def tags(self) -> None:
        """Put each colour's token, then its markers, on a reader."""
        territories = list(self.board.channel_of)
        reader = 0
        while self.step() in ("tokens", "markers"):
            state = self.phone.state()
            step, colour = state["step"], state["prompt"]["params"]["colour"]
            table = self.board.tokens if step == "tokens" else self.board.markers
            uids = list(table.get(colour, ()))[: 1 if step == "tokens" else None]
            if not uids:
                self.tap("skip" if step == "tokens" else "next")
                continue
            for index, _uid in enumerate(uids):
                territory = territories[reader % len(territories)]  # any reader will do
                reader += 7
                revision = self.phone.state()["revision"]
                self.counts.add(step, "touches")
                self.hands.tag(territory, colour, step, index)
                self._changed(revision + 1)
            if step == "markers":
                self.tap("next")

    def check(self) -> None:
        """Every territory in its continent's colour: confirm at a glance."""
        assert self.phone.state()["prompt"]["key"] == "bringup.check.continents"
        owners = self.board.owners
        status = [i for i, o in enumerate(owners) if o is not None and o.startswith("status:")]

        def glance() -> bool:  # every territory in a colour, the status LEDs white
            shown = self.leds()
            return all(shown[i] == WHITE for i in status) and all(
                max(shown[i]) > 0 and shown[i] != WHITE
                for i, o in enumerate(owners) if o is not None and o not in status
                and not o.startswith("status:"))
        wait_for(glance, what="the continents and the status LEDs lit")
        self.tap("confirm")

    def whole(self) -> None:
        """The whole bring-up, start to `done`."""
        self.count_and_colours()
        self.sensors()
        self.leds_step()
        self.controls()
        self.tags()
        self.check()
        assert self.step() == "done"


__all__ = ["NEXT_COLOUR", "PLACED_COLOUR", "Counts", "TableMaker", "wait_for"]
