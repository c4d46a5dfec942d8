"""The firmware README's mpremote update path on the emulated Pico: with the service
stopped, the first mpremote command makes the running firmware write maintenance.flag and
reset (the command fails, as README warns); the same command again reaches the REPL and
works; its final ``reset`` runs the firmware again, with what was written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge import protocol as P
from tools.picobox import flash
from tools.picobox.box import PicoBox, pico_time
from tools.picobox.pi_side import Pi

MPREMOTE = str(Path(sys.executable).parent / "mpremote")


def wait_for_firmware_loop(box: PicoBox, after: int) -> None:
    """Past the three boot blinks: the loop's own blinking (or the REPL's silence) begins."""
    assert box.wait_until(lambda: len([e for e in box.events()[after:]
                                       if e["ev"] == "status_led"]) >= 6, emu_s=15)
    box.run_for(0.3)


def test_the_readme_update_path_works_on_the_second_try(tmp_path: Path) -> None:
    box = PicoBox(tmp_path / "box", mpy=False, seed=3)  # README copies .py files
    box.start()
    try:
        wait_for_firmware_loop(box, 0)
        # README's steps chained in one call, as it advises: copy, pick the board, reset
        command = [MPREMOTE, "connect", box.port, "fs", "cp", *flash.readme_files(), ":",
                   "+", "exec", flash.readme_board_command(), "+", "reset"]
        boots = len(box.events("boot"))
        first = subprocess.run(command, cwd=flash.REPO, capture_output=True, text=True,
                               timeout=600)
        assert first.returncode != 0, first.stdout  # README: expected to stop once
        # the firmware saw mpremote's raw-REPL request: flag written, chip reset
        assert box.wait_until(lambda: len(box.events("boot")) > boots, emu_s=8), (
            first.stdout, first.stderr, bytes(box.from_pico[-400:]))
        wait_for_firmware_loop(box, len(box.events()) - 1)
        second = subprocess.run(command, cwd=flash.REPO, capture_output=True, text=True,
                                timeout=900)
        assert second.returncode == 0, (second.stdout, second.stderr)
        with pico_time(box):
            pi = Pi(box)
            pi.link.start()
            try:
                assert pi.wait_connected(emu_s=20), pi.status()
                # the board README's step names (its board.txt reached the flash)
                assert pi.status()["board_id"] == "classic-42-nfc"
            finally:
                pi.link.stop()
    except subprocess.TimeoutExpired as exc:  # pragma: no cover - a diagnosis, not a pass
        pytest.fail(f"mpremote hung: {exc}")
    finally:
        box.stop()


def test_mpremotes_request_just_after_the_pis_last_frame_reboots_into_the_repl(
        tmp_path: Path) -> None:
    # `sudo systemctl stop riskboard && mpremote ...`: mpremote's raw-REPL request comes a
    # fraction of a second after the service's last frame, then the Pi is silent. The real
    # firmware reboots into the REPL all the same (two seconds of silence say the Pi has
    # gone), and the REPL is mpremote's on the next boot.
    box = PicoBox(tmp_path / "box", seed=4)
    box.start()
    try:
        wait_for_firmware_loop(box, 0)
        with pico_time(box):
            pi = Pi(box)
            pi.link.start()
            try:
                assert pi.wait_connected(emu_s=20), pi.status()
            finally:
                pi.link.stop()
        boots = len(box.events("boot"))
        port = os.open(box.port, os.O_RDWR | os.O_NOCTTY)
        try:
            os.write(port, P.encode_frame(P.MSG_PING, 1, P.pack_token(1)))  # the last frame
            box.run_for(0.2)
            os.write(port, b"\r\x03")
            os.write(port, b"\r\x01")
            assert box.wait_until(lambda: len(box.events("boot")) > boots, emu_s=8), \
                bytes(box.from_pico[-300:])
        finally:
            os.close(port)
        assert b"rebooting into the REPL for mpremote" in box.from_pico
        assert box.wait_until(lambda: os.path.exists(box.port), emu_s=10)
        wait_for_firmware_loop(box, len(box.events()) - 1)
        seen = len(box.from_pico)
        port = os.open(box.port, os.O_RDWR | os.O_NOCTTY)
        try:
            os.write(port, b"\r\x03\r\x01")  # mpremote's request again: the REPL answers
            assert box.wait_until(lambda: b"raw REPL; CTRL-B to exit" in
                                  bytes(box.from_pico[seen:]), emu_s=5), \
                bytes(box.from_pico[seen:])
        finally:
            os.close(port)
    finally:
        box.stop()
