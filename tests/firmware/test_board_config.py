"""The firmware's board configuration: validation and the sensor CRC the Pi compares."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.firmware import board_config as bc
from hardware.profiles import load_profile


@pytest.mark.parametrize("name", sorted(bc.BOARDS))
def test_firmware_sensor_crc_matches_the_pi_board_profile(name: str) -> None:
    assert bc.BOARDS[name]().sensor_crc() == load_profile(name).sensor_crc()


@pytest.mark.parametrize("name", sorted(bc.BOARDS))
def test_firmware_counts_as_many_leds_as_the_profile(name: str) -> None:
    assert bc.BOARDS[name]().led_count == load_profile(name).led_count


def test_canonical_sensor_map_is_the_documented_text() -> None:
    assert bc.canonical_sensor_map(["button", "button"]) == (
        b"riskboard-sensors/1\n0:button\n1:button\n")


@given(st.binary(max_size=300))
def test_crc32_is_zlib_crc32(data: bytes) -> None:
    assert bc.crc32(data) == zlib.crc32(data)


def test_changing_a_channel_kind_changes_the_crc() -> None:
    buttons = bc.BoardConfig(2, buttons={"driver": "74hc165", "load": 2, "clock": 3,
                                         "data": 4, "chips": 1, "map": ((0, 0), (1, 1))})
    mixed = bc.BoardConfig(2, buttons={"driver": "74hc165", "load": 2, "clock": 3, "data": 4,
                                       "chips": 1, "map": ((0, 0),)},
                           nfc={"i2c": 1, "readers": ((1, "pn532", 0x70, 0),)},
                           i2c_buses=bc.I2C_BUS)
    assert buttons.channel_kinds() == ["button", "button"]
    assert mixed.channel_kinds() == ["button", "nfc"]
    assert buttons.sensor_crc() != mixed.sensor_crc()


def _buttons(mapping: tuple) -> dict:
    return {"driver": "74hc165", "load": 2, "clock": 3, "data": 4, "chips": 1, "map": mapping}


@pytest.mark.parametrize(("kwargs", "fragment"), [
    ({"buttons": _buttons(((0, 0), (0, 1)))}, "channel 0 is wired twice"),
    ({"buttons": _buttons(((0, 3), (1, 3)))}, "button bit 3 wired to channels 0 and 1"),
    ({"buttons": _buttons(((0, 8),))}, "outside the 8-bit bank"),
    ({"buttons": _buttons(((5, 0),))}, "channel 5 (button bit 0) is outside 0..3"),
    ({"nfc": {"i2c": 1, "readers": ((0, "pn532", 0x70, 9),)}, "i2c_buses": bc.I2C_BUS},
     "mux port must be 0..7"),
    ({"nfc": {"i2c": 0, "readers": ((0, "pn532", 0x70, 1),)}}, "I2C bus 0"),
    ({"nfc": {"i2c": 1, "readers": ((0, "pn532", 0x70, 1), (1, "pn532", 0x70, 1))},
      "i2c_buses": bc.I2C_BUS}, "share"),
    ({"nfc": {"readers": ((0, "mfrc522", 17),)}}, "spi"),
    ({"watchdog_ms": 9000}, "8388"),
])
def test_inconsistent_wiring_is_refused_with_a_reason(kwargs: dict, fragment: str) -> None:
    with pytest.raises(bc.ConfigError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        bc.BoardConfig(4, **kwargs)


def test_without_a_board_file_the_selected_board_is_classic_42(tmp_path: Path) -> None:
    config = bc.selected(str(tmp_path / "board.txt"))
    assert config.board_id == "classic-42"
    assert config.channel_kinds() == ["button"] * 42


def test_board_file_picks_another_board(tmp_path: Path) -> None:
    (tmp_path / "board.txt").write_text("classic-42-nfc\n")
    assert bc.selected(str(tmp_path / "board.txt")).board_id == "classic-42-nfc"


def test_board_file_naming_an_unknown_board_is_refused(tmp_path: Path) -> None:
    (tmp_path / "board.txt").write_text("classic-43")
    with pytest.raises(bc.ConfigError, match="known boards: classic-42, classic-42-lite"):
        bc.selected(str(tmp_path / "board.txt"))
