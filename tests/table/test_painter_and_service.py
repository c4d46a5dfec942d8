"""The frame thread pushes only changed frames; the service redacts every view."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from hardware.leds import MemoryStrip
from hardware.output_stage import OutputStage
from pi_app.table.lights import MIN_VISIBLE_OUTPUT, ConquestFlash, LedMap, Scene, render
from pi_app.table.loop import NewGameSpec, TableLoop, Wiring
from pi_app.table.painter import Painter
from pi_app.table.palette import Palette
from pi_app.table.service import LocalTableService
from pi_app.table_api import Viewer

LEDS = LedMap.build(3, {"a": [0], "b": [1, 2]})


def test_a_static_scene_is_pushed_once_however_often_it_is_rendered():
    strip = MemoryStrip(3)
    painter = Painter(strip, LEDS, Palette())
    painter.show(Scene.build({"a": "red", "b": "blue"}))
    for k in range(10):
        painter.paint_once(t=k / 30)
    assert strip.frames_shown == 1
    painter.show(Scene.build({"a": "blue", "b": "blue"}))
    painter.paint_once(t=1.0)
    assert strip.frames_shown == 2


def test_the_frame_thread_renders_a_new_scene_at_once():
    strip = MemoryStrip(3)
    painter = Painter(strip, LEDS, Palette(), fps=0.001)  # next tick in 1000 s: show() wakes it
    painter.start()
    try:
        assert wait_until(lambda: painter.frames_rendered == 1)  # the first frame, at start
        shown = strip.frames_shown
        painter.show(Scene.build({"a": "green", "b": "green"}))
        deadline = time.monotonic() + 30
        while strip.frames_shown == shown and time.monotonic() < deadline:
            time.sleep(0.002)
        assert strip.frames_shown == shown + 1
    finally:
        painter.stop()


@dataclass(frozen=True)
class ExplodingFlash(ConquestFlash):
    """An effect the renderer does not know: rendering a scene holding it raises."""


def wait_until(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.005)
    return predicate()


def test_a_scene_that_fails_to_render_is_logged_and_the_next_scene_still_shows(caplog):
    strip = MemoryStrip(3)
    painter = Painter(strip, LEDS, Palette(), fps=100.0)
    caplog.set_level(logging.ERROR, logger="riskboard.table.painter")
    painter.start()
    try:
        painter.show(Scene.build({"a": "red", "b": "red"},
                                 effects=(ExplodingFlash("a", time.monotonic()),)))
        assert wait_until(lambda: painter.render_errors >= 3)  # it keeps trying each frame
        good = Scene.build({"a": "green", "b": "blue"})
        painter.show(good)
        want = render(good, LEDS, Palette(), 0.0, painter.floor())
        assert wait_until(lambda: strip.last == want), strip.last
    finally:
        painter.stop()
    logged = [r.getMessage() for r in caplog.records]
    assert any(m.startswith("event=painter.error") for m in logged), logged
    assert sum(m.startswith("event=painter.error") for m in logged) == 1  # not every frame
    assert painter.get_status()["render_errors"] >= 3


def test_the_painter_lifts_dim_states_to_what_the_leds_still_show():
    stage = OutputStage(3, gamma=2.2, brightness=0.5)
    strip = MemoryStrip(3, output=stage)
    painter = Painter(strip, LEDS, Palette())
    painter.show(Scene.build({"a": None, "b": None}, claiming=True))
    lowest = 255
    for k in range(50):  # a whole 2.5 s breath
        painter.paint_once(t=k / 20)
        lowest = min(lowest, max(strip.last_output[0]))
    assert lowest >= MIN_VISIBLE_OUTPUT


def test_views_hide_other_hands_and_updates_follow_revisions(tmp_path):
    from hardware.profiles import load_profile

    profile = load_profile("classic-42")
    loop = TableLoop(tmp_path / "j.sqlite", Wiring.from_profile(profile),
                     demo=NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}))
    loop.start()
    try:
        service = LocalTableService(loop, leds=LedMap.from_profile(profile))
        state = loop.publisher.snapshot.state
        player = state.current_player
        first = service.view(Viewer("spectator"))
        assert "my_hand" not in first and first["seq"] == loop.publisher.snapshot.revision
        mine = state.territories_of(player)[0]
        accepted = service.submit({"type": "place", "player": player, "territory": mine,
                                   "count": 1}, Viewer("player", player))
        assert service.wait_for_update(first["seq"], 30.0) == accepted.seq
        updates = service.updates_since(first["seq"], Viewer("spectator"))
        assert [u.seq for u in updates] == [accepted.seq]
        assert updates[0].events[0]["type"] == "placed"
        own = service.view(Viewer("player", player))
        assert own["my_hand"] == [] and own["armies"][mine] == state.armies[mine] + 1
    finally:
        loop.stop()


def test_a_fresh_reader_still_gets_the_whole_game_after_the_log_dropped_its_start(
        tmp_path, monkeypatch):
    from hardware.profiles import load_profile
    from pi_app.table import publishing as loop_module

    monkeypatch.setattr(loop_module, "UPDATE_LOG", 4)
    profile = load_profile("classic-42")
    loop = TableLoop(tmp_path / "j.sqlite", Wiring.from_profile(profile),
                     demo=NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}))
    loop.start()
    try:
        service = LocalTableService(loop, leds=LedMap.from_profile(profile))
        for _ in range(12):
            state = loop.publisher.snapshot.state
            mine = state.territories_of(state.current_player)[0]
            channel = profile.sensors[mine].channel
            loop.call(lambda core, c=channel: core.on_sensor(c, "press", None))
        updates = service.updates_since(-1, Viewer("spectator"))
        kinds = [e["type"] for u in updates for e in u.events]
        assert kinds[0] == "game_started" and kinds.count("placed") == 12, kinds
        seqs = [u.seq for u in updates]
        assert seqs == sorted(seqs) and len(updates) <= 5
    finally:
        loop.stop()
