"""The Pi side of the serial link to the Pico: handshake, in-order exactly-once sensor events.

`Link` is the thin, threaded shell around `firmware_bridge.host_core.HostCore` (the pure
protocol logic: bytes and time in, frames and events out). Its one daemon thread opens the
port with pyserial, feeds the core what it reads and the time, writes what the core sends,
hands the core's events to ``on_event`` and keeps the position file; the core says HELLO,
checks the firmware's protocol version and board profile, asks for the events since the
last one delivered (REPLAY_REQ) and for a full state dump, then delivers every sensor event
in order and exactly once, acknowledging each. It survives corrupted, lost, duplicated or
half-written frames, a resetting Pico and a pulled cable: the thread closes the port, waits
for the device path to come back (backoff 50 ms doubling to 400 ms) and the core
re-handshakes. Nothing it does blocks the caller: LED frames are queued, latest wins.

Between bytes the thread sleeps until the core's next deadline (`HostCore.next_deadline`: a
request to resend, the silence limit, the keep-alive, which the Pico's heartbeat usually
brings forward) or until the Pico writes, an LED frame is queued or ``stop()`` is called
(those two wake it through a pipe of its own, opened with the port): an idle link wakes for
the Pico's two heartbeats a second and nothing else.

Time: every timeout of the protocol (request retries, keep-alives, silence) is measured with
``clock`` (default `time.monotonic`): pass an emulated chip's clock to run the link against
an emulator slower or faster than real time. The thread's own pauses (port backoff, select)
stay in real time: it sleeps as many real seconds as the clock has left before the core's
deadline (at most `MAX_WAIT_S`), so a clock slower than real time only wakes it early.

Exactly once across a Pi-service restart: pass ``state_path`` (a small JSON file holding the
Pico's boot epoch and the last delivered seq, rewritten after each batch of deliveries and
before the batch is acknowledged) or ``last_epoch``/``last_seq``. A crash between delivering
a batch and writing the file re-delivers at most that batch; a clean ``stop()`` loses nothing.
The wire format is in PROTOCOL.md beside this file.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import select
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import serial

from firmware_bridge.host_core import (
    HostCore,
    LinkLost,
    LinkRefused,
    SensorEvent,
    StateDump,
)
from firmware_bridge.thread_names import name_os_thread

__all__ = ["BACKOFF_MAX_S", "BACKOFF_MIN_S", "Link", "LinkLost", "LinkRefused", "SensorEvent",
           "StateDump", "open_failure_sentence"]

log = logging.getLogger("firmware_bridge.link")

BACKOFF_MIN_S = 0.05
BACKOFF_MAX_S = 0.4
REFUSED_BACKOFF_S = 2.0
# the longest sleep between turns, whatever the core's deadline: longer than the Pico's
# heartbeat period, so the heartbeat, not this, wakes an idle link
MAX_WAIT_S = 1.0
START_WAIT_S = 2.0
# What the thread survives by reconnecting. pyserial raises TypeError when the fd vanishes
# under it mid-read.
PORT_ERRORS = (serial.SerialException, OSError, TypeError)


class Link:
    """Serial link to the Pico, on its own thread (see the module docstring)."""

    def __init__(
        self,
        port: str,
        on_event: Callable[[SensorEvent], None],
        baudrate: int = 115200,
        expected_profile_crc: int | None = None,
        *,
        expected_sensor_count: int | None = None,
        on_state: Callable[[StateDump], None] | None = None,
        last_epoch: int | None = None,
        last_seq: int = 0,
        state_path: str | os.PathLike[str] | None = None,
        serial_factory: Callable[..., Any] = serial.Serial,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.port = port
        self.baudrate = baudrate
        self._on_event = on_event
        self._serial_factory = serial_factory
        self._clock = clock
        self._state_path = os.fspath(state_path) if state_path is not None else None
        epoch, seq = self._load_position((last_epoch, last_seq if last_epoch is not None
                                          else 0))
        self._persisted = (epoch, seq)
        self.core = HostCore(self._write, self._deliver, save=self._save,
                             on_state=on_state, expected_profile_crc=expected_profile_crc,
                             expected_sensor_count=expected_sensor_count, epoch=epoch,
                             delivered=seq, port=port)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ser: Any = None
        self._wake: tuple[int, int] | None = None  # (read, write) end; open with the port
        self._pending_led: bytes | None = None
        self._leds_dropped = 0
        self._open_failure: str | None = None
        self._thread_state: str | None = "stopped"  # else the core's state applies

    # ---- public API ---------------------------------------------------------------------
    def start(self, timeout: float = START_WAIT_S) -> None:
        """Start the link thread (returns at once; connecting happens in the background).

        After a ``stop()`` whose thread is still inside ``on_event``, waits up to
        ``timeout`` seconds for it to end: two threads must never share the link's state.
        Raises RuntimeError when it has not ended by then.
        """
        thread = self._thread
        if thread is not None:
            if thread.is_alive() and not self._stop.is_set():
                return  # already running
            thread.join(timeout)
            if thread.is_alive():
                raise RuntimeError(
                    f"the link to {self.port} is still stopping: its on_event callback has not "
                    f"returned after {timeout:.1f} s; start it again once it has")
        self._stop.clear()
        self.core.state = "disconnected"
        self._thread_state = None
        self._thread = threading.Thread(target=self._run, name="bridge-link", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread; it closes the port and saves the last delivered position.

        Nothing is delivered once stop is requested. If ``on_event`` is still busy after
        ``timeout`` seconds, returns with state "stopping"; the thread finishes (close,
        save) as soon as the callback returns, and ``start()`` waits for that.
        """
        self._stop.set()
        with self._lock:
            self._wake_up()
        thread = self._thread
        if thread is None:
            self._thread_state = "stopped"
            return
        thread.join(timeout)
        if thread.is_alive():
            self._thread_state = "stopping"
            log.warning("event=link.stop_slow port=%s waited_s=%.1f reason=%r", self.port,
                        timeout, "on_event has not returned; the link thread ends when it does")
            return
        self._thread = None

    def __enter__(self) -> Link:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def connected(self) -> bool:
        """True once handshake and replay are done and events flow."""
        return self._thread_state is None and self.core.connected

    @property
    def position(self) -> tuple[int | None, int]:
        """(Pico boot epoch, last delivered seq): where a restarted service resumes."""
        return self.core.position

    @property
    def sensor_state(self) -> StateDump | None:
        """The latest complete state dump from the Pico (None before the first)."""
        return self.core.sensor_state

    def send_led_frame(self, pixels: Sequence[tuple[int, int, int]]) -> None:
        """Queue one LED frame for the Pico (latest wins; never blocks)."""
        rgb = bytearray()
        for pixel in pixels:
            r, g, b = pixel
            rgb.extend((int(r) & 0xFF, int(g) & 0xFF, int(b) & 0xFF))
        if len(rgb) // 3 > 0xFFFF:
            raise ValueError("at most 65535 LEDs per frame")
        with self._lock:
            if self._pending_led is not None:
                self._leds_dropped += 1
            self._pending_led = bytes(rgb)
            self._wake_up()

    def get_status(self) -> dict[str, Any]:
        """Link state for the status page and the health check (JSON-ready)."""
        status = self.core.status(self._clock())
        if self._thread_state is not None:
            status["state"] = self._thread_state
            status["connected"] = status["healthy"] = False
        status["stats"]["led_frames_dropped"] += self._leds_dropped
        return {"port": self.port, **status}

    # ---- thread -------------------------------------------------------------------------
    def _run(self) -> None:
        name_os_thread()
        try:
            self._loop()
        finally:
            # Only this thread touches the port and the position file.
            self._close()
            self._persist(force=True)
            self._thread_state = "stopped"

    def _loop(self) -> None:
        backoff = BACKOFF_MIN_S
        while not self._stop.is_set():
            if self._ser is None:
                if not self._open():
                    self._stop.wait(backoff)
                    backoff = min(backoff * 2, BACKOFF_MAX_S)
                    continue
                backoff = BACKOFF_MIN_S
            try:
                self._service()
            except LinkRefused as exc:
                self._close()
                self.core.refuse(str(exc))
                self._stop.wait(REFUSED_BACKOFF_S)
            except LinkLost as exc:
                self._lose(str(exc))
            except PORT_ERRORS as exc:
                self._lose(f"{type(exc).__name__}: {exc}")
            except Exception as exc:  # a bug must not end the thread: log, reconnect
                log.exception("event=link.error port=%s", self.port)
                self._lose(f"internal error {type(exc).__name__}: {exc}")

    def _open(self) -> bool:
        if not os.path.exists(self.port):
            self._open_failed(f"no Pico at {self.port}: is it plugged in?")
            return False
        try:
            # exclusive: a second service on the same Pico would steal half its frames.
            ser = self._serial_factory(self.port, self.baudrate, timeout=0,
                                       write_timeout=1.0, exclusive=True)
            ser.reset_input_buffer()
        except (serial.SerialException, OSError, ValueError) as exc:
            self._open_failed(open_failure_sentence(self.port, exc))
            return False
        self._open_failure = None
        self._ser = ser
        read_end, write_end = os.pipe()
        os.set_blocking(read_end, False)
        os.set_blocking(write_end, False)
        with self._lock:
            self._wake = (read_end, write_end)
        self.core.open(self._clock())
        return True

    def _open_failed(self, sentence: str) -> None:
        """Record why the port did not open; log it once per distinct reason (retried often)."""
        self.core.last_error = sentence
        if sentence != self._open_failure:
            self._open_failure = sentence
            log.warning("event=link.open_failed port=%s reason=%r", self.port, sentence)

    def _close(self) -> None:
        ser, self._ser = self._ser, None
        with self._lock:  # never closed while another thread writes to it
            wake, self._wake = self._wake, None
        if wake is not None:
            for fd in wake:
                os.close(fd)
        self.core.close()
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()

    def _lose(self, reason: str) -> None:
        self._close()
        if self._stop.is_set():
            self.core.last_error = reason
            return
        self.core.lose(reason, self._clock())
        self._stop.wait(BACKOFF_MIN_S)

    def _service(self) -> None:
        """One turn: sleep until bytes come, an LED frame is queued, ``stop()`` is called or
        the core's next deadline; then feed the core the bytes and the time."""
        ser = self._ser
        ready = self._pending_led is not None or self._stop.is_set()
        if not ready:
            wake = self._wake
            fds = [ser.fileno()] if wake is None else [ser.fileno(), wake[0]]
            now = self._clock()
            deadline = self.core.next_deadline(now)
            wait = MAX_WAIT_S if deadline is None else min(MAX_WAIT_S, max(0.0, deadline - now))
            readable, _, _ = select.select(fds, [], [], wait)
            if wake is not None and wake[0] in readable:
                with contextlib.suppress(BlockingIOError):
                    os.read(wake[0], 512)
            ready = ser.fileno() in readable
        # A readable port with nothing to read makes pyserial raise (the device is gone).
        data = ser.read(ser.in_waiting or 1) if ready else b""
        now = self._clock()
        if data:
            self.core.receive(data, now)
        if self._pending_led is not None:
            with self._lock:
                rgb, self._pending_led = self._pending_led, None
            if rgb is not None:
                self.core.show(rgb)
        self.core.tick(now)

    def _wake_up(self) -> None:
        """End the thread's sleep (call with ``_lock`` held: the pipe stays open meanwhile)."""
        if self._wake is not None:
            with contextlib.suppress(BlockingIOError):  # full: it will wake all the same
                os.write(self._wake[1], b"\x01")

    # ---- the core's outlets -------------------------------------------------------------
    def _write(self, data: bytes) -> None:
        self._ser.write(data)

    def _deliver(self, event: SensorEvent) -> bool:
        if self._stop.is_set():
            return False  # stopping: the next start replays it (it is not acknowledged)
        try:
            self._on_event(event)
        except Exception:
            log.exception("event=link.on_event_error seq=%d", event.seq)
        return True

    # ---- persistence --------------------------------------------------------------------
    def _load_position(self, given: tuple[int | None, int]) -> tuple[int | None, int]:
        if self._state_path is None or not os.path.exists(self._state_path):
            return given
        try:
            with open(self._state_path, encoding="utf-8") as fh:
                data = json.load(fh)
            epoch, seq = data["epoch"], data["seq"]
            if isinstance(epoch, int) and isinstance(seq, int) and seq >= 0:
                return epoch, seq
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("event=link.state_unreadable path=%s error=%r", self._state_path, exc)
        return given

    def _save(self, epoch: int, seq: int) -> None:
        self._persist()

    def _persist(self, force: bool = False) -> None:
        epoch, seq = position = self.core.position
        if self._state_path is None or (position == self._persisted and not force):
            return
        if epoch is None:
            return
        tmp = self._state_path + ".tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump({"epoch": epoch, "seq": seq}, fh)
            os.replace(tmp, self._state_path)
            self._persisted = position
        except OSError as exc:
            log.warning("event=link.state_write_failed path=%s error=%r", self._state_path, exc)


