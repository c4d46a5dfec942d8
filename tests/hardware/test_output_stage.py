"""The output stage: gamma table, brightness, frame validation and the power budget."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hardware.output_stage import OutputStage, gamma_table

WHITE = (255, 255, 255)


def test_gamma_one_and_full_brightness_pass_levels_through():
    stage = OutputStage(2, gamma=1.0)
    assert stage.render([(0, 128, 255), (1, 2, 3)]) == bytes([0, 128, 255, 1, 2, 3])


def test_gamma_darkens_mid_levels_but_keeps_the_ends():
    table = gamma_table(2.2, 1.0)
    assert table[0] == 0
    assert table[255] == 255
    # (128/255) ** 2.2 = 0.2194 -> 55.9
    assert table[128] == 56


def test_brightness_scales_full_level_linearly():
    stage = OutputStage(1, gamma=1.0, brightness=0.5)
    assert stage.render([WHITE]) == bytes([128, 128, 128])  # round(127.5) in Python = 128


def test_changing_brightness_takes_effect_on_the_next_frame():
    stage = OutputStage(1, gamma=1.0)
    stage.brightness = 0.2
    assert stage.render([(255, 0, 0)]) == bytes([51, 0, 0])


@pytest.mark.parametrize("bad", [-0.1, 1.5])
def test_brightness_outside_zero_to_one_is_refused(bad):
    with pytest.raises(ValueError, match="brightness must be between 0 and 1"):
        OutputStage(1, brightness=bad)


def test_frame_of_wrong_length_is_refused():
    with pytest.raises(ValueError, match="exactly 3 pixels, got 2"):
        OutputStage(3).render([WHITE, WHITE])


@pytest.mark.parametrize(
    "bad_pixel", [(256, 0, 0), (-1, 0, 0), (1.5, 0, 0), (0, 0), (0, 0, 0, 0), "red"]
)
def test_malformed_pixel_is_named_by_index(bad_pixel):
    with pytest.raises(ValueError, match="pixel 1 must be three integers"):
        OutputStage(2).render([WHITE, bad_pixel])


def test_full_white_126_leds_within_budget_of_a_3_amp_supply():
    stage = OutputStage(126, gamma=1.0, supply_amps=3.0, safety_margin=0.15)
    data = stage.render([WHITE] * 126)
    # model: 126 x (3 x 20 mA + 1 mA) = 7686 mA unlimited; budget is 3 A x 0.85 = 2550 mA
    assert stage.estimate_milliamps(bytes([255] * 378)) == pytest.approx(7686)
    assert stage.estimate_milliamps(data) <= 2550
    # and it uses the budget well (within one level step of 126 LEDs x 3 channels)
    assert stage.estimate_milliamps(data) > 2550 - 378 * 20 / 255
    assert stage.limited_frames == 1


def test_budget_scaling_keeps_the_hue():
    stage = OutputStage(100, gamma=1.0, supply_amps=1.0)
    data = stage.render([(200, 100, 0)] * 100)
    r, g, b = data[0], data[1], data[2]
    assert b == 0
    assert r < 200
    assert abs(r / g - 2.0) < 0.1


def test_frame_within_budget_is_untouched():
    stage = OutputStage(126, gamma=1.0, supply_amps=3.0)
    frame = [(40, 0, 0)] * 126  # 126 x (40/255 x 20 + 1) = 521 mA
    assert stage.render(frame) == bytes([40, 0, 0] * 126)
    assert stage.limited_frames == 0


def test_supply_too_small_for_idle_leds_is_refused():
    with pytest.raises(ValueError, match="cannot even keep 126 dark LEDs powered"):
        OutputStage(126, supply_amps=0.1)


PIXEL = st.tuples(*[st.integers(0, 255)] * 3)
# Mixed frames, and uniform ones (every LED the same colour: the frames that stress the
# budget most, and the ones a random list of 20 colours almost never produces).
FRAMES = st.one_of(
    st.lists(PIXEL, min_size=20, max_size=20),
    PIXEL.map(lambda pixel: [pixel] * 20),
)


@settings(max_examples=80, deadline=None)
@given(frame=FRAMES, amps=st.floats(0.05, 2.0), brightness=st.floats(0.0, 1.0))
@example(frame=[WHITE] * 20, amps=0.05, brightness=1.0)
@example(frame=[WHITE] * 20, amps=0.5, brightness=1.0)
@example(frame=[(255, 255, 0)] * 20, amps=0.3, brightness=0.5)
@example(frame=[(255, 0, 0)] * 20, amps=0.1, brightness=1.0)
def test_no_frame_ever_exceeds_the_budget(frame, amps, brightness):
    stage = OutputStage(20, gamma=2.2, brightness=brightness, supply_amps=amps)
    data = stage.render(frame)
    # the model, written out here rather than taken from the stage: 1 mA per LED plus
    # 20 mA per channel at full duty, linear in the output byte; budget = 85 % of the supply
    drawn = 20 * 1.0 + sum(data) * 20.0 / 255
    assert drawn <= amps * 1000 * 0.85 + 1e-9
    assert stage.last_milliamps == pytest.approx(drawn)


# -- exact values, derived by hand ---------------------------------------------------------
# gamma_table(g, b)[v] = round(255 * b * (v / 255) ** g): gamma first, brightness after it
# (so brightness scales the light linearly), Python's round() rounding halves to even.


def test_brightness_is_applied_after_gamma_so_full_level_at_half_brightness_is_128():
    # 255 * 0.5 * 1 ** 2.2 = 127.5 -> 128 (half to even). Applying brightness before gamma
    # would give 255 * 0.5 ** 2.2 = 55.5 -> 55: a half-bright board far too dark.
    assert gamma_table(2.2, 0.5)[255] == 128


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        # (64/255) = 0.25098; ** 2.2 = exp(2.2 * ln 0.25098) = exp(-3.0413) = 0.04778
        # 127.5 * 0.04778 = 6.09 -> 6
        (64, 6),
        # (128/255) = 0.50196; ** 2.2 = exp(2.2 * -0.68924) = exp(-1.5163) = 0.21952
        # 127.5 * 0.21952 = 27.99 -> 28   (brightness first would give 12)
        (128, 28),
        # (192/255) = 0.75294; ** 2.2 = exp(2.2 * -0.28377) = exp(-0.62429) = 0.53566
        # 127.5 * 0.53566 = 68.30 -> 68
        (192, 68),
        (0, 0),
    ],
)
def test_gamma_2_2_at_half_brightness_gives_the_hand_computed_levels(level, expected):
    assert gamma_table(2.2, 0.5)[level] == expected


def test_gamma_one_is_brightness_alone():
    # 255 * 0.2 = 51 exactly; 100 * 0.2 = 20 exactly
    table = gamma_table(1.0, 0.2)
    assert (table[255], table[100]) == (51, 20)


def test_zero_brightness_is_dark_at_every_level():
    assert gamma_table(2.2, 0.0) == bytes(256)


# -- the power budget over many strips and supplies ----------------------------------------

SUPPLIES_A = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 7.5, 10.0)


@pytest.mark.parametrize("gamma", [1.0, 2.2])
def test_full_white_stays_within_the_budget_for_every_strip_length_and_supply(gamma):
    for count in range(1, 161):
        idle_ma = count * 1.0                    # 1 mA per dark LED
        full_ma = count * (3 * 20.0 + 1.0)       # 61 mA per full-white LED
        level_step_ma = 3 * count * 20.0 / 255   # one output level on every channel
        for amps in SUPPLIES_A:
            budget_ma = amps * 1000 * (1 - 0.15)
            if budget_ma <= idle_ma:
                with pytest.raises(ValueError, match="cannot even keep"):
                    OutputStage(count, gamma=gamma, supply_amps=amps)
                continue
            stage = OutputStage(count, gamma=gamma, supply_amps=amps)
            data = stage.render([WHITE] * count)
            drawn_ma = idle_ma + sum(data) * 20.0 / 255
            where = f"{count} LEDs on {amps} A"
            assert drawn_ma <= budget_ma, where
            assert len(set(data)) == 1, where    # one factor for all: white stays white
            if full_ma <= budget_ma:
                assert data[0] == 255, where
            else:
                # rounding down loses less than ~1.1 levels, never half the budget
                assert drawn_ma > budget_ma - 2 * level_step_ma, where


def test_power_settings_changed_after_construction_recompute_the_budget():
    stage = OutputStage(10, gamma=1.0, supply_amps=1.0)
    assert stage.budget_milliamps == pytest.approx(850)       # 1 A x (1 - 0.15)
    stage.safety_margin = 0.5
    assert stage.budget_milliamps == pytest.approx(500)       # 1 A x (1 - 0.5)
    stage.idle_ma = 2.0
    data = stage.render([WHITE] * 10)
    assert 10 * 2.0 + sum(data) * 20.0 / 255 <= 500


def test_power_settings_that_leave_no_room_for_the_idle_leds_are_refused():
    stage = OutputStage(100, supply_amps=0.2)                 # budget 170 mA, idle 100 mA
    with pytest.raises(ValueError, match="cannot even keep 100 dark LEDs powered"):
        stage.idle_ma = 2.0                                   # idle would be 200 mA
    with pytest.raises(ValueError, match="cannot even keep 100 dark LEDs powered"):
        stage.safety_margin = 0.6                             # budget would be 80 mA
    assert (stage.idle_ma, stage.safety_margin) == (1.0, 0.15)
