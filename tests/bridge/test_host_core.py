"""HostCore, the Pi's protocol logic, driven frame by frame with a hand-held clock: against
the real FirmwareCore over in-memory wires (`Pair`), or against frames a test writes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import messages as M
from firmware_bridge import protocol as P
from firmware_bridge.host_core import (
    KEEPALIVE_AWAKE_S,
    KEEPALIVE_S,
    LED_FENCE_S,
    PING_EVERY_S,
    HostCore,
    LinkLost,
    LinkRefused,
    SensorEvent,
    StateDump,
)

from .conftest import Clock, Pair

EPOCH = 0x11223344


class Wire:
    """What a lone HostCore wrote, decoded."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.decoder = P.FrameDecoder()

    def write(self, data: bytes) -> None:
        self.data.extend(data)

    def frames(self) -> list[tuple[int, int, bytes]]:
        """Frames written since the last call, as (type, seq, payload)."""
        frames = self.decoder.feed(bytes(self.data))
        self.data.clear()
        return frames

    def types(self) -> list[int]:
        return [t for t, _s, _p in self.frames()]


def lone_core(**kwargs: object) -> tuple[HostCore, Wire, list[SensorEvent]]:
    """A HostCore with nothing on the other side: the test plays the Pico."""
    wire = Wire()
    got: list[SensorEvent] = []

    def deliver(event: SensorEvent) -> bool:
        got.append(event)
        return True

    options: dict = {"nonce": lambda: 77, **kwargs}
    return HostCore(wire.write, deliver, **options), wire, got


def identify(version: int = P.PROTOCOL_VERSION, count: int = 42, crc: int = 0xA5A5A5A5,
             epoch: int = EPOCH, nonce: int = 77) -> bytes:
    return P.encode_frame(P.MSG_IDENTIFY, 1, P.pack_identify(
        version, (1, 2, 3), count, crc, epoch, 0, nonce, "classic-42"))


def running_core(delivered: int = 10) -> tuple[HostCore, Wire, list[SensorEvent]]:
    """A lone core that has completed the handshake with EPOCH, ``delivered`` events in."""
    core, wire, got = lone_core(epoch=EPOCH, delivered=delivered)
    core.open(0.0)
    core.receive(identify(), 0.0)
    core.receive(P.encode_frame(P.MSG_REPLAY_END, 2,
                                P.pack_replay_end(EPOCH, 1, delivered)), 0.0)
    assert core.connected
    wire.frames()
    return core, wire, got


# ---- handshake ------------------------------------------------------------------------------

def test_open_says_hello_and_the_identify_leads_to_replay_then_connected() -> None:
    core, wire, _ = lone_core()
    core.open(5.0)
    [(msg_type, seq, payload)] = wire.frames()
    assert (msg_type, seq) == (P.MSG_HELLO, 1)
    assert P.unpack_hello(payload) == (P.PROTOCOL_VERSION, 77)
    assert core.state == "handshaking" and not core.connected
    core.receive(identify(), 5.1)
    [(msg_type, _seq, payload)] = wire.frames()
    assert msg_type == P.MSG_REPLAY_REQ and P.unpack_replay_req(payload) == (EPOCH, 0)
    assert core.identity["firmware_version"] == "1.2.3" and core.position == (EPOCH, 0)
    core.receive(P.encode_frame(P.MSG_REPLAY_END, 2, P.pack_replay_end(EPOCH, 1, 0)), 5.2)
    assert core.connected
    assert wire.types() == [P.MSG_STATE_REQ]  # a fresh connection asks for the full state


def test_an_identify_echoing_another_nonce_is_stale_and_ignored() -> None:
    core, wire, _ = lone_core()
    core.open(0.0)
    wire.frames()
    core.receive(identify(nonce=76), 0.0)
    assert wire.frames() == [] and core.phase == "hello"


