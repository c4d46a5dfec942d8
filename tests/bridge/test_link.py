"""The Pi-side Link against the emulated Pico, through real pyserial on a pty."""

from __future__ import annotations

import inspect
import itertools
import json
import logging
import os
import random
import re
import select
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
import serial

from firmware_bridge import link as link_module
from firmware_bridge import protocol as P
from firmware_bridge.emulator import Faults
from firmware_bridge.firmware.core import FirmwareCore
from firmware_bridge.host_core import KEEPALIVE_S, SILENCE_TIMEOUT_S
from firmware_bridge.link import BACKOFF_MAX_S, Link, SensorEvent, StateDump

from .conftest import GENEROUS_SILENCE_S, Rig, wait_for


def kinds(events: list[SensorEvent]) -> list[tuple[int, str, bytes | None]]:
    return [(e.channel, e.kind, e.uid) for e in events]


def test_touches_arrive_as_typed_events_in_order(rig: Rig) -> None:
    emu = rig.emulator(profile_crc=0xC0FFEE)
    got: list[SensorEvent] = []
    link = rig.link(emu.path, got, expected_profile_crc=0xC0FFEE)
    assert wait_for(lambda: link.connected)
    emu.touch(4)
    emu.tag(9, b"\x04\xa1\xb2\xc3")
    emu.untag(9)
    assert wait_for(lambda: len(got) == 4)
    assert kinds(got) == [(4, "press", None), (4, "release", None),
                          (9, "tag_present", b"\x04\xa1\xb2\xc3"), (9, "tag_removed", None)]
    assert [e.seq for e in got] == [1, 2, 3, 4]
    assert {e.epoch for e in got} == {emu.core.epoch}


def test_status_reports_identity_heartbeat_rtt_and_counters(rig: Rig) -> None:
    emu = rig.emulator(firmware_version="2.5.1", board_id="test-board")
    link = rig.link(emu.path, [])
    assert wait_for(lambda: link.connected)
    assert wait_for(lambda: link.get_status()["last_heartbeat_age_s"] is not None)
    assert wait_for(lambda: link.get_status()["rtt_ms"]["last"] is not None)
    assert wait_for(lambda: link.get_status()["healthy"] is True)  # heartbeats keep coming
    status = link.get_status()
    assert status["state"] == "connected" and status["connected"] is True
    assert status["firmware_version"] == "2.5.1"
    assert status["board_id"] == "test-board"
    assert status["sensor_count"] == 42
    assert status["stats"]["frames_received"] > 0 and status["stats"]["frames_sent"] > 0
    assert status["rtt_ms"]["min"] <= status["rtt_ms"]["last"] <= status["rtt_ms"]["max"]
    for key in ("crc_errors", "invalid_bytes", "duplicates", "reconnects"):
        assert status["stats"][key] == 0


@pytest.mark.slow
def test_ten_thousand_events_survive_corruption_loss_and_duplication(rig: Rig) -> None:
    faults = Faults(corrupt=0.01, drop=0.01, duplicate=0.01, seed=20261129)
    emu = rig.emulator(faults=faults)
    got: list[SensorEvent] = []
    link = rig.link(emu.path, got)
    assert wait_for(lambda: link.connected)
    rng = random.Random(7)
    expected = []
    for _ in range(10_000):
        channel = rng.randrange(42)
        if rng.random() < 0.5:
            emu.press(channel)
            expected.append((channel, "press", None))
        else:
            uid = bytes(rng.randrange(256) for _ in range(7))
            emu.tag(channel, uid)
            expected.append((channel, "tag_present", uid))
    assert wait_for(lambda: len(got) >= 10_000, 60)
    assert emu.wait_idle()  # every event acknowledged: nothing left that could still arrive
    time.sleep(0.3)  # and a few retransmit periods more, for a late duplicate to show
    assert len(got) == 10_000
    assert len({e.seq for e in got}) == 10_000
    assert kinds(got) == expected
    assert [e.seq for e in got] == list(range(1, 10_001))
    stats = link.get_status()["stats"]
    # The faults really happened and were survived.
    assert emu.stats["bytes_corrupted"] > 100 and emu.stats["frames_dropped"] > 50
    assert emu.stats["frames_duplicated"] > 50
    assert stats["crc_errors"] > 0 and stats["duplicates"] > 0


