"""The Python example in hardware/README.md runs as written, so the README cannot rot."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

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