@pytest.mark.parametrize(("frame", "expected"), [
    (identify(version=P.PROTOCOL_VERSION + 1), "flash matching firmware"),
    (identify(crc=0x11111111), "board profile mismatch: the Pico's sensor map has CRC 11111111"),
    (identify(count=40), "the Pico scans 40 sensors, the profile expects 42"),
    (P.encode_frame(P.MSG_ERROR, 1, P.pack_text(P.ERR_VERSION, "protocol 9")),
     "the Pico refused this Pi: protocol 9"),
])
def test_a_pico_that_cannot_be_used_is_refused_with_a_sentence(frame: bytes,
                                                              expected: str) -> None:
    core, _wire, _ = lone_core(expected_profile_crc=0xA5A5A5A5, expected_sensor_count=42)
    core.open(0.0)
    with pytest.raises(LinkRefused, match=expected):
        core.receive(frame, 0.0)
    core.refuse("for the status")
    assert core.state == "refused" and not core.connected
    core.open(1.0)
    assert core.state == "refused"  # until a handshake passes


def test_an_unanswered_hello_is_retried_then_the_pico_counts_as_lost() -> None:
    core, wire, _ = lone_core(request_retry_s=0.25, hello_tries=3)
    core.open(100.0)
    core.tick(100.249)
    assert wire.types() == [P.MSG_HELLO]  # not yet due
    core.tick(100.25)
    core.tick(100.5)
    assert wire.types() == [P.MSG_HELLO, P.MSG_HELLO]
    with pytest.raises(LinkLost, match="no IDENTIFY answer to HELLO"):
        core.tick(100.75)
    assert core.stats["request_retries"] == 2


def test_the_real_firmware_core_connects_and_streams_events(pair: Pair) -> None:
    pair.pico.sensor_event(3, P.PRESS)
    pair.pico.sensor_event(9, P.TAG_PRESENT, b"\x04\xa1")
    pair.run(5)
    assert [(e.channel, e.kind, e.uid, e.seq, e.epoch) for e in pair.events] == [
        (3, "press", None, 1, EPOCH), (9, "tag_present", b"\x04\xa1", 2, EPOCH)]
    assert pair.pico.acked == 2  # acknowledged
    assert pair.dumps and pair.dumps[-1].channels[9] == ("tag_present", b"\x04\xa1")


def test_each_batch_is_saved_before_it_is_acknowledged(pair: Pair) -> None:
    pair.journal.clear()
    pair.pico.sensor_event(1, P.PRESS)
    pair.run(3)
    assert pair.journal.index(("save", EPOCH, 1)) < pair.journal.index(("sent", P.MSG_ACK))


# ---- time ----------------------------------------------------------------------------------

def test_silence_is_measured_on_the_given_clock() -> None:
    core, _wire, _ = running_core()  # last heard from at 0.0
    core.tick(2.0)  # silent for exactly the limit: still fine
    with pytest.raises(LinkLost, match="went silent"):
        core.tick(2.001)


def test_heartbeats_keep_the_link_up_and_pings_measure_the_round_trip(pair: Pair) -> None:
    received = pair.host.stats["frames_received"]
    pair.run(10_000)  # ten seconds of the Pico's heartbeats and the host's keep-alives
    assert pair.host.connected and pair.pico.connected
    status = pair.host.status(pair.now)
    # Each step carries a frame both ways: a PONG comes back within 1 ms of hand time.
    assert status["rtt_ms"]["max"] <= 1.0 and status["rtt_ms"]["last"] is not None
    assert status["healthy"] and status["pico_uptime_s"] is not None
    # 20 heartbeats and a PONG for each PING (one every PING_EVERY_S)
    assert status["stats"]["frames_received"] - received >= 20 + 10 // PING_EVERY_S


def test_a_stalled_pico_is_lost_after_the_silence_limit(pair: Pair) -> None:
    start_ms = pair.clock.now
    pair.pico.poll = lambda: None  # its main loop hangs: no heartbeats
    pair.pico.feed = lambda data: None
    with pytest.raises(LinkLost):
        pair.run(5000)
    assert 2000 <= pair.clock.now - start_ms <= 2600  # the silence limit, on the hand clock
    pair.host.lose("the Pico went silent", pair.now)
    assert pair.host.state == "disconnected"