def open_failure_sentence(port: str, exc: BaseException) -> str:
    """Why ``port`` did not open, as a sentence saying what to do about it."""
    code = getattr(exc, "errno", None)
    text = str(exc)
    if code in (errno.EACCES, errno.EPERM) or "Permission denied" in text:
        return (f"permission denied on {port}: add the user to the dialout group "
                f"(sudo usermod -aG dialout $USER, then log in again)")
    if code == errno.ENOENT or "No such file" in text:
        return f"no Pico at {port}: is it plugged in?"
    if code in (errno.EBUSY, errno.EAGAIN) or "exclusively lock" in text:
        return (f"cannot open {port}: another program holds it (a second riskboard "
                f"service, mpremote or a serial monitor?)")
    return f"cannot open {port}: {text}"


def main(argv: list[str] | None = None) -> int:
    """Bring-up tool: connect to a Pico (or an emulator's path), print events and status."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m firmware_bridge.link",
        description="Print the sensor events and link status of a Pico on a serial port.")
    parser.add_argument("port", help="e.g. /dev/ttyACM0 or the path an emulator printed")
    parser.add_argument("--baudrate", type=int, default=115200)
    parser.add_argument("--profile-crc", type=lambda text: int(text, 16), default=None,
                        help="expected sensor-map CRC-32, hex")
    parser.add_argument("--status-every", type=float, default=5.0, help="seconds")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")

    def show(event: SensorEvent) -> None:
        uid = f" uid={event.uid.hex()}" if event.uid else ""
        print(f"event seq={event.seq} channel={event.channel} kind={event.kind}{uid}",
              flush=True)

    link = Link(args.port, show, args.baudrate, args.profile_crc)
    link.start()
    try:
        while True:
            time.sleep(args.status_every)
            print(json.dumps(link.get_status()), flush=True)
    except KeyboardInterrupt:
        return 0
    finally:
        link.stop()


if __name__ == "__main__":
    raise SystemExit(main())
