"""A whole game on the virtual board's real path (emulated Pico over its pty, MockFactory
buttons, the in-memory LED strip): two humans play by touches and presses, two computer
seats play by themselves, and the humans press Confirm once they have moved the
computer's pieces where the LEDs, lit in the computer's colour, ask."""

from __future__ import annotations

import time

import pytest

from pi_app.config import config_from_dict
from pi_app.dice import FairDice
from pi_app.table.autoplay import PressClock, SimHands, next_gestures
from pi_app.table.gestures import CONFIRM, Press
from pi_app.table.loop import NewGameSpec, awaited
from pi_app.table.palette import DEFAULT_COLOURS
from pi_app.table.rig import build_rig

pytestmark = pytest.mark.slow

COMPUTERS = {"green": "hard", "yellow": "normal"}


def shows(rig, territory: str, rgb, timeout: float = 30.0) -> bool:
    """Whether the strip's frames show `territory` in `rgb` (a blink is caught)."""
    leds = rig.painter.leds.territories[territory]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        frame = rig.strip.last
        if frame is not None and any(frame[i] == rgb for i in leds):
            return True
        time.sleep(0.004)
    return False


def test_two_humans_and_two_computers_on_the_virtual_board(tmp_path):
    config = config_from_dict({"buttons": {"hold_time": 0.1}})
    clock = PressClock()  # quick presses timed by SimHands: a stall cannot make them long
    rig = build_rig(config, sim=True, data_dir=tmp_path, open_buttons=clock.open_buttons,
                    demo=NewGameSpec("classic", ("red", "blue", "green", "yellow"),
                                     {"setup": "deal"}),
                    dice=lambda: FairDice(b"\x02" * 32))
    rig.start()
    try:
        deadline = time.monotonic() + 60
        while not rig.link.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        assert rig.link.connected
        rig.loop.call(lambda core: core.host_action("computer", {"seats": COMPUTERS}))
        hands = SimHands(rig, clock=clock)
        publisher = rig.loop.publisher
        confirms = lit = 0
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            snap = publisher.snapshot
            state = snap.state
            if state.winner is not None:
                break
            waiting = awaited(state)
            holding = (snap.computers or {}).get("holding")
            if holding:  # the table waits for the computer's step, even in a human's turn
                territories = holding["territories"]
                # the step's territories are lit in their owners' colours, on the real strip
                if lit < 3:
                    last = territories[-1]
                    assert shows(rig, last, DEFAULT_COLOURS[state.owner[last]])
                    lit += 1
                hands.do(Press(CONFIRM))
                confirms += 1
                continue
            if waiting and waiting[0] not in COMPUTERS:
                for gesture in next_gestures(state, snap.selection):
                    hands.do(gesture)
                continue
            publisher.wait_for(snap.revision, 2.0)  # the computer is thinking / playing
        state = publisher.snapshot.state
        assert state.winner is not None, "the game did not end in time"
        assert confirms > 10 and lit == 3
        assert rig.loop.errors == 0
        record = rig.loop.call(lambda core: core.journal.load(core.session.game_id))
        players = {e.command.get("player") for e in record.active_entries() if e.seq > 0}
        assert set(COMPUTERS) <= players and {"red", "blue"} <= players
    finally:
        rig.stop()