class RecordedWaits(threading.Event):
    """The link's stop event, noting every pause the link thread takes on it."""

    def __init__(self) -> None:
        super().__init__()
        self.waits: list[float | None] = []

    def wait(self, timeout: float | None = None) -> bool:
        self.waits.append(timeout)
        return super().wait(timeout)


def test_a_replugged_port_is_retried_at_most_every_400_ms_and_loses_nothing(
        rig: Rig, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="firmware_bridge.link")
    emu = rig.emulator()
    got: list[SensorEvent] = []
    link = Link(emu.path, got.append)
    link.core.silence_timeout_s = GENEROUS_SILENCE_S  # one reconnect: the replug's alone
    link._stop = paused = RecordedWaits()
    rig.links.append(link)
    link.start()
    assert wait_for(lambda: link.connected)
    emu.touch(1)
    assert wait_for(lambda: len(got) == 2)
    emu.unplug()
    assert not os.path.exists(emu.path)
    assert wait_for(lambda: not link.connected)
    assert link.get_status()["healthy"] is False
    emu.touch(2)  # touched while the cable is out: kept in the Pico's ring
    emu.tag(3, b"\x01\x02\x03\x04")
    # the backoff doubles up to its cap and stays there (a replug is noticed within 0.4 s;
    # bench.bridge_reconnect measures the time it takes)
    assert wait_for(lambda: paused.waits.count(BACKOFF_MAX_S) >= 2)
    emu.replug()
    assert wait_for(lambda: len(got) == 5)
    assert max(w for w in paused.waits if w is not None) == BACKOFF_MAX_S
    time.sleep(0.1)
    assert kinds(got) == [(1, "press", None), (1, "release", None), (2, "press", None),
                          (2, "release", None), (3, "tag_present", b"\x01\x02\x03\x04")]
    assert [e.seq for e in got] == [1, 2, 3, 4, 5]
    assert link.get_status()["stats"]["reconnects"] == 1
    messages = [r.getMessage() for r in caplog.records]
    assert any(m.startswith(f"event=link.connected port={emu.path} fw=1.0.0") for m in messages)
    assert any(re.match(rf"event=link.reconnect port={re.escape(emu.path)} fw=1.0.0 "
                        r"after_ms=\d+", m) for m in messages)


def test_a_pico_reset_starts_a_new_epoch_instead_of_looking_like_duplicates(rig: Rig) -> None:
    emu = rig.emulator()
    got: list[SensorEvent] = []
    link = rig.link(emu.path, got)
    assert wait_for(lambda: link.connected)
    emu.touch(5)
    assert wait_for(lambda: len(got) == 2)
    old_epoch = emu.core.epoch
    emu.reset()
    assert emu.core.epoch != old_epoch
    emu.touch(6)  # seq 1 and 2 again, but of the new boot
    assert wait_for(lambda: len(got) == 4)
    assert [(e.channel, e.seq, e.epoch) for e in got[2:]] == [
        (6, 1, emu.core.epoch), (6, 2, emu.core.epoch)]
    assert link.get_status()["stats"]["pico_resets"] == 1


def test_a_restarted_pi_service_gets_the_touches_it_missed_exactly_once(
        rig: Rig, tmp_path: Path) -> None:
    emu = rig.emulator(nfc_channels=[30])
    state = tmp_path / "link-position.json"
    first: list[SensorEvent] = []
    link = rig.link(emu.path, first, state_path=state)
    assert wait_for(lambda: link.connected)
    emu.touch(1)
    assert wait_for(lambda: len(first) == 2)
    link.stop()
    emu.touch(2)  # made while the Pi service was down
    assert emu.wait_idle()
    second: list[SensorEvent] = []
    states: list[StateDump] = []
    link2 = rig.link(emu.path, second, state_path=state, on_state=states.append)
    assert wait_for(lambda: len(second) == 2 and bool(states))
    time.sleep(0.1)
    assert [(e.channel, e.kind, e.seq) for e in second] == [(2, "press", 3), (2, "release", 4)]
    assert states[-1].as_of_seq == 4 and states[-1].channels[2] == ("release", None)
    assert states[-1].channels[30] == ("tag_removed", None)
    assert link2.position == (emu.core.epoch, 4)


