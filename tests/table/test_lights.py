"""State to LED frame: pure rendering of owners, highlights, effects and celebrations."""

from __future__ import annotations

import pytest

from pi_app.table.lights import (
    BASE_LEVEL,
    ERROR_RED,
    OFF,
    WHITE,
    Battle,
    ConquestFlash,
    DiceShow,
    ErrorBlink,
    Highlight,
    LedMap,
    Mismatch,
    Scene,
    render,
)
from pi_app.table.palette import DEFAULT_COLOURS, Palette

LEDS = LedMap.build(10, {"a": [0, 1], "b": [2, 3], "c": [4]},
                    {"turn": [5], "phase": [6, 7, 8], "attack_dice": [9]})
RED, BLUE = DEFAULT_COLOURS["red"], DEFAULT_COLOURS["blue"]


def half(rgb):
    return tuple(round(c * BASE_LEVEL) for c in rgb)


def at(frame, territory):
    return [frame[i] for i in LEDS.territories[territory]]


def test_each_territory_shows_its_owner_at_half_brightness_and_unowned_is_dark():
    frame = render(Scene.build({"a": "red", "b": "blue", "c": None}), LEDS, Palette(), 5.0)
    assert at(frame, "a") == [half(RED)] * 2
    assert at(frame, "b") == [half(BLUE)] * 2
    assert at(frame, "c") == [OFF]


def test_the_frame_is_a_pure_function_of_scene_and_time():
    scene = Scene.build({"a": "red"}, effects=(ErrorBlink("a", 0.0),))
    assert render(scene, LEDS, Palette(), 0.3) == render(scene, LEDS, Palette(), 0.3)


def test_an_led_index_outside_the_strip_is_rejected():
    with pytest.raises(ValueError, match="outside a strip"):
        LedMap.build(2, {"a": [5]})


def test_a_refused_touch_strobes_error_red_for_a_second_then_stops():
    scene = Scene.build({"a": "red"}, effects=(ErrorBlink("a", 10.0),))
    assert at(render(scene, LEDS, Palette(), 10.01), "a") == [ERROR_RED] * 2
    assert at(render(scene, LEDS, Palette(), 10.07), "a") == [OFF] * 2
    assert at(render(scene, LEDS, Palette(), 11.5), "a") == [half(RED)] * 2


def test_a_conquest_flashes_white_then_the_new_owner():
    scene = Scene.build({"a": "red"}, effects=(ConquestFlash("a", 0.0),))
    assert at(render(scene, LEDS, Palette(), 0.05), "a") == [WHITE] * 2
    assert at(render(scene, LEDS, Palette(), 0.15), "a") == [RED] * 2


def test_dice_results_blink_white_once_per_army_lost():
    scene = Scene.build({"a": "red", "b": "blue"},
                        effects=(DiceShow("a", (6, 5, 1), 0, 0.0), DiceShow("b", (6, 2), 2, 0.0)))
    whites = {t: sum(1 for k in range(200) if at(render(scene, LEDS, Palette(), k / 100), t)[0]
                     == WHITE and (k == 0 or at(render(scene, LEDS, Palette(), (k - 1) / 100),
                                                t)[0] != WHITE)) for t in ("a", "b")}
    assert whites == {"a": 0, "b": 2}


def test_attack_source_is_full_and_target_alternates_with_the_attackers_colour():
    scene = Scene.build({"a": "red", "b": "blue"},
                        highlight=Highlight(source="a", target="b", mode="attack"))
    seen_b = {at(render(scene, LEDS, Palette(), k / 30), "b")[0] for k in range(30)}
    assert at(render(scene, LEDS, Palette(), 0.5), "a") == [RED] * 2
    assert seen_b == {RED, BLUE}


def test_mismatch_kinds_blink_differently():
    def trace(kind, seen=None):
        scene = Scene.build({"a": "red"}, mismatches={"a": Mismatch(kind, "red", seen)})
        return tuple(at(render(scene, LEDS, Palette(), k / 20), "a")[0] for k in range(40))

    traces = {trace("wrong_colour", "blue"), trace("missing"), trace("unknown_tag")}
    assert len(traces) == 3
    assert BLUE in trace("wrong_colour", "blue")


def test_status_leds_show_turn_phase_and_who_won_each_die():
    scene = Scene.build({"a": "red"}, "red", phase="attack",
                        last_battle=Battle((6,), (3,), "red", "blue"))
    frame = render(scene, LEDS, Palette(), 1.0)
    assert frame[5] == RED
    assert [frame[6], frame[7], frame[8]] == [OFF, RED, OFF]
    assert frame[9] == RED  # a six beat a three: the attacker's colour, full brightness


def test_victory_sweeps_the_winners_colour_over_every_led():
    scene = Scene.build({"a": "red"}, winner="green", winner_since=0.0)
    frames = [render(scene, LEDS, Palette(), t / 10) for t in range(10)]
    green = DEFAULT_COLOURS["green"]
    for frame in frames:
        for pixel in frame:
            assert pixel == WHITE or (max(pixel) > 0 and all(
                abs(p - g * max(pixel) / max(green)) <= 1.5 for p, g in zip(pixel, green)))
    assert len(set(frames)) > 5
