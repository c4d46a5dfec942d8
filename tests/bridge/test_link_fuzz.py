"""Hypothesis fuzzing of the Link's receive path: random bytes never crash it and never
produce a phantom sensor event."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as P
from firmware_bridge.link import Link, SensorEvent

EPOCH = 0x5EED5EED


class RecordingPort:
    """Stands in for the serial port: keeps what the link writes."""

    def __init__(self) -> None:
        self.written = bytearray()

    def write(self, data: bytes) -> int:
        self.written += data
        return len(data)

    def close(self) -> None:
        pass


def running_link(got: list[SensorEvent]) -> Link:
    """A Link (thread not started) that has finished its handshake with EPOCH, seq 10."""
    link = Link("/nonexistent", got.append, last_epoch=EPOCH, last_seq=10)
    link._ser = RecordingPort()
    link._phase = "running"
    link._state = "connected"
    link._identity = {"sensor_count": 42}
    return link


def feed(link: Link, data: bytes) -> None:
    try:
        link._receive(data, time.monotonic())
    except Exception as exc:
        # Only the two deliberate signals may escape: a refusal or a re-handshake need.
        from firmware_bridge.link import LinkRefused
        assert isinstance(exc, LinkRefused), exc


@settings(max_examples=400)
@given(st.lists(st.binary(max_size=300), max_size=8))
def test_random_bytes_never_crash_the_link_nor_make_events(chunks: list[bytes]) -> None:
    got: list[SensorEvent] = []
    link = running_link(got)
    for chunk in chunks:
        feed(link, chunk)
    assert got == []
    assert link.position == (EPOCH, 10)


frame_types = st.sampled_from([*sorted(P.MESSAGE_NAMES), 0x00, 0x7E, 0xFF])


@settings(max_examples=400)
@given(st.lists(st.tuples(frame_types, st.integers(0, 255), st.binary(max_size=60)),
                max_size=10))
def test_well_framed_random_payloads_never_make_phantom_events(
        frames: list[tuple[int, int, bytes]]) -> None:
    got: list[SensorEvent] = []
    link = running_link(got)
    for msg_type, seq, payload in frames:
        if msg_type == P.MSG_ERROR and payload[:1] == bytes([P.ERR_VERSION]):
            continue  # a version refusal is a legitimate outcome, tested elsewhere
        feed(link, P.encode_frame(msg_type, seq, payload))
    assert got == []


@settings(max_examples=200)
@given(st.integers(0, 0xFFFFFFFF).filter(lambda e: e != EPOCH), st.integers(1, 2**32 - 1),
       st.integers(0, 255), st.sampled_from(sorted(P.KIND_NAMES)))
def test_events_of_another_boot_or_channel_are_never_delivered(
        epoch: int, seq: int, channel: int, kind: int) -> None:
    got: list[SensorEvent] = []
    link = running_link(got)
    uid = b"\x01\x02\x03\x04" if kind == P.TAG_PRESENT else b""
    feed(link, P.encode_frame(P.MSG_EVENT, 1, P.pack_event(epoch, seq, channel, kind, uid)))
    feed(link, P.encode_frame(P.MSG_EVENT, 1, P.pack_event(EPOCH, 11, 42 + channel % 200,
                                                           kind, uid)))
    assert got == []


def test_a_genuine_next_event_is_delivered_once_even_if_repeated() -> None:
    got: list[SensorEvent] = []
    link = running_link(got)
    frame = P.encode_frame(P.MSG_EVENT, 1, P.pack_event(EPOCH, 11, 3, P.PRESS))
    feed(link, b"\x13\x37" + frame + frame + frame[:4])
    assert got == [SensorEvent(3, "press", None, 11, EPOCH)]
    acks = [P.unpack_ack(p) for t, _s, p in P.FrameDecoder().feed(bytes(link._ser.written))
            if t == P.MSG_ACK]
    assert acks and acks[-1] == (EPOCH, 11, 11)
