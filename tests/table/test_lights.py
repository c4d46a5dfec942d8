"""State to LED frame: pure rendering of owners, highlights, effects and celebrations."""

from __future__ import annotations

import pytest

from hardware.output_stage import OutputStage
from pi_app.table import lights
from pi_app.table.lights import (
    BASE_LEVEL,
    ERROR_RED,
    MIN_VISIBLE_OUTPUT,
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
    visible_floor,
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
    assert at(render(scene, LEDS, Palette(), 10.3), "a") == [OFF] * 2
    assert at(render(scene, LEDS, Palette(), 11.5), "a") == [half(RED)] * 2


def test_a_conquest_flashes_white_then_the_new_owner():
    scene = Scene.build({"a": "red"}, effects=(ConquestFlash("a", 0.0),))
    assert at(render(scene, LEDS, Palette(), 0.05), "a") == [WHITE] * 2
    assert at(render(scene, LEDS, Palette(), 0.3), "a") == [RED] * 2


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


# --- photosensitivity: WCAG 2.3.1 allows at most three flashes in any one second ---------


def relative_luminance(pixel):
    def linear(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in pixel)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def most_flashes_in_a_second(scene, seconds=4.0, rate=200):
    """The most flashes any LED makes in a one-second window: a flash is a jump up in
    relative luminance by at least 0.05 within one 5 ms sample (WCAG counts a pair of
    opposing changes; every rise here is followed by a fall), or any change that brings
    saturated red in or out (WCAG's red flash)."""
    samples = [render(scene, LEDS, Palette(), k / rate) for k in range(int(seconds * rate))]
    worst = 0
    for led in range(LEDS.count):
        onsets = []
        for k in range(1, len(samples)):
            before, now = samples[k - 1][led], samples[k][led]
            rise = relative_luminance(now) - relative_luminance(before) >= 0.05
            red = (now == ERROR_RED) != (before == ERROR_RED) and now == ERROR_RED
            if rise or red:
                onsets.append(k / rate)
        for i, start in enumerate(onsets):
            worst = max(worst, sum(1 for t in onsets[i:] if t < start + 1.0))
    return worst


FLASHING_SCENES = {
    "error blink": Scene.build({"a": "red"}, effects=(ErrorBlink("a", 0.0),)),
    "two error blinks in a row": Scene.build(
        {"a": "red", "b": "blue"}, effects=(ErrorBlink("a", 0.0), ErrorBlink("b", 0.5))),
    "conquest": Scene.build({"a": "red"}, effects=(ConquestFlash("a", 0.0),)),
    "dice lost three": Scene.build({"a": "blue"}, effects=(DiceShow("a", (6, 6, 6), 3, 0.0),)),
    "attack target": Scene.build({"a": "red", "b": "blue"},
                                 highlight=Highlight(source="a", target="b", dice=3,
                                                     dice_on="a")),
    "fortify target": Scene.build({"a": "red", "b": "red"},
                                  highlight=Highlight(source="a", target="b", mode="fortify",
                                                      mover="red")),
    "unknown tag": Scene.build({"a": "red"}, mismatches={"a": Mismatch("unknown_tag", "red")}),
    "wrong colour": Scene.build({"a": "red"},
                                mismatches={"a": Mismatch("wrong_colour", "red", "blue")}),
    "victory": Scene.build({"a": "red"}, winner="black", winner_since=0.0),
    "turn cue": Scene.build({"a": "red", "b": "blue"}, "red", phase="attack"),
    "move-in count of 14": Scene.build(
        {"a": "red", "b": "red"}, "red", phase="attack",
        highlight=Highlight(source="a", target="b", mode="move", mover="red", count=14)),
    "defence prompt": Scene.build(
        {"a": "red", "b": "blue"}, "red", phase="attack", awaiting="blue",
        highlight=Highlight(source="a", target="b", mode="defend", dice=2, dice_on="b",
                            mover="red")),
    "limit blink": Scene.build({"a": "red"}, effects=(lights.LimitBlink("a", 0.0),)),
    "a computer's held step": Scene.build(
        {"a": "red", "b": "blue", "c": "red"}, "blue", phase="reinforce",
        highlight=Highlight(mode="copy", mover="red", copy=(("a", 5), ("b", 0), ("c", 1)))),
    "claiming": Scene.build({"a": None, "b": "red"}, "blue", phase="claim", claiming=True),
}


@pytest.mark.parametrize("name", FLASHING_SCENES)
def test_nothing_flashes_more_than_three_times_in_any_second(name):
    assert most_flashes_in_a_second(FLASHING_SCENES[name]) <= 3


def test_the_flash_counter_catches_the_old_8_hz_strobe(monkeypatch):
    # the measure itself must be able to fail: the error blink used to strobe at 8 Hz
    monkeypatch.setattr(lights, "FLASH_HZ", 8.0)
    assert most_flashes_in_a_second(FLASHING_SCENES["error blink"]) >= 7


# --- dim states stay visible after gamma and brightness ----------------------------------

STAGE = OutputStage(LEDS.count, gamma=2.2, brightness=0.5)
FLOOR = visible_floor(2.2, 0.5)


def brightest_output(scene, territory, times):
    """For each time, the brightest channel `territory`'s LEDs receive after the stage."""
    out = []
    for t in times:
        data = STAGE.render(render(scene, LEDS, Palette(), t, FLOOR))
        out.append(max(data[3 * i + c] for i in LEDS.territories[territory] for c in range(3)))
    return out


def test_the_visible_floor_is_the_first_level_the_stage_shows():
    table = STAGE.render([(FLOOR, FLOOR, FLOOR)] + [(0, 0, 0)] * (LEDS.count - 1))
    below = STAGE.render([(FLOOR - 1, 0, 0)] + [(0, 0, 0)] * (LEDS.count - 1))
    assert table[0] >= MIN_VISIBLE_OUTPUT > below[0]


def test_the_unclaimed_breath_stays_visible_and_still_breathes_at_half_brightness():
    scene = Scene.build({"a": None}, claiming=True)
    levels = brightest_output(scene, "a", [k / 20 for k in range(50)])  # one 2.5 s breath
    assert min(levels) >= MIN_VISIBLE_OUTPUT, levels
    assert max(levels) >= 2 * min(levels)


def test_dice_dips_and_dim_phases_stay_visible_at_half_brightness():
    times = [k / 100 for k in range(150)]
    dips = Scene.build({"a": "red", "b": "blue"},
                       highlight=Highlight(source="a", target="b", dice=3, dice_on="a"))
    lost = Scene.build({"a": "blue"}, effects=(DiceShow("a", (6, 6), 2, 0.0),))
    fortify = Scene.build({"a": "pink", "b": "pink"},
                          highlight=Highlight(source="a", target="b", mode="fortify",
                                              mover="pink"))
    for scene, territory in ((dips, "a"), (lost, "a"), (fortify, "b")):
        levels = brightest_output(scene, territory, times)
        assert min(levels) >= MIN_VISIBLE_OUTPUT, (territory, levels)
        assert max(levels) >= 2 * min(levels)  # a dip is still a dip


def test_the_status_dice_leds_stay_visible_for_a_one():
    scene = Scene.build({"a": "red"}, "red", last_battle=Battle((1,), (1,), "red", "blue"))
    data = STAGE.render(render(scene, LEDS, Palette(), 1.0, FLOOR))
    assert max(data[27:30]) >= MIN_VISIBLE_OUTPUT


def test_blink_off_phases_stay_dark_with_a_floor():
    scene = Scene.build({"a": "red"}, effects=(ErrorBlink("a", 0.0),))
    assert at(render(scene, LEDS, Palette(), 0.3, FLOOR), "a") == [OFF] * 2


# --- issue 13: turn and phase always visible, counts, the defender's prompt ----------------


def test_the_current_players_territories_keep_a_gentle_cue_all_turn_long():
    scene = Scene.build({"a": "red", "b": "blue"}, "red", phase="attack")
    for cycle in (0, 10, 100):  # long after any turn pulse
        peak = render(scene, LEDS, Palette(), cycle * lights.TURN_CUE_CYCLE_S
                      + lights.TURN_CUE_S / 2)
        rest = render(scene, LEDS, Palette(), cycle * lights.TURN_CUE_CYCLE_S
                      + lights.TURN_CUE_S + 1)
        assert max(at(peak, "a")[0]) > max(half(RED)) + 40, "red's land swells above half"
        assert at(rest, "a")[0] == half(RED)
        assert at(peak, "b")[0] == at(rest, "b")[0] == half(BLUE), "blue's stays still"


def test_free_territories_breathe_in_the_colour_of_who_claims_next():
    scene = Scene.build({"c": None}, "blue", phase="claim", claiming=True)
    looks = {at(render(scene, LEDS, Palette(), k / 10), "c")[0] for k in range(30)}
    assert len(looks) > 3, "it breathes"
    for pixel in looks:  # blue's hue, dimmer than an owned territory
        assert max(pixel) < max(half(BLUE))
        assert all(abs(p - b * max(pixel) / max(BLUE)) <= 1.5 for p, b in zip(pixel, BLUE))


@pytest.mark.parametrize("claimer", ["red", "green", "blue", "yellow"])
def test_the_claimers_breath_stays_visible_and_still_breathes_at_half_brightness(claimer):
    scene = Scene.build({"a": None}, claimer, phase="claim", claiming=True)
    levels = brightest_output(scene, "a", [k / 20 for k in range(50)])  # one 2.5 s breath
    assert min(levels) >= MIN_VISIBLE_OUTPUT, levels
    assert max(levels) >= 1.5 * min(levels), levels


def test_the_turn_led_takes_the_defenders_colour_during_a_defence_prompt():
    scene = Scene.build({"a": "red", "b": "blue"}, "red", phase="attack", awaiting="blue")
    frame = render(scene, LEDS, Palette(), 5.0)
    assert frame[5] == BLUE
    assert frame[7] == RED, "the phase LED (attack) stays the attacker's"


def test_the_phase_led_is_lit_in_setup_too():
    scene = Scene.build({"a": "red"}, "red", phase="setup_place")
    assert any(max(render(scene, LEDS, Palette(), k / 4)[6]) > 0 for k in range(10))


def test_the_destination_dips_once_per_army_to_move_then_pauses():
    scene = Scene.build({"a": "red", "b": "red"}, "red", phase="fortify",
                        highlight=Highlight(source="a", target="b", mode="fortify",
                                            mover="red", count=4))
    cycle = 4 * lights.COUNT_PULSE_S + lights.COUNT_PAUSE_S
    samples = [at(render(scene, LEDS, Palette(), 1000 * cycle - 0.5 + k / 100), "b")[0]
               for k in range(int(cycle * 100))]
    dips = sum(1 for i in range(1, len(samples))
               if max(samples[i]) < max(RED) and max(samples[i - 1]) == max(RED))
    assert dips == 4


def dips_of(scene, territory, rgb, count_hint=6):
    """How often `territory` dips below `rgb` in one count cycle of `count_hint` armies."""
    cycle = count_hint * lights.COUNT_PULSE_S + lights.COUNT_PAUSE_S
    samples = [at(render(scene, LEDS, Palette(), 1000 * cycle - 0.5 + k / 100), territory)[0]
               for k in range(int(cycle * 100))]
    return sum(1 for i in range(1, len(samples))
               if max(samples[i]) < max(rgb) and max(samples[i - 1]) == max(rgb))


def test_a_computers_held_step_lights_each_territory_in_its_owners_colour():
    """Issue 32.2: every territory of the step to copy, each in its (new) owner's colour at
    full brightness: one dip per army of that colour the step put there, a blink where it
    only took pieces away; the others keep their owners' half brightness."""
    scene = Scene.build({"a": "red", "b": "blue", "c": "red"}, "blue", phase="reinforce",
                        highlight=Highlight(mode="copy", mover="red",
                                            copy=(("a", 3), ("b", 0))))
    assert dips_of(scene, "a", RED, 3) == 3
    looks = {at(render(scene, LEDS, Palette(), k / 20), "b")[0] for k in range(40)}
    assert BLUE in looks and any(max(x) < max(half(BLUE)) for x in looks)  # blinks
    assert {at(render(scene, LEDS, Palette(), k / 20), "c")[0]
            for k in range(40)} <= {half(RED), RED}  # not in the step: no blink


def test_a_limit_blink_shows_white_then_stops():
    scene = Scene.build({"a": "red"}, effects=(lights.LimitBlink("a", 0.0),))
    assert at(render(scene, LEDS, Palette(), 0.05), "a")[0] == WHITE
    assert at(render(scene, LEDS, Palette(), lights.LIMIT_S + 0.1), "a")[0] == half(RED)
