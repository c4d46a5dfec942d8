"""The virtual Pico: its device path behaves like a USB device's, its faults really happen."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import serial

from firmware_bridge import messages as M
from firmware_bridge import protocol as P
from firmware_bridge.emulator import Emulator, Faults, emulator_from_args, parse_args
from firmware_bridge.link import SensorEvent

from .conftest import Rig, wait_for


def hello_and_read(path: str, wait: float = 30.0) -> list[tuple[int, int, bytes]]:
    """Open the path with pyserial, say HELLO, return the frames read until the IDENTIFY
    answer came (or ``wait`` seconds passed)."""
    decoder = P.FrameDecoder()
    frames: list[tuple[int, int, bytes]] = []
    with serial.Serial(path, 115200, timeout=0.05) as port:
        port.write(P.encode_frame(P.MSG_HELLO, 1, M.HELLO.encode(P.PROTOCOL_VERSION, 7)))
        end = time.monotonic() + wait
        while time.monotonic() < end and P.MSG_IDENTIFY not in [t for t, _s, _p in frames]:
            frames += decoder.feed(port.read(512))
    return frames


def test_the_path_vanishes_on_unplug_and_returns_on_replug(rig: Rig) -> None:
    emu = rig.emulator()
    first = os.path.realpath(emu.path)
    assert P.MSG_IDENTIFY in [t for t, _s, _p in hello_and_read(emu.path)]
    emu.unplug()
    assert not os.path.lexists(emu.path) and not emu.plugged
    emu.replug()
    assert os.path.exists(emu.path)
    assert os.path.realpath(emu.path) != first or os.path.exists(first)
    assert P.MSG_IDENTIFY in [t for t, _s, _p in hello_and_read(emu.path)]


def test_an_invalid_touch_is_refused_in_the_callers_thread() -> None:
    emu = Emulator(sensor_count=4)
    for bad in (lambda: emu.press(4), lambda: emu.tag(0, b""), lambda: emu.tag(0, bytes(11))):
        try:
            bad()
        except ValueError:
            continue
        raise AssertionError("accepted an invalid touch")


def test_faults_damage_frames_at_about_the_asked_rates() -> None:
    emu = Emulator(faults=Faults(corrupt=0.05, drop=0.2, duplicate=0.2, seed=5))
    frame = P.encode_frame(P.MSG_PONG, 1, P.pack_token(1))
    pieces = [emu._mangle(frame, True) for _ in range(1000)]
    dropped = sum(1 for p in pieces if not p)
    duplicated = sum(1 for p in pieces if len(p) == 2)
    assert 150 < dropped < 250 and 150 < duplicated < 250
    # Every byte of each frame that was not dropped had a 5% chance to be corrupted.
    rate = emu.stats["bytes_corrupted"] / ((1000 - dropped) * len(frame))
    assert 0.035 < rate < 0.065
    assert any(p and p[0] != frame for p in pieces)


def test_baud_pacing_holds_bytes_to_the_uart_rate(rig: Rig) -> None:
    emu = rig.emulator(faults=Faults(baud=9600))
    with serial.Serial(emu.path, 115200, timeout=0.05) as port:
        port.write(P.encode_frame(P.MSG_HELLO, 1, M.HELLO.encode(P.PROTOCOL_VERSION, 7)))
        port.write(P.encode_frame(P.MSG_STATE_REQ, 2, b""))
        start = time.monotonic()
        data = b""
        while time.monotonic() - start < 30 and len(P.FrameDecoder().feed(data)) < 2:
            data += port.read(512)
        elapsed = time.monotonic() - start
    # IDENTIFY + a 42-channel dump are about 170 bytes: >= 0.17 s at 960 bytes/s. A lower
    # bound only: a busy machine makes the bytes later, never earlier.
    assert len(data) > 150 and elapsed >= len(data) / 960 * 0.8


def test_a_power_cycled_pico_is_a_new_boot_and_its_new_touches_arrive(
        rig: Rig) -> None:
    emu = rig.emulator()
    got: list[SensorEvent] = []
    link = rig.link(emu.path, got)
    assert wait_for(lambda: link.connected)
    emu.touch(1)
    assert wait_for(lambda: len(got) == 2)
    emu.unplug()
    emu.reset()
    emu.touch(8)  # after power-up, before the USB host reconnected
    emu.replug()
    assert wait_for(lambda: len(got) == 4)
    assert [(e.channel, e.seq, e.epoch) for e in got[2:]] == [
        (8, 1, emu.core.epoch), (8, 2, emu.core.epoch)]


def test_a_failing_led_callback_does_not_stop_the_virtual_pico(rig: Rig) -> None:
    def broken(pixels: list[tuple[int, int, int]]) -> None:
        raise RuntimeError("the page went away")

    emu = rig.emulator(on_led_frame=broken)
    got: list[SensorEvent] = []
    link = rig.link(emu.path, got)
    assert wait_for(lambda: link.connected)
    link.send_led_frame([(9, 9, 9)] * 3)
    assert wait_for(lambda: bool(emu.led_frames))
    emu.touch(6)
    assert wait_for(lambda: len(got) == 2)


def test_help_prints_the_options_and_starts_nothing() -> None:
    proc = subprocess.run([sys.executable, "-m", "firmware_bridge.emulator", "--help"],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0
    for option in ("--sensors", "--profile-crc", "--board", "--corrupt", "--drop",
                   "--duplicate", "--delay-ms", "--path"):
        assert option in proc.stdout
    assert "virtual Pico at" not in proc.stdout


def test_command_line_options_shape_the_emulator(tmp_path: Path) -> None:
    path = str(tmp_path / "ttyPico")
    args = parse_args(["--sensors", "12", "--profile-crc", "c0ffee", "--drop", "0.25",
                       "--corrupt", "0.01", "--duplicate", "0.5", "--delay-ms", "3",
                       "--path", path])
    emu = emulator_from_args(args)
    assert (emu.sensor_count, emu.profile_crc, emu.path) == (12, 0xC0FFEE, path)
    assert (emu.faults.drop, emu.faults.corrupt, emu.faults.duplicate,
            emu.faults.delay_ms) == (0.25, 0.01, 0.5, 3.0)


def test_board_option_reports_that_profiles_count_and_crc() -> None:
    from hardware.profiles import load_profile

    profile = load_profile("classic-42")
    emu = emulator_from_args(parse_args(["--board", "classic-42"]))
    emu.stop()  # never started: removes its temporary folder
    assert (emu.sensor_count, emu.profile_crc) == (profile.sensor_count, profile.sensor_crc())


def test_a_probability_above_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parse_args(["--drop", "1.5"])
    assert exited.value.code == 2
    assert "--drop is a probability between 0 and 1, got 1.5" in capsys.readouterr().err
