"""A virtual Pico speaking the bridge protocol over a pseudo-terminal, for tests and the
virtual board.

`Emulator` runs the same `FirmwareCore` as the real firmware on its own thread, behind a
pty whose slave side is reached through a stable symlink (``.start()`` returns it), so the
Pi side opens it with real pyserial. ``unplug()`` closes the pty and removes the symlink
(the device path vanishes like a pulled USB cable); ``replug()`` makes a new pty and puts
the symlink back. `Faults` corrupts, drops, duplicates, delays frames or adds garbage, in
either direction, and can pace bytes at a real baud rate (a pty has none).

Run ``python -m firmware_bridge.emulator`` for an interactive virtual Pico (``--help``
lists the options: sensor count, board profile or CRC, faults, device path).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import queue
import random
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from firmware_bridge import protocol as P
from firmware_bridge.firmware.core import FirmwareCore
from firmware_bridge.thread_names import name_os_thread

log = logging.getLogger("firmware_bridge.emulator")
# Send times kept per event seq for the latency benchmarks; older ones are dropped.
EVENT_TIMES_KEPT = 20_000


@dataclass
class Faults:
    """Link faults injected by the emulator; probabilities are per byte or per frame.

    ``direction``: "to_host" (Pico -> Pi), "to_pico" or "both". ``baud``: when set, bytes
    to the host are paced at that rate (10 bits per byte), as a real UART would be.
    """

    corrupt: float = 0.0  # per byte: replaced by a different random byte
    drop: float = 0.0  # per frame
    duplicate: float = 0.0  # per frame
    garbage: float = 0.0  # per frame: 1..20 random bytes inserted before it
    delay_ms: float = 0.0  # every frame to the host is held this long
    direction: str = "both"
    baud: int | None = None
    seed: int | None = None

    def applies(self, to_host: bool) -> bool:
        """Whether faults apply to frames going this way."""
        return self.direction == "both" or self.direction == ("to_host" if to_host
                                                               else "to_pico")


class Emulator:
    """A virtual Pico on a pty (see the module docstring)."""

    def __init__(
        self,
        sensor_count: int = 42,
        profile_crc: int = 0,
        faults: Faults | None = None,
        *,
        firmware_version: str = "1.0.0",
        board_id: str = "classic-42",
        path: str | None = None,
        ring_size: int = 256,
        protocol_version: int = P.PROTOCOL_VERSION,
        on_led_frame: Callable[[list[tuple[int, int, int]]], None] | None = None,
        nfc_channels: Iterable[int] = (),
    ) -> None:
        self.sensor_count = sensor_count
        self.profile_crc = profile_crc
        self.faults = faults or Faults()
        self.firmware_version = firmware_version
        self.board_id = board_id
        self.ring_size = ring_size
        self.protocol_version = protocol_version
        self.on_led_frame = on_led_frame
        # NFC readers start as "no tag" in state dumps; buttons start as "released".
        self.nfc_channels = tuple(nfc_channels)
        self._own_dir: str | None = None
        if path is None:
            self._own_dir = tempfile.mkdtemp(prefix="riskboard-pico-")
            path = os.path.join(self._own_dir, "ttyPico")
        self.path = path
        self.led_frames: list[list[tuple[int, int, int]]] = []
        self.event_times: dict[int, float] = {}
        self.stats = {"frames_dropped": 0, "frames_duplicated": 0, "bytes_corrupted": 0,
                      "garbage_bytes": 0, "write_overflows": 0, "resets": 0}
        self._rng = random.Random(self.faults.seed)
        self._commands: queue.Queue[tuple[Any, ...]] = queue.Queue()
        self._held: tuple[Any, ...] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._outbox: list[tuple[float, bytes]] = []
        self._wire_free = 0.0
        self._inbuf = bytearray()
        self.core = self._new_core()

    # ---- control (any thread) -----------------------------------------------------------
    def start(self) -> str:
        """Create the pty and symlink, start the Pico thread; returns the device path."""
        self._plug()
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="pico-emulator", daemon=True)
        self._thread.start()
        return self.path

    def stop(self) -> None:
        """Stop the thread, close the pty, remove the symlink."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2.0)
            self._thread = None
        self._unplug()
        if self._own_dir is not None:
            with contextlib.suppress(OSError):
                os.rmdir(self._own_dir)

    def __enter__(self) -> Emulator:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def press(self, channel: int) -> None:
        """The sensor on ``channel`` is pressed."""
        self._event(channel, P.PRESS)

    def release(self, channel: int) -> None:
        """The sensor on ``channel`` is released."""
        self._event(channel, P.RELEASE)

    def touch(self, channel: int) -> None:
        """Press then release ``channel``."""
        self.press(channel)
        self.release(channel)

    def tag(self, channel: int, uid: bytes) -> None:
        """An NFC tag with ``uid`` is put on ``channel``'s reader."""
        self._event(channel, P.TAG_PRESENT, bytes(uid))

    def untag(self, channel: int) -> None:
        """The tag is taken off ``channel``'s reader."""
        self._event(channel, P.TAG_REMOVED)

    def _event(self, channel: int, kind: int, uid: bytes = b"") -> None:
        if not 0 <= channel < self.sensor_count:
            raise ValueError(f"channel {channel} is not one of 0..{self.sensor_count - 1}")
        if kind == P.TAG_PRESENT and not 1 <= len(uid) <= P.MAX_UID:
            raise ValueError(f"a tag UID has 1..{P.MAX_UID} bytes, got {len(uid)}")
        self._commands.put(("event", channel, kind, uid))

    def inject(self, data: bytes) -> None:
        """Write raw bytes to the host as they are (garbage, half frames, foreign frames)."""
        self._commands.put(("raw", bytes(data)))

    def unplug(self) -> None:
        """Pull the cable: the pty closes and the device path disappears (Pico keeps power)."""
        self._call("unplug")

    def replug(self) -> None:
        """Plug the cable back: a new pty appears at the same path."""
        self._call("replug")

    def reset(self) -> None:
        """Reset the Pico: a new boot epoch, the event ring and unacked events are lost."""
        self._call("reset")

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every queued touch was handed to the firmware core."""
        return self._call("noop", timeout)

    @property
    def plugged(self) -> bool:
        """Whether the virtual cable is in."""
        return self._master is not None

    def _call(self, name: str, timeout: float = 5.0) -> bool:
        done = threading.Event()
        self._commands.put((name, done))
        if self._thread is None:
            self._run_commands()
        return done.wait(timeout)

    # ---- pty ----------------------------------------------------------------------------
    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        tmp = self.path + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)
        self._inbuf = bytearray()
        self._wire_free = 0.0

    def _unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None
        self._outbox.clear()

    # ---- Pico thread --------------------------------------------------------------------
    def _new_core(self) -> FirmwareCore:
        core = FirmwareCore(self._write, self._ticks, self.sensor_count, self.profile_crc,
                            self.firmware_version, on_led_frame=self._led,
                            ring_size=self.ring_size, board_id=self.board_id,
                            protocol_version=self.protocol_version)
        for channel in self.nfc_channels:
            core.set_state(channel, P.TAG_REMOVED)
        return core

    @staticmethod
    def _ticks() -> int:
        return int(time.monotonic() * 1000)

    def _led(self, rgb: bytes) -> None:
        pixels = [(rgb[i], rgb[i + 1], rgb[i + 2]) for i in range(0, len(rgb), 3)]
        self.led_frames.append(pixels)
        if self.on_led_frame is not None:
            self.on_led_frame(pixels)

    def _run(self) -> None:
        name_os_thread()
        while not self._stop.is_set():
            try:
                self._step()
            except Exception:  # e.g. a failing on_led_frame: the virtual Pico keeps running
                log.exception("event=emulator.error")
                time.sleep(0.01)

    def _step(self) -> None:
        """One turn of the Pico loop: read, run queued touches, poll, send held frames."""
        timeout = 0.005
        if self._outbox:  # wake when the next held frame is due
            timeout = min(timeout, max(0.0, self._outbox[0][0] - time.monotonic()))
        master = self._master
        if master is None:
            time.sleep(timeout)
        else:
            try:
                ready, _, _ = select.select([master], [], [], timeout)
                if ready:
                    self._receive(os.read(master, 4096))
            except OSError as exc:
                if exc.errno not in (errno.EAGAIN, errno.EIO, errno.EBADF):
                    raise
        self._run_commands()
        self.core.poll()
        self._flush_outbox()

    def _run_commands(self) -> None:
        while True:
            if self._held is not None:
                command, self._held = self._held, None
            else:
                try:
                    command = self._commands.get_nowait()
                except queue.Empty:
                    return
            name = command[0]
            if name == "event":
                core = self.core
                if core.next_seq - 1 - core.acked >= self.ring_size // 2 and self.plugged:
                    # Scripted touches come no faster than the link carries them (a hand
                    # cannot outrun it); unplugged, they pile up in the ring as on a Pico.
                    self._held = command
                    return
                _, channel, kind, uid = command
                self.event_times[core.next_seq] = time.perf_counter()
                if len(self.event_times) > EVENT_TIMES_KEPT:  # a long sim game must not grow
                    del self.event_times[next(iter(self.event_times))]
                core.sensor_event(channel, kind, uid)
                continue
            if name == "raw":
                self._write_now(command[1])
                continue
            if name == "unplug":
                self._unplug()
            elif name == "replug":
                if self._master is None:
                    self._plug()
            elif name == "reset":
                self.stats["resets"] += 1
                self.event_times.clear()
                self.core = self._new_core()
            command[1].set()

    def _receive(self, data: bytes) -> None:
        faults = self.faults
        if not faults.applies(False) or not (faults.corrupt or faults.drop or faults.duplicate):
            self.core.feed(data)
            return
        self._inbuf.extend(data)
        while True:
            end = self._inbuf.find(0)
            if end < 0:
                break
            frame = bytes(self._inbuf[:end + 1])
            del self._inbuf[:end + 1]
            for piece in self._mangle(frame, False):
                self.core.feed(piece)

    def _write(self, frame: bytes) -> None:
        if self._master is None:
            return  # cable out: the bytes go nowhere, as on a real Pico
        pieces = self._mangle(frame, True) if self.faults.applies(True) else [frame]
        now = time.monotonic()
        delay = self.faults.delay_ms / 1000.0
        baud = self.faults.baud
        for piece in pieces:
            due = now + delay
            if baud:
                start = max(due, self._wire_free)
                self._wire_free = start + len(piece) * 10.0 / baud
                due = self._wire_free
            if due <= now and not self._outbox:
                self._write_now(piece)
            else:
                self._outbox.append((due, piece))

    def _mangle(self, frame: bytes, to_host: bool) -> list[bytes]:
        f, rng = self.faults, self._rng
        if f.drop and rng.random() < f.drop:
            self.stats["frames_dropped"] += 1
            return []
        out = bytearray()
        if to_host and f.garbage and rng.random() < f.garbage:
            junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 20)))
            self.stats["garbage_bytes"] += len(junk)
            out.extend(junk)
        body = bytearray(frame)
        if f.corrupt:
            for i in range(len(body)):
                if rng.random() < f.corrupt:
                    body[i] = (body[i] + rng.randint(1, 255)) & 0xFF
                    self.stats["bytes_corrupted"] += 1
        out.extend(body)
        pieces = [bytes(out)]
        if f.duplicate and rng.random() < f.duplicate:
            self.stats["frames_duplicated"] += 1
            pieces.append(bytes(frame))
        return pieces

    def _flush_outbox(self) -> None:
        if not self._outbox:
            return
        now = time.monotonic()
        while self._outbox and self._outbox[0][0] <= now:
            self._write_now(self._outbox.pop(0)[1])

    def _write_now(self, data: bytes) -> None:
        master = self._master
        if master is None:
            return
        try:
            written = os.write(master, data)
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EIO):
                raise
            written = 0
        if written < len(data):
            self.stats["write_overflows"] += 1  # pty full: the rest is lost, like a UART


def parse_args(argv: list[str] | None = None) -> Any:
    """The command line of ``python -m firmware_bridge.emulator`` (see ``--help``)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m firmware_bridge.emulator",
        description="A virtual Pico on a pseudo-terminal: prints its device path, then reads "
                    "commands from stdin (touch N | press N | release N | tag N HEX | untag N "
                    "| unplug | replug | reset | leds | quit).")
    parser.add_argument("--sensors", type=int, default=None, metavar="N",
                        help="sensor channels to scan (default 42, or the --board's count)")
    crc = parser.add_mutually_exclusive_group()
    crc.add_argument("--profile-crc", type=lambda text: int(text, 16), default=None,
                     metavar="HEX", help="sensor-map CRC-32 to report, hex (default 0)")
    crc.add_argument("--board", metavar="PROFILE",
                     help="report this board profile's sensor count and CRC (name or TOML "
                          "path, e.g. classic-42), as a Pico flashed for it would")
    parser.add_argument("--path", help="where to put the device symlink "
                                       "(default: a new temporary folder)")
    parser.add_argument("--corrupt", type=float, default=0.0, metavar="P",
                        help="probability per byte of corrupting it")
    parser.add_argument("--drop", type=float, default=0.0, metavar="P",
                        help="probability per frame of dropping it")
    parser.add_argument("--duplicate", type=float, default=0.0, metavar="P",
                        help="probability per frame of sending it twice")
    parser.add_argument("--delay-ms", type=float, default=0.0, metavar="MS",
                        help="hold every frame to the host this long")
    parser.add_argument("--seed", type=int, default=None, help="seed for the faults")
    args = parser.parse_args(argv)
    for name in ("corrupt", "drop", "duplicate"):
        value = getattr(args, name)
        if not 0.0 <= value <= 1.0:
            parser.error(f"--{name} is a probability between 0 and 1, got {value}")
    if args.delay_ms < 0:
        parser.error(f"--delay-ms cannot be negative, got {args.delay_ms}")
    if args.sensors is not None and not 1 <= args.sensors <= 255:
        parser.error(f"--sensors must be 1..255, got {args.sensors}")
    return args


