"""The Pi side of the serial link to the Pico: handshake, in-order exactly-once sensor events.

`Link` owns one daemon thread that opens the port with pyserial, says HELLO, checks the
firmware's protocol version and board profile, asks for the events since the last one it
delivered (REPLAY_REQ) and for a full state dump, then delivers every sensor event to
``on_event`` in order and exactly once, acknowledging each. It survives corrupted, lost,
duplicated or half-written frames, a resetting Pico and a pulled cable: it closes the port,
waits for the device path to come back (backoff 50 ms doubling to 400 ms) and re-handshakes.
Nothing it does blocks the caller: LED frames are queued, latest wins.

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
import random
import select
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import serial

from firmware_bridge import protocol as P

log = logging.getLogger("firmware_bridge.link")

REQUEST_RETRY_S = 0.25
HELLO_TRIES = 8
SILENCE_TIMEOUT_S = 2.0
PING_INTERVAL_S = 0.25
BACKOFF_MIN_S = 0.05
BACKOFF_MAX_S = 0.4
REFUSED_BACKOFF_S = 2.0
MAX_AHEAD = 1024
NUDGE_S = 0.003
IDLE_WAIT_S = 0.01
START_WAIT_S = 2.0
MAX_PICO_FAULTS = 16


@dataclass(frozen=True)
class SensorEvent:
    """One sensor event from the Pico: ``kind`` is press/release/tag_present/tag_removed.

    ``uid`` holds the tag's UID bytes for tag_present, else None. ``seq`` numbers the
    events of one Pico boot (``epoch``) from 1.
    """

    channel: int
    kind: str
    uid: bytes | None
    seq: int
    epoch: int = 0


@dataclass(frozen=True)
class StateDump:
    """Every channel's current state as reported by the Pico after (re)connecting.

    ``channels[channel] = (state, uid)`` with state "press" (held down), "release",
    "tag_present" (uid bytes) or "tag_removed". ``as_of_seq``: the dump includes every
    event up to that seq of ``epoch``.
    """

    epoch: int
    as_of_seq: int
    channels: dict[int, tuple[str, bytes | None]] = field(default_factory=dict)


class LinkRefused(Exception):
    """The Pico answered but cannot be used: wrong protocol version or board profile."""


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
    ) -> None:
        self.port = port
        self.baudrate = baudrate
        self._on_event = on_event
        self._on_state = on_state
        self._expected_crc = expected_profile_crc
        self._expected_count = expected_sensor_count
        self._serial_factory = serial_factory
        self._state_path = os.fspath(state_path) if state_path is not None else None
        self._epoch = last_epoch
        self._delivered = last_seq if last_epoch is not None else 0
        self._load_position()
        self._persisted = (self._epoch, self._delivered)

        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ser: Any = None
        self._decoder = P.FrameDecoder()
        self._tx_seq = 0
        self._phase = "closed"  # closed, hello, replay, running
        self._state = "stopped"
        self._ahead: dict[int, SensorEvent] = {}
        self._nonce = 0
        self._hello_tries = 0
        self._last_request = 0.0
        self._last_rx = 0.0
        self._last_ping = 0.0
        self._last_nudge = 0.0
        self._pings: dict[int, float] = {}
        self._ping_token = 0
        self._dump_parts: dict[int, list[tuple[int, int, bytes]]] = {}
        self._dump_key: tuple[int, int, int] | None = None
        self._dump_wanted = False
        self._lost_at: float | None = None
        self._connected_once = False
        self._pending_led: bytes | None = None
        self._last_led: bytes | None = None
        self._led_id = 0
        self._unknown_logged: set[int] = set()

        self._identity: dict[str, Any] = {}
        self._last_error: str | None = None
        self._open_failure: str | None = None
        self._pico_faults: list[str] = []
        self._last_heartbeat: float | None = None
        self._pico_retransmits = 0
        self._pico_uptime_s: float | None = None
        self.sensor_state: StateDump | None = None
        self._stats = {
            "frames_sent": 0, "frames_received": 0, "bytes_sent": 0, "bytes_received": 0,
            "events_delivered": 0, "duplicates": 0, "out_of_order": 0, "events_lost": 0,
            "request_retries": 0, "malformed": 0, "unknown_frames": 0, "phantom_rejected": 0,
            "reconnects": 0, "pico_resets": 0, "pico_errors": 0, "led_frames_sent": 0,
            "led_frames_dropped": 0,
        }
        self._rtt: list[float] = []

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
        self._state = "disconnected"
        self._thread = threading.Thread(target=self._run, name="bridge-link", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop the thread; it closes the port and saves the last delivered position.

        Nothing is delivered once stop is requested. If ``on_event`` is still busy after
        ``timeout`` seconds, returns with state "stopping"; the thread finishes (close,
        save) as soon as the callback returns, and ``start()`` waits for that.
        """
        self._stop.set()
        thread = self._thread
        if thread is None:
            self._state = "stopped"
            return
        thread.join(timeout)
        if thread.is_alive():
            self._state = "stopping"
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
        return self._state == "connected"

    @property
    def position(self) -> tuple[int | None, int]:
        """(Pico boot epoch, last delivered seq): where a restarted service resumes."""
        return self._epoch, self._delivered

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
                self._stats["led_frames_dropped"] += 1
            self._pending_led = bytes(rgb)

    def get_status(self) -> dict[str, Any]:
        """Link state for the status page and the health check (JSON-ready)."""
        now = time.monotonic()
        rtt = sorted(self._rtt)
        ident = dict(self._identity)
        beat_age = None if self._last_heartbeat is None else now - self._last_heartbeat
        connected = self._state == "connected"
        return {
            "state": self._state,
            "connected": connected,
            # For a health check: connected and the Pico heard from within 2 heartbeats.
            "healthy": connected and beat_age is not None and beat_age < 1.0,
            "port": self.port,
            "protocol_version": P.PROTOCOL_VERSION,
            "firmware_version": ident.get("firmware_version"),
            "board_id": ident.get("board_id"),
            "sensor_count": ident.get("sensor_count"),
            "profile_crc": ident.get("profile_crc"),
            "epoch": self._epoch,
            "last_seq": self._delivered,
            "last_heartbeat_age_s": None if beat_age is None else round(beat_age, 3),
            "last_error": self._last_error,
            # Lasting problems the Pico reported (a reader or mux missing at boot...).
            "pico_faults": list(self._pico_faults),
            "pico_uptime_s": self._pico_uptime_s,
            "rtt_ms": {
                "last": round(self._rtt[-1] * 1000, 3) if self._rtt else None,
                "min": round(rtt[0] * 1000, 3) if rtt else None,
                "median": round(rtt[len(rtt) // 2] * 1000, 3) if rtt else None,
                "max": round(rtt[-1] * 1000, 3) if rtt else None,
            },
            "stats": {**self._stats, "retransmits": self._pico_retransmits,
                      "crc_errors": self._decoder.crc_errors,
                      "framing_errors": self._decoder.framing_errors,
                      "invalid_bytes": self._decoder.invalid_bytes},
        }

    # ---- thread -------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._loop()
        finally:
            # Only this thread touches the port and the position file.
            self._close()
            self._persist(force=True)
            self._state = "stopped"

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
                self._refuse(str(exc))
                self._stop.wait(REFUSED_BACKOFF_S)
            except (serial.SerialException, OSError, TypeError) as exc:
                # pyserial raises TypeError when the fd vanishes under it mid-read.
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
        self._decoder.reset()
        if self._state != "refused":  # a refused Pico stays refused until it passes
            self._state = "handshaking"
        self._begin_hello(time.monotonic())
        return True

    def _open_failed(self, sentence: str) -> None:
        """Record why the port did not open; log it once per distinct reason (retried often)."""
        self._last_error = sentence
        if sentence != self._open_failure:
            self._open_failure = sentence
            log.warning("event=link.open_failed port=%s reason=%r", self.port, sentence)

    def _close(self) -> None:
        ser, self._ser = self._ser, None
        self._phase = "closed"
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()

    def _lose(self, reason: str) -> None:
        was = self._state
        self._close()
        self._last_error = reason
        if self._stop.is_set():
            return
        if was == "connected":
            self._lost_at = time.monotonic()
            log.warning("event=link.lost port=%s reason=%r", self.port, reason)
        self._state = "disconnected"
        self._stop.wait(BACKOFF_MIN_S)

    def _refuse(self, reason: str) -> None:
        self._close()
        repeated = reason == self._last_error
        self._state = "refused"
        self._last_error = reason
        # Retried every 2 s (the firmware may be reflashed); log once per distinct reason.
        log.log(logging.DEBUG if repeated else logging.ERROR,
                "event=link.refused port=%s reason=%r", self.port, reason)

    def _service(self) -> None:
        ser = self._ser
        wait = NUDGE_S if self._ahead else IDLE_WAIT_S
        if self._pending_led is None:
            ready, _, _ = select.select([ser.fileno()], [], [], wait)
        else:
            ready = True
        # A readable port with nothing to read makes pyserial raise (the device is gone).
        data = ser.read(ser.in_waiting or 1) if ready else b""
        now = time.monotonic()
        if data:
            self._receive(data, now)
        self._timers(now)
        self._flush_leds()

    # ---- frames in ----------------------------------------------------------------------
    def _receive(self, data: bytes, now: float) -> None:
        self._stats["bytes_received"] += len(data)
        frames = self._decoder.feed(data)
        if frames:
            self._last_rx = now
            self._handle_frames(frames, now)

    def _handle_frames(self, frames: list[tuple[int, int, bytes]], now: float) -> None:
        got_event = False
        for msg_type, _seq, payload in frames:
            self._stats["frames_received"] += 1
            try:
                if msg_type == P.MSG_EVENT:
                    self._on_event_frame(P.unpack_event(payload))
                    got_event = True
                else:
                    self._on_other(msg_type, payload, now)
            except P.ProtocolError as exc:
                self._stats["malformed"] += 1
                log.debug("event=link.malformed type=0x%02x error=%r", msg_type, str(exc))
        if got_event and self._phase in ("replay", "running"):
            self._persist()
            highest = max(self._ahead) if self._ahead else self._delivered
            self._last_nudge = now
            self._send(P.MSG_ACK, P.pack_ack(self._epoch or 0, self._delivered, highest))

    def _on_event_frame(self, fields: tuple[int, int, int, int, bytes]) -> None:
        epoch, seq, channel, kind, uid = fields
        if self._phase not in ("replay", "running") or epoch != self._epoch:
            self._stats["phantom_rejected"] += 1
            return
        count = self._identity.get("sensor_count")
        if count is not None and channel >= count:
            self._stats["phantom_rejected"] += 1
            return
        if seq <= self._delivered or seq in self._ahead:
            self._stats["duplicates"] += 1
            return
        if self._stop.is_set():
            return
        event = SensorEvent(channel, P.KIND_NAMES[kind], uid or None, seq, epoch)
        if seq != self._delivered + 1:
            self._stats["out_of_order"] += 1
            if seq - self._delivered <= MAX_AHEAD:
                self._ahead[seq] = event
            return
        self._deliver(event)
        self._drain_ahead()

    def _drain_ahead(self) -> None:
        while self._delivered + 1 in self._ahead and not self._stop.is_set():
            self._deliver(self._ahead.pop(self._delivered + 1))

    def _deliver(self, event: SensorEvent) -> None:
        if self._stop.is_set():
            return  # stopping: the next start replays it (it is not acknowledged)
        self._delivered = event.seq
        self._stats["events_delivered"] += 1
        try:
            self._on_event(event)
        except Exception:
            log.exception("event=link.on_event_error seq=%d", event.seq)

    def _on_other(self, msg_type: int, payload: bytes, now: float) -> None:
        if msg_type == P.MSG_IDENTIFY:
            self._on_identify(P.unpack_identify(payload), now)
        elif msg_type == P.MSG_REPLAY_END:
            self._on_replay_end(*P.unpack_replay_end(payload), now)
        elif msg_type == P.MSG_HEARTBEAT:
            epoch, _last, uptime_ms, retransmits = P.unpack_heartbeat(payload)
            self._last_heartbeat = now
            self._pico_uptime_s = uptime_ms / 1000
            self._pico_retransmits = retransmits
            if self._phase in ("replay", "running") and epoch != self._epoch:
                log.warning("event=link.pico_reset port=%s old_epoch=%08x new_epoch=%08x",
                            self.port, self._epoch or 0, epoch)
                self._begin_hello(now)
        elif msg_type == P.MSG_PONG:
            sent = self._pings.pop(P.unpack_token(payload), None)
            if sent is not None:
                self._rtt.append(now - sent)
                del self._rtt[:-200]
        elif msg_type == P.MSG_STATE_DUMP:
            self._on_dump_part(*P.unpack_state_dump(payload))
        elif msg_type == P.MSG_ERROR:
            code, text = P.unpack_text(payload)
            message = text.decode("utf-8", "replace")
            self._stats["pico_errors"] += 1
            log.warning("event=link.pico_error code=%s message=%r",
                        P.ERROR_NAMES.get(code, code), message)
            if code == P.ERR_VERSION:
                raise LinkRefused(f"the Pico refused this Pi: {message}")
            if code == P.ERR_NO_SESSION and self._phase in ("replay", "running"):
                self._begin_hello(now)
        elif msg_type == P.MSG_LOG:
            level, text = P.unpack_text(payload)
            line = text.decode("utf-8", "replace")
            log.log(level if level in (10, 20, 30, 40) else 20, "event=link.pico_log line=%r",
                    line)
            if level >= P.LOG_ERROR and line not in self._pico_faults:
                # The firmware repeats its lasting faults after each HELLO: keep the latest.
                self._pico_faults = [*self._pico_faults, line][-MAX_PICO_FAULTS:]
        else:
            self._stats["unknown_frames"] += 1
            if msg_type not in self._unknown_logged:
                self._unknown_logged.add(msg_type)
                log.warning("event=link.unknown_message type=0x%02x skipped", msg_type)

    def _on_identify(self, fields: tuple, now: float) -> None:
        (version, fw, count, crc, epoch, _last_seq, nonce, _max_payload, board_id) = fields
        if self._phase != "hello" or nonce != self._nonce:
            return
        firmware = ".".join(str(part) for part in fw)
        self._pico_faults = []  # the logs after this IDENTIFY say which faults remain
        self._identity = {"firmware_version": firmware, "board_id": board_id,
                          "sensor_count": count, "profile_crc": f"{crc:08x}"}
        if version != P.PROTOCOL_VERSION:
            raise LinkRefused(
                f"the Pico firmware {firmware} speaks protocol version {version} but this Pi "
                f"speaks version {P.PROTOCOL_VERSION}: flash matching firmware")
        if self._expected_crc is not None and crc != self._expected_crc:
            raise LinkRefused(
                f"board profile mismatch: the Pico's sensor map has CRC {crc:08x} "
                f"({board_id}, {count} sensors) but the Pi's profile has "
                f"{self._expected_crc:08x}: load the same profile on both")
        if self._expected_count is not None and count != self._expected_count:
            raise LinkRefused(f"the Pico scans {count} sensors, the profile expects "
                              f"{self._expected_count}")
        if epoch != self._epoch:
            if self._epoch is not None:
                self._stats["pico_resets"] += 1
                log.info("event=link.new_epoch old=%08x new=%08x delivered=%d",
                         self._epoch, epoch, self._delivered)
            self._epoch = epoch
            self._delivered = 0
            self._ahead.clear()
            self._persist(force=True)
        self._phase = "replay"
        self._send_replay_req(now)

    def _on_replay_end(self, epoch: int, first: int, last: int, now: float) -> None:
        if epoch != self._epoch or self._phase not in ("replay", "running"):
            return
        if last < self._delivered:
            # PROTOCOL.md 3.2: our record is ahead of the Pico's own numbering (a corrupt
            # position file): believe the Pico, or its next events would look like duplicates.
            log.error("event=link.position_ahead delivered=%d pico_last=%d", self._delivered,
                      last)
            self._delivered = last
            self._ahead.clear()
            self._persist(force=True)
        if first > self._delivered + 1:
            lost = first - 1 - self._delivered
            self._stats["events_lost"] += lost
            log.error("event=link.events_lost count=%d first_available=%d", lost, first)
            self._delivered = first - 1
            for seq in [s for s in self._ahead if s <= self._delivered]:
                del self._ahead[seq]
            self._drain_ahead()
            self._persist(force=True)
            self._dump_wanted = True
        if self._phase == "replay":
            self._phase = "running"
            self._dump_wanted = True
            self._state = "connected"
            self._hello_tries = 0
            if self._last_led is not None and self._pending_led is None:
                with self._lock:
                    self._pending_led = self._last_led
            fw = self._identity.get("firmware_version")
            if self._lost_at is not None:
                after_ms = (now - self._lost_at) * 1000
                self._stats["reconnects"] += 1
                log.info("event=link.reconnect port=%s fw=%s after_ms=%.0f epoch=%08x "
                         "last_seq=%d pico_last=%d", self.port, fw, after_ms, epoch,
                         self._delivered, last)
                self._lost_at = None
            else:
                log.info("event=link.connected port=%s fw=%s epoch=%08x last_seq=%d "
                         "pico_last=%d", self.port, fw, epoch, self._delivered, last)
            self._connected_once = True
        if self._dump_wanted:
            self._request_dump(now)

    def _on_dump_part(self, epoch: int, as_of: int, part: int, parts: int,
                      entries: list[tuple[int, int, bytes]]) -> None:
        if epoch != self._epoch:
            return
        key = (epoch, as_of, parts)
        if key != self._dump_key:
            self._dump_key = key
            self._dump_parts = {}
        self._dump_parts[part] = entries
        if len(self._dump_parts) < parts:
            return
        channels: dict[int, tuple[str, bytes | None]] = {}
        for i in range(parts):
            for channel, kind, uid in self._dump_parts[i]:
                channels[channel] = (P.KIND_NAMES[kind], uid or None)
        dump = StateDump(epoch, as_of, channels)
        self._dump_key = None
        self._dump_parts = {}
        self._dump_wanted = False
        self.sensor_state = dump
        if self._on_state is not None:
            try:
                self._on_state(dump)
            except Exception:
                log.exception("event=link.on_state_error")

    # ---- frames out ---------------------------------------------------------------------
    def _send(self, msg_type: int, payload: bytes) -> None:
        self._tx_seq = (self._tx_seq + 1) & 0xFF
        data = P.encode_frame(msg_type, self._tx_seq, payload)
        self._ser.write(data)
        self._stats["frames_sent"] += 1
        self._stats["bytes_sent"] += len(data)

    def _begin_hello(self, now: float) -> None:
        self._phase = "hello"
        if self._state == "connected":
            self._state = "handshaking"
            self._lost_at = now
        self._hello_tries = 0
        self._ahead.clear()
        self._send_hello(now)

    def _send_hello(self, now: float) -> None:
        self._nonce = random.getrandbits(32)
        self._hello_tries += 1
        self._last_request = now
        self._last_rx = self._last_rx or now
        self._send(P.MSG_HELLO, P.pack_hello(P.PROTOCOL_VERSION, self._nonce))

    def _send_replay_req(self, now: float) -> None:
        self._last_request = now
        self._send(P.MSG_REPLAY_REQ, P.pack_replay_req(self._epoch or 0, self._delivered))

    def _request_dump(self, now: float) -> None:
        self._last_request = now
        self._send(P.MSG_STATE_REQ, b"")

    def _timers(self, now: float) -> None:
        due = now - self._last_request >= REQUEST_RETRY_S
        if self._phase == "hello" and due:
            if self._hello_tries >= HELLO_TRIES:
                raise serial.SerialException("no IDENTIFY answer to HELLO")
            self._stats["request_retries"] += 1
            self._send_hello(now)
        elif self._phase == "replay" and due:
            self._stats["request_retries"] += 1
            self._send_replay_req(now)
        elif self._phase == "running" and self._dump_wanted and due:
            self._stats["request_retries"] += 1
            self._request_dump(now)
        if self._phase == "running":
            if now - self._last_rx > SILENCE_TIMEOUT_S:
                raise serial.SerialException("the Pico went silent")
            if now - self._last_ping >= PING_INTERVAL_S:
                self._last_ping = now
                self._ping_token = (self._ping_token + 1) & 0xFFFFFFFF
                self._pings[self._ping_token] = now
                if len(self._pings) > 16:
                    self._pings.pop(next(iter(self._pings)))
                self._send(P.MSG_PING, P.pack_token(self._ping_token))
        if (self._ahead and self._phase in ("replay", "running")
                and now - self._last_nudge >= NUDGE_S):
            # A gap: remind the Pico which event is missing (our ACK may have been lost).
            self._last_nudge = now
            self._send(P.MSG_ACK, P.pack_ack(self._epoch or 0, self._delivered,
                                             max(self._ahead)))

    def _flush_leds(self) -> None:
        if self._pending_led is None or self._phase == "closed":
            return
        with self._lock:
            rgb, self._pending_led = self._pending_led, None
        if rgb is None:
            return
        self._last_led = rgb
        self._led_id = (self._led_id + 1) & 0xFFFF
        for chunk in P.led_chunks(self._led_id, rgb):
            self._send(P.MSG_LED_FRAME, chunk)
        self._stats["led_frames_sent"] += 1

    # ---- persistence --------------------------------------------------------------------
    def _load_position(self) -> None:
        if self._state_path is None or not os.path.exists(self._state_path):
            return
        try:
            with open(self._state_path, encoding="utf-8") as fh:
                data = json.load(fh)
            epoch, seq = data["epoch"], data["seq"]
            if isinstance(epoch, int) and isinstance(seq, int) and seq >= 0:
                self._epoch, self._delivered = epoch, seq
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("event=link.state_unreadable path=%s error=%r", self._state_path, exc)

    def _persist(self, force: bool = False) -> None:
        position = (self._epoch, self._delivered)
        if self._state_path is None or (position == self._persisted and not force):
            return
        if self._epoch is None:
            return
        tmp = self._state_path + ".tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump({"epoch": self._epoch, "seq": self._delivered}, fh)
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