def test_last_seq_given_at_construction_skips_what_was_delivered(rig: Rig) -> None:
    emu = rig.emulator()
    emu.touch(1)
    emu.touch(2)
    assert emu.wait_idle()
    got: list[SensorEvent] = []
    rig.link(emu.path, got, last_epoch=emu.core.epoch, last_seq=3)
    assert wait_for(lambda: len(got) == 1)
    time.sleep(0.1)
    assert [(e.channel, e.kind, e.seq) for e in got] == [(2, "release", 4)]


def test_a_pico_with_another_protocol_version_is_refused_with_a_clear_message(
        rig: Rig) -> None:
    emu = rig.emulator(protocol_version=P.PROTOCOL_VERSION + 1)
    got: list[SensorEvent] = []
    link = rig.link(emu.path, got)
    emu.touch(1)
    assert wait_for(lambda: link.get_status()["state"] == "refused")
    message = link.get_status()["last_error"]
    assert f"protocol version {P.PROTOCOL_VERSION + 1}" in message
    assert "flash matching firmware" in message
    time.sleep(0.1)
    assert got == []


def test_a_mismatched_board_profile_is_caught_at_connect(rig: Rig) -> None:
    emu = rig.emulator(profile_crc=0x11111111)
    got: list[SensorEvent] = []
    link = rig.link(emu.path, got, expected_profile_crc=0x22222222)
    emu.touch(1)
    assert wait_for(lambda: link.get_status()["state"] == "refused")
    assert "board profile mismatch" in link.get_status()["last_error"]
    assert "11111111" in link.get_status()["last_error"]
    assert got == []


def test_garbage_half_frames_and_foreign_frames_are_skipped(rig: Rig) -> None:
    emu = rig.emulator(faults=Faults(garbage=0.2, seed=3, direction="to_host"))
    got: list[SensorEvent] = []
    link = rig.link(emu.path, got)
    assert wait_for(lambda: link.connected)
    half = P.encode_frame(P.MSG_EVENT, 1, P.pack_event(emu.core.epoch, 1, 0, P.PRESS))[:7]
    emu.inject(P.encode_frame(0x7E, 1, b"from the future"))
    emu.inject(half)  # a half-written frame: it spoils the frame after it too
    for channel in range(20):
        emu.touch(channel)
    assert wait_for(lambda: len(got) == 40)
    time.sleep(0.1)
    assert [(e.channel, e.kind) for e in got] == [
        (c, k) for c in range(20) for k in ("press", "release")]
    stats = link.get_status()["stats"]
    assert stats["unknown_frames"] == 1
    assert stats["invalid_bytes"] > 0


def test_delayed_frames_still_arrive_in_order(rig: Rig) -> None:
    emu = rig.emulator(faults=Faults(delay_ms=30, direction="to_host"))
    got: list[SensorEvent] = []
    link = rig.link(emu.path, got)
    assert wait_for(lambda: link.connected)
    for channel in range(10):
        emu.press(channel)
    assert wait_for(lambda: len(got) == 10)
    assert [e.channel for e in got] == list(range(10))


def test_led_frames_reach_the_pico_in_chunks(rig: Rig) -> None:
    emu = rig.emulator()
    link = rig.link(emu.path, [])
    assert wait_for(lambda: link.connected)
    pixels = [(i % 256, (2 * i) % 256, 255 - i) for i in range(126)]
    link.send_led_frame(pixels)
    assert wait_for(lambda: bool(emu.led_frames))
    assert emu.led_frames[-1] == pixels


def test_a_missing_port_is_waited_for_and_nothing_blocks(rig: Rig, tmp_path: Path) -> None:
    path = str(tmp_path / "ttyPico")
    got: list[SensorEvent] = []
    link = rig.link(path, got)
    link.send_led_frame([(1, 2, 3)] * 126)  # returns with no Pico there: the frame is queued
    assert link.get_status()["state"] == "disconnected"
    emu = rig.emulator(path=path)
    emu.touch(0)
    assert wait_for(lambda: len(got) == 2)
    assert wait_for(lambda: bool(emu.led_frames))
    assert emu.led_frames[-1] == [(1, 2, 3)] * 126


