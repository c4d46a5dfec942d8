"""The Python example in hardware/README.md runs as written, so the README cannot rot."""

from __future__ import annotations

import re
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from hardware.output_stage import OutputStage

README = Path(__file__).resolve().parents[2] / "hardware" / "README.md"


def test_readme_example_runs_and_lights_the_strip(capsys):
    block = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    namespace: dict = {}
    exec(compile(block, str(README), "exec"), namespace)
    strip, buttons = namespace["strip"], namespace["buttons"]
    assert strip.closed and strip.frames[0] == ((255, 0, 0),) * namespace["profile"].led_count
    assert set(buttons.names) == set(namespace["profile"].controls)
    buttons.close()


ROOT = README.parents[1]


def _led_rows() -> list[list[str]]:
    """The rows of the README's GPIO pin table that carry LED data."""
    table = README.read_text().split("## Raspberry Pi GPIO pin table")[1].split("\n\n")[1]
    rows = []
    for line in table.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 3 and "LED data" in cells[2]:
            rows.append(cells)
    return rows


def test_readme_led_data_pin_is_the_one_the_installer_writes():
    # install.sh copies deploy/config.example.toml for a Pi 3B+/4/Zero 2 W; the README's pin
    # table and diagram must wire the LEDs to that same pin (GPIO 10 = header pin 19, SPI MOSI).
    example = tomllib.loads((ROOT / "deploy" / "config.example.toml").read_text())
    pin = example["leds"]["gpio_pin"]
    assert pin == 10
    rows = _led_rows()
    assert [row[:2] for row in rows] == [["10", "19"]]
    diagram = re.search(r"## The wiring at a glance\n\n```\n(.*?)```", README.read_text(), re.S)
    assert f"GPIO {pin} (SPI MOSI)" in diagram.group(1)
    assert "GPIO 18" not in diagram.group(1)


def test_readme_gives_the_fixed_core_clock_spi_needs_on_each_pi():
    # rpi_ws281x README, section SPI: Pi 3 needs core_freq=250; Pi 4 needs a fixed frequency,
    # core_freq=500 and core_freq_min=500, or the SPI clock (and so the LED timing) drifts.
    text = " ".join(README.read_text().split())
    assert "`core_freq=250` on a Pi 3B+ / Zero 2 W" in text
    assert "`core_freq=500` and `core_freq_min=500` on a Pi 4" in text


# The README's power model: each channel 20 mA at full duty, linear in the output byte;
# 1 mA per LED for its controller; gamma 2.2 first, brightness after it, so a full channel
# at brightness 0.5 is sent as round(127.5) = 128. Per-LED currents, in exact fractions:
HALF = Fraction(128, 255)
PER_LED_MA = {
    "all dark": Fraction(1),
    "red, brightness 1": 20 + Fraction(1),
    "red, brightness 0.5": 20 * HALF + 1,
    "yellow, brightness 0.5": 2 * 20 * HALF + 1,
    "full white, brightness 1": 3 * 20 + Fraction(1),
}


def _amps(milliamps: Fraction) -> str:
    """Amps to two decimals, halves rounded up (as a person would)."""
    hundredths = int(milliamps / 10 + Fraction(1, 2))
    return f"{hundredths // 100}.{hundredths % 100:02d} A"


def _power_rows() -> dict[str, list[str]]:
    section = README.read_text().split("## Power budget")[1].split("\n## ")[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip().strip("*") for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 4 and cells[0] in PER_LED_MA:
            rows[cells[0]] = cells[1:]
    return rows


def test_readme_power_table_matches_the_model_for_126_and_135_leds():
    rows = _power_rows()
    assert set(rows) == set(PER_LED_MA)
    for case, per_led in PER_LED_MA.items():
        stated_per_led, stated_126, stated_135 = rows[case]
        assert stated_per_led == f"{float(per_led):.1f} mA", case
        assert (stated_126, stated_135) == (_amps(126 * per_led), _amps(135 * per_led)), case


def _level_within(count: int, amps: float, channels: int, level: int) -> int:
    """The highest output level (of `level`) whose frame fits 85 % of `amps`: the most
    L with count x 1 mA + count x channels x 20 mA x L / 255 <= budget."""
    budget = Fraction(amps) * 850
    fits = (budget - count) * 255 / (count * channels * 20)
    return min(level, int(fits))


@pytest.mark.parametrize(
    ("sentence", "count", "amps", "channels", "level"),
    [
        ("full white on 126 LEDs comes out at level {}", 126, 3, 3, 255),
        ("on 135 LEDs at level {}", 135, 3, 3, 255),
        ("an all-yellow frame at brightness 0.5 is trimmed from level 128 to {} on 126 LEDs",
         126, 3, 2, 128),
        ("and to {} on 135", 135, 3, 2, 128),
        ("a full-white flash at brightness 1 comes out at level {} on 126 LEDs", 126, 4, 3, 255),
        ("and {} on 135", 135, 4, 3, 255),
        ("full white trimmed to level {}", 42, 3, 3, 255),
    ],
)
def test_readme_budget_levels_are_what_the_output_stage_gives(
    sentence, count, amps, channels, level
):
    expected = _level_within(count, amps, channels, level)
    colour = (level,) * channels + (0,) * (3 - channels)
    # gamma 1 and brightness 1 send `level` as asked: the stage's scaling alone is measured
    stage = OutputStage(count, gamma=1.0, supply_amps=amps)
    assert stage.render([colour] * count)[0] == expected
    text = " ".join(README.read_text().split())
    assert sentence.format(expected) in text