def emulator_from_args(args: Any) -> Emulator:
    """The Emulator the parsed command line describes."""
    sensors, crc, board_id = 42, args.profile_crc or 0, "classic-42"
    if args.board:
        from hardware.profiles import load_profile

        profile = load_profile(args.board)
        sensors, crc, board_id = profile.sensor_count, profile.sensor_crc(), profile.name
    if args.sensors is not None:
        sensors = args.sensors
    faults = Faults(corrupt=args.corrupt, drop=args.drop, duplicate=args.duplicate,
                    delay_ms=args.delay_ms, seed=args.seed)
    return Emulator(sensors, crc, faults, board_id=board_id, path=args.path)


def main(argv: list[str] | None = None) -> None:
    """Interactive virtual Pico: prints its device path, reads commands from stdin."""
    import sys

    emu = emulator_from_args(parse_args(argv))
    print("virtual Pico at", emu.start(), flush=True)
    print(f"sensors={emu.sensor_count} profile_crc={emu.profile_crc:08x} board={emu.board_id}",
          flush=True)
    print("commands: touch N | press N | release N | tag N HEX | untag N | unplug | replug"
          " | reset | leds | quit", flush=True)
    try:
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            cmd, args = words[0], words[1:]
            try:
                if cmd == "quit":
                    break
                if cmd in ("touch", "press", "release", "untag"):
                    getattr(emu, cmd)(int(args[0]))
                elif cmd == "tag":
                    emu.tag(int(args[0]), bytes.fromhex(args[1]))
                elif cmd in ("unplug", "replug", "reset"):
                    getattr(emu, cmd)()
                elif cmd == "leds":
                    print(emu.led_frames[-1] if emu.led_frames else "no LED frame yet")
                else:
                    print("unknown command", cmd)
            except (IndexError, ValueError) as exc:
                print("bad arguments:", exc)
    finally:
        emu.stop()


if __name__ == "__main__":
    main()