def test_a_missing_port_is_logged_once_with_a_sentence(
        rig: Rig, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="firmware_bridge.link")
    path = str(tmp_path / "riskboard-pico")
    link = Link(path, lambda e: None)
    link._stop = paused = RecordedWaits()
    rig.links.append(link)
    link.start()
    assert wait_for(lambda: len(paused.waits) >= 4)  # several retries
    assert link.get_status()["last_error"] == f"no Pico at {path}: is it plugged in?"
    lines = [r.getMessage() for r in caplog.records if "link.open_failed" in r.getMessage()]
    assert lines == [f"event=link.open_failed port={path} reason="
                     f"'no Pico at {path}: is it plugged in?'"]


def test_permission_denied_names_the_dialout_group(
        rig: Rig, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="firmware_bridge.link")
    path = tmp_path / "ttyACM0"
    path.write_bytes(b"")

    def denied(port: str, *args: object, **kwargs: object) -> None:
        raise serial.SerialException(13, f"could not open port {port}: [Errno 13] "
                                         f"Permission denied: {port!r}")

    link = Link(str(path), lambda e: None, serial_factory=denied)
    rig.links.append(link)
    link._stop = paused = RecordedWaits()
    link.start()
    assert wait_for(lambda: len(paused.waits) >= 4)  # several retries
    assert link.get_status()["last_error"] == (
        f"permission denied on {path}: add the user to the dialout group "
        f"(sudo usermod -aG dialout $USER, then log in again)")
    assert sum("link.open_failed" in r.getMessage() for r in caplog.records) == 1


def test_the_picos_setup_faults_show_in_the_status_after_each_connect(rig: Rig) -> None:
    emu = rig.emulator()
    emu.core.faults.append("event=nfc.setup channel=3 model=pn532 error=no answer")
    link = rig.link(emu.path, [])
    assert wait_for(lambda: link.connected)
    assert wait_for(lambda: bool(link.get_status()["pico_faults"]))
    assert link.get_status()["pico_faults"] == [
        "event=nfc.setup channel=3 model=pn532 error=no answer"]
    link.stop()
    link2 = rig.link(emu.path, [])  # a restarted service hears of it again
    assert wait_for(lambda: bool(link2.get_status()["pico_faults"]))


def test_stop_joins_the_thread(rig: Rig) -> None:
    emu = rig.emulator()
    link = rig.link(emu.path, [])
    assert wait_for(lambda: link.connected)
    thread = link._thread
    link.stop()
    assert thread is not None and not thread.is_alive()
    assert link.get_status()["state"] == "stopped"


def test_a_stop_during_a_slow_handler_keeps_one_thread_and_exactly_once(
        rig: Rig, tmp_path: Path) -> None:
    emu = rig.emulator()
    state = tmp_path / "link-position.json"
    got: list[tuple[int, str]] = []
    release = threading.Event()

    def slow(event: SensorEvent) -> None:
        got.append((event.seq, threading.current_thread().name))
        if event.seq == 1:
            release.wait(60)  # a handler stuck until the test releases it

    link = Link(emu.path, slow, state_path=state)
    rig.links.append(link)
    link.start()
    assert wait_for(lambda: link.connected)
    emu.touch(1)  # seq 1 (blocks the handler) and seq 2
    assert wait_for(lambda: len(got) == 1)
    old_thread = link._thread
    link.stop(timeout=0.5)  # returns although the handler is still stuck
    assert link.get_status()["state"] == "stopping"
    assert old_thread is not None and old_thread.is_alive()
    assert not state.exists() or json.loads(state.read_text())["seq"] == 0
    with pytest.raises(RuntimeError, match="still stopping"):
        link.start(timeout=0.2)  # two threads would share the link's state
    release.set()  # the handler returns
    link.start(timeout=30)  # waits for the old thread to end, then starts afresh
    assert not old_thread.is_alive()
    assert wait_for(lambda: len(got) == 2)
    # the position is written after the handler returns: wait for it, not a fixed sleep
    want = {"epoch": emu.core.epoch, "seq": 2}
    assert wait_for(lambda: state.exists() and json.loads(state.read_text()) == want), (
        state.read_text() if state.exists() else "no position file")
    assert [seq for seq, _ in got] == [1, 2]  # seq 2 was not delivered after stop
    assert threading.active_count() < 50


def test_a_failing_event_handler_does_not_stop_later_events(rig: Rig) -> None:
    emu = rig.emulator()
    got: list[SensorEvent] = []

    def handler(event: SensorEvent) -> None:
        got.append(event)
        if event.seq == 1:
            raise RuntimeError("table hiccup")

    link = Link(emu.path, handler)
    link.start()
    rig.links.append(link)
    emu.touch(3)
    assert wait_for(lambda: len(got) == 2)
    assert [e.seq for e in got] == [1, 2]


