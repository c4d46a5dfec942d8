"""The firmware README's mpremote update path on the emulated Pico: with the service
stopped, the first mpremote command makes the running firmware write maintenance.flag and
reset (the command fails, as README warns); the same command again reaches the REPL and
works; its final ``reset`` runs the firmware again, with what was written."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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
