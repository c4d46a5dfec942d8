"""Buttons on MCP23017 I2C expanders, on the emulated Pico. No shipped board uses them, so
the flash holds what README tells a maker with another wiring to do: a ``BoardConfig`` added
to ``board_config.BOARDS`` (in their copy of board_config.py) and ``board.txt`` naming it.
The expanders are modelled on I2C1 with the MCP23017's BANK=0 registers: a pin reads high
only through the pull-up the firmware turns on (GPPU), low while its button is held."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tools.picobox.box import PicoBox
from tools.picobox.flash import maker_board_config
from tools.picobox.pi_side import Pi, connected

EXPANDERS = (0x20, 0x27)
MAKER_BOARD = '''

def maker_mcp23017():
    """32 buttons on two MCP23017 (0x20, 0x27) on I2C1: channel i is bank bit i."""
    return BoardConfig(
        sensor_count=32,
        buttons={"driver": BUTTONS_MCP23017, "i2c": 1, "addresses": (0x20, 0x27),
                 "active_low": True, "map": tuple((ch, ch) for ch in range(32))},
        i2c_buses=I2C_BUS, led_pin=LED_PIN, led_count=32, board_id="maker-mcp23017")


BOARDS["maker-mcp23017"] = maker_mcp23017
'''



@pytest.fixture(scope="module")
def mcp_board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pi]:
    box = PicoBox(tmp_path_factory.mktemp("mcp23017"), board="maker-mcp23017", mpy=True,
                  world={"mcp23017": list(EXPANDERS)}, seed=11,
                  extra_files={"board_config.py": maker_board_config(MAKER_BOARD)})
    with connected(box, emu_s=30) as pi:
        yield pi


def pin_of(channel: int) -> tuple[int, int]:
    return EXPANDERS[channel // 16], channel % 16


def test_the_maker_board_boots_with_every_expander_pin_an_input_with_its_pull_up(
        mcp_board: Pi) -> None:
    status = mcp_board.status()
    assert status["board_id"] == "maker-mcp23017"
    assert status["pico_faults"] == []
    mcp_board.box.run_for(0.2)
    stats = mcp_board.box.stats()["mcp23017"]
    for address in EXPANDERS:
        assert stats[str(address)]["iodir"] == 0xFFFF
        assert stats[str(address)]["gppu"] == 0xFFFF
        assert stats[str(address)]["reads"] > 10  # scanned again and again
    assert not [e for e in mcp_board.events if e.kind == "press"]  # nothing reads as held


def test_presses_and_releases_on_both_ports_of_both_expanders_arrive_once_in_order(
        mcp_board: Pi) -> None:
    box = mcp_board.box
    start = len(mcp_board.events)
    channels = [0, 7, 8, 15, 16, 23, 24, 31, 3, 20]  # GPA0, GPA7, GPB0, GPB7 of each chip
    for channel in channels:
        box.press_pin(*pin_of(channel))
        box.run_for(0.05)  # held past the 20 ms debounce
        box.release_pin(*pin_of(channel))
        box.run_for(0.05)
    assert mcp_board.wait(channels[-1], "release", start, emu_s=10)
    box.run_for(0.3)  # a doubled event would arrive by now
    got = [(e.channel, e.kind) for e in mcp_board.events[start:]]
    assert got == [(ch, kind) for ch in channels for kind in ("press", "release")]
    keys = [(e.epoch, e.seq) for e in mcp_board.events]
    assert len(keys) == len(set(keys))


def test_buttons_held_together_on_two_expanders_are_each_reported(mcp_board: Pi) -> None:
    box = mcp_board.box
    start = len(mcp_board.events)
    box.press_pin(*pin_of(5))
    assert mcp_board.wait(5, "press", start, emu_s=5)
    box.press_pin(*pin_of(29))
    assert mcp_board.wait(29, "press", start, emu_s=5)
    box.release_pin(*pin_of(5))
    assert mcp_board.wait(5, "release", start, emu_s=5)
    box.release_pin(*pin_of(29))
    assert mcp_board.wait(29, "release", start, emu_s=5)
    box.run_for(0.3)
    assert [(e.channel, e.kind) for e in mcp_board.events[start:]] == [
        (5, "press"), (29, "press"), (5, "release"), (29, "release")]
