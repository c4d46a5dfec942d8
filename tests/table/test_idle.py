"""A table nobody touches does nothing it need not (issue 34.3): the frame thread paints only
when the scene's frame can change (`lights.next_change`) and still draws every blink at its
edge and every swell at the frame rate; the table loop sleeps until its core's next deadline.
Driven on a hand clock: the tests count frames and sleeps, never time them."""

from __future__ import annotations

import itertools
import math
import queue
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.leds import MemoryStrip
from hardware.profiles import load_profile
from pi_app.table.lights import (
    EDGE_SLACK_S,
    ERROR_RED,
    OFF,
    TURN_CUE,
    TURN_CUE_CYCLE_S,
    TURN_CUE_S,
    ConquestFlash,
    DiceShow,
    ErrorBlink,
    Highlight,
    LedMap,
    LimitBlink,
    Mismatch,
    Scene,
    TurnPulse,
    next_change,
    render,
)
from pi_app.table.loop import TableLoop, Wiring
from pi_app.table.painter import Painter
from pi_app.table.palette import Palette, PlayerLook
from pi_app.table.swells import CLAIM_BREATH, PATTERN_BREATH, SWELL_FRAME_S, Swell

LEDS = LedMap.build(12, {"a": [0, 1], "b": [2, 3], "c": [4], "d": [5, 6]},
                    {"turn": [7], "phase": [8, 9, 10], "attack_dice": [11]})
PLAYERS = ("red", "blue", "green")


class HandPainter:
    """A `Painter` without its thread, run as the thread runs it on a hand clock: paint,
    ask `next_paint`, jump the clock there. Keeps the times it painted at."""

    def __init__(self, scene: Scene, palette: Palette | None = None) -> None:
        self.strip = MemoryStrip(LEDS.count, history=None)
        self.painter = Painter(self.strip, LEDS, palette or Palette())
        self.painter.show(scene)
        self.painted: list[float] = []

    def run(self, start: float, until: float) -> None:
        """Paint from `start` until the clock passes `until` (or nothing is due)."""
        t: float | None = start
        while t is not None and t <= until:
            self.painter.paint_once(t)
            self.painted.append(t)
            t = self.painter.next_paint(t)

    def pushed(self) -> list[tuple]:
        """The frames handed to the strip, in order."""
        return list(self.strip.frames)


def test_a_board_standing_still_hands_no_frame_after_the_first():
    # a game with no turn shown (between games, a paused table): nothing moves
    hand = HandPainter(Scene.build({"a": "red", "b": "blue", "c": "green", "d": "red"}))
    hand.run(100.0, 160.0)
    assert hand.painted == [100.0]  # painted once, then asleep until a new scene
    assert hand.strip.frames_shown == 1


def test_between_two_turn_swells_the_painter_sleeps_and_wakes_for_the_next():
    scene = Scene.build({"a": "red", "b": "blue"}, "red", phase="attack")
    hand = HandPainter(scene)
    quiet = 100.0 - 100.0 % TURN_CUE_CYCLE_S + 2.0  # after a swell, before the next
    hand.run(quiet, quiet + 1.0)
    assert hand.painted == [quiet]  # no redraw while nothing moves
    hand.painted.clear()
    hand.run(quiet, quiet + 4.0)
    assert hand.painted[1] == pytest.approx(quiet + 2.0)  # woken at the next swell ...
    swell = [t for t in hand.painted if quiet + 2.0 < t <= quiet + 2.0 + TURN_CUE_S]
    assert 9 <= len(swell) <= 11  # ... and painting it a step at a time (10 for a cue)
    assert hand.painted[-1] == pytest.approx(quiet + 2.0 + TURN_CUE_S, abs=1e-5)  # to its end


def test_a_refusal_blink_is_drawn_at_each_of_its_edges_and_no_more():
    scene = Scene.build({"a": "red", "b": "blue"}, effects=(ErrorBlink("a", 100.0),))
    hand = HandPainter(scene)
    hand.run(100.0, 105.0)
    # 2.5 Hz for its second: on at 0, off at 0.2, on at 0.4 ... then the owner again at 1.0
    assert [t - 100.0 for t in hand.painted] == pytest.approx([0.0, 0.2, 0.4, 0.6, 0.8, 1.0],
                                                           abs=1e-5)
    looks = [frame[0] for frame in hand.pushed()]
    assert looks[:5] == [ERROR_RED, OFF, ERROR_RED, OFF, ERROR_RED]
    assert looks[5] not in (ERROR_RED, OFF)


