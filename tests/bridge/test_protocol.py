"""The frame codec: CRC, COBS, framing, resynchronisation; and every payload's round trip
through the Pi's decoding (firmware_bridge.messages)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import messages as M
from firmware_bridge import protocol as P


def test_crc16_matches_the_published_ccitt_false_check_value() -> None:
    # The CRC catalogue's check value for CRC-16/CCITT-FALSE over ASCII "123456789".
    assert P.crc16(b"123456789") == 0x29B1


@pytest.mark.parametrize(
    ("data", "encoded"),
    [
        # Examples from Cheshire & Baker's COBS paper / the usual COBS test vectors.
        (b"\x00", b"\x01\x01"),
        (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
        (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255))),
        (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255))),
        (bytes(range(1, 256)), b"\xff" + bytes(range(1, 255)) + b"\x02\xff"),
    ],
)
def test_cobs_encodes_the_standard_vectors(data: bytes, encoded: bytes) -> None:
    assert P.cobs_encode(data) == encoded
    assert P.cobs_decode(encoded) == data


@given(st.binary(max_size=600))
def test_cobs_round_trips_and_never_emits_zero(data: bytes) -> None:
    encoded = P.cobs_encode(data)
    assert 0 not in encoded
    assert P.cobs_decode(encoded) == data


@given(st.integers(0, 255), st.integers(0, 255), st.binary(max_size=P.MAX_PAYLOAD))
def test_a_frame_round_trips_and_fits_the_bounded_size(msg_type: int, seq: int,
                                                       payload: bytes) -> None:
    wire = P.encode_frame(msg_type, seq, payload)
    assert wire.endswith(b"\x00") and wire.count(0) == 1
    assert len(wire) <= P.MAX_ENCODED_FRAME + 1
    assert P.FrameDecoder().feed(wire) == [(msg_type, seq, payload)]


def test_a_payload_over_the_maximum_is_refused() -> None:
    with pytest.raises(P.ProtocolError):
        P.encode_frame(P.MSG_LOG, 0, bytes(P.MAX_PAYLOAD + 1))


def test_every_single_byte_corruption_of_a_frame_is_rejected() -> None:
    wire = P.encode_frame(P.MSG_EVENT, 9, P.pack_event(0xDEADBEEF, 42, 17, P.TAG_PRESENT,
                                                       b"\x04\xa1\xb2\xc3\xd4\xe5\xf6"))
    for i in range(len(wire) - 1):
        for value in range(256):
            if value == wire[i]:
                continue
            bad = wire[:i] + bytes([value]) + wire[i + 1:]
            frames = P.FrameDecoder().feed(bad)
            assert frames == [], (i, value)


@given(st.lists(st.binary(max_size=40), max_size=6), st.data())
def test_the_decoder_resynchronises_after_garbage_and_half_frames(
        junk: list[bytes], data: st.DataObject) -> None:
    frames = [(P.MSG_HEARTBEAT, i, P.pack_heartbeat(1, i, 2, 3)) for i in range(len(junk))]
    stream = bytearray()
    for garbage, frame in zip(junk, frames):
        # Garbage ends with a delimiter, as any line noise does before the next real frame.
        stream += garbage + b"\x00" + P.encode_frame(*frame)
    decoder = P.FrameDecoder()
    got = []
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    start = 0
    for cut in [*cuts, len(stream)]:
        got += decoder.feed(bytes(stream[start:cut]))
        start = cut
    # Any frame the junk happened to contain must have a valid CRC, so it is a real frame;
    # every frame we sent must come through.
    assert [f for f in got if f in frames] == frames


def test_an_overlong_run_without_delimiter_is_dropped_and_counted() -> None:
    decoder = P.FrameDecoder()
    good = P.encode_frame(P.MSG_PONG, 1, P.pack_token(5))
    assert decoder.feed(b"\x01" * 1000) == []
    assert decoder.feed(b"\x00" + good) == [(P.MSG_PONG, 1, P.pack_token(5))]
    assert decoder.invalid_bytes == 1001
    assert decoder.framing_errors == 1


@settings(max_examples=300)
@given(st.binary(max_size=2000))
def test_random_bytes_never_crash_the_decoder(data: bytes) -> None:
    decoder = P.FrameDecoder()
    for frame in decoder.feed(data):
        assert len(frame[2]) <= P.MAX_PAYLOAD
    assert decoder.frames + decoder.crc_errors + decoder.framing_errors <= data.count(0)


@settings(max_examples=300)
@given(st.binary(max_size=P.MAX_PAYLOAD))
def test_decoding_random_payloads_only_ever_raises_protocol_error(payload: bytes) -> None:
    for message in M.MESSAGES:
        try:
            message.decode(payload)
        except P.ProtocolError:
            pass


def test_payloads_round_trip() -> None:
    assert M.HELLO.decode(M.HELLO.encode(1, 0xCAFEBABE)) == (1, 0xCAFEBABE)
    ident = M.IDENTIFY.decode(P.pack_identify(1, (2, 3, 4), 42, 0x89ABCDEF, 0x01020304, 77, 9,
                                              "classic-42"))
    assert ident == (1, (2, 3, 4), 42, 0x89ABCDEF, 0x01020304, 77, 9, P.MAX_PAYLOAD, "classic-42")
    assert (ident.sensor_count, ident.nonce, ident.board_id) == (42, 9, "classic-42")
    uid = b"\x04\x11\x22\x33\x44\x55\x66"
    assert M.EVENT.decode(P.pack_event(5, 6, 7, P.TAG_PRESENT, uid)) == (5, 6, 7,
                                                                        P.TAG_PRESENT, uid)
    assert M.EVENT.decode(P.pack_event(5, 6, 7, P.RELEASE)) == (5, 6, 7, P.RELEASE, b"")
    assert M.ACK.decode(M.ACK.encode(1, 2, 3)) == (1, 2, 3)
    assert M.REPLAY_REQ.decode(M.REPLAY_REQ.encode(1, 2)) == (1, 2)
    assert M.REPLAY_END.decode(P.pack_replay_end(1, 2, 3)) == (1, 2, 3)
    assert M.HEARTBEAT.decode(P.pack_heartbeat(1, 2, 3, 4)) == (1, 2, 3, 4)
    assert M.ERROR.decode(P.pack_text(P.ERR_SENSOR, "reader 3 silent")) == (
        P.ERR_SENSOR, "reader 3 silent")
    entries = P.pack_state_entry(0, P.PRESS) + P.pack_state_entry(1, P.TAG_PRESENT, b"\x01\x02")
    assert M.STATE_DUMP.decode(P.pack_state_dump(1, 2, 0, 1, entries)) == (
        1, 2, 0, 1, [(0, P.PRESS, b""), (1, P.TAG_PRESENT, b"\x01\x02")])


def test_an_event_with_a_uid_but_not_a_tag_is_malformed() -> None:
    payload = P.pack_event(1, 1, 0, P.PRESS)[:-1] + b"\x01\xaa"
    with pytest.raises(P.ProtocolError):
        M.EVENT.decode(payload)


def test_126_leds_are_split_into_two_chunks_that_fit_a_frame() -> None:
    rgb = bytes(i % 256 for i in range(126 * 3))
    chunks = M.led_chunks(7, rgb)
    assert len(chunks) == 2
    assert all(len(c) <= P.MAX_PAYLOAD for c in chunks)
    parts = [P.unpack_led_chunk(c) for c in chunks]
    assert [(p[0], p[1], p[2]) for p in parts] == [(7, 0, 126), (7, M.LEDS_PER_CHUNK, 126)]
    # firmware_bridge/PROTOCOL.md 3.7: 6 + 81 x 3 = 249 payload bytes.
    assert M.LEDS_PER_CHUNK == 81
    assert b"".join(p[3] for p in parts) == rgb


@pytest.mark.parametrize(
    "entry",
    [
        P.pack_state_entry(5, P.TAG_PRESENT),  # a tag without its uid
        P.pack_state_entry(5, P.RELEASE, b"\x01\x02\x03\x04"),  # a button with a uid
        P.pack_state_entry(5, P.TAG_REMOVED, b"\x01\x02\x03\x04"),
    ],
)
def test_a_state_dump_entry_breaking_the_uid_rule_is_malformed(entry: bytes) -> None:
    # firmware_bridge/PROTOCOL.md: uid_len is 0 for every kind but TAG_PRESENT, where it is 1..10.
    with pytest.raises(P.ProtocolError):
        M.STATE_DUMP.decode(P.pack_state_dump(1, 2, 0, 1, entry))
