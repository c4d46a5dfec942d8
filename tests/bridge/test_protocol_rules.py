"""Each behaviour firmware_bridge/PROTOCOL.md makes normative, checked on the reference
firmware core (and the Pi's link where the rule is the Pi's): first frame seq, COBS without
a trailing 0x01, when each ERROR code is sent, PING and LED frames without a session,
REPLAY_REQ beyond last_seq, the retransmit window and timer, LED chunk rules and total 0."""

from __future__ import annotations

from firmware_bridge import messages as M
from firmware_bridge import protocol as P
from firmware_bridge.firmware.core import FirmwareCore
from firmware_bridge.host_core import HostCore
from firmware_bridge.link import SensorEvent

from .conftest import Clock, Host, Rig, wait_for

EPOCH = 0x11223344


def make(clock: Clock, **kwargs: object) -> tuple[FirmwareCore, Host, list[bytes]]:
    wire = bytearray()
    leds: list[bytes] = []
    options: dict = {"ring_size": 16, "epoch": EPOCH, "window": 32, **kwargs}
    core = FirmwareCore(wire.extend, clock, 42, 0, "1.0.0", on_led_frame=leds.append,
                        **options)
    return core, Host(core, wire), leds


def errors(frames: list[tuple[int, bytes]]) -> list[int]:
    return [M.ERROR.decode(p).code for t, p in frames if t == P.MSG_ERROR]


# ---- section 1: frames ---------------------------------------------------------------------

def test_each_sides_first_frame_has_seq_1(clock: Clock) -> None:
    wire = bytearray()
    core = FirmwareCore(wire.extend, clock, 4, 0, "1.0.0", epoch=EPOCH)
    core.feed(P.encode_frame(P.MSG_PING, 1, P.pack_token(5)))
    assert P.FrameDecoder().feed(bytes(wire))[0][1] == 1

    written = bytearray()
    host = HostCore(written.extend, lambda event: True)
    host.open(0.0)
    assert P.FrameDecoder().feed(bytes(written))[0][1] == 1


def test_a_254_byte_run_ends_the_frame_without_a_trailing_0x01() -> None:
    text = "x" * (P.MAX_PAYLOAD - 1)  # payload 250 bytes, no zero anywhere in the raw frame
    wire = P.encode_frame(P.MSG_LOG, 0x11, P.pack_text(P.LOG_INFO, text))
    raw = P.cobs_decode(wire[:-1])
    assert len(raw) == 254 and 0 not in raw
    assert len(wire) == 256 and wire[0] == 0xFF and wire[-2:] != b"\x01\x00"
    assert wire[1:-1] == raw  # 0xFF, the 254 bytes, then the delimiter: nothing between
    # a frame with the trailing 0x01 some encoders add is too long: dropped
    decoder = P.FrameDecoder()
    assert decoder.feed(wire[:-1] + b"\x01\x00") == []
    assert decoder.framing_errors == 1
    assert decoder.feed(wire) == [(P.MSG_LOG, 0x11, P.pack_text(P.LOG_INFO, text))]


# ---- the error table -------------------------------------------------------------------------

def test_unknown_type_is_told_once_per_type_until_the_next_hello(clock: Clock) -> None:
    core, host, _ = make(clock)
    for msg_type in (0x3E, 0x3E, 0x07, 0x41):
        host.send(msg_type, b"")
    assert [M.ERROR.decode(p).message for t, p in host.received() if t == P.MSG_ERROR] == [
        "unknown message type 0x3e skipped", "unknown message type 0x07 skipped",
        "unknown message type 0x41 skipped"]
    host.connect()
    host.send(0x3E, b"")
    host.send(0x3E, b"")
    assert errors(host.received()) == [P.ERR_UNKNOWN_TYPE]
    assert core.connected  # and the session goes on


def test_bad_payload_is_answered_for_each_malformed_frame(clock: Clock) -> None:
    _core, host, _ = make(clock)
    host.connect()
    host.send(P.MSG_PING, b"\x01\x02\x03")
    host.send(P.MSG_ACK, b"\x00")
    host.send(P.MSG_LED_FRAME, M.LED_FRAME.encode(1, 0, 1, b"") + b"\x01")  # a partial pixel
    assert errors(host.received()) == [P.ERR_BAD_PAYLOAD] * 3


