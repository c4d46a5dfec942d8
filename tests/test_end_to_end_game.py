"""A whole 3-player Classic game played only by sensor touches and control-button presses.

Touches go through the emulated Pico over its pty and the real pyserial link; buttons are
gpiozero MockFactory pins; a bot (`pi_app.table.autoplay`) decides each move and makes it
with gestures. The LED frames handed to the in-memory strip are checked at the key
moments: a claim, a refused touch, an attack being aimed, a conquest, the dice LEDs, and
the winner's celebration.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from pi_app.config import config_from_dict
from pi_app.dice import FairDice
from pi_app.table.autoplay import Gesture, PressClock, SimHands, play
from pi_app.table.gestures import BLITZ, ROLL, Press, Touch
from pi_app.table.lights import ERROR_RED, WHITE
from pi_app.table.loop import NewGameSpec
from pi_app.table.palette import DEFAULT_COLOURS
from pi_app.table.rig import build_rig

pytestmark = pytest.mark.slow

Pixel = tuple[int, int, int]


def is_shade(pixel: Pixel, rgb: Pixel, low: float = 0.4) -> bool:
    """True if `pixel` is `rgb` dimmed to some level between `low` and full."""
    top = max(rgb)
    level = max(pixel) / top
    return low - 0.01 <= level <= 1.0 and all(abs(p - c * level) <= 1.5 for p, c in
                                              zip(pixel, rgb))


class WatchedHands(SimHands):
    """SimHands that check the LED frames the first time each key moment happens."""

    def __init__(self, rig, clock: PressClock) -> None:
        super().__init__(rig, clock=clock)
        self.seen: set[str] = set()
        self.leds = rig.painter.leds

    def frame_shows(self, predicate: Callable[[tuple[Pixel, ...]], bool],
                    timeout: float = 30.0) -> bool:
        """Poll the strip's latest frame until `predicate` holds (blinks are caught)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            frame = self.rig.strip.last
            if frame is not None and predicate(frame):
                return True
            time.sleep(0.004)
        return False

    def territory(self, frame: tuple[Pixel, ...], territory: str) -> list[Pixel]:
        return [frame[i] for i in self.leds.territories[territory]]

    def do(self, gesture: Gesture) -> None:
        before = self.look()[0]
        super().do(gesture)
        after, selection, _ = self.look()
        assert before is not None and after is not None
        if isinstance(gesture, Touch) and before.phase == "claim" and "claim" not in self.seen:
            self.seen.add("claim")
            colour = DEFAULT_COLOURS[before.current_player]
            assert after.owner[gesture.territory] == before.current_player
            assert self.frame_shows(lambda f: all(
                is_shade(p, colour) for p in self.territory(f, gesture.territory)))
            # the next player touching the same territory is refused with an error blink
            super().do(Touch(gesture.territory))
            refusal = self.rig.loop.publisher.snapshot.refusal
            assert refusal is not None and refusal["code"] == "territory_taken"
            assert self.frame_shows(lambda f: all(
                p == ERROR_RED for p in self.territory(f, gesture.territory)))
            self.seen.add("error")
        if (isinstance(gesture, Touch) and before.phase == "attack" and selection.target
                and selection.target == gesture.territory and "aim" not in self.seen):
            self.seen.add("aim")
            attacker = DEFAULT_COLOURS[before.current_player]
            # the target alternates with the attacker's colour; the source shines fully
            # (once the dice of an earlier roll there, shown for 2 s, have faded)
            assert self.frame_shows(lambda f: all(
                p == attacker for p in self.territory(f, selection.target)))
            assert self.frame_shows(lambda f: all(
                p == attacker for p in self.territory(f, selection.source)))
        if isinstance(gesture, Press) and gesture.button in (BLITZ, ROLL):
            taken = [t for t in after.owner if after.owner[t] != before.owner[t]]
            if taken and "conquest" not in self.seen and after.winner is None:
                self.seen.add("conquest")
                assert self.frame_shows(lambda f: all(
                    p == WHITE for p in self.territory(f, taken[0])))
                dice = self.leds.status["attack_dice"]
                assert self.frame_shows(lambda f: any(f[i] != (0, 0, 0) for i in dice))


def test_a_classic_game_is_played_to_victory_by_touches_and_buttons(tmp_path):
    config = config_from_dict({"buttons": {"hold_time": 0.1}})
    clock = PressClock()  # quick presses timed by SimHands: a stall cannot make them long
    rig = build_rig(config, sim=True, data_dir=tmp_path, open_buttons=clock.open_buttons,
                    demo=NewGameSpec("classic", ("red", "blue", "green")),
                    dice=lambda: FairDice(b"\x01" * 32))
    rig.start()
    try:
        deadline = time.monotonic() + 60
        while not rig.link.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        assert rig.link.connected
        hands = WatchedHands(rig, clock)
        report = play(hands, single_roll_every=7)
        state = rig.loop.publisher.snapshot.state
        assert report.winner is not None and state.winner == report.winner
        assert all(owner == report.winner for owner in state.owner.values())
        assert {"claim", "error", "aim", "conquest"} <= hands.seen
        colour = DEFAULT_COLOURS[report.winner]
        frames: set[tuple[Pixel, ...]] = set()

        def celebrating(frame: tuple[Pixel, ...]) -> bool:
            frames.add(frame)
            lit = [frame[i] for leds in hands.leds.territories.values() for i in leds]
            return len(frames) > 3 and all(p == WHITE or is_shade(p, colour, 0.2) for p in lit)

        ok = hands.frame_shows(celebrating)
        last = rig.strip.last
        assert ok, (len(frames), report.winner, last[:9], rig.loop.publisher.snapshot.state.phase)
        # every decision went through the journal: the board's game is the journaled one
        assert rig.loop.inputs_handled >= report.gestures
        assert rig.loop.errors == 0
    finally:
        rig.stop()
