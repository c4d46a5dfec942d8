"""The frame thread: renders the current scene when its frame can change, and pushes changed
frames.

The table loop hands over a new immutable `Scene` with `show(scene)`; the painter renders
at once (so a touch lights up within milliseconds, not at the next tick), then sleeps until
the scene's frame can next change (`lights.motion`): at the very edge of a blink or the
start or end of an effect, every 1/fps seconds during a turn's pulse or the victory wave,
whenever a gentle swell or breath has moved a step (`pi_app.table.swells`: at most 10 a
second where it is steepest, fewer where it turns; repainting only what moves), and not at
all while the board stands still (an idle table costs no frames). It hands a
frame to the strip only when it differs from the last one pushed. It never reads game
state: only scenes. A bring-up's own frames (`override`) and a strip that failed are
painted again every 1/fps seconds.

Readers of the frames (the virtual board's page, through the web) follow `version`, which
rises with every frame pushed, and wait for it to move on with `wait_for_change`; a painter
without its frame thread is painted by its reader (`paint_once`), so there a new scene
moves the version on too: the reader comes back and paints it.

A scene that fails to render (a bug in an effect) must not freeze the LEDs for the rest of
the game: the frame thread logs `event=painter.error` (with the traceback the first time,
then at most every `ERROR_LOG_EVERY_S`), counts it in `errors` and keeps painting, so the
next scene the loop hands over shows at once. Dim states are lifted to the strip's visible
floor (`lights.visible_floor` of its output stage's gamma and brightness).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.thread_names import name_os_thread
from hardware.led_strip import FrameSink
from pi_app.table.lights import (
    EDGE_SLACK_S,
    RGB,
    BaseMotion,
    LedMap,
    Motion,
    Scene,
    base_motion,
    motion,
    render,
    repaint,
    visible_floor,
)
from pi_app.table.palette import Palette

log = logging.getLogger("riskboard.table.painter")

DEFAULT_FPS = 30.0
ERROR_LOG_EVERY_S = 10.0


@dataclass
class _Drawn:
    """The frame the painter drew last, from the one it drew whole at `at`: its scene (and
    what of its base layer moves), floor and motion from then to its next edge."""

    scene: Scene
    base: BaseMotion
    floor: int
    at: float
    motion: Motion
    frame: tuple[RGB, ...]

    @property
    def due(self) -> float | None:
        """The next edge, start or end after `at`."""
        return self.motion.due


class Painter:
    """Renders scenes onto a strip from its own thread (see the module docstring)."""

    def __init__(self, strip: FrameSink, leds: LedMap, palette: Palette, fps: float = DEFAULT_FPS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.strip = strip
        self.leds = leds
        self.palette = palette
        self.period = 1.0 / fps
        self.clock = clock
        self._scene = Scene()
        self._fresh = False
        self._cond = threading.Condition()
        self._stop = False
        self._thread: threading.Thread | None = None
        # a bring-up (pi_app.table.bringup_mode) paints its own frames: now -> one RGB per LED
        self.override: Callable[[float], tuple[RGB, ...]] | None = None
        self.last_frame: tuple[RGB, ...] | None = None
        self.frames_pushed = 0
        self.frames_rendered = 0
        self.errors = 0
        self.render_errors = 0
        self._show_failed = False
        self._kept: _Drawn | None = None
        self._logged_error_at: float | None = None
        self._floor_key: tuple[float, float] | None = None
        self._floor = 0
        self._watch = threading.Condition()
        self.version = 0

    @property
    def scene(self) -> Scene:
        """The scene being shown."""
        return self._scene

    def show(self, scene: Scene) -> None:
        """Swap in a new scene; the frame thread renders it right away."""
        with self._cond:
            self._scene = scene
            self._fresh = True
            self._cond.notify()
            unpainted = self._thread is None
        if unpainted:  # nothing paints it unless a reader does: tell the readers
            self._moved_on()

    def floor(self) -> int:
        """The lowest requested level the strip's output stage still shows (0 when the
        strip has no output stage to ask)."""
        output = getattr(self.strip, "output", None)
        if output is None:
            return 0
        key = (float(output.gamma), float(output.brightness))
        if key != self._floor_key:  # brightness may be changed while running
            self._floor_key, self._floor = key, visible_floor(*key)
        return self._floor

    def paint_once(self, t: float | None = None) -> tuple[RGB, ...]:
        """Render the current scene at `t` (now by default) and push it if it changed."""
        now = self.clock() if t is None else t
        override = self.override
        frame = override(now) if override is not None else self._frame_at(now)
        self.frames_rendered += 1
        if frame != self.last_frame:
            try:
                self.strip.show(frame)
            except Exception as exc:  # a failing strip must not kill the frame thread
                self.errors += 1
                self._show_failed = True
                log.warning("event=painter.show_failed error=%r", exc)
                return frame
            self._show_failed = False
            self.last_frame = frame
            self.frames_pushed += 1
            self._moved_on()
        return frame

    def _frame_at(self, now: float) -> tuple[RGB, ...]:
        """The scene's frame at `now`: drawn whole after a new scene, at an edge, start or
        end (`Motion.due`); else, a step of a swell, `repaint`ed from the frame before: only
        what moves continuously."""
        scene = self._scene
        kept = self._kept
        if (kept is not None and kept.scene is scene and kept.at <= now
                and (kept.due is None or now < kept.due)):
            # nothing starts or stops moving before `due`: the same motion, a step on (and
            # the same floor: a brightness changed meanwhile shows from the next edge)
            kept.frame = repaint(scene, self.leds, self.palette, now, kept.floor, kept.frame,
                                 kept.motion.territories)
            return kept.frame
        floor = self.floor()
        base = kept.base if kept is not None and kept.scene is scene \
            else base_motion(scene, self.leds, self.palette)
        found = motion(scene, self.leds, self.palette, now, base)
        kept = self._kept = _Drawn(scene, base, floor, now, found,
                                   render(scene, self.leds, self.palette, now, floor))
        return kept.frame

    def next_paint(self, painted_at: float) -> float | None:
        """When the frame thread paints again after painting at `painted_at` (None: not
        until a new scene): the next edge, start or end the scene's `motion` names, or
        sooner the next step of what moves continuously (a frame period on for a fast
        effect; for gentle swells, when one has moved a step, `Motion.next_step`, and never
        sooner than a period on); a bring-up's override or a failed strip every period."""
        if self.override is not None or self._show_failed:
            return painted_at + self.period
        kept = self._kept
        if kept is not None and kept.scene is self._scene and kept.at <= painted_at \
                and (kept.due is None or painted_at < kept.due):
            found = kept.motion  # drawn whole at `at`, or a step on from it
        else:
            found = motion(self._scene, self.leds, self.palette, painted_at)
        due = found.due
        if found.moving is not None:
            step_at = painted_at + self.period
            swell_step = found.next_step(painted_at) if found.moving == "swell" else None
            if swell_step is not None:
                step_at = max(step_at, swell_step)
            # a step on an edge is drawn just after the edge (`EDGE_SLACK_S`), once
            if due is None or due > step_at + 2 * EDGE_SLACK_S:
                due = step_at
        return due

    def _moved_on(self) -> None:
        with self._watch:
            self.version += 1
            self._watch.notify_all()

    def wait_for_change(self, seen: int, timeout: float) -> int:
        """Wait up to `timeout` seconds for `version` to move on from `seen` (a frame pushed,
        or a scene handed to a painter without its frame thread); the version then."""
        with self._watch:
            self._watch.wait_for(lambda: self.version != seen, timeout)
            return self.version

    def start(self) -> None:
        """Start the frame thread."""
        if self._thread is None:
            self._stop = False
            self._thread = threading.Thread(target=self._run, name="table-painter", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the frame thread (the strip stays as it was; closing it is the owner's job)."""
        with self._cond:
            self._stop = True
            self._cond.notify()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def _run(self) -> None:
        name_os_thread()
        next_tick: float | None = self.clock()
        while True:
            with self._cond:
                wait = None if next_tick is None else next_tick - self.clock()
                if not self._fresh and (wait is None or wait > 0) and not self._stop:
                    self._cond.wait(wait)
                if self._stop:
                    return
                if not self._fresh and next_tick is not None and self.clock() < next_tick:
                    continue  # woken early (a spurious wake-up): sleep on
                self._fresh = False
            started = self.clock()
            try:
                self.paint_once(started)
                # an animation's next frame is one period after this one, however it was
                # woken (a busy CPU or a slow strip skips frames rather than bursting)
                next_tick = self.next_paint(started)
            except Exception:  # a scene that cannot render must not stop the frame thread
                self._render_failed(started)
                next_tick = started + self.period

    def _render_failed(self, now: float) -> None:
        self.errors += 1
        self.render_errors += 1
        first = self._logged_error_at is None
        if first or now - self._logged_error_at >= ERROR_LOG_EVERY_S:  # type: ignore[operator]
            self._logged_error_at = now
            log.error("event=painter.error count=%d scene_effects=%d", self.render_errors,
                      len(self._scene.effects), exc_info=True)

    def get_status(self) -> dict[str, object]:
        """Frame counters, for `status()` and `doctor`."""
        return {"fps": round(1.0 / self.period, 1), "frames_rendered": self.frames_rendered,
                "frames_pushed": self.frames_pushed, "errors": self.errors,
                "render_errors": self.render_errors,
                "backend": getattr(self.strip, "backend", type(self.strip).__name__)}
