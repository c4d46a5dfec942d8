"""The output stage: gamma table, brightness, frame validation and the power budget."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
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


@settings(max_examples=60, deadline=None)
@given(
    frame=st.lists(
        st.tuples(*[st.integers(0, 255)] * 3), min_size=20, max_size=20
    ),
    amps=st.floats(0.05, 2.0),
    brightness=st.floats(0.0, 1.0),
)
def test_no_frame_ever_exceeds_the_budget(frame, amps, brightness):
    stage = OutputStage(20, gamma=2.2, brightness=brightness, supply_amps=amps)
    data = stage.render(frame)
    assert stage.estimate_milliamps(data) <= stage.budget_milliamps
    assert stage.last_milliamps == pytest.approx(stage.estimate_milliamps(data))