def test_a_turn_pulse_is_painted_at_the_frame_rate_until_it_ends():
    scene = Scene.build({"a": "red", "b": "blue"}, effects=(TurnPulse("red", 100.0),))
    hand = HandPainter(scene)
    hand.run(100.0, 110.0)
    period = hand.painter.period
    steps = [b - a for a, b in zip(hand.painted, hand.painted[1:], strict=False)]
    assert steps and all(s == pytest.approx(period) for s in steps[:-1])
    assert hand.painted[-1] == pytest.approx(101.2)  # the frame as the pulse ends, then none


def test_a_gentle_swell_is_stepped_slower_and_a_blink_within_it_keeps_its_edges():
    scene = Scene.build({"a": "red", "b": "blue"}, "red", phase="attack",
                        effects=(ErrorBlink("b", 100.05),))
    hand = HandPainter(scene)
    hand.run(100.0, 101.45)  # inside the turn's swell (100.0 .. 101.5)
    edges = [0.05 + k * 0.2 for k in range(5)]  # the refusal's 2.5 Hz from 100.05, for 1 s
    painted = [t - 100.0 for t in hand.painted]
    for edge in edges:  # each edge drawn on time (a microsecond after it)
        assert any(abs(t - edge) <= 2 * EDGE_SLACK_S for t in painted), (edge, painted)
    swell = [t for t in painted if all(abs(t - e) > 2 * EDGE_SLACK_S for e in edges)]
    assert 8 <= len(swell) <= 11  # the swell's own steps: 10 a cue, not 15
    assert hand.painter.period < SWELL_FRAME_S


SWELLS = {"claim breath": CLAIM_BREATH, "pattern breath": PATTERN_BREATH,
          "turn cue": Swell(TURN_CUE_S, 100.0)}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(SWELLS)), st.floats(min_value=100.0, max_value=110.0))
def test_a_swell_is_next_drawn_when_it_has_moved_a_step_and_not_before(name, t):
    swell = SWELLS[name]
    later = swell.next_step(t)
    moved = abs(swell.level(later) - swell.level(t))
    turned = min(swell.level(later), 1 - swell.level(later)) < 1e-9  # its top or trough
    assert moved == pytest.approx(swell.step, abs=1e-9) or (turned and moved < swell.step)
    for k in range(1, 100):  # every hundredth of the way there it is less than a step off
        between = t + (later - t) * k / 100
        assert abs(swell.level(between) - swell.level(t)) < swell.step + 1e-9
    # where it is steepest it moves a step in SWELL_FRAME_S, and nowhere faster
    assert later - t >= SWELL_FRAME_S - 1e-9 or turned
    if turned:  # and from the turn, a step on (not the turn again)
        assert swell.next_step(later) - later >= SWELL_FRAME_S - 1e-9


def test_the_curves_drawn_are_the_swells_stepped():
    for k in range(200):
        t = 100.0 + k * 0.037
        assert 0.5 + 0.5 * math.sin(2 * math.pi * t / 2.5) == pytest.approx(
            CLAIM_BREATH.level(t))  # the unclaimed breath and the setup's phase LED
        assert 0.5 - 0.5 * math.cos(2 * math.pi * t / 3.0) == pytest.approx(
            PATTERN_BREATH.level(t))  # a player's "breath" pattern
        phase = t % TURN_CUE_CYCLE_S
        if phase < TURN_CUE_S:
            assert math.sin(math.pi * phase / TURN_CUE_S) ** 2 == pytest.approx(
                TURN_CUE.level(phase))


def test_the_setup_phase_led_breathes_in_16_frames_a_period_and_is_never_a_step_behind():
    # red places and holds no territory yet: no turn cue, the phase LED's breath alone
    scene = Scene.build({"a": "green", "b": "blue"}, "red", phase="setup_place")
    hand = HandPainter(scene)
    quiet = 100.0
    hand.run(quiet, quiet + 2 * CLAIM_BREATH.period)
    phase_led = LEDS.status["phase"][0]  # the reinforce LED, breathing in red
    drawn = dict(zip(hand.painted, (frame[phase_led] for frame in hand.pushed()),
                     strict=False))
    assert 2 * 15 <= len(hand.painted) <= 2 * 17 + 1  # was 2 * 25 at 10 frames a second
    # at every moment, the LED as drawn is at most a step (of its 0.4 .. 1.0 of red) off
    most = 255 * 0.6 * CLAIM_BREATH.step + 1
    shown = drawn[hand.painted[0]]
    for k in range(1, 500):
        t = quiet + k * 2 * CLAIM_BREATH.period / 500
        shown = drawn.get(max(p for p in hand.painted if p <= t), shown)
        now = render(scene, LEDS, Palette(), t)[phase_led]
        assert max(abs(a - b) for a, b in zip(now, shown, strict=True)) <= most, t


