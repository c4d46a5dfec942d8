"""FirmwareCore, the Pico's protocol logic, driven frame by frame with a hand-held clock."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge import messages as M
from firmware_bridge import protocol as P
from firmware_bridge.firmware.core import FirmwareCore

from .conftest import Clock, Host


def test_hello_is_answered_with_identify_echoing_the_nonce(pico: tuple[FirmwareCore, Host]
                                                            ) -> None:
    _core, host = pico
    host.send(P.MSG_HELLO, M.HELLO.encode(P.PROTOCOL_VERSION, 0xBEEF))
    [(msg_type, payload)] = host.received()
    assert msg_type == P.MSG_IDENTIFY
    assert M.IDENTIFY.decode(payload) == (P.PROTOCOL_VERSION, (1, 2, 3), 42, 0xA5A5A5A5,
                                          0x11223344, 0, 0xBEEF, P.MAX_PAYLOAD, "classic-42")


def test_a_host_with_another_protocol_version_is_refused(pico: tuple[FirmwareCore, Host]
                                                         ) -> None:
    core, host = pico
    core.sensor_event(1, P.PRESS)
    host.send(P.MSG_HELLO, M.HELLO.encode(P.PROTOCOL_VERSION + 1, 1))
    host.send(P.MSG_REPLAY_REQ, M.REPLAY_REQ.encode(core.epoch, 0))
    frames = host.received()
    assert [t for t, _ in frames][:2] == [P.MSG_IDENTIFY, P.MSG_ERROR]
    error = M.ERROR.decode(frames[1][1])
    assert error.code == P.ERR_VERSION and "protocol 1, host sent 2" in error.message
    # No session: the replay request is answered with an error, not with events.
    assert [t for t, _ in frames[2:]] == [P.MSG_ERROR]


def test_events_wait_for_the_host_then_flow_in_order(pico: tuple[FirmwareCore, Host]) -> None:
    core, host = pico
    core.sensor_event(3, P.PRESS)
    core.sensor_event(3, P.RELEASE)
    assert host.events() == []
    frames = host.connect()
    assert frames[1][0] == P.MSG_REPLAY_END
    assert M.REPLAY_END.decode(frames[1][1]) == (core.epoch, 1, 2)
    assert [M.EVENT.decode(p) for t, p in frames if t == P.MSG_EVENT] == [
        (core.epoch, 1, 3, P.PRESS, b""), (core.epoch, 2, 3, P.RELEASE, b"")]


def test_unacknowledged_events_are_retransmitted_until_acked(
        pico: tuple[FirmwareCore, Host], clock: Clock) -> None:
    core, host = pico
    host.connect()
    core.sensor_event(5, P.TAG_PRESENT, b"\x04\x01\x02\x03")
    assert [e[1] for e in host.events()] == [1]
    clock.advance(core.retransmit_ms - 1)
    core.poll()
    assert host.events() == []
    clock.advance(1)
    core.poll()
    assert host.events() == [(core.epoch, 1, 5, P.TAG_PRESENT, b"\x04\x01\x02\x03")]
    host.send(P.MSG_ACK, M.ACK.encode(core.epoch, 1, 1))
    clock.advance(10 * core.retransmit_ms)
    core.poll()
    assert host.events() == []
    assert core.stats["retransmits"] == 1


def test_the_window_limits_events_in_flight(pico: tuple[FirmwareCore, Host]) -> None:
    core, host = pico
    host.connect()
    for channel in range(6):
        core.sensor_event(channel, P.PRESS)
    assert [e[1] for e in host.events()] == [1, 2, 3, 4]
    host.send(P.MSG_ACK, M.ACK.encode(core.epoch, 2, 2))
    assert [e[1] for e in host.events()] == [5, 6]


def test_an_ack_reporting_a_gap_resends_the_missing_event_at_once(
        pico: tuple[FirmwareCore, Host], clock: Clock) -> None:
    core, host = pico
    host.connect()
    for channel in range(3):
        core.sensor_event(channel, P.PRESS)
    host.events()
    # The Pi holds 1 and 3: 2 was lost.
    host.send(P.MSG_ACK, M.ACK.encode(core.epoch, 1, 3))
    assert [e[1] for e in host.events()] == [2]
    # A second report within fast_retransmit_ms does not resend again.
    host.send(P.MSG_ACK, M.ACK.encode(core.epoch, 1, 3))
    assert host.events() == []
    clock.advance(core.fast_retransmit_ms)
    host.send(P.MSG_ACK, M.ACK.encode(core.epoch, 1, 3))
    assert [e[1] for e in host.events()] == [2]


def test_an_ack_for_another_epoch_is_ignored(pico: tuple[FirmwareCore, Host]) -> None:
    core, host = pico
    host.connect()
    core.sensor_event(0, P.PRESS)
    host.send(P.MSG_ACK, M.ACK.encode(core.epoch + 1, 1, 1))
    assert core.acked == 0


def test_replay_resends_the_events_after_the_given_seq(pico: tuple[FirmwareCore, Host]) -> None:
    core, host = pico
    host.connect()
    for channel in range(4):
        core.sensor_event(channel, P.PRESS)
    host.send(P.MSG_ACK, M.ACK.encode(core.epoch, 4, 4))
    host.received()
    # The Pi restarted having persisted seq 2: it asks again from there.
    frames = host.connect(since=2)
    assert [M.EVENT.decode(p).seq for t, p in frames if t == P.MSG_EVENT] == [3, 4]


def test_a_replay_for_an_old_epoch_sends_everything_of_this_boot(
        pico: tuple[FirmwareCore, Host]) -> None:
    core, host = pico
    core.sensor_event(9, P.PRESS)
    host.send(P.MSG_HELLO, M.HELLO.encode(P.PROTOCOL_VERSION, 1))
    host.send(P.MSG_REPLAY_REQ, M.REPLAY_REQ.encode(0x99999999, 500))
    assert [e[1:3] for e in host.events()] == [(1, 9)]


def test_an_overflowed_ring_reports_the_first_event_it_still_holds(
        pico: tuple[FirmwareCore, Host]) -> None:
    core, host = pico
    for i in range(20):  # ring_size is 16
        core.sensor_event(i, P.PRESS)
    frames = host.connect()
    assert M.REPLAY_END.decode(frames[1][1]) == (core.epoch, 5, 20)
    assert [M.EVENT.decode(p).seq for t, p in frames if t == P.MSG_EVENT] == [5, 6, 7, 8]


def test_the_state_dump_lists_every_channel(pico: tuple[FirmwareCore, Host]) -> None:
    core, host = pico
    host.connect()
    core.set_state(0, P.TAG_REMOVED)
    core.sensor_event(7, P.PRESS)
    core.sensor_event(8, P.TAG_PRESENT, b"\x01\x02\x03\x04\x05\x06\x07")
    host.received()
    host.send(P.MSG_STATE_REQ)
    dumps = [M.STATE_DUMP.decode(p) for t, p in host.received() if t == P.MSG_STATE_DUMP]
    assert {d.as_of_seq for d in dumps} == {2} and sorted(d.part for d in dumps) == list(
        range(dumps[0].parts))
    state = {ch: (kind, uid) for d in dumps for ch, kind, uid in d.entries}
    assert len(state) == 42
    assert state[0] == (P.TAG_REMOVED, b"")
    assert state[7] == (P.PRESS, b"")
    assert state[8] == (P.TAG_PRESENT, b"\x01\x02\x03\x04\x05\x06\x07")
    assert state[9] == (P.RELEASE, b"")


def test_a_126_led_frame_in_two_chunks_reaches_the_callback(
        pico: tuple[FirmwareCore, Host]) -> None:
    core, host = pico
    rgb = bytes(i % 251 for i in range(126 * 3))
    for chunk in M.led_chunks(3, rgb):
        host.send(P.MSG_LED_FRAME, chunk)
    assert core.test_leds == [rgb]  # type: ignore[attr-defined]


def test_an_led_frame_missing_a_chunk_is_dropped(pico: tuple[FirmwareCore, Host]) -> None:
    core, host = pico
    first, second = M.led_chunks(3, bytes(126 * 3))
    host.send(P.MSG_LED_FRAME, second)
    host.send(P.MSG_LED_FRAME, first)
    assert core.test_leds == []  # type: ignore[attr-defined]


def test_an_unknown_message_type_is_reported_and_skipped(pico: tuple[FirmwareCore, Host]
                                                         ) -> None:
    _core, host = pico
    host.send(0x3E, b"\x01\x02")
    host.send(P.MSG_PING, P.pack_token(77))
    frames = host.received()
    assert frames[0] == (P.MSG_ERROR, P.pack_text(P.ERR_UNKNOWN_TYPE,
                                                  "unknown message type 0x3e skipped"))
    assert (P.MSG_PONG, P.pack_token(77)) in frames


def test_heartbeats_go_out_on_schedule_with_the_newest_seq(
        pico: tuple[FirmwareCore, Host], clock: Clock) -> None:
    core, host = pico
    core.sensor_event(2, P.PRESS)
    clock.advance(core.heartbeat_ms)
    core.poll()
    [(msg_type, payload)] = host.received()
    assert msg_type == P.MSG_HEARTBEAT
    beat = M.HEARTBEAT.decode(payload)
    assert (beat.epoch, beat.last_seq, beat.uptime_ms) == (core.epoch, 1, core.heartbeat_ms)


def test_a_silent_host_ends_the_session(pico: tuple[FirmwareCore, Host], clock: Clock) -> None:
    core, host = pico
    host.connect()
    clock.advance(core.host_timeout_ms + 1)
    core.poll()
    host.received()
    core.sensor_event(1, P.PRESS)
    assert host.events() == []
    assert not core.connected


def test_a_bad_sensor_event_is_refused_before_it_is_numbered(
        pico: tuple[FirmwareCore, Host]) -> None:
    core, _host = pico
    for args in [(42, P.PRESS, b""), (0, 99, b""), (0, P.TAG_PRESENT, bytes(11))]:
        try:
            core.sensor_event(*args)
        except ValueError:
            continue
        raise AssertionError(f"accepted {args}")
    assert core.next_seq == 1


def test_ticks_that_wrap_are_handled_with_ticks_diff() -> None:
    period = 1 << 30
    now = [period - 10]
    wire = bytearray()

    def diff(a: int, b: int) -> int:  # MicroPython's time.ticks_diff for a 2**30 period
        return ((a - b + period // 2) % period) - period // 2

    core = FirmwareCore(wire.extend, lambda: now[0], 4, 0, "1.0.0", epoch=5, ticks_diff=diff)
    host = Host(core, wire)
    host.connect()
    core.sensor_event(0, P.PRESS)
    host.received()
    now[0] = (now[0] + core.retransmit_ms) % period  # wraps past zero
    core.poll()
    assert [e[1] for e in host.events()] == [1]


@pytest.mark.slow
@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from([*sorted(P.MESSAGE_NAMES), 0x00, 0x3E, 0xFF]),
                          st.binary(max_size=80)), max_size=12),
       st.binary(max_size=300))
def test_random_frames_and_bytes_never_crash_the_firmware(
        frames: list[tuple[int, bytes]], junk: bytes) -> None:
    wire = bytearray()
    clock = Clock()
    core = FirmwareCore(wire.extend, clock, 42, 0, "1.0.0", ring_size=8, epoch=3)
    host = Host(core, wire)
    core.sensor_event(1, P.PRESS)
    core.feed(junk)
    for msg_type, payload in frames:
        host.send(msg_type, payload)
        clock.advance(20)
        core.poll()
    # Still answers a proper handshake afterwards. A half frame left by the junk spoils the
    # first HELLO after it, so send two, as the Pi's retry would.
    host.received()
    host.send(P.MSG_HELLO, M.HELLO.encode(P.PROTOCOL_VERSION, 5))
    host.send(P.MSG_HELLO, M.HELLO.encode(P.PROTOCOL_VERSION, 5))
    assert P.MSG_IDENTIFY in [t for t, _ in host.received()]
