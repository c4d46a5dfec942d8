"""The table's hardware in the box as the checks drive it: the Pico (`Pico`, the sensors: the
real firmware on the emulated RP2040) and the LED strip and buttons behind the device shim
(`Strip`)."""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from tools.pibox.box import Box
from tools.pibox.constants import SHIM_DIR
from tools.pibox.errors import CheckFailed
from tools.pibox.usb import RULE, BoxPico, UdevName, wait_usb
from tools.picobox.box import Miswiring, PicoBoxError


class Pico:
    """The table's Pico: the real firmware (classic-42's flash) on MicroPython on the emulated
    RP2040, run on the host and plugged into the box (`tools.pibox.usb.BoxPico`), its board
    wired as a hurried maker might: the buttons of channels 3 and 17 cross their 74HC165
    inputs (`MISWIRING`). The Pi's LEDs are the Pi's own (rpi-ws281x on SPI, `Strip`)."""

    MISWIRING = Miswiring(swap=(3, 17))

    def __init__(self, box: Box, hold_emu_s: float = 0.06) -> None:
        self.workdir = Path(tempfile.mkdtemp(prefix="pibox-pico-"))
        name = UdevName.from_rules(box.text(RULE))
        self.hold_emu_s = hold_emu_s  # past the firmware's 20 ms debounce
        self.emulator = BoxPico(self.workdir, box.leader, name, board="classic-42",
                                miswired=self.MISWIRING)
        try:
            self.emulator.start()
        except PicoBoxError as exc:
            raise CheckFailed(f"the emulated Pico did not start: {exc}") from None
        if not wait_usb(self.emulator, True, emu_s=30):
            self.close()
            raise CheckFailed(f"the emulated Pico's USB port did not appear in the box as "
                              f"/dev/{name.symlink} ({self.emulator.port_error or 'no error'}"
                              f"); its log: {self.log(6)}")
        self.hello = (f"/dev/{name.symlink} -> {self.emulator.tty} ({name.group}, "
                      f"{name.mode:o}), MicroPython on the emulated RP2040")

    def touch(self, channel: int) -> None:
        """A finger on the button of `channel` (as the profile names it), then off."""
        self.emulator.press(channel)
        self.emulator.run_for(self.hold_emu_s)
        self.emulator.release(channel)
        self.emulator.run_for(self.hold_emu_s)

    def down(self, channel: int) -> None:
        """Hold the button of `channel` down."""
        self.emulator.press(channel)
        self.emulator.run_for(self.hold_emu_s)

    def up(self, channel: int) -> None:
        """Let the button of `channel` go."""
        self.emulator.release(channel)
        self.emulator.run_for(self.hold_emu_s)

    def reset(self) -> tuple[bool, bool]:
        """Press the Pico's RUN button: its USB goes and comes back. (gone, back) as seen."""
        self.emulator.reset()
        gone = wait_usb(self.emulator, False, emu_s=5)
        back = wait_usb(self.emulator, True, emu_s=30)
        return gone, back

    def slowness(self) -> float:
        """Host CPU seconds per second of the Pico's time so far."""
        stats = self.emulator.stats()
        return float(stats["cpu_s"]) / max(float(stats["emu_s"]), 1e-9)

    def log(self, lines: int) -> str:
        """The emulator's last log lines, one string."""
        path = self.workdir / "picobox.log"
        text = path.read_text(errors="replace") if path.exists() else ""
        return " | ".join(text.strip().splitlines()[-lines:]) or "(empty)"

    def close(self) -> None:
        """Stop the emulator: its port vanishes from the box like an unplugged Pico's."""
        with contextlib.suppress(Exception):
            self.emulator.stop()


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