def test_a_turn_pulse_in_the_setups_breath_is_drawn_at_the_frame_rate_on_time():
    scene = Scene.build({"a": "red", "b": "blue"}, "red", phase="setup_place",
                        effects=(TurnPulse("red", 102.3),))
    hand = HandPainter(scene)
    hand.run(102.0, 104.0)
    period = hand.painter.period
    pulse = [t for t in hand.painted if 102.3 <= t <= 102.3 + 1.2 + 1e-6]
    assert pulse[0] == pytest.approx(102.3, abs=1e-5)  # its start drawn on time ...
    assert all(b - a == pytest.approx(period) for a, b in itertools.pairwise(pulse[:-1]))
    assert pulse[-1] == pytest.approx(103.5, abs=1e-5)  # ... every frame to its end


def test_a_bring_up_override_is_painted_at_the_frame_rate():
    hand = HandPainter(Scene.build({"a": "red"}))
    hand.painter.override = lambda now: ((int(now * 10) % 3, 0, 0),) * LEDS.count
    hand.run(100.0, 101.0)
    assert len(hand.painted) >= 29


# -- next_change never misses a change of the frame -------------------------------------------

TERRITORIES = tuple(LEDS.territories)
owner = st.sampled_from((*PLAYERS, None))
when = st.floats(min_value=-3.0, max_value=3.0, allow_nan=False)


@st.composite
def scenes(draw) -> tuple[Scene, Palette, float]:
    t = draw(st.floats(min_value=50.0, max_value=60.0, allow_nan=False))
    owners = {territory: draw(owner) for territory in TERRITORIES}
    kinds = st.sampled_from((ErrorBlink, ConquestFlash, LimitBlink, DiceShow, TurnPulse))
    effects = []
    for kind, territory, start in draw(st.lists(st.tuples(kinds, st.sampled_from(TERRITORIES),
                                                          when), max_size=3)):
        if kind is DiceShow:
            effects.append(DiceShow(territory, (6, 3), draw(st.integers(0, 3)), t + start))
        elif kind is TurnPulse:
            effects.append(TurnPulse(draw(st.sampled_from(PLAYERS)), t + start))
        else:
            effects.append(kind(territory, t + start))
    mode = draw(st.sampled_from(("attack", "fortify", "move", "defend")))
    highlight = Highlight(
        selected=draw(st.sampled_from((*TERRITORIES, None))),
        source=draw(st.sampled_from((*TERRITORIES, None))),
        target=draw(st.sampled_from((*TERRITORIES, None))), mode=mode,
        dice=draw(st.sampled_from((None, 1, 2, 3))),
        dice_on=draw(st.sampled_from((*TERRITORIES, None))),
        mover=draw(st.sampled_from((*PLAYERS, None))),
        target_area=draw(st.sampled_from(((), ("c", "d")))),
        source_area=draw(st.sampled_from(((), ("a",)))),
        defender=draw(st.sampled_from((*PLAYERS, None))),
        count=draw(st.sampled_from((None, 1, 2, 4))))
    mismatches = {territory: Mismatch(kind, "red", "blue") for territory, kind in
                  draw(st.dictionaries(st.sampled_from(TERRITORIES),
                                       st.sampled_from(("wrong_colour", "missing",
                                                        "unknown_tag")), max_size=2)).items()}
    scene = Scene.build(
        owners, draw(st.sampled_from((*PLAYERS, None))),
        phase=draw(st.sampled_from((None, "attack", "setup_place", "fortify"))),
        claiming=draw(st.booleans()), highlight=highlight, effects=tuple(effects),
        mismatches=mismatches, hq=draw(st.sampled_from((frozenset(), frozenset({"b"})))),
        winner=draw(st.sampled_from((None, None, None, "red"))), winner_since=t - 1.0)
    patterns = draw(st.dictionaries(st.sampled_from(PLAYERS),
                                    st.sampled_from(("steady", "double_blink", "breath"))))
    palette = Palette({p: PlayerLook(Palette().rgb(p), pattern)
                       for p, pattern in patterns.items()})
    return scene, palette, t


