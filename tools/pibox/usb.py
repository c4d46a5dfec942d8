"""The Pico plugged into the Pi box: the real firmware on MicroPython on the emulated RP2040
(tools/picobox, run on the host), its USB serial port a pseudo-terminal of the box's own.

On a Pi the Pico enumerates as /dev/ttyACMn and udev, by deploy/99-riskboard-pico.rules,
adds the link /dev/riskboard-pico with the rule's group and mode; on a reset or an unplug
both go, and come back when it enumerates again. Here `BoxPico` does that inside the booted
box: at each USB enumeration of the emulated Pico it opens a pty in the box's devpts
(/proc/PID1/root/dev/pts/ptmx), gives it the group and mode the installed rule names, and
links the rule's SYMLINK to it; when the emulated USB goes down, link and pty go.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import struct
import tty
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.picobox.box import PicoBox

TIOCGPTN = 0x80045430  # the pty's number
TIOCSPTLCK = 0x40045431  # (un)lock the pty's slave side
RULE = "/etc/udev/rules.d/99-riskboard-pico.rules"


@dataclass(frozen=True)
class UdevName:
    """What the udev rule gives the Pico's tty: a link under /dev, a group and a mode."""

    symlink: str
    group: str
    mode: int

    @classmethod
    def from_rules(cls, text: str) -> UdevName:
        """The SYMLINK+=, GROUP= and MODE= of the rule's tty line."""
        line = next((ln for ln in text.splitlines()
                     if ln.startswith("SUBSYSTEM==\"tty\"") and "SYMLINK" in ln), "")
        found = {k: re.search(rf'\b{k}\+?="([^"]*)"', line) for k in ("SYMLINK", "GROUP", "MODE")}
        if not all(found.values()):
            raise ValueError(f"no tty rule with SYMLINK, GROUP and MODE in: {text[-300:]!r}")
        return cls(found["SYMLINK"].group(1), found["GROUP"].group(1),  # type: ignore[union-attr]
                   int(found["MODE"].group(1), 8))  # type: ignore[union-attr]


def group_id(root: Path, name: str) -> int:
    """The gid of group `name` in the box's /etc/group."""
    for line in (root / "etc/group").read_text().splitlines():
        parts = line.split(":")
        if parts[0] == name:
            return int(parts[2])
    raise ValueError(f"the box has no group {name}")


class BoxPico(PicoBox):
    """The emulated Pico whose USB port enumerates inside the box whose PID 1 is `leader`
    (see the module docstring). Its events, presses and resets are PicoBox's."""

    def __init__(self, workdir: str | os.PathLike[str], leader: int, name: UdevName,
                 **kwargs: Any) -> None:
        self.root = Path(f"/proc/{leader}/root")
        self.name = name
        self.gid = group_id(self.root, name.group)
        self.tty = ""  # the box's /dev/pts/N while USB is up
        super().__init__(workdir, port=self.root / "dev" / name.symlink, **kwargs)

    def open_port(self) -> tuple[int, int]:
        """A pty of the box's devpts, owned as the rule says, its link at /dev/SYMLINK."""
        pts = self.root / "dev/pts"
        master = os.open(pts / "ptmx", os.O_RDWR | os.O_NOCTTY)
        try:
            fcntl.ioctl(master, TIOCSPTLCK, struct.pack("i", 0))
            number = struct.unpack("i", fcntl.ioctl(master, TIOCGPTN, b"\0" * 4))[0]
            slave = os.open(pts / str(number), os.O_RDWR | os.O_NOCTTY)
        except OSError:
            os.close(master)
            raise
        tty.setraw(slave)
        os.chown(pts / str(number), 0, self.gid)
        os.chmod(pts / str(number), self.name.mode)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.port)
        self.tty = f"/dev/pts/{number}"
        os.symlink(self.tty, self.port)
        return master, slave

    def port_is_up(self) -> bool:
        """Whether /dev/SYMLINK exists in the box now."""
        return os.path.lexists(self.port)


def wait_usb(pico: BoxPico, up: bool, emu_s: float, real_s: float = 600) -> bool:
    """Wait (in the Pico's time) until its port is there (`up`) or gone."""
    return pico.wait_until(lambda: pico.port_is_up() == up, emu_s, real_s)
