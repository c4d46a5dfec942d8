"""A profile's `colour_order`: read and checked with the profile, and honoured by every LED
driver (the ws281x strip, the bridge frames the Pico packs, the in-memory strip), so chips of
any order light logical red as red (issue 25)."""

from __future__ import annotations

from itertools import permutations

import pytest

from firmware_bridge.firmware import fakes
from hardware.colour_order import COLOUR_ORDERS, check_colour_order
from hardware.errors import ProfileError
from hardware.leds import BridgeStrip, MemoryStrip, open_strip
from hardware.output_stage import OutputStage
from hardware.profiles import load_profile, parse_profile
from hardware.ws281x_strip import Ws281xStrip
from tests.hardware.test_ws281x_strip import fake_module

SMALL_NAMED = """\
name = "tiny"
map = "test-map"
led_count = 3
colour_order = "BRG"
sensor_count = 2

[territories]
north = { leds = [0, 1], sensor = 0 }
south = { leds = [2], sensor = 1 }
"""


def parse(text: str):
    return parse_profile(text, territory_ids=("north", "south"), colours=("red",),
                         map_name="test-map", path="tiny.toml")


def parse_error(text: str) -> ProfileError:
    with pytest.raises(ProfileError) as caught:
        parse(text)
    return caught.value


FRAME = [(200, 30, 5), (0, 0, 255), (255, 0, 0)]


def lit_by_chip(word: int, chip: str) -> tuple[int, int, int]:
    """What a chip taking `chip` order lights for the 24-bit word shifted out MSB first."""
    received = ((word >> 16) & 0xFF, (word >> 8) & 0xFF, word & 0xFF)
    seen = dict(zip(chip, received, strict=True))
    return (seen["R"], seen["G"], seen["B"])


def plain() -> OutputStage:
    return OutputStage(len(FRAME), gamma=1.0)  # bytes out = bytes in


def test_the_six_orders_and_no_other():
    assert sorted(COLOUR_ORDERS) == sorted("".join(p) for p in permutations("RGB"))
    assert check_colour_order("brg") == "BRG"
    for bad in ("RGBW", "RRG", "", None, 3):
        with pytest.raises(ValueError, match="colour_order must be one of RGB, RBG, GRB"):
            check_colour_order(bad)


@pytest.fixture(scope="module")
def pico():
    pico = fakes.install()
    yield pico
    pico.uninstall()


@pytest.mark.parametrize("chip", COLOUR_ORDERS)
def test_bridge_frames_packed_by_the_pico_firmware_light_every_chip_order_right(pico, chip):
    sent: list[list[tuple[int, int, int]]] = []
    strip = BridgeStrip(sent.append, len(FRAME), output=plain(), colour_order=chip)
    strip.show(FRAME)
    # the Pico firmware's own WS2812 driver packs the bytes it receives and shifts them out
    chain = pico.firmware["leds"].Ws2812Pio(22, len(FRAME), sm_id=0)
    chain.show_rgb(bytes(v for px in sent[-1] for v in px))
    words = [w >> 8 for w in pico.world.state_machines[0].take_words()]
    assert [lit_by_chip(w, chip) for w in words] == FRAME


@pytest.mark.parametrize("chip", COLOUR_ORDERS)
def test_rpi_ws281x_frames_light_every_chip_order_right(chip):
    module = fake_module()
    strip = Ws281xStrip(len(FRAME), module=module, output=plain(), colour_order=chip)
    strip.show(FRAME)
    # no strip_type: rpi-ws281x shifts Color(r, g, b) out in its default GRB order
    words = [((c >> 8) & 0xFF) << 16 | ((c >> 16) & 0xFF) << 8 | (c & 0xFF)
             for c in module.made[0].shown[-1]]
    assert [lit_by_chip(w, chip) for w in words] == FRAME
    assert len(module.made[0].args) == 7  # the driver keeps its default strip type


def test_a_grb_chain_is_sent_unchanged_and_the_memory_strip_keeps_both_forms():
    strip = MemoryStrip(len(FRAME), output=plain())
    strip.show(FRAME)
    assert list(strip.last_output) == FRAME
    rgb = MemoryStrip(len(FRAME), output=plain(), colour_order="RGB")
    rgb.show(FRAME)
    assert list(rgb.last) == FRAME  # as requested: what the virtual board draws
    assert list(rgb.last_output) == [(30, 200, 5), (0, 0, 255), (0, 255, 0)]
    assert rgb.get_status()["colour_order"] == "RGB"


def test_an_unknown_order_is_refused_when_the_strip_opens():
    with pytest.raises(ValueError, match="got 'GRBW'"):
        open_strip("memory", 3, colour_order="GRBW")


def test_a_profile_names_its_chips_order_and_grb_is_the_default():
    assert load_profile("classic-42").colour_order == "GRB"
    assert parse(SMALL_NAMED.replace('colour_order = "BRG"', "")).colour_order == "GRB"
    assert parse(SMALL_NAMED).colour_order == "BRG"
    assert parse(SMALL_NAMED.replace('"BRG"', '"rgb"')).colour_order == "RGB"


def test_an_unknown_order_in_a_profile_names_the_file_line_and_the_choices():
    error = parse_error(SMALL_NAMED.replace('"BRG"', '"RGBW"'))
    assert error.line == 4
    assert "tiny.toml" in str(error) and "line 4" in str(error)
    assert "colour_order must be one of RGB, RBG, GRB, GBR, BRG, BGR" in str(error)
    assert "'RGBW'" in str(error)
    error = parse_error(SMALL_NAMED.replace('"BRG"', "3"))
    assert "got 3" in str(error)