def assert_still_until_due(scene: Scene, palette: Palette, t: float,
                           fractions: tuple[float, ...] = ()) -> float | None:
    """The frame at `t` stays the same until `next_change` says (every 20 ms of the way,
    at `fractions` of it, and just before); returns that due time."""
    due = next_change(scene, LEDS, palette, t)
    if due == t:
        return due  # moving continuously: painted at the frame rate
    horizon = 10.0 if due is None else due - t
    assert horizon > 0
    frame = render(scene, LEDS, palette, t)
    grid = [k / 500 for k in range(1, 500)]
    for f in (*grid, *fractions, 1.0):
        later = t + horizon * f
        if due is not None and later >= due - 2 * EDGE_SLACK_S:
            later = due - 2 * EDGE_SLACK_S  # the edge itself, or a hair before
        if later <= t:
            continue
        assert render(scene, LEDS, palette, later) == frame, (t, later, due)
    return due


@settings(max_examples=200, deadline=None)
@given(scenes(), st.lists(st.floats(min_value=0.0, max_value=1.0), max_size=8))
def test_the_frame_never_changes_before_the_next_change(drawn, fractions):
    scene, palette, t = drawn
    # the painter asks a hair after an edge, never at it: there `render` and the edge's
    # own reckoning may round to either side
    assert_still_until_due(scene, palette, t + 1.7e-7, tuple(fractions))


OWNED = {"a": "red", "b": "blue", "c": "green", "d": "red"}
BLINKING = {
    "hq crown": Scene.build(OWNED, hq=frozenset({"b"})),
    "wrong colour": Scene.build(OWNED, mismatches={"a": Mismatch("wrong_colour", "red", "blue")}),
    "missing marker": Scene.build(OWNED, mismatches={"a": Mismatch("missing", "red")}),
    "unknown tag": Scene.build(OWNED, mismatches={"c": Mismatch("unknown_tag", None)}),
    "attack target": Scene.build(OWNED, highlight=Highlight(source="a", target="b")),
    "fortify target": Scene.build(OWNED, highlight=Highlight(source="a", target="d",
                                                             mode="fortify")),
    "armies to move": Scene.build(OWNED, highlight=Highlight(source="a", target="d",
                                                             mode="move", count=3)),
    "attack dice": Scene.build(OWNED, highlight=Highlight(source="a", dice=3, dice_on="a")),
    "defence dice": Scene.build(OWNED, highlight=Highlight(target="b", dice=2, dice_on="b",
                                                           mode="defend")),
    "strike continents": Scene.build(OWNED, highlight=Highlight(
        mover="red", defender="blue", source_area=("a",), target_area=("b", "c"))),
    "refusal": Scene.build(OWNED, effects=(ErrorBlink("a", 50.3),)),
    "limit": Scene.build(OWNED, effects=(LimitBlink("a", 50.3),)),
    "conquest": Scene.build(OWNED, effects=(ConquestFlash("b", 50.3),)),
    "dice lost": Scene.build(OWNED, effects=(DiceShow("b", (6, 5, 1), 3, 50.3),)),
    "dice kept": Scene.build(OWNED, effects=(DiceShow("b", (6, 5, 1), 0, 50.3),)),
    "double blink": Scene.build(OWNED),
}


MOVING = {
    "turn swell": Scene.build(OWNED, "red", phase="attack"),
    "setup breath": Scene.build(OWNED, "blue", phase="setup_place"),
    "claim breath": Scene.build({**OWNED, "c": None}, "green", phase="claim", claiming=True),
    "turn pulse": Scene.build(OWNED, "red", phase="attack", effects=(TurnPulse("red", 52.3),)),
    "defence swell": Scene.build(OWNED, "red", phase="attack", highlight=Highlight(
        source="a", target="b", dice=1, dice_on="b", mode="defend")),
    "swell and blinks": Scene.build(OWNED, "blue", phase="setup_place",
                                    effects=(ErrorBlink("a", 51.0), DiceShow("b", (6,), 1, 52.7)),
                                    mismatches={"c": Mismatch("missing", "green")}),
    "victory": Scene.build(OWNED, winner="red", winner_since=49.0),
}