class Cut:
    """A wire to the Pico that loses every frame while `cut` is set."""

    def __init__(self) -> None:
        self.cut = False
        self.lost = 0

    def __call__(self, frames: list[bytes]) -> list[bytes]:
        if self.cut:
            self.lost += len(frames)
            return []
        return frames


def test_the_picos_session_lives_on_keep_alives_and_ends_3_s_after_the_pis_last(
        clock: Clock) -> None:
    wire = Cut()
    pair = Pair(clock, to_pico=wire)
    pair.connect()
    pair.run(20_000)  # an idle table: nothing but heartbeats and keep-alives
    assert pair.pico.connected and pair.host.connected
    wire.cut = True
    pair.run(2_500)  # the Pi's frames lost: five keep-alives or more in a row ...
    assert wire.lost >= 5
    wire.cut = False
    pair.run(10)
    assert pair.pico.connected  # ... and the session held
    wire.cut = True
    start = clock.now
    while pair.pico.connected:  # the Pi gone silent: the Pico ends the session ...
        pair.step()
    assert clock.now - start <= pair.pico.host_timeout_ms  # ... within its 3 s
    wire.cut = False
    pair.run(1_000)  # the Pico's ERROR no_session to the next keep-alive: a new handshake
    assert pair.pico.connected and pair.host.connected


def test_nothing_is_due_before_the_next_deadline_and_the_retry_is_due_at_it() -> None:
    core, wire, _ = running_core()  # everything last done at 0.0
    due = core.next_deadline(0.0)
    assert due == pytest.approx(0.25)  # the state request's retry
    core.tick(due - 0.001)
    assert wire.frames() == []
    core.tick(due)
    assert wire.types() == [P.MSG_STATE_REQ]
    assert core.next_deadline(due) == pytest.approx(due + 0.25)


def dumped(core: HostCore, now: float) -> None:
    """The state dump the core asks for arrives at `now`: nothing more is wanted."""
    core.receive(P.encode_frame(P.MSG_STATE_DUMP, 3, P.pack_state_dump(EPOCH, 10, 0, 1, b"")),
                 now)
    assert core.sensor_state is not None


def test_an_idle_core_keeps_the_session_alive_a_second_after_its_last_frame_at_the_latest(
) -> None:
    core, wire, _ = running_core()  # its last frame (the STATE_REQ) went out at 0.0
    dumped(core, 0.0)
    assert core.next_deadline(0.0) == pytest.approx(KEEPALIVE_S)  # and no sooner: no ping
    core.tick(KEEPALIVE_AWAKE_S - 0.001)  # woken for something else, soon after: nothing
    assert wire.frames() == []
    core.tick(KEEPALIVE_S)
    assert wire.types() == [P.MSG_PING]  # the first keep-alive measures the round trip
    assert core.next_deadline(KEEPALIVE_S) == pytest.approx(2 * KEEPALIVE_S)


def test_a_keep_alive_rides_a_wake_up_for_a_heartbeat_and_only_every_fifth_s_is_a_ping() -> None:
    core, wire, _ = running_core()
    dumped(core, 0.0)
    sent: list[tuple[float, int]] = []
    for n in range(1, 21):  # ten seconds of heartbeats, one every 0.5 s
        now = n * 0.5
        core.receive(P.encode_frame(P.MSG_HEARTBEAT, n, P.pack_heartbeat(EPOCH, 10, 0, 0)),
                     now)
        core.tick(now)
        sent += [(now, t) for t in wire.types()]
        assert core.next_deadline(now) > now + 0.5  # the next heartbeat wakes it first
    assert [now for now, _t in sent] == [n * 0.5 for n in range(1, 21)]  # one a heartbeat
    pings = [now for now, t in sent if t == P.MSG_PING]
    assert pings == [0.5, 5.5] and PING_EVERY_S == 5.0
    acks = [t for _now, t in sent if t != P.MSG_PING]
    assert set(acks) == {P.MSG_ACK}  # which the Pico does not answer


