"""The Pico of the Pi box: riskboard's Pico emulator on a pty, at /dev/riskboard-pico.

Runs inside the box with the installed venv's Python (`firmware_bridge` is part of the
package). On a Pi the udev rule (deploy/99-riskboard-pico.rules) names the Pico's serial
port /dev/riskboard-pico, group dialout, mode 0660; here that link points at the
emulator's pty and this script gives the pty the same group and mode.

It reads commands on stdin, one per line, and answers on stdout, one line each:
  touch N              a touch on sensor channel N            -> "ok"
  frames               LED frames received so far              -> "frames COUNT"
  last                 the newest LED frame                    -> "last COUNT HEX" (6 hex a pixel)
  wait-frame AFTER S   wait up to S seconds for frame number AFTER+1
                       -> "frame COUNT EPOCH" (when the first new frame arrived) or "timeout"
  quit
"""

from __future__ import annotations

import argparse
import grp
import os
import sys
import threading
import time

from firmware_bridge.emulator import Emulator
from hardware.profiles import load_profile


class FrameLog:
    """LED frames as the Pico received them: a count, the newest, and arrival times."""

    def __init__(self) -> None:
        self.count = 0
        self.last: list[tuple[int, int, int]] = []
        self.times: dict[int, float] = {}
        self.changed = threading.Condition()

    def add(self, frame: list[tuple[int, int, int]]) -> None:
        """Called by the emulator for every LED frame the Pi sent."""
        with self.changed:
            self.count += 1
            self.last = list(frame)
            if len(self.times) < 100_000:
                self.times[self.count] = time.time()
            self.changed.notify_all()

    def wait_after(self, after: int, timeout: float) -> tuple[int, float] | None:
        """The number and arrival time of frame `after + 1`, once it has arrived."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while self.count <= after:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)
            return after + 1, self.times.get(after + 1, time.time())


def main() -> None:
    """Start the emulated Pico and answer commands until stdin closes or `quit`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="classic-42")
    parser.add_argument("--path", default="/dev/riskboard-pico")
    args = parser.parse_args()
    profile = load_profile(args.board)
    frames = FrameLog()
    emulator = Emulator(profile.sensor_count, profile.sensor_crc(), board_id=profile.name,
                        path=args.path, on_led_frame=frames.add)
    link = emulator.start()
    pty = os.path.realpath(link)
    os.chown(pty, -1, grp.getgrnam("dialout").gr_gid)  # as the udev rule does on a Pi
    os.chmod(pty, 0o660)
    print(f"pico {link} -> {pty} sensors={profile.sensor_count}", flush=True)
    try:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            if words[0] == "quit":
                break
            if words[0] == "touch":
                emulator.touch(int(words[1]))
                answer = "ok"
            elif words[0] == "frames":
                answer = f"frames {frames.count}"
            elif words[0] == "last":
                with frames.changed:
                    pixels = "".join(f"{r:02x}{g:02x}{b:02x}" for r, g, b in frames.last)
                    answer = f"last {frames.count} {pixels or '-'}"
            elif words[0] == "wait-frame":
                got = frames.wait_after(int(words[1]), float(words[2]))
                answer = f"frame {got[0]} {got[1]:.3f}" if got else "timeout"
            else:
                answer = f"unknown command {words[0]}"
            print(answer, flush=True)
    finally:
        emulator.stop()


if __name__ == "__main__":
    main()
