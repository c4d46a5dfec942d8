"""Board profiles: loading, validation errors that name the line, the sensor CRC."""

from __future__ import annotations

import zlib

import pytest

from hardware.errors import ProfileError
from hardware.profiles import (
    available_profiles,
    check_pin_conflicts,
    game_names,
    load_profile,
    parse_profile,
    pin_warnings,
)

# The 42 classic territory ids (docs/MAP_AND_CARDS.md §1), kept here only, to check the shipped
# profiles against an independent list rather than against the map file they are read with.
CLASSIC_IDS = (
    "alaska", "northwest-territory", "greenland", "alberta", "ontario", "quebec",
    "western-united-states", "eastern-united-states", "central-america", "venezuela", "peru",
    "brazil", "argentina", "iceland", "scandinavia", "great-britain", "northern-europe",
    "western-europe", "southern-europe", "ukraine", "north-africa", "egypt", "east-africa",
    "congo", "south-africa", "madagascar", "ural", "siberia", "yakutsk", "kamchatka", "irkutsk",
    "mongolia", "japan", "afghanistan", "china", "middle-east", "india", "siam", "indonesia",
    "new-guinea", "western-australia", "eastern-australia",
)
COLOURS = ("red", "blue", "green", "yellow", "black", "pink")

SMALL_IDS = ("north", "south", "east")
SMALL = """\
name = "tiny"
map = "test-map"
led_count = 8
sensor_count = 3

[status_leds]
turn = [7]

[controls]
confirm = 17
undo = 27

[territories]
north = { leds = [0, 1], sensor = 0 }
south = { leds = [2, 3], sensor = 1, kind = "nfc" }
east = { leds = [4], sensor = 2 }

[tokens]
red = ["04:A1:B2:C3:D4:E5:F6"]

[markers]
blue = ["deadbeef"]
"""


def parse(text: str):
    return parse_profile(
        text, territory_ids=SMALL_IDS, colours=COLOURS, map_name="test-map", path="tiny.toml"
    )


def error_of(text: str) -> ProfileError:
    with pytest.raises(ProfileError) as caught:
        parse(text)
    return caught.value


def line_number_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_valid_profile_is_read_completely():
    profile = parse(SMALL)
    assert profile.territory_leds["north"] == (0, 1)
    assert profile.sensors["south"].channel == 1 and profile.sensors["south"].kind == "nfc"
    assert profile.sensors["east"].kind == "button"  # the default kind
    assert profile.status_leds["turn"] == (7,)
    assert profile.controls == {"confirm": 17, "undo": 27}
    assert profile.territory_at(2) == "east"
    assert profile.token_colour(bytes.fromhex("04a1b2c3d4e5f6")) == "red"
    assert profile.marker_colour("DE:AD:BE:EF") == "blue"
    assert profile.token_colour("deadbeef") is None


def test_led_index_used_twice_names_both_users_and_the_line():
    text = SMALL.replace("east = { leds = [4]", "east = { leds = [1]")
    error = error_of(text)
    assert error.line == line_number_of(text, "east = {")
    assert "LED 1 is used twice: by territory 'north' (line" in str(error)
    assert str(error).startswith(f"tiny.toml line {error.line}: ")


def test_status_led_clashing_with_a_territory_led_is_refused():
    error = error_of(SMALL.replace("turn = [7]", "turn = [4]"))
    assert "LED 4 is used twice" in str(error)


def test_unknown_territory_id_suggests_the_close_one():
    text = SMALL.replace("east = {", "eats = {")
    error = error_of(text)
    assert "unknown territory id 'eats' (did you mean 'east'?)" in str(error)
    assert error.line == line_number_of(text, "eats = {")


def test_missing_territory_is_named():
    text = SMALL.replace('east = { leds = [4], sensor = 2 }\n', "")
    error = error_of(text)
    assert "territory 'east' is missing from [territories]" in str(error)
    assert error.line == line_number_of(text, "[territories]")


def test_led_beyond_the_chain_is_refused():
    error = error_of(SMALL.replace("leds = [4]", "leds = [8]"))
    assert "has LED 8, but LEDs run 0..7" in str(error)


def test_sensor_channel_used_twice_is_refused():
    text = SMALL.replace("leds = [4], sensor = 2", "leds = [4], sensor = 0")
    error = error_of(text)
    assert "sensor channel 0 is used by both 'north' and 'east'" in str(error)
    assert error.line == line_number_of(text, "east = {")


def test_unknown_sensor_kind_is_refused():
    error = error_of(SMALL.replace('kind = "nfc"', 'kind = "reed"'))
    assert "sensor kind 'reed'" in str(error)


def test_unknown_control_button_is_refused_on_its_line():
    text = SMALL.replace("undo = 27", "undoo = 27")
    error = error_of(text)
    assert "unknown control button 'undoo'" in str(error)
    assert error.line == line_number_of(text, "undoo")


def test_control_pins_must_differ():
    error = error_of(SMALL.replace("undo = 27", "undo = 17"))
    assert "GPIO 17 is given to both 'confirm' and 'undo'" in str(error)