def test_a_queued_led_frame_is_due_at_once_and_sent_by_that_tick() -> None:
    core, wire, _ = running_core()
    core.tick(0.1)
    core.show(b"\x01\x02\x03")
    assert core.next_deadline(0.1) == 0.1
    core.tick(0.1)
    assert wire.types() == [P.MSG_LED_FRAME, P.MSG_PING]  # the PING fences the frame
    assert core.next_deadline(0.1) > 0.1


def pong(token: int) -> bytes:
    return P.encode_frame(P.MSG_PONG, 9, P.pack_token(token))


def test_one_led_frame_is_in_flight_until_the_pico_answers_the_ping_behind_it() -> None:
    core, wire, _ = running_core()
    core.show(b"\x01\x01\x01")
    core.tick(0.1)
    [(_, _, _frame), (ping_type, _, ping)] = wire.frames()
    assert ping_type == P.MSG_PING
    core.show(b"\x02\x02\x02")
    core.show(b"\x03\x03\x03")  # the Pico is still busy with the first: the newest waits
    core.tick(0.2)
    assert P.MSG_LED_FRAME not in wire.types()
    assert core.next_deadline(0.2) > 0.2  # the waiting frame does not spin the thread
    core.receive(pong(P.unpack_token(ping)), 0.3)
    core.tick(0.3)
    # (a keep-alive or the state request's retry may go out in the same tick)
    frames = [f for f in wire.frames() if f[0] in (P.MSG_LED_FRAME, P.MSG_PING)]
    assert [t for t, _s, _p in frames] == [P.MSG_LED_FRAME, P.MSG_PING]
    assert frames[0][2].endswith(b"\x03\x03\x03")  # latest wins; the middle one never went
    assert core.stats["led_frames_sent"] == 2 and core.stats["led_frames_dropped"] == 1


def test_a_lost_pong_holds_the_next_led_frame_only_for_the_fence() -> None:
    core, wire, _ = running_core()
    core.show(b"\x01\x01\x01")
    core.tick(0.1)
    wire.frames()
    core.show(b"\x02\x02\x02")
    core.tick(0.1 + LED_FENCE_S - 0.01)
    assert P.MSG_LED_FRAME not in wire.types()
    core.tick(0.1 + LED_FENCE_S)
    assert [t for t in wire.types() if t in (P.MSG_LED_FRAME, P.MSG_PING)] == [
        P.MSG_LED_FRAME, P.MSG_PING]


def beat(uptime_ms: int, epoch: int = EPOCH) -> bytes:
    return P.encode_frame(P.MSG_HEARTBEAT, 5, P.pack_heartbeat(epoch, 10, uptime_ms, 0))


def test_a_pico_ten_times_slower_than_its_clock_gets_ten_times_the_silence_limit() -> None:
    core, _wire, _ = running_core()
    for i in range(5):  # one heartbeat each 500 ms of the Pico's time, 5 s of the Pi's
        core.receive(beat(1000 + 500 * i), 5.0 * i)
    assert core.status(20.0)["pico_slowness"] == pytest.approx(10.0)
    assert core.status(29.0)["healthy"]  # 9 s since the last heartbeat: under a Pico second
    core.tick(20.0 + 20.0)  # 2 s of the Pico's time is 20 s here
    with pytest.raises(LinkLost, match="went silent"):
        core.tick(20.0 + 20.001)


def test_a_real_picos_pace_is_one_and_never_below() -> None:
    core, _wire, _ = running_core()
    for i in range(9):  # heartbeats read a little early or bunched by USB: never "faster"
        core.receive(beat(500 * i), 0.45 * i)
    assert core.status(4.0)["pico_slowness"] == 1.0
    core.tick(3.6 + 2.0)  # the last heartbeat came at 3.6: the limit is 2 s, as ever
    with pytest.raises(LinkLost):
        core.tick(3.6 + 2.001)