def test_ring_overflow_follows_the_replay_end_that_skips_unacknowledged_events(
        clock: Clock) -> None:
    core, host, _ = make(clock)
    for i in range(20):  # the ring holds 16: events 1..4 are gone
        core.sensor_event(i, P.PRESS)
    frames = host.connect()
    types = [t for t, _ in frames]
    at = types.index(P.MSG_REPLAY_END)
    assert types[at + 1] == P.MSG_ERROR
    assert frames[at + 1][1] == P.pack_text(
        P.ERR_RING_OVERFLOW, "ring overflow: events 1..4 lost (the ring holds 16)")
    # a Pi that already holds everything the ring lost hears no overflow
    host.send(P.MSG_ACK, M.ACK.encode(EPOCH, 20, 20))
    assert P.ERR_RING_OVERFLOW not in errors(host.connect(since=20))


def test_ring_overflow_while_streaming_comes_with_an_unsolicited_replay_end(
        clock: Clock) -> None:
    core, host, _ = make(clock, window=4)
    host.connect()
    for i in range(20):  # nothing acknowledged: 1..4 in flight, then overwritten
        core.sensor_event(i, P.PRESS)
    frames = host.received()
    ends = [M.REPLAY_END.decode(p) for t, p in frames if t == P.MSG_REPLAY_END]
    assert ends[-1] == (EPOCH, 5, 20)
    assert P.ERR_RING_OVERFLOW in errors(frames)
    assert [M.EVENT.decode(p).seq for t, p in frames if t == P.MSG_EVENT][-4:] == [5, 6, 7, 8]


def test_no_session_at_most_every_100_ms_and_ping_always_gets_its_pong(clock: Clock) -> None:
    core, host, _ = make(clock)
    host.send(P.MSG_PING, P.pack_token(1))
    assert host.received() == [(P.MSG_PONG, P.pack_token(1)),
                               (P.MSG_ERROR, P.pack_text(P.ERR_NO_SESSION,
                                                         "no session: send HELLO first"))]
    clock.advance(99)
    host.send(P.MSG_PING, P.pack_token(2))
    host.send(P.MSG_STATE_REQ)
    assert host.received() == [(P.MSG_PONG, P.pack_token(2))]
    clock.advance(1)
    host.send(P.MSG_STATE_REQ)
    assert errors(host.received()) == [P.ERR_NO_SESSION]
    assert not core.connected


def test_an_led_frame_needs_no_session(clock: Clock) -> None:
    core, host, leds = make(clock)
    for chunk in M.led_chunks(1, bytes(range(12))):
        host.send(P.MSG_LED_FRAME, chunk)
    assert leds == [bytes(range(12))]
    assert host.received() == [] and not core.connected


def test_led_chunk_errors_one_per_dropped_chunk_or_abandoned_frame(clock: Clock) -> None:
    _core, host, leds = make(clock)
    a1, a2 = M.led_chunks(1, bytes(126 * 3))
    b1, b2 = M.led_chunks(2, bytes([7]) * (126 * 3))
    host.send(P.MSG_LED_FRAME, a2)  # no frame begun: dropped
    assert errors(host.received()) == [P.ERR_LED_CHUNK]
    host.send(P.MSG_LED_FRAME, a1)
    host.send(P.MSG_LED_FRAME, b1)  # frame 1 unfinished: abandoned
    assert errors(host.received()) == [P.ERR_LED_CHUNK]
    host.send(P.MSG_LED_FRAME, a2)  # frame 1's chunk cannot continue frame 2: both dropped
    host.send(P.MSG_LED_FRAME, b2)  # nothing being assembled any more: dropped too
    assert errors(host.received()) == [P.ERR_LED_CHUNK, P.ERR_LED_CHUNK]
    assert leds == []
    host.send(P.MSG_LED_FRAME, b1)
    host.send(P.MSG_LED_FRAME, b2)
    assert leds == [bytes([7]) * (126 * 3)] and host.received() == []


def test_an_led_frame_of_total_0_is_shown_at_once_as_all_off(clock: Clock) -> None:
    _core, host, leds = make(clock)
    [chunk] = M.led_chunks(4, b"")
    assert P.unpack_led_chunk(chunk) == (4, 0, 0, b"")
    host.send(P.MSG_LED_FRAME, chunk)
    assert leds == [b""] and host.received() == []


# ---- replay ----------------------------------------------------------------------------------

def test_replay_since_beyond_last_seq_replays_nothing_and_streams_what_follows(
        clock: Clock) -> None:
    core, host, _ = make(clock)
    core.sensor_event(1, P.PRESS)
    core.sensor_event(1, P.RELEASE)
    frames = host.connect(since=90)
    assert [(t, M.REPLAY_END.decode(p)) for t, p in frames if t == P.MSG_REPLAY_END] == [
        (P.MSG_REPLAY_END, (EPOCH, 1, 2))]
    assert [t for t, _ in frames if t == P.MSG_EVENT] == []
    core.sensor_event(4, P.PRESS)
    assert [e[1:3] for e in host.events()] == [(3, 4)]


