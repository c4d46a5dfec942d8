"""NFC: PN532 frames and non-blocking polls behind TCA9548A muxes, MFRC522 anticollision
with cascade levels, and the poller's arrival/removal hysteresis."""

from __future__ import annotations

from firmware_bridge.firmware.fakes import FakePico
from firmware_bridge.firmware.fakes.devices import Mfrc522, Pn532, Tag, Tca9548a

UID4 = bytes.fromhex("a1b2c3d4")
UID7 = bytes.fromhex("04a1b2c3d4e5f6")
UID10 = bytes.fromhex("04a1b2c3d4e5f6071829")


def test_pn532_frame_matches_the_user_manual_example(pico: FakePico) -> None:
    # PN532 User Manual, InListPassiveTarget for one 106 kbps type A target.
    assert pico.nfc.pn532_frame(0x4A, b"\x01\x00") == bytes.fromhex("0000ff04fcd44a0100e100")


def test_crc_a_of_hlta_is_the_iso14443_value(pico: FakePico) -> None:
    # ISO/IEC 14443-3: HLTA is sent as 50 00 57 CD.
    assert pico.nfc.crc_a(b"\x50\x00", 2) == 0xCD57


def _pn532_rig(pico: FakePico, ports: int = 2) -> tuple[list[Pn532], list, Tca9548a]:
    bus = pico.world.i2c_bus(1)
    mux = bus.attach(Tca9548a(), 0x70)
    chips = [mux.attach(port, Pn532(pico.world), 0x24) for port in range(ports)]
    i2c = pico.firmware["main"].machine.I2C(1)
    muxes = pico.nfc.MuxSet(i2c, (0x70,))
    readers = [pico.nfc.Pn532Reader(10 + port, i2c, muxes, 0x70, port) for port in range(ports)]
    return chips, readers, mux


def _poll_until_answer(pico: FakePico, reader: object, limit_ms: int = 100) -> bytes:
    for _ in range(limit_ms):
        result = reader.poll_step(pico.world.ticks_ms())
        if result is not None:
            return result
        pico.advance(1)
    raise AssertionError(f"no answer within {limit_ms} ms")


def test_pn532_begin_configures_the_sam_and_single_retry(pico: FakePico) -> None:
    chips, readers, _ = _pn532_rig(pico, ports=1)
    readers[0].begin()
    assert chips[0].configured
    assert chips[0].commands == {0x14: 1, 0x32: 1}
    assert chips[0].bad_frames == 0


def test_pn532_poll_does_not_block_while_the_chip_works(pico: FakePico) -> None:
    chips, readers, _ = _pn532_rig(pico, ports=1)
    chips[0].place(Tag(UID7))
    now = pico.world.ticks_ms()
    assert readers[0].poll_step(now) is None  # command sent
    assert readers[0].poll_step(now) is None  # chip not ready yet: no waiting here
    assert _poll_until_answer(pico, readers[0]) == UID7


def test_pn532_reports_no_tag_on_an_empty_field(pico: FakePico) -> None:
    _, readers, _ = _pn532_rig(pico, ports=1)
    assert _poll_until_answer(pico, readers[0]) == b""


def test_pn532_readers_on_two_mux_ports_each_read_their_own_tag(pico: FakePico) -> None:
    chips, readers, mux = _pn532_rig(pico, ports=2)
    chips[0].place(Tag(UID4))
    chips[1].place(Tag(UID10))
    # Both chips answer 0x24: the fake bus raises if two ports were ever open at once.
    assert _poll_until_answer(pico, readers[0]) == UID4
    assert _poll_until_answer(pico, readers[1]) == UID10
    assert mux.control == 0b10


def test_pn532_that_never_answers_counts_as_no_tag_and_an_error(pico: FakePico) -> None:
    chips, readers, _ = _pn532_rig(pico, ports=1)
    chips[0].answer_ms = 10_000
    assert _poll_until_answer(pico, readers[0], limit_ms=200) == b""
    assert readers[0].errors == 1


def test_pn532_missing_behind_the_mux_reads_as_no_tag(pico: FakePico) -> None:
    bus = pico.world.i2c_bus(1)
    bus.attach(Tca9548a(), 0x70)
    i2c = pico.firmware["main"].machine.I2C(1)
    reader = pico.nfc.Pn532Reader(3, i2c, pico.nfc.MuxSet(i2c, (0x70,)), 0x70, 5)
    assert reader.poll_step(0) == b""
    assert reader.errors == 1


