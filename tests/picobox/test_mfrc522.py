"""MFRC522 readers on SPI0, on the emulated Pico. No shipped board uses them, so the flash
holds what README tells a maker with another wiring to do: a ``BoardConfig`` added to
``board_config.BOARDS`` (in their copy of board_config.py) and ``board.txt`` naming it.
Each reader is modelled on the host side by its register protocol over SPI (version
register, FIFO, Transceive with StartSend, ComIrq, the timer) with an ISO/IEC 14443-3 type A
tag behind it (REQA/WUPA, anticollision and SELECT per cascade level with CRC_A, HLTA);
one reader, on its own chip select, is unplugged (MISO floats high)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tools.picobox.box import PicoBox
from tools.picobox.flash import maker_board_config
from tools.picobox.pi_side import Pi, connected

CHIP_SELECTS = {0: 17, 1: 20, 2: 21, 3: 26}  # channel -> CS GPIO (README's pinout)
MISSING = 3
MAKER_BOARD = '''

def maker_mfrc522():
    """4 MFRC522 readers on SPI0 (GP18 SCK, GP19 MOSI, GP16 MISO), CS on GP17/20/21/26."""
    return BoardConfig(
        sensor_count=4,
        nfc={"spi": {"id": 0, "sck": 18, "mosi": 19, "miso": 16, "baudrate": 4000000},
             "readers": ((0, READER_MFRC522, 17), (1, READER_MFRC522, 20),
                         (2, READER_MFRC522, 21), (3, READER_MFRC522, 26))},
        led_pin=LED_PIN, led_count=4, board_id="maker-mfrc522")


BOARDS["maker-mfrc522"] = maker_mfrc522
'''



@pytest.fixture(scope="module")
def rc522_board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pi]:
    world = {"mfrc522": {str(ch): cs for ch, cs in CHIP_SELECTS.items()},
             "absent": [str(MISSING)]}
    box = PicoBox(tmp_path_factory.mktemp("mfrc522"), board="maker-mfrc522", mpy=True,
                  world=world, seed=5,
                  extra_files={"board_config.py": maker_board_config(MAKER_BOARD)})
    with connected(box, emu_s=30) as pi:
        yield pi


def test_the_unplugged_reader_is_reported_and_the_others_set_up_over_spi(
        rc522_board: Pi) -> None:
    status = rc522_board.status()
    assert status["board_id"] == "maker-mfrc522"
    faults = status["pico_faults"]
    assert len(faults) == 1, faults
    assert f"event=nfc.setup channel={MISSING} model=mfrc522" in faults[0]
    rc522_board.box.run_for(0.3)
    stats = rc522_board.box.stats()
    assert stats["spi"]["bad_mode"] == 0 and stats["spi"]["collisions"] == 0
    for ch in (0, 1, 2):
        reader = stats["mfrc522"][str(ch)]
        assert reader["resets"] == 1  # SoftReset at setup
        assert reader["transceives"] > 3 and reader["antenna_off"] == 0  # polling, antenna on
        assert reader["bad_spi"] == 0


def test_tags_of_4_7_and_10_byte_uids_arrive_and_leave_with_their_uids(
        rc522_board: Pi) -> None:
    box = rc522_board.box
    start = len(rc522_board.events)
    tags = {0: bytes.fromhex("dead beef".replace(" ", "")),
            1: bytes.fromhex("04a1b2c3d4e5f6"),
            2: bytes.fromhex("0411223344556677889a")}
    for channel, uid in tags.items():
        box.tag(channel, uid)
    for channel in tags:
        assert rc522_board.wait(channel, "tag_present", start, emu_s=10), channel
    got = {e.channel: e.uid for e in rc522_board.events[start:] if e.kind == "tag_present"}
    assert got == tags
    for channel in tags:
        box.tag(channel, None)
    for channel in tags:
        assert rc522_board.wait(channel, "tag_removed", start, emu_s=10), channel
    box.run_for(0.5)
    kinds = [(e.channel, e.kind) for e in rc522_board.events[start:]]
    assert sorted(kinds) == sorted((ch, k) for ch in tags for k in ("tag_present", "tag_removed"))
    stats = box.stats()["mfrc522"]
    assert all(stats[str(ch)]["bad_crc"] == 0 for ch in tags)


def test_a_tag_held_through_many_polls_is_selected_and_halted_each_time_reported_once(
        rc522_board: Pi) -> None:
    box = rc522_board.box
    start = len(rc522_board.events)
    uid = bytes.fromhex("04aabbccddeeff")
    box.tag(1, uid)
    assert rc522_board.wait(1, "tag_present", start, emu_s=10)
    before = box.stats()["mfrc522"]["1"]
    box.run_for(1.5)
    after = box.stats()["mfrc522"]["1"]
    assert after["halts"] >= before["halts"] + 5  # woken, selected and halted poll by poll
    assert after["selects"] >= before["selects"] + 10  # two cascade levels each time
    assert [(e.channel, e.kind, e.uid) for e in rc522_board.events[start:]] == [
        (1, "tag_present", uid)]
    box.tag(1, None)
    assert rc522_board.wait(1, "tag_removed", start, emu_s=10)
