"""The table's hardware in the box as the checks drive it: the emulated Pico (`Pico`, the
sensors) and the LED strip and buttons behind the device shim (`Strip`)."""

from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path
from typing import Any

from tools.pibox.box import Box
from tools.pibox.constants import PICO_IN_BOX, SHIM_DIR, VENV_PYTHON
from tools.pibox.errors import CheckFailed


class Pico:
    """tools/pibox/pico.py running in the box as the table's Pico (see its docstring)."""

    def __init__(self, box: Box) -> None:
        self.proc = box.runner.start([VENV_PYTHON, PICO_IN_BOX, "--board", "classic-42"],
                                     interactive=True)
        self.lock = threading.Lock()
        self.hello = self._line(120)
        if not self.hello.startswith("pico "):
            raise CheckFailed(f"the emulated Pico did not start in the box: {self.hello}")

    def _line(self, timeout: float) -> str:
        assert self.proc.stdout is not None
        result: list[str] = []
        reader = threading.Thread(target=lambda: result.append(self.proc.stdout.readline()),
                                  daemon=True)
        reader.start()
        reader.join(timeout)
        if not result:
            raise CheckFailed(f"the emulated Pico did not answer within {timeout:.0f} s")
        return result[0].strip()

    def ask(self, line: str, timeout: float = 60) -> str:
        """Send one command, return its answer line."""
        with self.lock:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            return self._line(timeout)

    def frames(self) -> int:
        """LED frames the Pico has received."""
        return int(self.ask("frames").split()[1])

    def last(self) -> list[tuple[int, int, int]]:
        """The newest LED frame."""
        hexes = self.ask("last").split()[2]
        if hexes == "-":
            return []
        return [tuple(int(hexes[i + j:i + j + 2], 16) for j in (0, 2, 4))  # type: ignore
                for i in range(0, len(hexes), 6)]

    def wait_frame(self, after: int, timeout: float) -> tuple[int, float] | None:
        """(number, epoch) of the first frame after frame number `after`, or None."""
        answer = self.ask(f"wait-frame {after} {timeout}", timeout + 30).split()
        return (int(answer[1]), float(answer[2])) if answer[0] == "frame" else None

    def close(self) -> None:
        """Stop the emulator (its pty and link vanish like an unplugged Pico)."""
        with contextlib.suppress(Exception):
            self.ask("quit", 5)
        with contextlib.suppress(Exception):
            self.proc.kill()


class Strip:
    """The LED strip as the device shim decodes it from rpi-ws281x's SPI bytes
    ($PIBOX_SHIM_DIR/leds in the box, rewritten at every transfer). A frame is named by the
    service's pid and the shim's count in that process, so a restarted service's first frame
    is new even though its count starts again at 1."""

    def __init__(self, box: Box) -> None:
        self.box = box

    def path(self, name: str = "leds") -> Path:
        """A file of the shim's folder, through the box's PID 1 (its /run is its own)."""
        return Path(f"/proc/{self.box.leader}/root{SHIM_DIR}/{name}")

    def read(self) -> dict[str, Any] | None:
        """The newest decoded frame: its header fields, `rgb` (each LED's colour, the wire's
        GRB put back in order) and `mtime` (when it was written), or None before the first."""
        try:
            text = self.path().read_text()
            mtime = self.path().stat().st_mtime
        except OSError:
            return None
        fields = dict(line.split(" ", 1) for line in text.splitlines() if " " in line)
        if "grb" not in fields and "frame" not in fields:
            return None
        grb = fields.pop("grb", "").split()
        frame: dict[str, Any] = dict(fields, mtime=mtime)
        frame["rgb"] = [(int(g[2:4], 16), int(g[0:2], 16), int(g[4:6], 16)) for g in grb]
        return frame

    def frames(self) -> tuple[int, int] | None:
        """(service pid, frame number) of the newest frame, or None."""
        frame = self.read()
        return (int(frame["pid"]), int(frame["frame"])) if frame else None

    def last(self) -> list[tuple[int, int, int]]:
        """The newest frame's LED colours (RGB)."""
        frame = self.read()
        return frame["rgb"] if frame else []

    def wait_frame(self, after: tuple[int, int] | None, timeout: float
                   ) -> tuple[tuple[int, int], float] | None:
        """(name, epoch written) of the first frame other than `after`, or None."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            frame = self.read()
            if frame:
                name = (int(frame["pid"]), int(frame["frame"]))
                if name != after:
                    return name, float(frame["mtime"])
            time.sleep(0.2)
        return None

    def press(self, gpio: int, hold: float = 0.25) -> None:
        """Press and release the button on `gpio` (active low, the buttons' pull-up): two
        edges written to the shim's FIFO, `hold` seconds apart."""
        try:
            fifo = os.open(self.path("buttons"), os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:
            raise CheckFailed(f"cannot reach the shim's button FIFO {SHIM_DIR}/buttons "
                              f"({exc.strerror}): lgpio never opened /dev/gpiochip0") from None
        try:
            os.write(fifo, f"{gpio} 0\n".encode())
            time.sleep(hold)
            os.write(fifo, f"{gpio} 1\n".encode())
        finally:
            os.close(fifo)