def test_same_tag_uid_for_two_pieces_is_refused():
    error = error_of(SMALL.replace('blue = ["deadbeef"]', 'blue = ["04a1b2c3d4e5f6"]'))
    assert "tag UID 04a1b2c3d4e5f6 is listed twice: tokens.red and markers.blue" in str(error)


def test_tag_uid_of_wrong_length_is_refused():
    error = error_of(SMALL.replace('"deadbeef"', '"deadbe"'))
    assert "a UID is 4, 7 or 10 bytes" in str(error)


def test_unknown_colour_is_refused():
    error = error_of(SMALL.replace("blue = [", "purple = ["))
    assert "unknown colour 'purple'" in str(error)


def test_unknown_top_level_key_is_refused():
    text = SMALL.replace("led_count = 8", "led_count = 8\nbrightness = 1")
    error = error_of(text)
    assert "unknown key 'brightness'" in str(error)
    assert error.line == line_number_of(text, "brightness")


def test_wrong_type_names_the_key():
    error = error_of(SMALL.replace("led_count = 8", 'led_count = "eight"'))
    assert "'led_count' must be a whole number" in str(error)
    assert error.line == 3


def test_toml_syntax_error_gives_its_line():
    text = SMALL.replace("sensor_count = 3", "sensor_count = = 3")
    error = error_of(text)
    assert error.line == line_number_of(text, "sensor_count")
    assert "not valid TOML" in str(error)


def test_profile_for_another_map_is_refused():
    error = error_of(SMALL.replace('map = "test-map"', 'map = "world-2210"'))
    assert "for map 'world-2210', but the rules use 'test-map'" in str(error)


def test_sensor_map_bytes_follow_the_documented_form():
    assert parse(SMALL).sensor_map_bytes() == (
        b"riskboard-sensors/1\n0:button\n1:nfc\n2:button\n"
    )


def test_unused_channels_are_hashed_as_none():
    profile = parse(SMALL.replace("sensor_count = 3", "sensor_count = 5"))
    assert profile.sensor_map_bytes().endswith(b"2:button\n3:none\n4:none\n")


def test_sensor_crc_is_crc32_of_the_canonical_bytes():
    profile = parse(SMALL)
    assert profile.sensor_crc() == zlib.crc32(profile.sensor_map_bytes())


def test_sensor_crc_changes_when_a_sensor_kind_changes():
    assert parse(SMALL).sensor_crc() != parse(SMALL.replace('kind = "nfc"', 'kind = "button"'))\
        .sensor_crc()


def test_sensor_crc_ignores_leds_controls_and_which_territory_sits_on_a_channel():
    other = SMALL.replace("leds = [4]", "leds = [5]").replace("undo = 27", "undo = 26")
    other = other.replace("leds = [0, 1], sensor = 0", "leds = [0, 1], sensor = 2")
    other = other.replace("leds = [5], sensor = 2", "leds = [5], sensor = 0")
    assert parse(SMALL).sensor_crc() == parse(other).sensor_crc()


@pytest.mark.parametrize("name", ["classic-42", "classic-42-nfc"])
def test_sensor_map_matches_what_the_pico_firmware_hashes(name):
    from firmware_bridge.firmware import board_config

    profile = load_profile(name)
    kinds = [profile.sensors[profile.territory_at(ch)].kind for ch in range(42)]
    firmware_bytes = board_config.canonical_sensor_map(kinds)
    assert profile.sensor_map_bytes() == firmware_bytes
    assert profile.sensor_crc() == board_config.crc32(firmware_bytes)


@pytest.mark.parametrize("name", ["classic-42", "classic-42-nfc", "classic-42-lite"])
def test_shipped_profile_crc_equals_the_firmwares_board_of_the_same_name(name):
    from firmware_bridge.firmware.board_config import BOARDS

    board = BOARDS[name]()
    profile = load_profile(name)
    assert profile.sensor_crc() == board.sensor_crc()
    assert profile.led_count == board.led_count


def test_unknown_profile_name_lists_the_shipped_ones():
    with pytest.raises(ProfileError, match=r"shipped profiles: .*classic-42"):
        load_profile("no-such-board")