def test_the_pace_outlives_a_reset_until_the_new_boot_has_been_measured() -> None:
    core, _wire, _ = running_core()
    for i in range(3):
        core.receive(beat(500 * i), 4.0 * i)  # 8x
    core.receive(beat(100, epoch=EPOCH + 1), 9.0)  # a new boot: uptime starts again
    assert core.status(9.0)["pico_slowness"] == pytest.approx(8.0)


def test_a_slow_picos_answer_to_an_earlier_hello_of_the_same_handshake_is_taken() -> None:
    nonces = iter(range(500, 510))
    core, wire, _ = lone_core(nonce=lambda: next(nonces), request_retry_s=0.25)
    core.open(0.0)
    core.tick(0.25)
    core.tick(0.5)  # three HELLOs out: 500, 501, 502
    assert wire.types() == [P.MSG_HELLO] * 3
    core.receive(identify(nonce=500), 0.6)  # the Pico answers the first, late
    assert core.phase == "replay" and wire.types() == [P.MSG_REPLAY_REQ]
    core.close()
    core.open(1.0)  # a new handshake: the old one's nonces are stale
    wire.frames()
    core.receive(identify(nonce=501), 1.1)
    assert core.phase == "hello"


def test_a_gap_makes_the_next_nudge_due() -> None:
    core, _wire, _ = running_core(delivered=10)
    core.tick(0.25)  # the state request's retry: next due at 0.5
    core.receive(P.encode_frame(P.MSG_EVENT, 12, P.pack_event(EPOCH, 12, 1, P.PRESS)), 0.3)
    assert core.next_deadline(0.3) == pytest.approx(0.3 + core.nudge_s)


def test_a_closed_core_has_no_deadline() -> None:
    core, _wire, _ = lone_core()
    assert core.next_deadline(0.0) is None
    core.open(0.0)
    assert core.next_deadline(0.0) == pytest.approx(core.request_retry_s)  # HELLO again
    core.close()
    assert core.next_deadline(0.0) is None


# ---- exactly once, in order ----------------------------------------------------------------

def test_a_gap_holds_later_events_nudges_and_delivers_once_it_fills() -> None:
    core, wire, got = running_core(delivered=10)

    def event(seq: int) -> bytes:
        return P.encode_frame(P.MSG_EVENT, seq, P.pack_event(EPOCH, seq, 1, P.PRESS))

    core.receive(event(12) + event(13), 1.0)
    assert got == [] and sorted(core.ahead) == [12, 13]
    [(_t, _s, ack)] = wire.frames()
    assert P.unpack_ack(ack) == (EPOCH, 10, 13)  # the Pico learns 11 is missing
    core.tick(1.01)  # a nudge is due
    assert [P.unpack_ack(p) for t, _s, p in wire.frames() if t == P.MSG_ACK] == [(EPOCH, 10, 13)]
    core.receive(event(11) + event(12), 1.1)
    assert [e.seq for e in got] == [11, 12, 13]
    assert core.stats["duplicates"] == 1 and core.stats["out_of_order"] == 2
    assert P.unpack_ack(wire.frames()[-1][2]) == (EPOCH, 13, 13)


def test_a_stopping_service_takes_nothing_and_the_next_connection_replays_it(
        pair: Pair, clock: Clock) -> None:
    pair.accept = False
    pair.pico.sensor_event(4, P.PRESS)
    pair.run(5)
    assert pair.events == [] and pair.host.position == (EPOCH, 0)
    assert pair.pico.acked == 0  # not acknowledged
    second = Pair(clock)
    second.pico = pair.pico  # the same Pico, a restarted service at the same position
    pair.pico._write = second.wire_to_host.extend
    second.connect()
    second.run(5)
    assert [(e.channel, e.seq) for e in second.events] == [(4, 1)]


