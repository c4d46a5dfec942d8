"""The painter's `version` names the frames its readers (the virtual board) follow: it moves
on with each frame pushed to the strip, and, on a painter without its frame thread (its
reader paints it), with each new scene; `wait_for_change` wakes a reader when it does."""

from __future__ import annotations

import threading

from hardware.leds import MemoryStrip
from pi_app.table.lights import LedMap, Scene
from pi_app.table.painter import Painter
from pi_app.table.palette import Palette

LEDS = LedMap.build(4, {"a": (0, 1), "b": (2, 3)})
CLAIMED = Scene.build({"a": "red", "b": None}, "red", phase="reinforce")


def painter() -> Painter:
    """A painter of a four-LED strip, its clock stopped (nothing animates by itself)."""
    return Painter(MemoryStrip(4), LEDS, Palette.from_config(), clock=lambda: 100.0)


def test_a_pushed_frame_moves_the_version_on_and_a_repeated_one_does_not():
    p = painter()
    p.paint_once()
    p.show(CLAIMED)
    shown = p.version
    p.paint_once()
    assert p.version != shown and p.strip.last == p.last_frame, "the claim is pushed"
    pushed = p.version
    p.paint_once()
    assert p.version == pushed, "the same frame again is not pushed"


def test_a_new_scene_moves_the_version_on_where_a_reader_paints():
    p = painter()
    before = p.version
    p.show(CLAIMED)
    assert p.version != before, "the reader must come back and paint it"


def test_a_waiting_reader_wakes_when_the_version_moves_on():
    p = painter()
    seen = p.version
    woke: list[int] = []
    reader = threading.Thread(target=lambda: woke.append(p.wait_for_change(seen, 600)))
    reader.start()
    p.show(CLAIMED)
    reader.join(60)
    assert woke == [p.version] and woke[0] != seen


def test_a_wait_without_a_change_ends_with_the_version_it_had():
    p = painter()
    assert p.wait_for_change(p.version, 0.01) == p.version