def test_mux_set_switches_the_other_mux_off_before_opening_a_port(pico: FakePico) -> None:
    bus = pico.world.i2c_bus(1)
    first = bus.attach(Tca9548a(), 0x70)
    second = bus.attach(Tca9548a(), 0x71)
    muxes = pico.nfc.MuxSet(pico.firmware["main"].machine.I2C(1), (0x70, 0x71))
    muxes.select(0x70, 3)
    muxes.select(0x71, 6)
    assert (first.control, second.control) == (0, 1 << 6)
    writes = second.writes
    muxes.select(0x71, 6)
    assert second.writes == writes  # already selected: no bus traffic


def _mfrc522(pico: FakePico, cs: int = 17) -> tuple[Mfrc522, object]:
    chip = pico.world.spi_bus(0).attach(Mfrc522(), cs)
    machine = pico.firmware["main"].machine
    reader = pico.nfc.Mfrc522Reader(5, machine.SPI(0), machine.Pin(cs, machine.Pin.OUT))
    reader.begin()
    return chip, reader


def test_mfrc522_begin_switches_the_antenna_on(pico: FakePico) -> None:
    chip, _ = _mfrc522(pico)
    assert chip.antenna_on()


def test_mfrc522_reads_a_4_byte_uid_and_halts_the_tag(pico: FakePico) -> None:
    chip, reader = _mfrc522(pico)
    chip.place(Tag(UID4, sak=0x08))
    assert reader.poll_step(0) == UID4
    assert chip.exchanges[-1][:2] == b"\x50\x00"  # HLTA, so the next WUPA wakes it again
    assert reader.poll_step(1) == UID4


def test_mfrc522_resolves_7_and_10_byte_uids_through_cascade_levels(pico: FakePico) -> None:
    chip, reader = _mfrc522(pico)
    chip.place(Tag(UID7))
    assert reader.poll_step(0) == UID7
    chip.place(Tag(UID10))
    assert reader.poll_step(1) == UID10


def test_mfrc522_empty_field_reads_no_tag(pico: FakePico) -> None:
    _, reader = _mfrc522(pico)
    assert reader.poll_step(0) == b""


def test_two_mfrc522_on_separate_chip_selects_read_their_own_tags(pico: FakePico) -> None:
    chip_a, reader_a = _mfrc522(pico, cs=17)
    chip_b, reader_b = _mfrc522(pico, cs=20)
    chip_a.place(Tag(UID4))
    chip_b.place(Tag(UID7))
    assert (reader_a.poll_step(0), reader_b.poll_step(0)) == (UID4, UID7)


class ScriptedReader:
    """A reader answering from a list: the poller's logic alone is under test."""

    model = "scripted"

    def __init__(self, channel: int, answers: list[bytes | None]) -> None:
        self.channel = channel
        self.answers = answers

    def poll_step(self, now_ms: int) -> bytes | None:
        return self.answers.pop(0) if self.answers else b""


def test_poller_reports_arrival_at_once_and_removal_after_the_misses(pico: FakePico) -> None:
    seen: list[tuple[int, bytes | None]] = []
    reader = ScriptedReader(4, [UID4, UID4, b"", b"", b""])
    poller = pico.nfc.NfcPoller([reader], 3, lambda ch, uid: seen.append((ch, uid)))
    poller.step(0)
    assert seen == [(4, UID4)]
    for t in range(1, 4):
        poller.step(t)
    assert seen == [(4, UID4)]  # two misses so far: still present
    poller.step(4)  # the third miss in a row
    assert seen == [(4, UID4), (4, None)]


def test_poller_forgives_a_single_missed_poll(pico: FakePico) -> None:
    seen: list[tuple[int, bytes | None]] = []
    reader = ScriptedReader(4, [UID4, b"", b"", UID4, b"", UID4])
    poller = pico.nfc.NfcPoller([reader], 3, lambda ch, uid: seen.append((ch, uid)))
    for t in range(6):
        poller.step(t)
    assert seen == [(4, UID4)]


def test_poller_reports_a_swapped_tag_as_removal_then_arrival(pico: FakePico) -> None:
    seen: list[tuple[int, bytes | None]] = []
    reader = ScriptedReader(4, [UID4, UID7])
    poller = pico.nfc.NfcPoller([reader], 3, lambda ch, uid: seen.append((ch, uid)))
    poller.step(0)
    poller.step(1)
    assert seen == [(4, UID4), (4, None), (4, UID7)]


