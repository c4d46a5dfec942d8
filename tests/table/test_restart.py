"""A restart mid-game resumes the journaled game and relights the board exactly as before."""

from __future__ import annotations

import time

from pi_app.config import Config
from pi_app.table.autoplay import SimHands
from pi_app.table.gestures import Touch
from pi_app.table.lights import render
from pi_app.table.loop import NewGameSpec
from pi_app.table.rig import build_rig

DEAL = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})


LATER = 1.0e6  # long after every effect of either run has faded


def settled_frame(rig, quiet: float = 1.4):
    """The frame the painter draws from the table's scene at one fixed moment long after
    every effect faded (the turn cue and players' patterns move: compare like with like)."""
    time.sleep(quiet)
    return render(rig.loop.call(lambda core: core.scene()), rig.painter.leds,
                  rig.painter.palette, LATER)


def test_a_restarted_service_shows_the_same_board(tmp_path):
    rig = build_rig(Config(), sim=True, data_dir=tmp_path, demo=DEAL)
    rig.start()
    try:
        while not rig.link.connected:
            time.sleep(0.01)
        hands = SimHands(rig, timeout=30.0)
        for _ in range(4):
            state = rig.loop.publisher.snapshot.state
            hands.do(Touch(state.territories_of(state.current_player)[-1]))
        state_before = rig.loop.publisher.snapshot.state
        frame_before = settled_frame(rig)
    finally:
        rig.stop()
    again = build_rig(Config(), sim=True, data_dir=tmp_path, demo=DEAL)
    again.start()
    try:
        assert again.loop.publisher.snapshot.state == state_before
        assert settled_frame(again, 0.3) == frame_before
    finally:
        again.stop()