def test_a_profile_file_can_be_loaded_by_path(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(SMALL)
    profile = load_profile(path, territory_ids=SMALL_IDS, colours=COLOURS, map_name="test-map")
    assert profile.name == "tiny" and profile.source == path


@pytest.mark.parametrize("name", ["classic-42", "classic-42-nfc", "classic-42-lite"])
def test_shipped_profile_covers_the_42_classic_territories(name):
    profile = load_profile(name)
    assert sorted(profile.territories) == sorted(CLASSIC_IDS)
    assert sorted(s.channel for s in profile.sensors.values()) == list(range(42))


def test_shipped_profiles_are_the_three_classic_builds():
    assert {"classic-42", "classic-42-nfc", "classic-42-lite"} <= set(available_profiles())


def test_the_game_names_are_the_rules_map_and_roster():
    from pi_app.rules.board import load_map, load_roster

    board = load_map()
    assert game_names() == (board.name, board.territories, load_roster().colours)
    assert set(load_profile().territories) == set(board.territories)


def test_default_profile_has_three_leds_per_territory_and_status_leds():
    profile = load_profile()
    assert profile.name == "classic-42"
    assert all(len(leds) == 3 for leds in profile.territory_leds.values())
    territory_leds = {i for leds in profile.territory_leds.values() for i in leds}
    assert territory_leds == set(range(126))
    assert profile.led_count == 126 + sum(len(v) for v in profile.status_leds.values())
    assert {"confirm", "undo", "end_phase", "roll"} <= set(profile.controls)


def test_nfc_profile_has_a_token_per_colour():
    profile = load_profile("classic-42-nfc")
    assert all(s.kind == "nfc" for s in profile.sensors.values())
    assert set(profile.tokens) == set(COLOURS)


# -- control pins that clash with the LED wiring or the Pi's buses -------------------------


@pytest.mark.parametrize("pin", [7, 8, 9, 10, 11])
def test_control_button_on_an_spi_pin_is_refused_on_its_line(pin):
    # GPIO 7-11 are SPI0 (CE1, CE0, MISO, MOSI, SCLK); the recommended LED wiring sends the
    # data on GPIO 10 (SPI MOSI) and the kernel's SPI driver owns the whole bus.
    text = SMALL.replace("undo = 27", f"undo = {pin}")
    error = error_of(text)
    assert error.line == line_number_of(text, f"undo = {pin}")
    assert f"control button 'undo' is on GPIO {pin}" in str(error)
    assert "SPI" in str(error)


@pytest.mark.parametrize(("pin", "bus"), [(2, "I2C"), (3, "I2C"), (14, "serial"), (15, "serial")])
def test_control_button_on_i2c_or_uart_pin_loads_with_a_warning_naming_the_line(
    pin, bus, caplog
):
    text = SMALL.replace("undo = 27", f"undo = {pin}")
    with caplog.at_level("WARNING", logger="hardware.profiles"):
        profile = parse(text)
    assert profile.controls["undo"] == pin
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    line = line_number_of(text, f"undo = {pin}")
    assert len(warnings) == 1
    assert f"line={line}" in warnings[0] and f"gpio={pin}" in warnings[0]
    assert bus in warnings[0]


def test_shipped_profiles_have_no_pin_conflict_with_either_led_wiring():
    for name in available_profiles():
        controls = dict(load_profile(name).controls)
        assert check_pin_conflicts(controls, 10) == [], name
        assert check_pin_conflicts(controls, 18) == [], name
        assert pin_warnings(controls) == [], name


@pytest.mark.parametrize("led_pin", [10, 12, 13, 18, 19, 21])
def test_control_button_on_the_led_data_pin_is_a_conflict(led_pin):
    problems = check_pin_conflicts({"confirm": 5, "roll": led_pin}, led_pin)
    assert len(problems) == 1
    assert f"'roll' is on GPIO {led_pin}" in problems[0]
    assert f"leds.gpio_pin = {led_pin}" in problems[0]


def test_control_button_on_the_spi_bus_conflicts_with_spi_leds():
    problems = check_pin_conflicts({"confirm": 9, "undo": 6}, 10)
    assert len(problems) == 1
    assert "'confirm' is on GPIO 9" in problems[0] and "SPI" in problems[0]


def test_pins_without_a_clash_give_no_conflict_whatever_the_led_backend():
    assert check_pin_conflicts({"confirm": 5, "undo": 6, "roll": 26}, None) == []
    assert check_pin_conflicts({"confirm": 5, "undo": 6, "roll": 26}, 18) == []


def test_i2c_and_uart_pins_are_warnings_not_conflicts():
    controls = {"confirm": 2, "undo": 15}
    assert check_pin_conflicts(controls, 10) == []
    warnings = pin_warnings(controls)
    assert len(warnings) == 2
    assert "'confirm' is on GPIO 2" in warnings[0] and "I2C" in warnings[0]
    assert "'undo' is on GPIO 15" in warnings[1] and "serial" in warnings[1]


@pytest.mark.parametrize("tail", ["broken", "broken\n", "extra = [1,\n\n"])
def test_toml_error_at_end_of_document_gives_the_last_line(tail):
    # tomllib reports these "at end of document", with no line: the last line that holds
    # anything is where the reader must look
    text = SMALL + tail
    error = error_of(text)
    assert error.line == len(SMALL.splitlines()) + 1
    assert f"line {error.line}:" in str(error)


def test_lite_profile_supply_runs_full_white_trimmed_under_one_percent():
    # classic-42-lite: 42 LEDs x (3 x 20 mA + 1 mA) = 2.562 A at full white; the supply its
    # description names, minus the 15 % margin, must carry that to within 1 % (the README's
    # claim), so the description cannot name a supply that is too small.
    import re

    profile = load_profile("classic-42-lite")
    amps = float(re.search(r"5 V (\d+(?:\.\d+)?) A supply", profile.description).group(1))
    full_white_ma = profile.led_count * (3 * 20 + 1)
    assert amps * 1000 * 0.85 >= 0.99 * full_white_ma
