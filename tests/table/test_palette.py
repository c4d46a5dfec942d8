"""Player colours: distinguishable for colour-blind eyes, configurable, with patterns."""

from __future__ import annotations

import itertools

import pytest

from pi_app.table.palette import (
    DEFAULT_COLOURS,
    Palette,
    PaletteError,
    min_contrast,
    parse_colour,
    pattern_level,
)


def test_default_colours_stay_apart_for_every_colour_vision_and_in_warm_light():
    worst = min_contrast(DEFAULT_COLOURS)
    assert worst.delta_e > 20, worst


def test_pure_red_and_green_collapse_for_deuteranopes():
    worst = min_contrast({"r": (255, 0, 0), "g": (0, 160, 0)})
    assert worst.delta_e < 20 and worst.vision in ("deuteranopia", "protanopia")


def test_a_configured_colour_and_pattern_replace_the_default():
    palette = Palette.from_config({"red": "#ff0000"}, {"blue": "breath"})
    assert palette.rgb("red") == (255, 0, 0)
    assert palette.look("blue").pattern == "breath"
    assert palette.rgb("blue") == DEFAULT_COLOURS["blue"]


@pytest.mark.parametrize("value", ["#ff00", "zzzzzz", [1, 2], [1, 2, 300]])
def test_a_bad_colour_is_refused_with_its_value(value):
    with pytest.raises(PaletteError):
        parse_colour(value)


def test_an_unknown_pattern_is_refused_naming_the_player():
    with pytest.raises(PaletteError, match="pattern of red"):
        Palette.from_config(patterns={"red": "disco"})


def test_double_blink_dips_twice_per_cycle_and_breath_swells():
    levels = [pattern_level("double_blink", 0.5 + k / 100) for k in range(200)]
    dips = sum(1 for a, b in itertools.pairwise(levels) if a == 1.0 and b < 1.0)
    assert dips == 2
    breath = [pattern_level("breath", k / 10) for k in range(30)]
    assert min(breath) < 0.6 < 0.95 < max(breath)