def test_an_unexpected_error_in_the_link_thread_is_survived(rig: Rig) -> None:
    emu = rig.emulator()
    calls = {"n": 0}

    class Flaky(serial.Serial):
        def read(self, size: int = 1) -> bytes:
            calls["n"] += 1
            if calls["n"] == 3:
                raise RuntimeError("a bug in a driver")
            return super().read(size)

    got: list[SensorEvent] = []
    link = rig.link(emu.path, got, serial_factory=Flaky)
    assert wait_for(lambda: calls["n"] > 3)  # the error happened, reading goes on
    emu.touch(2)
    assert wait_for(lambda: len(got) == 2)
    assert link.connected and "a bug in a driver" in link.get_status()["last_error"]


def test_random_bytes_over_the_pty_make_no_phantom_events(rig: Rig) -> None:
    emu = rig.emulator()
    got: list[SensorEvent] = []
    link = rig.link(emu.path, got)
    assert wait_for(lambda: link.connected)
    rng = random.Random(99)
    for _ in range(100):
        emu.inject(bytes(rng.randrange(256) for _ in range(500)))
        time.sleep(0.002)  # a pty holds only a few KiB; the emulator drops what overflows
    assert emu.wait_idle()
    assert wait_for(lambda: link.get_status()["stats"]["invalid_bytes"] > 40_000), (
        link.get_status()["stats"], emu.stats)
    emu.touch(11)  # and the link still works afterwards
    assert wait_for(lambda: len(got) == 2)
    assert [(e.channel, e.seq) for e in got] == [(11, 1), (11, 2)]


def test_a_pico_scanning_another_number_of_sensors_is_refused(rig: Rig) -> None:
    emu = rig.emulator(sensor_count=40)
    link = rig.link(emu.path, [], expected_sensor_count=42)
    assert wait_for(lambda: link.get_status()["state"] == "refused")
    assert "scans 40 sensors" in link.get_status()["last_error"]