def painted_frames_are_rendered_frames(scene: Scene, palette: Palette, start: float,
                                       seconds: float) -> None:
    """Each frame the painter draws (whole or repainted) is `render`'s at its time."""
    painter = Painter(MemoryStrip(LEDS.count), LEDS, palette)
    painter.show(scene)
    t: float | None = start
    while t is not None and t < start + seconds:
        assert painter.paint_once(t) == render(scene, LEDS, palette, t, painter.floor()), t
        t = painter.next_paint(t)


@pytest.mark.parametrize("name", sorted(MOVING))
def test_what_the_painter_repaints_is_the_whole_frame(name):
    for start in (50.0, 51.9, 52.4):  # before, at and inside the turn's swell
        painted_frames_are_rendered_frames(MOVING[name], Palette(), start, 8.0)


@settings(max_examples=100, deadline=None)
@given(scenes())
def test_what_the_painter_draws_is_always_the_rendered_frame(drawn):
    scene, palette, t = drawn
    painted_frames_are_rendered_frames(scene, palette, t, 6.0)


@pytest.mark.parametrize("name", sorted(BLINKING))
def test_each_blink_stays_still_until_its_next_edge(name):
    palette = Palette({"red": PlayerLook(Palette().rgb("red"), "double_blink")})
    for k in range(60):  # through every part of their cycles (the painter asks just after
        t = 50.0 + k * 0.047 + EDGE_SLACK_S  # an edge, never at one)
        due = assert_still_until_due(BLINKING[name], palette, t)
        assert due is not None  # each of them moves ...
        assert due > t or (name == "defence dice" and t % 1.5 >= 0.72)  # ... at its edges
        # (but the defender's swell between the dips)


def test_nothing_moving_has_no_next_change_and_a_swell_moves_continuously():
    still = Scene.build({"a": "red", "b": "blue"})
    assert next_change(still, LEDS, Palette(), 7.0) is None
    swelling = Scene.build({"a": "red"}, "red", phase="attack")
    assert next_change(swelling, LEDS, Palette(), 8.5) == 8.5  # inside the 4 s cycle's swell
    assert next_change(swelling, LEDS, Palette(), 10.0) == pytest.approx(12.0)  # the next
    setup = Scene.build({"a": "red"}, "red", phase="setup_place")
    assert next_change(setup, LEDS, Palette(), 10.0) == 10.0  # the phase LED breathes


# -- the loop ----------------------------------------------------------------------------------

class RecordingQueue(queue.Queue):
    """A work queue that keeps how long each `get` was allowed to wait."""

    def __init__(self) -> None:
        super().__init__()
        self.waits: list[float | None] = []
        self.asked = threading.Event()

    def get(self, block: bool = True, timeout: float | None = None):
        self.waits.append(timeout)
        self.asked.set()
        return super().get(block, timeout)


def idle_loop(tmp_path, heartbeat=None, **opts) -> TableLoop:
    """A loop with no game: nothing is ever due."""
    profile = load_profile("classic-42")
    loop = TableLoop(tmp_path / "journal.sqlite", Wiring.from_profile(profile), demo=None,
                     heartbeat=heartbeat, **opts)
    loop._queue = RecordingQueue()  # type: ignore[assignment]
    return loop


def test_an_idle_loop_sleeps_until_work_comes_not_every_half_second(tmp_path):
    loop = idle_loop(tmp_path)
    loop.start()
    try:
        assert loop._queue.asked.wait(30)
        assert loop.core is not None and loop.core.next_deadline() is None
        assert loop._queue.waits[-1] is None  # no deadline: it sleeps until work comes
        assert loop.call(lambda core: "awake") == "awake"
    finally:
        loop.stop()


def test_a_loop_with_a_watchdog_still_beats_it_every_half_second(tmp_path):
    beats: list[int] = []
    loop = idle_loop(tmp_path, heartbeat=lambda: beats.append(1))
    loop.start()
    try:
        assert loop._queue.asked.wait(30)
        assert loop._queue.waits[-1] == 0.5
        assert beats
    finally:
        loop.stop()


def test_a_loop_with_systemds_watchdog_sleeps_at_its_pace_not_half_a_second(tmp_path):
    # serve hands the loop Heartbeat.longest_sleep: 5 s for systemd's WatchdogSec=30
    beats: list[int] = []
    loop = idle_loop(tmp_path, heartbeat=lambda: beats.append(1), heartbeat_s=5.0)
    loop.start()
    try:
        assert loop._queue.asked.wait(30)
        assert loop._queue.waits[-1] == 5.0
        assert beats
        assert loop.call(lambda core: "awake") == "awake"  # work still wakes it at once
    finally:
        loop.stop()

