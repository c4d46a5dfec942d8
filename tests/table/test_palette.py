"""Player colours: distinguishable for colour-blind eyes, configurable, with patterns."""

from __future__ import annotations

import itertools

import pytest

from pi_app.table.palette import (
    DEFAULT_COLOURS,
    SEAT_MIN_DELTA_E,
    THIRD_ARMY_COLOURS,
    THIRD_ARMY_MIN_DELTA_E,
    Palette,
    PaletteError,
    contrast_to,
    delta_e2000,
    min_contrast,
    parse_colour,
    pattern_level,
    perceived_lab,
)

# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB: written out here from
# the paper's table so the test does not just repeat the module's own numbers.
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
WARM = (1.0, 0.55, 0.2)  # a 2700 K-like room light, linear RGB


def reference_lab(rgb, matrix, veil):
    """sRGB -> linear, warm veil mixed in, the eye's matrix, -> CIELAB (D65)."""
    lin = [(c / 255) / 12.92 if c / 255 <= 0.04045 else ((c / 255 + 0.055) / 1.055) ** 2.4
           for c in rgb]
    mixed = [(1 - veil) * lin[i] + veil * WARM[i] for i in range(3)]
    r, g, b = (min(1.0, max(0.0, sum(matrix[i][j] * mixed[j] for j in range(3))))
               for i in range(3))
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116 for v in (x, y, z)]
    return (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))


@pytest.mark.parametrize(("lab1", "lab2", "expected"), [
    # Sharma, Wu & Dalal (2005), CIEDE2000 test data, pairs 1, 7, 17 and 25
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
])
def test_delta_e2000_matches_the_published_test_pairs(lab1, lab2, expected):
    assert delta_e2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("vision", sorted(MACHADO))
def test_the_warm_veil_is_mixed_in_before_the_eye(vision):
    for rgb in DEFAULT_COLOURS.values():
        assert perceived_lab(rgb, vision, 0.25) == pytest.approx(
            reference_lab(rgb, MACHADO[vision], 0.25), abs=1e-6)


@pytest.mark.parametrize("vision", sorted(MACHADO))
def test_default_seat_colours_stay_apart_for_each_colour_blindness_in_warm_light(vision):
    labs = {k: reference_lab(rgb, MACHADO[vision], 0.25) for k, rgb in DEFAULT_COLOURS.items()}
    closest = min((delta_e2000(labs[a], labs[b]), a, b)
                  for a, b in itertools.combinations(sorted(labs), 2))
    assert closest[0] >= SEAT_MIN_DELTA_E, closest


def test_default_colours_stay_apart_for_every_viewing_condition():
    worst = min_contrast(DEFAULT_COLOURS)
    assert worst.delta_e >= SEAT_MIN_DELTA_E, worst


def test_third_armies_stay_apart_from_every_seat_colour():
    for army, rgb in THIRD_ARMY_COLOURS.items():
        closest = contrast_to(army, rgb, DEFAULT_COLOURS)
        assert closest.delta_e >= THIRD_ARMY_MIN_DELTA_E, closest


def test_pure_red_and_green_collapse_for_deuteranopes():
    worst = min_contrast({"r": (255, 0, 0), "g": (0, 160, 0)})
    assert worst.delta_e < SEAT_MIN_DELTA_E and worst.vision in ("deuteranopia", "protanopia")


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
