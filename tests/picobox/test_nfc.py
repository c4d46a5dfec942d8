"""classic-42-nfc on the emulated Pico: 42 PN532 readers behind six TCA9548A muxes on I2C1,
modelled on the host side with the PN532's I2C framing (status byte, ACK frame,
InListPassiveTarget answers), one reader unplugged at boot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tools.picobox.box import CLASSIC_42_NFC_WORLD, PicoBox
from tools.picobox.pi_side import Pi, connected

MISSING = 13


@pytest.fixture(scope="module")
def nfc_board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pi]:
    world = dict(CLASSIC_42_NFC_WORLD, absent=[str(MISSING)])
    box = PicoBox(tmp_path_factory.mktemp("nfc"), board="classic-42-nfc", mpy=True,
                  world=world, seed=7)
    with connected(box, emu_s=30) as pi:
        yield pi


def test_a_reader_missing_at_boot_is_reported_to_the_pi(nfc_board: Pi) -> None:
    status = nfc_board.status()
    assert status["board_id"] == "classic-42-nfc"
    faults = status["pico_faults"]
    assert any(f"event=nfc.setup channel={MISSING} model=pn532" in f for f in faults), faults
    assert len(faults) == 1, faults  # the other 41 readers and the 6 muxes answered


def test_tags_on_readers_behind_every_mux_arrive_and_leave_with_their_uids(
        nfc_board: Pi) -> None:
    box = nfc_board.box
    start = len(nfc_board.events)
    tags = {0: bytes.fromhex("04a1b2c3"), 9: bytes.fromhex("04112233445566"),
            18: bytes.fromhex("dead beef".replace(" ", "")), 27: bytes.fromhex("0102030405060a"),
            36: bytes.fromhex("88776655"), 41: bytes.fromhex("04cafe00112233")}
    for channel, uid in tags.items():  # muxes 0x70..0x75, one reader each
        box.tag(channel, uid)
    for channel in tags:
        assert nfc_board.wait(channel, "tag_present", start, emu_s=10), channel
    got = {e.channel: e.uid for e in nfc_board.events[start:] if e.kind == "tag_present"}
    assert got == tags
    for channel in tags:
        box.tag(channel, None)
    for channel in tags:
        assert nfc_board.wait(channel, "tag_removed", start, emu_s=10), channel
    box.run_for(0.5)
    kinds = [(e.channel, e.kind) for e in nfc_board.events[start:]]
    for channel in tags:
        assert kinds.count((channel, "tag_present")) == 1
        assert kinds.count((channel, "tag_removed")) == 1
    assert {c for c, _ in kinds} == set(tags)


def test_a_tag_held_through_many_scans_is_reported_once(nfc_board: Pi) -> None:
    box = nfc_board.box
    start = len(nfc_board.events)
    uid = bytes.fromhex("04aabbccddeeff")
    box.tag(2, uid)
    assert nfc_board.wait(2, "tag_present", start, emu_s=10)
    polls = box.stats()["pn532"]["2"]["polls"]
    box.run_for(1.5)
    assert box.stats()["pn532"]["2"]["polls"] >= polls + 5  # read again and again
    assert [(e.channel, e.kind, e.uid) for e in nfc_board.events[start:]] == [
        (2, "tag_present", uid)]
    box.tag(2, None)
    assert nfc_board.wait(2, "tag_removed", start, emu_s=10)