def test_a_pi_whose_saved_position_is_ahead_of_the_pico_takes_the_picos(rig: Rig) -> None:
    emu = rig.emulator()
    emu.touch(1)  # seq 1, 2
    assert emu.wait_idle()
    got: list[SensorEvent] = []
    link = rig.link(emu.path, got, last_epoch=emu.core.epoch, last_seq=100)
    assert wait_for(lambda: link.connected)
    assert link.position == (emu.core.epoch, 2)
    emu.touch(5)  # seq 3, 4: delivered, not taken for duplicates
    assert wait_for(lambda: len(got) == 2)
    assert [(e.channel, e.seq) for e in got] == [(5, 3), (5, 4)]


# ---- the retransmit window and timer ---------------------------------------------------------

def sent_seqs(host: Host) -> list[int]:
    return [e[1] for e in host.events()]


def test_the_timer_starts_when_an_event_goes_out_with_none_in_flight(clock: Clock) -> None:
    core, host, _ = make(clock)
    host.connect()
    clock.advance(500)  # idle: no timer runs
    core.poll()
    host.received()
    core.sensor_event(0, P.PRESS)
    assert sent_seqs(host) == [1]
    clock.advance(core.retransmit_ms - 1)
    core.poll()
    assert sent_seqs(host) == []
    clock.advance(1)
    core.poll()
    assert sent_seqs(host) == [1]
    clock.advance(core.retransmit_ms)  # and again every 50 ms until an ACK makes progress
    core.poll()
    assert sent_seqs(host) == [1]


def test_an_ack_without_progress_does_not_restart_the_timer(clock: Clock) -> None:
    core, host, _ = make(clock)
    host.connect()
    core.sensor_event(0, P.PRESS)
    core.sensor_event(0, P.RELEASE)
    host.received()
    clock.advance(30)
    host.send(P.MSG_ACK, M.ACK.encode(EPOCH, 0, 0))  # no progress
    clock.advance(20)
    core.poll()
    assert sent_seqs(host) == [1, 2]
    clock.advance(30)
    host.send(P.MSG_ACK, M.ACK.encode(EPOCH, 1, 1))  # progress: the timer restarts
    clock.advance(core.retransmit_ms - 1)
    core.poll()
    assert sent_seqs(host) == []
    clock.advance(1)
    core.poll()
    assert sent_seqs(host) == [2]


def test_the_timer_resends_the_oldest_eight_in_flight_in_order(clock: Clock) -> None:
    core, host, _ = make(clock, ring_size=64)
    host.connect()
    for i in range(12):
        core.sensor_event(i, P.PRESS)
    host.send(P.MSG_ACK, M.ACK.encode(EPOCH, 2, 2))
    host.received()
    clock.advance(core.retransmit_ms)
    core.poll()
    assert sent_seqs(host) == list(range(3, 11))


def test_the_window_counts_only_events_in_flight(clock: Clock) -> None:
    core, host, _ = make(clock, window=3)
    host.connect()
    for i in range(5):
        core.sensor_event(i, P.PRESS)
    assert sent_seqs(host) == [1, 2, 3]
    # 1 left flight, so 4 goes out; highest = 3 acknowledges nothing but shows the gap at 2
    host.send(P.MSG_ACK, M.ACK.encode(EPOCH, 1, 3))
    assert sent_seqs(host) == [2, 4]
    assert core.acked == 1


def test_an_ack_beyond_last_seq_or_of_another_epoch_acknowledges_nothing(clock: Clock) -> None:
    core, host, _ = make(clock)
    host.connect()
    core.sensor_event(0, P.PRESS)
    host.send(P.MSG_ACK, M.ACK.encode(EPOCH, 5, 5))
    host.send(P.MSG_ACK, M.ACK.encode(EPOCH + 1, 1, 1))
    assert core.acked == 0


def test_an_ack_before_the_replay_request_is_ignored(clock: Clock) -> None:
    core, host, _ = make(clock)
    core.sensor_event(0, P.PRESS)
    host.send(P.MSG_HELLO, M.HELLO.encode(P.PROTOCOL_VERSION, 1))
    host.send(P.MSG_ACK, M.ACK.encode(EPOCH, 1, 1))
    assert core.acked == 0 and errors(host.received()) == []