def test_a_reset_pico_starts_a_new_epoch(pair: Pair, clock: Clock) -> None:
    pair.pico.sensor_event(1, P.PRESS)
    pair.run(5)
    from firmware_bridge.firmware.core import FirmwareCore

    reborn = FirmwareCore(pair.wire_to_host.extend, clock, 42, 0xA5A5A5A5, "1.2.3",
                          epoch=0x55667788)
    pair.pico = reborn
    reborn.sensor_event(2, P.PRESS)
    pair.run(1000)  # its first heartbeat tells the host; HELLO again
    assert pair.host.connected and pair.host.position == (0x55667788, 1)
    assert [(e.seq, e.epoch) for e in pair.events] == [(1, EPOCH), (1, 0x55667788)]
    assert pair.host.stats["pico_resets"] == 1


def drop_every(n: int) -> object:
    count = {"n": 0}

    def faults(frames: list[bytes]) -> list[bytes]:
        kept = []
        for frame in frames:
            count["n"] += 1
            if count["n"] % n:
                kept.append(frame)
        return kept

    return faults


def test_a_lossy_wire_both_ways_still_delivers_everything_once_in_order(clock: Clock) -> None:
    pair = Pair(clock, to_host=drop_every(7), to_pico=drop_every(5))  # type: ignore[arg-type]
    pair.connect()
    rng = random.Random(5)
    sent = []
    for _ in range(1000):
        channel = rng.randrange(42)
        pair.pico.sensor_event(channel, P.PRESS)
        sent.append(channel)
        pair.run(rng.randrange(3))
    pair.run(3000)
    assert [e.channel for e in pair.events] == sent
    assert [e.seq for e in pair.events] == list(range(1, 1001))


def test_events_the_picos_ring_lost_are_counted_and_skipped(clock: Clock) -> None:
    pair = Pair(clock, host={"epoch": EPOCH, "delivered": 0}, pico={"ring_size": 8})
    for channel in range(12):  # while no host listens: the ring keeps the last 8
        pair.pico.sensor_event(channel, P.PRESS)
    pair.connect()
    pair.run(10)
    assert [e.seq for e in pair.events] == list(range(5, 13))
    assert pair.host.stats["events_lost"] == 4
    assert pair.saved[0] == (EPOCH, 4)


def test_a_position_ahead_of_the_pico_believes_the_pico(clock: Clock) -> None:
    pair = Pair(clock, host={"epoch": EPOCH, "delivered": 50})
    pair.pico.sensor_event(1, P.PRESS)
    pair.connect()
    pair.pico.sensor_event(2, P.PRESS)
    pair.run(5)
    assert pair.host.position == (EPOCH, 2)
    assert [e.seq for e in pair.events] == [2]


def test_a_dump_in_parts_is_whole_once_every_part_of_one_dump_is_in() -> None:
    core, wire, _ = running_core()
    dumps: list[StateDump] = []
    core._on_state = dumps.append

    def part(as_of: int, index: int, channel: int) -> bytes:
        return M.STATE_DUMP.frame(1, EPOCH, as_of, index, 2, [(channel, P.PRESS)])

    core.receive(part(10, 1, 41), 1.0)
    core.receive(part(11, 0, 0), 1.0)  # another dump (as_of 11) begins: part 1 of 10 is dropped
    assert dumps == [] and core.sensor_state is None
    core.receive(part(11, 1, 41), 1.0)
    assert dumps == [StateDump(EPOCH, 11, {0: ("press", None), 41: ("press", None)})]
    assert core.sensor_state == dumps[0]
    core.tick(1.5)
    assert P.MSG_STATE_REQ not in wire.types()  # whole: no longer asked for


# ---- LED frames -------------------------------------------------------------------------------

def test_led_frames_latest_wins_and_the_last_is_resent_after_a_reconnect(pair: Pair) -> None:
    pair.host.show(b"\x01\x02\x03" * 3)
    pair.host.show(b"\x09\x09\x09" * 200)  # replaces the unsent one
    pair.run(3)
    assert pair.leds == [b"\x09\x09\x09" * 200]
    assert pair.host.stats["led_frames_dropped"] == 1
    pair.host.lose("cable pulled", pair.now)
    pair.connect()
    pair.run(3)
    assert pair.leds == [b"\x09\x09\x09" * 200] * 2