def test_poller_moves_on_past_a_busy_reader_and_comes_back(pico: FakePico) -> None:
    seen: list[tuple[int, bytes | None]] = []
    busy = ScriptedReader(1, [None, None, UID4])
    other = ScriptedReader(2, [UID7])
    poller = pico.nfc.NfcPoller([busy, other], 3, lambda ch, uid: seen.append((ch, uid)),
                                visits=1)
    for t in range(5):
        poller.step(t)
    assert seen == [(2, UID7), (1, UID4)]
    assert poller.polls == 3  # other twice (UID7, then empty), busy once


def test_pn532_readers_poll_concurrently_so_a_lap_ignores_chip_latency(
        pico: FakePico) -> None:
    chips, readers, _ = _pn532_rig(pico, ports=8)
    for chip in chips:
        chip.answer_ms = 20  # a slow answer; eight in a row would take 160 ms
    poller = pico.nfc.NfcPoller(readers, 3, lambda ch, uid: None, visits=2)
    start = pico.world.now
    while poller.polls < 8:
        poller.step(pico.world.ticks_ms())
        pico.advance(1)
    assert pico.world.now - start < 40


def test_pn532_woken_from_power_down_by_the_first_frame_is_still_configured(
        pico: FakePico) -> None:
    chips, readers, _ = _pn532_rig(pico, ports=1)
    chips[0].asleep = True
    readers[0].begin()
    assert chips[0].configured


def test_pn532_answer_with_an_11_byte_uid_is_a_reader_error_not_a_tag(pico: FakePico) -> None:
    chips, readers, _ = _pn532_rig(pico, ports=1)
    tag = Tag(UID10)
    tag.uid = UID10 + b"\x99"  # a garbled NFCIDLength: no type A UID has 11 bytes
    chips[0].place(tag)
    assert _poll_until_answer(pico, readers[0]) == b""
    assert readers[0].errors == 1


class NoisySak(Mfrc522):
    """An MFRC522 whose SELECT answers arrive with the CRC bits flipped (RF noise)."""

    def _tag_answer(self, frame: bytes, last_bits: int) -> bytes | None:
        answer = super()._tag_answer(frame, last_bits)
        if answer is not None and len(answer) == 3:
            return answer[:1] + bytes([answer[1] ^ 0xFF]) + answer[2:]
        return answer


def test_mfrc522_sak_with_a_bad_crc_is_a_reader_error_not_a_tag(pico: FakePico) -> None:
    chip = pico.world.spi_bus(0).attach(NoisySak(), 17)
    spi = pico.firmware["main"].machine.SPI(0)
    reader = pico.nfc.Mfrc522Reader(3, spi, pico.firmware["main"].machine.Pin(17))
    reader.begin()
    chip.place(Tag(UID4))
    assert reader.poll_step(pico.world.ticks_ms()) == b""
    assert reader.errors == 1


def test_mfrc522_sak_that_always_says_cascade_cannot_overrun_the_uid(pico: FakePico) -> None:
    spi = pico.firmware["main"].machine.SPI(0)
    reader = pico.nfc.Mfrc522Reader(3, spi, pico.firmware["main"].machine.Pin(17))
    sak = bytes([0x04]) + pico.nfc.crc_a(b"\x04", 1).to_bytes(2, "little")

    def transceive(frame: bytearray, length: int, last_bits: int = 0) -> int:
        """A garbled tag: every level answers 4 UID bytes and a SAK saying 'more'."""
        if length == 1:
            return 2
        if length == 2:
            reader._answer[:5] = bytes([0x11, 0x22, 0x33, 0x44, 0x11 ^ 0x22 ^ 0x33 ^ 0x44])
            return 5
        if length == 9:
            reader._answer[:3] = sak
            return 3
        return -1

    reader.transceive = transceive
    assert reader.poll_step(pico.world.ticks_ms()) == b""  # not an IndexError
    assert reader.errors == 1


def test_pn532_visited_once_per_slow_lap_still_reads_its_tag(pico: FakePico) -> None:
    # Issue 20: on the emulated RP2040 a lap of 41 PN532s took about nfc_timeout_ms (60 ms),
    # and a tag held on a reader was reported removed. A chip that delivered its ACK at
    # the last visit is not late: its answer's time starts with the ACK.
    chips, readers, _ = _pn532_rig(pico, ports=1)
    chips[0].place(Tag(UID4))
    reader = readers[0]
    results = []
    for _ in range(9):  # a visit every 70 ms: send, ACK, answer, three times
        results.append(reader.poll_step(pico.world.ticks_ms()))
        pico.advance(70)
    assert [r for r in results if r is not None] == [UID4] * 3
    assert reader.errors == 0