def test_an_unreadable_position_file_starts_fresh(tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    state = tmp_path / "position.json"
    state.write_text("{not json")
    link = Link(str(tmp_path / "none"), lambda e: None, state_path=state)
    assert link.position == (None, 0)
    assert any("event=link.state_unreadable" in r.getMessage() for r in caplog.records)
    state.write_text('{"epoch": 7, "seq": 12}')
    assert Link(str(tmp_path / "none"), lambda e: None, state_path=state).position == (7, 12)


def test_a_second_link_on_the_same_port_is_kept_out(rig: Rig) -> None:
    emu = rig.emulator()
    first: list[SensorEvent] = []
    link = rig.link(emu.path, first)
    assert wait_for(lambda: link.connected)
    second: list[SensorEvent] = []
    intruder = rig.link(emu.path, second)
    assert wait_for(lambda: "another program holds it" in (
        intruder.get_status()["last_error"] or ""))
    emu.touch(4)
    assert wait_for(lambda: len(first) == 2)
    time.sleep(0.1)
    assert second == [] and not intruder.connected


@pytest.mark.slow
def test_the_links_timeouts_run_on_the_clock_it_is_given(
        rig: Rig, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="firmware_bridge")
    emu = rig.emulator()  # answers pings at once, and heartbeats every 0.5 s of real time
    leaping = threading.Event()
    leaps = itertools.count()

    def clock() -> float:
        # once leaping, every reading is 10 s after the last: whatever arrived, the next
        # look at the clock finds it 10 s old, past the 2 s limit, while no real time passes
        return time.monotonic() + (10.0 * next(leaps) if leaping.is_set() else 0.0)

    fast = rig.link(emu.path, [], clock=clock, silence_timeout_s=SILENCE_TIMEOUT_S)
    assert wait_for(lambda: fast.connected)
    leaping.set()
    # the log keeps it (last_error may already give the next attempt's reason)
    assert wait_for(lambda: any(
        "went silent" in r.getMessage() and emu.path in r.getMessage()
        for r in caplog.records)), [r.getMessage() for r in caplog.records]
    emu2 = rig.emulator()
    start = time.monotonic()
    # ten times slow: 0.5 s between heartbeats reads as 0.05 s, so only a stall of the test
    # process of over 20 s could read as silence, whatever the load
    steady = rig.link(emu2.path, [], clock=lambda: start + (time.monotonic() - start) / 10,
                      silence_timeout_s=SILENCE_TIMEOUT_S)
    assert wait_for(lambda: steady.connected)
    time.sleep(1.5)  # three heartbeats
    assert steady.connected and steady.get_status()["last_error"] is None


class QuietPort:
    """A serial port on a pipe whose Pico never writes; keeps what the link wrote."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        self._read, self._write = os.pipe()
        self.in_waiting = 0
        self.written = bytearray()

    def fileno(self) -> int:
        return self._read

    def reset_input_buffer(self) -> None:
        pass

    def read(self, size: int = 1) -> bytes:
        return b""

    def write(self, data: bytes) -> None:
        self.written.extend(data)

    def close(self) -> None:
        os.close(self._read)
        os.close(self._write)


@pytest.fixture
def sleeping_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A Link on a `QuietPort` at a hand clock (`.hand`, seconds), its thread not started:
    the test turns it (`_service`); every sleep it asks of select is kept (`.asked`) and
    none is slept."""
    device = tmp_path / "ttyQuiet"
    device.write_bytes(b"")
    hand = [100.0]
    link = Link(str(device), lambda e: None, serial_factory=QuietPort, clock=lambda: hand[0])
    asked: list[tuple[list[int], float]] = []

    def recording_select(read: list[int], write: list[int], error: list[int],
                         timeout: float) -> tuple[list[int], list[int], list[int]]:
        asked.append((list(read), timeout))
        return select.select(read, write, error, 0)  # what is ready now, without the sleep

    monkeypatch.setattr(link_module, "select", SimpleNamespace(select=recording_select))
    link.hand, link.asked = hand, asked  # type: ignore[attr-defined]
    assert link._open()
    yield link
    link._close()


def test_the_link_sleeps_until_the_cores_next_deadline_not_a_fixed_poll(sleeping_link) -> None:
    link = sleeping_link
    link._service()  # HELLO went out at the open: its retry is the next thing due
    assert link.asked[-1][1] == pytest.approx(link.core.next_deadline(link.hand[0]) - 100.0)
    assert link.asked[-1][1] == pytest.approx(link.core.request_retry_s)
    link.hand[0] += 0.1
    link._service()
    assert link.asked[-1][1] == pytest.approx(link.core.request_retry_s - 0.1)


def test_a_queued_led_frame_or_a_stop_ends_the_links_sleep(sleeping_link) -> None:
    link = sleeping_link
    link._service()
    _port_fd, *wake = link.asked[-1][0]
    assert wake, "the link sleeps on its port alone: nothing could wake it"

    def readable() -> list[int]:
        return select.select(wake, [], [], 0)[0]

    assert readable() == []
    link.send_led_frame([(1, 2, 3)])
    assert readable() == wake
    link._service()  # sends the frame, then empties its wake-up pipe
    link._service()
    assert readable() == []
    link.stop()
    assert readable() == wake


def test_an_idle_running_link_sleeps_past_the_picos_next_heartbeat(sleeping_link) -> None:
    link = sleeping_link
    core, now, epoch = link.core, link.hand[0], 0x0BADCAFE
    for frame in (
            P.encode_frame(P.MSG_IDENTIFY, 1, P.pack_identify(
                P.PROTOCOL_VERSION, (1, 0, 0), 42, 0, epoch, 0, core._nonce, "classic-42")),
            P.encode_frame(P.MSG_REPLAY_END, 2, P.pack_replay_end(epoch, 1, 0)),
            P.encode_frame(P.MSG_STATE_DUMP, 3, P.pack_state_dump(epoch, 0, 0, 1, b""))):
        core.receive(frame, now)
    core.tick(now)
    assert core.connected
    link._service()  # nothing more to send: it sleeps until its keep-alive is due ...
    assert link.asked[-1][1] == pytest.approx(KEEPALIVE_S)
    # ... a second, past the Pico's next heartbeat (every 500 ms), which wakes it first
    heartbeat_ms = inspect.signature(FirmwareCore).parameters["heartbeat_ms"].default
    assert link.asked[-1][1] > heartbeat_ms / 1000