# ---- dispatch ---------------------------------------------------------------------------------

def test_every_message_the_pico_sends_has_a_handler() -> None:
    core, _wire, _ = lone_core()
    from_pico = {m.type for m in M.MESSAGES if m.direction == M.PICO_TO_PI}
    assert len(from_pico) == 8 and set(core._handlers) == from_pico


def test_unknown_and_malformed_frames_are_counted_and_change_nothing() -> None:
    core, wire, got = running_core()
    core.receive(P.encode_frame(0x7E, 1, b"from the future") * 2
                 + P.encode_frame(P.MSG_EVENT, 2, b"\x01"), 1.0)
    assert core.stats["unknown_frames"] == 2 and core.stats["malformed"] == 1
    assert got == [] and wire.frames() == [] and core.position == (EPOCH, 10)


def test_lasting_pico_faults_are_kept_once_each() -> None:
    core, _wire, _ = running_core()
    line = P.encode_frame(P.MSG_LOG, 1, P.pack_text(P.LOG_ERROR, "nfc reader 3 missing"))
    core.receive(line + line + P.encode_frame(P.MSG_LOG, 2, P.pack_text(P.LOG_INFO, "hi")), 1.0)
    assert core.pico_faults == ["nfc reader 3 missing"]


# ---- fuzzing the receive path -----------------------------------------------------------------

def feed(core: HostCore, data: bytes) -> None:
    try:
        core.receive(data, 1.0)
    except LinkRefused:
        pass  # a refusal is a legitimate outcome (tested above); nothing else may escape


@settings(max_examples=300)
@given(st.lists(st.binary(max_size=300), max_size=8))
def test_random_bytes_never_crash_the_core_nor_make_events(chunks: list[bytes]) -> None:
    core, _wire, got = running_core()
    for chunk in chunks:
        feed(core, chunk)
    assert got == [] and core.position == (EPOCH, 10)


frame_types = st.sampled_from([*sorted(P.MESSAGE_NAMES), 0x00, 0x7E, 0xFF])


@settings(max_examples=300)
@given(st.lists(st.tuples(frame_types, st.integers(0, 255), st.binary(max_size=60)),
                max_size=10))
def test_well_framed_random_payloads_never_make_phantom_events(
        frames: list[tuple[int, int, bytes]]) -> None:
    core, _wire, got = running_core()
    for msg_type, seq, payload in frames:
        feed(core, P.encode_frame(msg_type, seq, payload))
    assert got == []


@settings(max_examples=200)
@given(st.integers(0, 0xFFFFFFFF).filter(lambda e: e != EPOCH), st.integers(1, 2**32 - 1),
       st.integers(0, 255), st.sampled_from(sorted(P.KIND_NAMES)))
def test_events_of_another_boot_or_channel_are_never_delivered(
        epoch: int, seq: int, channel: int, kind: int) -> None:
    core, _wire, got = running_core()
    uid = b"\x01\x02\x03\x04" if kind == P.TAG_PRESENT else b""
    feed(core, P.encode_frame(P.MSG_EVENT, 1, P.pack_event(epoch, seq, channel, kind, uid)))
    feed(core, P.encode_frame(P.MSG_EVENT, 1, P.pack_event(EPOCH, 11, 42 + channel % 200,
                                                           kind, uid)))
    assert got == [] and core.stats["phantom_rejected"] == 2


def test_a_genuine_next_event_is_delivered_once_even_if_repeated() -> None:
    core, wire, got = running_core()
    frame = P.encode_frame(P.MSG_EVENT, 1, P.pack_event(EPOCH, 11, 3, P.PRESS))
    feed(core, b"\x13\x37" + frame + frame + frame[:4])
    assert got == [SensorEvent(3, "press", None, 11, EPOCH)]
    acks = [P.unpack_ack(p) for t, _s, p in wire.frames() if t == P.MSG_ACK]
    assert acks and acks[-1] == (EPOCH, 11, 11)
