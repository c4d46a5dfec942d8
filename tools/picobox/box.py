"""One emulated Pico (``run.mjs`` under Node) behind a pseudo-terminal, like /dev/ttyACM0.

``PicoBox(workdir).start()`` builds the flash image, starts the emulator and returns the
port path (a symlink to a pty). Like a real Pico's USB port, the path exists only while the
emulated USB device is enumerated: it vanishes on every reset and comes back when the next
boot enumerates. ``press``/``release``/``tag``/``reader``/``jumper``/``hang``/``reset``
act on the world; ``events()`` holds what the emulator reported (boot, usb, usb_down,
leds, led_timing, status_led, watchdog, reset). ``clock()`` is the emulated Pico's time
as a ``time.monotonic`` stand-in: the Pi side's timeouts are measured in it, because the
emulator runs several times slower than a Pico.

``PicoBox(..., miswired=Miswiring(...))`` wires the board's chips otherwise than the firmware
expects (issue 25): two 74HC165 inputs crossed, LED chips of another colour order, a run of
the chain glued the other way round (``leds`` events then give each place on the board the
pixel the chain put there), a PN532 on another mux port.
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import json
import os
import select
import shutil
import socket
import subprocess
import threading
import time
import tty
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.picobox import flash

HERE = Path(__file__).resolve().parent
SHARED = flash.REPO.parent / "shared" / "pico-box"
UF2_ENV = "RISKBOARD_PICO_UF2"
BOOTROM_ENV = "RISKBOARD_PICO_BOOTROM"
DEFAULT_UF2 = SHARED / "micropython-v1.28.0-RPI_PICO.uf2"
DEFAULT_BOOTROM = SHARED / "rp2040-bootrom-b1.bin"

# What the board's chips are, per board of board_config.BOARDS.
CLASSIC_42_NFC_WORLD: dict[str, Any] = {
    "muxes": [0x70 + m for m in range(6)],
    "pn532": {str(ch): [0x70 + ch // 8, ch % 8] for ch in range(42)},
}


@dataclass(frozen=True)
class Miswiring:
    """How a hurried maker wired the box's board (issue 25): `swap` crosses the wires of two
    buttons (button a drives 74HC165 input b and b drives a); `led_order` is the colour order
    the LED chips take (the firmware sends GRB); `reversed_run` (first, last) is a stretch
    of the chain glued the other way round; each of `moved_readers` (channel, mux, port)
    plugs the PN532 of `channel` into another mux port (a reader already there takes its
    old port; on a spare port the firmware, which scans the profile's ports, never hears it)."""

    swap: tuple[int, int] | None = None
    led_order: str = "GRB"
    reversed_run: tuple[int, int] | None = None
    moved_readers: tuple[tuple[int, int, int], ...] = ()

    def apply(self, world: dict[str, Any]) -> dict[str, Any]:
        """`world` (run.mjs's --world) with this miswiring."""
        out = dict(world, led_order=self.led_order)
        if self.swap is not None:
            out["hc165_swap"] = [list(self.swap)]
        if self.reversed_run is not None:
            out["led_reversed"] = [list(self.reversed_run)]
        if self.moved_readers:
            readers = {name: list(where) for name, where in world["pn532"].items()}
            for channel, mux, port in self.moved_readers:
                old = readers[str(channel)]
                for where in readers.values():
                    if where == [mux, port]:
                        where[:] = old
                readers[str(channel)] = [mux, port]
            out["pn532"] = readers
        return out


class PicoBoxError(RuntimeError):
    """The box cannot start (a missing UF2, bootrom or Node package) or stopped answering."""


def uf2_path() -> Path:
    """The MicroPython UF2 to boot: $RISKBOARD_PICO_UF2 or the one in ../shared/pico-box."""
    path = Path(os.environ.get(UF2_ENV) or DEFAULT_UF2)
    if not path.is_file():
        raise PicoBoxError(
            f"MicroPython UF2 not found: {path}. The Pico box boots MicroPython v1.28.0 for "
            f"the Raspberry Pi Pico (RPI_PICO): download RPI_PICO-*-v1.28.0.uf2 from "
            f"https://micropython.org/download/RPI_PICO/ (or use the build in "
            f"../shared/pico-box/) and set {UF2_ENV}=/path/to/it.uf2")
    return path


def bootrom_path() -> Path:
    """The RP2040 bootrom (B1): $RISKBOARD_PICO_BOOTROM or the one in ../shared/pico-box."""
    path = Path(os.environ.get(BOOTROM_ENV) or DEFAULT_BOOTROM)
    if not path.is_file() or path.stat().st_size != 16384:
        raise PicoBoxError(
            f"RP2040 bootrom not found (or not 16 KiB): {path}. Use the B1 mask ROM "
            f"(raspberrypi/pico-bootrom, tag b1; the 16 KiB image wokwi/rp2040js's demo "
            f"loads, as in ../shared/pico-box/) and set {BOOTROM_ENV}=/path/to/bootrom.bin")
    return path


def node_ready() -> Path:
    """run.mjs, once its Node packages are installed (``make pico-check`` runs npm ci)."""
    if shutil.which("node") is None:
        raise PicoBoxError("node (>= 18) is not installed: the Pico box runs rp2040js on it")
    if not (HERE / "node_modules" / "rp2040js" / "package.json").is_file():
        raise PicoBoxError("rp2040js is not installed: run `make pico-check` (or "
                           "`cd tools/picobox && npm ci`)")
    return HERE / "run.mjs"


class PicoBox:
    """See the module docstring. Use as a context manager, or start() and stop()."""

    TAIL = 65536  # bytes of the host's writes kept in `to_pico_tail`

    def __init__(self, workdir: str | os.PathLike[str], *, board: str | None = None,
                 mpy: bool = True, world: dict[str, Any] | None = None,
                 seed: int | None = None, trace: bool = False,
                 image: Path | None = None, port: str | os.PathLike[str] | None = None,
                 extra_files: dict[str, bytes] | None = None,
                 miswired: Miswiring | None = None) -> None:
        self.workdir = Path(workdir)
        self.board = board
        self.mpy = mpy
        self.world = world if world is not None else (
            CLASSIC_42_NFC_WORLD if board == "classic-42-nfc" else {})
        if miswired is not None:
            self.world = miswired.apply(self.world)
        self.seed = seed
        self.trace = trace
        self.image = image
        self.extra_files = extra_files
        self.port = str(port) if port is not None else str(self.workdir / "ttyPICO")
        self.emu_s = 0.0
        self.from_pico = bytearray()  # every byte the Pico wrote to USB
        self.to_pico = 0  # bytes the Pi side wrote
        self.to_pico_tail = bytearray()  # the last TAIL of them, for a failure's account
        self.port_changes: list[tuple[str, float]] = []  # ("up" | "down", Pico time)
        self.port_error: str | None = None  # why the port could not be made, if it could not
        self._events: list[dict[str, Any]] = []
        self._cond = threading.Condition()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._master: int | None = None
        self._slave: int | None = None
        self._stopping = False
        self.proc: subprocess.Popen[bytes] | None = None

    # ---- life -----------------------------------------------------------------------------
    def start(self) -> str:
        """Build the flash, start the emulator; the port path (it appears on USB enumeration)."""
        script = node_ready()
        uf2, bootrom = uf2_path(), bootrom_path()
        self.workdir.mkdir(parents=True, exist_ok=True)
        if self.image is None:
            self.image = self.workdir / "littlefs.img"
            self.files = flash.build_image(self.image, mpy=self.mpy, board=self.board,
                                           extra=self.extra_files)
        ctl = self.workdir / "ctl.sock"
        cmd = ["node", str(script), "--image", str(uf2), "--bootrom", str(bootrom),
               "--fs", str(self.image), "--ctl", str(ctl), "--world", json.dumps(self.world)]
        if self.seed is not None:
            cmd += ["--seed", str(self.seed)]
        if self.trace:
            cmd += ["--trace"]
        self._log = open(self.workdir / "picobox.log", "wb")  # noqa: SIM115
        self.t_start = time.monotonic()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self._log, bufsize=0)
        for _ in range(400):
            try:
                self._ctl = socket.socket(socket.AF_UNIX)
                self._ctl.connect(str(ctl))
                break
            except OSError:
                if self.proc.poll() is not None:
                    raise PicoBoxError(f"run.mjs exited ({self.proc.returncode}): see "
                                       f"{self.workdir / 'picobox.log'}") from None
                time.sleep(0.05)
        else:
            raise PicoBoxError("run.mjs did not open its control socket")
        for target in (self._ctl_reader, self._pico_to_host, self._host_to_pico):
            threading.Thread(target=target, daemon=True).start()
        return self.port

    def stop(self) -> None:
        """Stop the emulator and remove the port."""
        self._stopping = True
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._port_down()
        with contextlib.suppress(OSError):
            self._ctl.close()
        self._log.close()

    def __enter__(self) -> PicoBox:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- the port ---------------------------------------------------------------------
    def _port_up(self) -> None:
        with self._lock:
            if self._master is not None:
                return
            self._master, self._slave = self.open_port()
            self.port_changes.append(("up", self.emu_s))

    def open_port(self) -> tuple[int, int]:
        """The USB port enumerates: a raw pty, the port path a symlink to it; (master,
        slave). The Pi box overrides it to put the pty in the box's /dev."""
        master, slave = os.openpty()
        tty.setraw(slave)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.port)
        os.symlink(os.ttyname(slave), self.port)
        return master, slave

    def _port_down(self) -> None:
        with self._lock:
            if self._master is not None:
                self.port_changes.append(("down", self.emu_s))
            with contextlib.suppress(FileNotFoundError):
                os.unlink(self.port)
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None

    def _pico_to_host(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while True:
            data = self.proc.stdout.read(4096)
            if not data:
                return
            self.from_pico.extend(data)
            with self._lock:
                if self._master is not None:
                    with contextlib.suppress(OSError):
                        os.write(self._master, data)

    def _host_to_pico(self) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        while not self._stopping:
            master = self._master
            if master is None:
                time.sleep(0.01)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                data = os.read(master, 4096) if ready else b""
            except OSError:  # the port went down under us, or nobody has it open
                time.sleep(0.01)
                continue
            if data:
                self.to_pico += len(data)
                self.to_pico_tail.extend(data)
                del self.to_pico_tail[:-self.TAIL]
                try:
                    self.proc.stdin.write(data)
                except (BrokenPipeError, ValueError):
                    return

    # ---- control ------------------------------------------------------------------------
    def _ctl_reader(self) -> None:
        buf = b""
        while True:
            try:
                data = self._ctl.recv(65536)
            except OSError:
                return
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                ev = json.loads(line)
                kind = ev["ev"]
                if kind == "t":
                    self.emu_s = ev["ns"] / 1e9
                    continue
                if kind == "usb":
                    try:
                        self._port_up()
                    except OSError as exc:  # no port this time; the events go on
                        self.port_error = f"{type(exc).__name__}: {exc}"
                elif kind == "usb_down":
                    self._port_down()
                ev["host_t"] = time.monotonic() - self.t_start
                with self._cond:
                    self._events.append(ev)
                    self._cond.notify_all()

    def command(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send one command; the emulator's answer (its emulated time as ``t_ns``)."""
        ident = next(self._ids)
        self._ctl.sendall((json.dumps({"cmd": cmd, "id": ident, **fields}) + "\n").encode())
        answer = self.wait_event(lambda e: e.get("id") == ident and e["ev"] in ("done", "stats"),
                                 real_s=120)
        if answer is None:
            raise PicoBoxError(f"the emulator did not answer {cmd!r}")
        return answer

    def press(self, channel: int) -> dict[str, Any]:
        """Ground the button of 74HC165 chain bit ``channel``."""
        return self.command("press", ch=channel)

    def release(self, channel: int) -> dict[str, Any]:
        """Let the button of chain bit ``channel`` go."""
        return self.command("release", ch=channel)

    def press_pin(self, address: int, bit: int) -> dict[str, Any]:
        """Ground pin ``bit`` of the MCP23017 at I2C ``address`` (0..7 GPA0..7, 8..15 GPB)."""
        return self.command("press", mcp=address, bit=bit)

    def release_pin(self, address: int, bit: int) -> dict[str, Any]:
        """Let the button on pin ``bit`` of the MCP23017 at ``address`` go."""
        return self.command("release", mcp=address, bit=bit)

    def tag(self, reader: int | str, uid: bytes | None) -> dict[str, Any]:
        """Lay a tag with ``uid`` on a PN532 or MFRC522 reader (None: take it away)."""
        return self.command("tag", reader=str(reader), uid=uid.hex() if uid else None)

    def reader(self, reader: int | str, present: bool) -> dict[str, Any]:
        """Unplug (``present=False``) or plug a PN532 reader."""
        return self.command("reader", reader=str(reader), present=present)

    def jumper(self, grounded: bool) -> dict[str, Any]:
        """The safe-mode jumper on GP15 (read at boot)."""
        return self.command("jumper", grounded=grounded)

    def hang(self) -> dict[str, Any]:
        """The CPU stops making progress (a hung loop): only the watchdog gets it out."""
        return self.command("hang")

    def reset(self) -> dict[str, Any]:
        """Press RUN (reset): the chip reboots, USB drops and comes back."""
        return self.command("reset")

    def stats(self) -> dict[str, Any]:
        """The emulator's counters: emu_s, cpu_s, instr, shift_scans, led_frames, ..."""
        return self.command("stats")

    # ---- observing ----------------------------------------------------------------------
    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        """What the emulator reported so far (of one kind)."""
        with self._cond:
            return [e for e in self._events if kind is None or e["ev"] == kind]

    def wait_event(self, pred: Callable[[dict[str, Any]], bool], emu_s: float | None = None,
                   real_s: float = 600.0, after: int = 0) -> dict[str, Any] | None:
        """The first event (from index ``after``) matching ``pred``; None once ``emu_s``
        seconds of Pico time (or ``real_s`` real seconds, a backstop) passed without one."""
        deadline_emu = None if emu_s is None else self.emu_s + emu_s
        end = time.monotonic() + real_s
        with self._cond:
            while True:
                for e in self._events[after:]:
                    if pred(e):
                        return e
                if time.monotonic() > end or (deadline_emu is not None
                                               and self.emu_s > deadline_emu):
                    return None
                if self.proc is not None and self.proc.poll() is not None:
                    raise PicoBoxError(f"run.mjs exited ({self.proc.returncode}): see "
                                       f"{self.workdir / 'picobox.log'}")
                self._cond.wait(0.1)

    def wait_until(self, check: Callable[[], bool], emu_s: float, real_s: float = 600.0) -> bool:
        """Poll ``check`` until true, or ``emu_s`` seconds of Pico time have passed."""
        deadline = self.emu_s + emu_s
        end = time.monotonic() + real_s
        while not check():
            if self.emu_s > deadline or time.monotonic() > end:
                return check()
            if self.proc is not None and self.proc.poll() is not None:
                raise PicoBoxError(f"run.mjs exited ({self.proc.returncode})")
            time.sleep(0.02)
        return True

    def run_for(self, emu_s: float, real_s: float = 600.0) -> None:
        """Let ``emu_s`` seconds of Pico time pass."""
        self.wait_until(lambda: False, emu_s, real_s)

    def clock(self) -> float:
        """``time.monotonic`` in the emulated Pico's time (for the Pi side's timeouts)."""
        return 1000.0 + self.emu_s


def _link_takes_a_clock() -> bool:
    from firmware_bridge.link import Link

    return "clock" in inspect.signature(Link).parameters


@contextlib.contextmanager
def pico_time(box: PicoBox) -> Iterator[None]:
    """Make firmware_bridge.link measure time in the emulated Pico's seconds.

    The link's timeouts (HELLO retries, 2 s of silence) assume a real Pico; the emulator runs
    several times slower, so real seconds would make every Pico look dead. A Link that
    takes a ``clock`` gets ``box.clock`` from ``make_link``; for one that does not, only
    link.py's view of ``time.monotonic`` changes here (its waits and sleeps stay real)."""
    import firmware_bridge.link as link_module

    if _link_takes_a_clock():
        yield
        return
    saved = link_module.time
    link_module.time = types.SimpleNamespace(  # type: ignore[assignment]
        monotonic=box.clock, sleep=time.sleep, time=time.time, perf_counter=time.perf_counter)
    try:
        yield
    finally:
        link_module.time = saved


def make_link(box: PicoBox, on_event: Callable[[Any], None], **kwargs: Any) -> Any:
    """The project's own Link on the box's port (call inside ``pico_time(box)``), or with
    the emulated clock passed in if Link takes one."""
    from firmware_bridge.link import Link

    if _link_takes_a_clock():
        kwargs["clock"] = box.clock
    return Link(box.port, on_event, **kwargs)
