"""The Pi's side of the bridge protocol as a pure core: bytes and time in, frames and events out.

`HostCore` mirrors the firmware's `FirmwareCore` (firmware_bridge/firmware/core.py): it says
HELLO, checks the Pico's protocol version and board profile, asks for the events since the
last one delivered (REPLAY_REQ) and for a full state dump, delivers every sensor event in
order and exactly once, acknowledges it, keeps the Pico's session alive, notices a reset
Pico or a silent one, and sends LED frames. It owns no thread, no port, no file and no
clock: bytes leave through ``write``, events through ``deliver``, the position to make
durable through ``save``, and every call that depends on time takes ``now`` (seconds, any
monotonic clock: the service's or an emulated chip's). Not thread-safe: call it from one
thread (`firmware_bridge.link.Link` is that thread).

Usage (the shape of `Link`'s loop)::

    core = HostCore(port.write, deliver, save=persist)
    core.open(now())                  # the port just opened: HELLO goes out
    while running:
        port.wait_readable(until=core.next_deadline(now()))  # nothing to do before then
        core.receive(port.read_available(), now())
        core.tick(now())              # LED frames, retries, silence, keep-alives, nudges
    # LinkRefused: the Pico cannot be used; LinkLost: close the port and reopen it

The wire format and the rules both sides follow are in PROTOCOL.md beside this file.
"""

from __future__ import annotations

import logging
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge import messages as M
from firmware_bridge import protocol as P

log = logging.getLogger("firmware_bridge.link")

REQUEST_RETRY_S = 0.25
HELLO_TRIES = 8
SILENCE_TIMEOUT_S = 2.0
# Keep-alive (PROTOCOL.md 3.5): the Pico ends its session after 3 s without a frame from the
# Pi. Running, the Pi sends one whenever it wakes and has sent nothing for KEEPALIVE_AWAKE_S
# (the Pico's HEARTBEAT wakes it every 500 ms), and by KEEPALIVE_S at the latest: an idle link
# wakes for the Pico's frames, not for a timer of its own, and five lost in a row are survived.
# The keep-alive is a PING (answered: a round trip measured) once every PING_EVERY_S, else an
# ACK repeating the position (which the Pico does not answer: no wake-up for the reply).
KEEPALIVE_S = 1.0
KEEPALIVE_AWAKE_S = 0.4
PING_EVERY_S = 5.0
MAX_AHEAD = 1024
NUDGE_S = 0.003
MAX_PICO_FAULTS = 16
PINGS_KEPT = 16
RTT_KEPT = 200
LOG_LEVELS = (10, 20, 30, 40)
# The Pico's pace (`PicoPace`): its heartbeats' uptimes against the Pi's clock, over the
# last PACE_BEATS heartbeats once they span PACE_MIN_SPAN_S of the Pico's time.
PACE_BEATS = 9
PACE_MIN_SPAN_S = 0.5
MAX_SLOWNESS = 50.0
# One LED frame in flight: the next goes once the Pico has answered the PING sent after the
# last (it reads frames in order, so the PONG says the frame was taken), or LED_FENCE_S of
# the Pico's time after it, should that PONG be lost.
LED_FENCE_S = 0.5


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


class LinkLost(Exception):
    """The Pico stopped answering (no IDENTIFY to repeated HELLOs, or silence while running):
    close the port and open it again."""


class RoundTrips:
    """The PINGs in flight and the round-trip times their PONGs measured (the latest kept)."""

    def __init__(self) -> None:
        self._sent: dict[int, float] = {}  # token -> when its PING went out
        self._token = 0
        self._times: list[float] = []

    def ping(self, now: float) -> int:
        """The token of a PING sent at ``now``."""
        self._token = (self._token + 1) & 0xFFFFFFFF
        self._sent[self._token] = now
        if len(self._sent) > PINGS_KEPT:
            self._sent.pop(next(iter(self._sent)))
        return self._token

    def pong(self, token: int, now: float) -> None:
        """The PONG of ``token`` arrived at ``now`` (a stale or unknown token is ignored)."""
        sent = self._sent.pop(token, None)
        if sent is not None:
            self._times.append(now - sent)
            del self._times[:-RTT_KEPT]

    def summary_ms(self) -> dict[str, float | None]:
        """The last, min, median and max round trip in ms (None before the first PONG)."""
        rtt = sorted(self._times)
        last = self._times[-1] if self._times else None
        return {
            "last": None if last is None else round(last * 1000, 3),
            "min": round(rtt[0] * 1000, 3) if rtt else None,
            "median": round(rtt[len(rtt) // 2] * 1000, 3) if rtt else None,
            "max": round(rtt[-1] * 1000, 3) if rtt else None,
        }


class DumpAssembly:
    """The parts of one state dump gathered until all have come (PROTOCOL.md 3.3).

    ``wanted``: a dump is still needed (a STATE_REQ is retried until one completes).
    """

    def __init__(self) -> None:
        self.wanted = False
        self._key: tuple[int, int, int] | None = None  # epoch, as_of_seq, parts
        self._parts: dict[int, list[Any]] = {}

    def add(self, part: Any) -> StateDump | None:
        """Keep one STATE_DUMP record; return the whole dump once its last part is in."""
        key = (part.epoch, part.as_of_seq, part.parts)
        if key != self._key:
            self._key = key
            self._parts = {}
        self._parts[part.part] = part.entries
        if len(self._parts) < part.parts:
            return None
        channels: dict[int, tuple[str, bytes | None]] = {}
        for i in range(part.parts):
            for entry in self._parts[i]:
                channels[entry.channel] = (P.KIND_NAMES[entry.kind], entry.uid or None)
        self._key = None
        self._parts = {}
        self.wanted = False
        return StateDump(part.epoch, part.as_of_seq, channels)


class LedFrames:
    """The LED frame waiting to be sent (the latest wins), the last one sent, and the
    frame id counter of LED_FRAME chunks."""

    def __init__(self) -> None:
        self.pending: bytes | None = None
        self.last: bytes | None = None
        self._frame_id = 0

    def show(self, rgb: bytes) -> bool:
        """Queue ``rgb``; True if it replaced a frame that was never sent."""
        replaced = self.pending is not None
        self.pending = rgb
        return replaced

    def resend_last(self) -> None:
        """Queue the last frame sent again, unless a newer one waits (after a reconnect)."""
        if self.last is not None and self.pending is None:
            self.pending = self.last

    def take_chunks(self) -> list[bytes]:
        """The LED_FRAME payloads of the waiting frame (none if nothing waits)."""
        rgb, self.pending = self.pending, None
        if rgb is None:
            return []
        self.last = rgb
        self._frame_id = (self._frame_id + 1) & 0xFFFF
        return M.led_chunks(self._frame_id, rgb)


class PicoPace:
    """How many seconds of the Pi's clock one second of the Pico's takes, from the uptime its
    heartbeats carry: 1 for a real Pico, more for an emulated one that runs slower than real
    time (the Pi box's RP2040). The core measures its timeouts in the Pico's time with it,
    so a slow Pico is neither taken for a silent one nor flooded.

    Never below 1 (a Pico is never faster than its clock), at most `MAX_SLOWNESS`. A Pico that
    boots again starts its uptime at 0: the beats before are forgotten and the last pace
    stands until the new ones span enough time; so does a port opened again."""

    def __init__(self) -> None:
        self._beats: deque[tuple[float, float]] = deque(maxlen=PACE_BEATS)
        self._last = 1.0

    def beat(self, at: float, uptime_s: float) -> None:
        """A heartbeat read at ``at`` (the core's clock) said the Pico has been up ``uptime_s``."""
        if self._beats and uptime_s < self._beats[-1][1]:
            self._beats.clear()  # a new boot
        self._beats.append((at, uptime_s))
        (first_at, first_up), (last_at, last_up) = self._beats[0], self._beats[-1]
        if last_up - first_up >= PACE_MIN_SPAN_S:
            ratio = (last_at - first_at) / (last_up - first_up)
            self._last = min(MAX_SLOWNESS, max(1.0, ratio))

    @property
    def slowness(self) -> float:
        """Seconds of the Pi's clock a second of the Pico's takes (1.0 until measured)."""
        return self._last


@dataclass(frozen=True)
class Heartbeat:
    """The Pico's latest HEARTBEAT: when it came (the core's clock) and what it said."""

    at: float
    uptime_s: float
    retransmits: int


def random_nonce() -> int:
    """A fresh 32-bit HELLO nonce (an IDENTIFY echoing an older one is stale)."""
    return random.getrandbits(32)


class HostCore:
    """The Pi's side of the protocol (see the module docstring).

    ``write(data)`` sends bytes to the Pico. ``deliver(event)`` hands one in-order event to
    the service and returns True, or False when the service is stopping (the event stays
    unacknowledged, so the next connection replays it). ``save(epoch, seq)`` makes the
    delivered position durable; it is called before the events it covers are acknowledged.
    ``on_state(dump)`` receives each complete state dump. ``epoch``/``delivered``: the
    position a restarted service resumes from (epoch None: never connected).
    """

    def __init__(
        self,
        write: Callable[[bytes], Any],
        deliver: Callable[[SensorEvent], bool],
        *,
        save: Callable[[int, int], None] | None = None,
        on_state: Callable[[StateDump], None] | None = None,
        expected_profile_crc: int | None = None,
        expected_sensor_count: int | None = None,
        epoch: int | None = None,
        delivered: int = 0,
        port: str = "",
        nonce: Callable[[], int] = random_nonce,
        request_retry_s: float = REQUEST_RETRY_S,
        hello_tries: int = HELLO_TRIES,
        silence_timeout_s: float = SILENCE_TIMEOUT_S,
        keepalive_s: float = KEEPALIVE_S,
        keepalive_awake_s: float = KEEPALIVE_AWAKE_S,
        ping_every_s: float = PING_EVERY_S,
        nudge_s: float = NUDGE_S,
    ) -> None:
        self._write = write
        self._deliver_to = deliver
        self._save = save
        self._on_state = on_state
        self.expected_crc = expected_profile_crc
        self.expected_count = expected_sensor_count
        self.port = port  # only named in log lines
        self._nonce_source = nonce
        self.request_retry_s = request_retry_s
        self.hello_tries = hello_tries
        self.silence_timeout_s = silence_timeout_s
        self.keepalive_s = keepalive_s
        self.keepalive_awake_s = keepalive_awake_s
        self.ping_every_s = ping_every_s
        self.nudge_s = nudge_s

        self.epoch = epoch
        self.delivered = delivered if epoch is not None else 0
        self.phase = "closed"  # closed, hello, replay, running
        self.state = "disconnected"  # disconnected, handshaking, connected, refused
        self.last_error: str | None = None
        self.identity: dict[str, Any] = {}
        self.sensor_state: StateDump | None = None
        self.pico_faults: list[str] = []
        self.ahead: dict[int, SensorEvent] = {}
        self.stats = {
            "frames_sent": 0, "frames_received": 0, "bytes_sent": 0, "bytes_received": 0,
            "events_delivered": 0, "duplicates": 0, "out_of_order": 0, "events_lost": 0,
            "request_retries": 0, "malformed": 0, "unknown_frames": 0, "phantom_rejected": 0,
            "reconnects": 0, "pico_resets": 0, "pico_errors": 0, "led_frames_sent": 0,
            "led_frames_dropped": 0,
        }
        self._decoder = P.FrameDecoder()
        self._tx_seq = 0
        self._nonce = 0
        self._hello_count = 0
        self._last_request = 0.0
        self._last_rx = 0.0
        self._last_sent = 0.0  # when the Pi last sent the Pico a frame (any frame)
        self._last_ping: float | None = None
        self._last_nudge = 0.0
        self._lost_at: float | None = None
        self._round_trips = RoundTrips()
        self._dump = DumpAssembly()
        self._leds = LedFrames()
        self._heartbeat: Heartbeat | None = None
        self._pace = PicoPace()
        self._hello_nonces: list[int] = []  # of this handshake: a slow Pico answers late
        self._led_fence: tuple[int, float] | None = None  # the PING after the frame in flight
        self._unknown_logged: set[int] = set()
        # Dispatch: one small handler per message the Pico sends, each (record, now) -> None;
        # `receive` decodes the payload into the message's record (firmware_bridge.messages).
        self._handlers: dict[int, Callable[[Any, float], None]] = {
            M.EVENT.type: self._on_event,
            M.IDENTIFY.type: self._on_identify,
            M.REPLAY_END.type: self._on_replay_end,
            M.HEARTBEAT.type: self._on_heartbeat,
            M.PONG.type: self._on_pong,
            M.STATE_DUMP.type: self._on_dump_part,
            M.ERROR.type: self._on_error,
            M.LOG.type: self._on_log,
        }
        # What a due request timer resends, per phase.
        self._retries: dict[str, Callable[[float], None]] = {
            "hello": self._retry_hello,
            "replay": self._send_replay_req,
            "running": self._retry_dump,
        }

    # ---- the port's life ----------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """True once handshake and replay are done and events flow."""
        return self.state == "connected"

    @property
    def position(self) -> tuple[int | None, int]:
        """(Pico boot epoch, last delivered seq): where a restarted service resumes."""
        return self.epoch, self.delivered

    def open(self, now: float) -> None:
        """The port has just opened: forget half-read bytes and say HELLO."""
        self._decoder.reset()
        self._led_fence = None
        if self.state != "refused":  # a refused Pico stays refused until it passes
            self.state = "handshaking"
        self._begin_hello(now)

    def close(self) -> None:
        """The port is closed: nothing is sent until the next ``open``."""
        self.phase = "closed"
        self._led_fence = None

    def lose(self, reason: str, now: float) -> None:
        """The port failed (read/write error, vanished device, `LinkLost`): note why."""
        self.close()
        self.last_error = reason
        if self.state == "connected":
            self._lost_at = now
            log.warning("event=link.lost port=%s reason=%r", self.port, reason)
        self.state = "disconnected"

    def refuse(self, reason: str) -> None:
        """The Pico cannot be used (`LinkRefused`); logged once per distinct reason."""
        self.close()
        repeated = reason == self.last_error
        self.state = "refused"
        self.last_error = reason
        # Retried every 2 s (the firmware may be reflashed); log once per distinct reason.
        log.log(logging.DEBUG if repeated else logging.ERROR,
                "event=link.refused port=%s reason=%r", self.port, reason)

    def show(self, rgb: bytes) -> None:
        """Queue one LED frame (3 bytes a pixel); sent by the next ``tick``, latest wins."""
        if self._leds.show(rgb):
            self.stats["led_frames_dropped"] += 1

    @property
    def led_pending(self) -> bool:
        """Whether an LED frame waits for the next ``tick``."""
        return self._leds.pending is not None

    # ---- bytes in -----------------------------------------------------------------------
    def receive(self, data: bytes, now: float) -> None:
        """Bytes read from the port at ``now``: decode, handle, deliver and acknowledge."""
        self.stats["bytes_received"] += len(data)
        frames = self._decoder.feed(data)
        if not frames:
            return
        self._last_rx = now
        got_event = False
        for msg_type, _seq, payload in frames:
            self.stats["frames_received"] += 1
            handler = self._handlers.get(msg_type)
            try:
                if handler is None:
                    self._on_unknown(msg_type)
                else:
                    handler(M.decode(msg_type, payload), now)
                    got_event = got_event or msg_type == M.EVENT.type
            except P.ProtocolError as exc:
                self.stats["malformed"] += 1
                log.debug("event=link.malformed type=0x%02x error=%r", msg_type, str(exc))
        if got_event and self.phase in ("replay", "running"):
            self._persist()
            self._last_nudge = now
            self._send_ack(now)

    def _on_event(self, ev: Any, now: float) -> None:
        if self.phase not in ("replay", "running") or ev.epoch != self.epoch:
            self.stats["phantom_rejected"] += 1
            return
        count = self.identity.get("sensor_count")
        if count is not None and ev.channel >= count:
            self.stats["phantom_rejected"] += 1
            return
        if ev.seq <= self.delivered or ev.seq in self.ahead:
            self.stats["duplicates"] += 1
            return
        event = SensorEvent(ev.channel, P.KIND_NAMES[ev.kind], ev.uid or None, ev.seq, ev.epoch)
        if ev.seq != self.delivered + 1:
            self.stats["out_of_order"] += 1
            if ev.seq - self.delivered <= MAX_AHEAD:
                self.ahead[ev.seq] = event
            return
        if self._deliver(event):
            self._drain_ahead()

    def _drain_ahead(self) -> None:
        while self.delivered + 1 in self.ahead:
            if not self._deliver(self.ahead[self.delivered + 1]):
                return
            del self.ahead[self.delivered]

    def _deliver(self, event: SensorEvent) -> bool:
        if not self._deliver_to(event):
            return False  # stopping: the next connection replays it (it is not acknowledged)
        self.delivered = event.seq
        self.stats["events_delivered"] += 1
        return True

    def _on_identify(self, ident: Any, now: float) -> None:
        if self.phase != "hello" or ident.nonce not in self._hello_nonces:
            return
        firmware = ".".join(str(part) for part in ident.fw_version)
        count, crc = ident.sensor_count, ident.profile_crc
        self.pico_faults = []  # the logs after this IDENTIFY say which faults remain
        self.identity = {"firmware_version": firmware, "board_id": ident.board_id,
                         "sensor_count": count, "profile_crc": f"{crc:08x}"}
        if ident.version != P.PROTOCOL_VERSION:
            raise LinkRefused(
                f"the Pico firmware {firmware} speaks protocol version {ident.version} but "
                f"this Pi speaks version {P.PROTOCOL_VERSION}: flash matching firmware")
        if self.expected_crc is not None and crc != self.expected_crc:
            raise LinkRefused(
                f"board profile mismatch: the Pico's sensor map has CRC {crc:08x} "
                f"({ident.board_id}, {count} sensors) but the Pi's profile has "
                f"{self.expected_crc:08x}: load the same profile on both")
        if self.expected_count is not None and count != self.expected_count:
            raise LinkRefused(f"the Pico scans {count} sensors, the profile expects "
                              f"{self.expected_count}")
        if ident.epoch != self.epoch:
            if self.epoch is not None:
                self.stats["pico_resets"] += 1
                log.info("event=link.new_epoch old=%08x new=%08x delivered=%d",
                         self.epoch, ident.epoch, self.delivered)
            self.epoch = ident.epoch
            self.delivered = 0
            self.ahead.clear()
            self._persist()
        self.phase = "replay"
        self._send_replay_req(now)

    def _on_replay_end(self, end: Any, now: float) -> None:
        epoch, first, last = end.epoch, end.first_available, end.last_seq
        if epoch != self.epoch or self.phase not in ("replay", "running"):
            return
        if last < self.delivered:
            # PROTOCOL.md 3.2: our record is ahead of the Pico's own numbering (a corrupt
            # position file): believe the Pico, or its next events would look like duplicates.
            log.error("event=link.position_ahead delivered=%d pico_last=%d", self.delivered,
                      last)
            self.delivered = last
            self.ahead.clear()
            self._persist()
        if first > self.delivered + 1:
            self._skip_lost(first)
        if self.phase == "replay":
            self._now_running(epoch, last, now)
        if self._dump.wanted:
            self._request_dump(now)

    def _skip_lost(self, first: int) -> None:
        """The Pico's ring no longer holds the events before ``first``: count them lost."""
        lost = first - 1 - self.delivered
        self.stats["events_lost"] += lost
        log.error("event=link.events_lost count=%d first_available=%d", lost, first)
        self.delivered = first - 1
        for seq in [s for s in self.ahead if s <= self.delivered]:
            del self.ahead[seq]
        self._drain_ahead()
        self._persist()
        self._dump.wanted = True

    def _now_running(self, epoch: int, last: int, now: float) -> None:
        self.phase = "running"
        self._dump.wanted = True
        self.state = "connected"
        self._hello_count = 0
        self._leds.resend_last()  # the Pico may have lost its LEDs' frame
        fw = self.identity.get("firmware_version")
        if self._lost_at is not None:
            after_ms = (now - self._lost_at) * 1000
            self.stats["reconnects"] += 1
            log.info("event=link.reconnect port=%s fw=%s after_ms=%.0f epoch=%08x "
                     "last_seq=%d pico_last=%d", self.port, fw, after_ms, epoch,
                     self.delivered, last)
            self._lost_at = None
        else:
            log.info("event=link.connected port=%s fw=%s epoch=%08x last_seq=%d "
                     "pico_last=%d", self.port, fw, epoch, self.delivered, last)

    def _on_heartbeat(self, beat: Any, now: float) -> None:
        self._heartbeat = Heartbeat(now, beat.uptime_ms / 1000, beat.retransmits)
        self._pace.beat(now, beat.uptime_ms / 1000)
        if self.phase in ("replay", "running") and beat.epoch != self.epoch:
            log.warning("event=link.pico_reset port=%s old_epoch=%08x new_epoch=%08x",
                        self.port, self.epoch or 0, beat.epoch)
            self._begin_hello(now)

    def _on_pong(self, pong: Any, now: float) -> None:
        self._round_trips.pong(pong.token, now)
        if self._led_fence is not None and pong.token == self._led_fence[0]:
            self._led_fence = None  # the frame in flight was taken: the next may go

    def _on_dump_part(self, part: Any, now: float) -> None:
        if part.epoch != self.epoch:
            return
        dump = self._dump.add(part)
        if dump is None:
            return
        self.sensor_state = dump
        if self._on_state is not None:
            try:
                self._on_state(dump)
            except Exception:
                log.exception("event=link.on_state_error")

    def _on_error(self, error: Any, now: float) -> None:
        code, message = error.code, error.message
        self.stats["pico_errors"] += 1
        log.warning("event=link.pico_error code=%s message=%r",
                    P.ERROR_NAMES.get(code, code), message)
        if code == P.ERR_VERSION:
            raise LinkRefused(f"the Pico refused this Pi: {message}")
        if code == P.ERR_NO_SESSION and self.phase in ("replay", "running"):
            self._begin_hello(now)

    def _on_log(self, record: Any, now: float) -> None:
        level, line = record.level, record.line
        log.log(level if level in LOG_LEVELS else 20, "event=link.pico_log line=%r", line)
        if level >= P.LOG_ERROR and line not in self.pico_faults:
            # The firmware repeats its lasting faults after each HELLO: keep the latest.
            self.pico_faults = [*self.pico_faults, line][-MAX_PICO_FAULTS:]

    def _on_unknown(self, msg_type: int) -> None:
        self.stats["unknown_frames"] += 1
        if msg_type not in self._unknown_logged:
            self._unknown_logged.add(msg_type)
            log.warning("event=link.unknown_message type=0x%02x skipped", msg_type)

    # ---- time ---------------------------------------------------------------------------
    def tick(self, now: float) -> None:
        """Send LED frames, resend what went unanswered, notice silence, keep the Pico's
        session alive, nudge a gap.

        Raises `LinkLost` when the Pico does not answer HELLO or goes silent.
        """
        if self.phase == "closed":
            return
        self._flush_leds(now)  # first: a frame sent is a keep-alive too
        if now - self._last_request >= self.pico_time(self.request_retry_s):
            retry = self._retries.get(self.phase)
            if retry is not None:
                retry(now)
        if self.phase == "running":
            if now - self._last_rx > self.pico_time(self.silence_timeout_s):
                raise LinkLost("the Pico went silent")
            if now - self._last_sent >= self.keepalive_awake_s:
                self._keep_alive(now)  # due at keepalive_s; sent sooner when awake anyway
        if (self.ahead and self.phase in ("replay", "running")
                and now - self._last_nudge >= self.nudge_s):
            # A gap: remind the Pico which event is missing (our ACK may have been lost).
            self._last_nudge = now
            self._send_ack(now)

    def next_deadline(self, now: float) -> float | None:
        """When ``tick`` next has something to do: a request to resend, the keep-alive
        (`KEEPALIVE_S` after the last frame sent), the silence limit, a gap to nudge, an
        LED frame to send (``now``); None while closed.
        Bytes arriving may bring it forward: call again after ``receive``."""
        if self.phase == "closed":
            return None
        due: list[float] = []
        if self.phase in ("hello", "replay") or (self.phase == "running" and self._dump.wanted):
            due.append(self._last_request + self.pico_time(self.request_retry_s))
        if self.phase == "running":
            due.append(self._last_rx + self.pico_time(self.silence_timeout_s))
            due.append(self._last_sent + self.keepalive_s)
        if self.ahead and self.phase in ("replay", "running"):
            due.append(self._last_nudge + self.nudge_s)
        if self._leds.pending is not None:
            fence = self._led_fence
            due.append(now if fence is None else max(now, fence[1] + self.pico_time(LED_FENCE_S)))
        return min(due) if due else None

    def pico_time(self, seconds: float) -> float:
        """``seconds`` of the Pico's time on the core's clock (`PicoPace`)."""
        return seconds * self._pace.slowness

    def _retry_hello(self, now: float) -> None:
        if self._hello_count >= self.hello_tries:
            raise LinkLost("no IDENTIFY answer to HELLO")
        self.stats["request_retries"] += 1
        self._send_hello(now)

    def _retry_dump(self, now: float) -> None:
        if self._dump.wanted:
            self.stats["request_retries"] += 1
            self._request_dump(now)

    def _keep_alive(self, now: float) -> None:
        """A frame for the Pico's session timer: a PING when the last is `ping_every_s`
        old (its PONG measures the round trip), else an ACK of where the Pi stands."""
        if self._last_ping is None or now - self._last_ping >= self.ping_every_s:
            self._last_ping = now
            self._send(now, M.PING, self._round_trips.ping(now))
        else:
            self._send_ack(now)

    def _send_ack(self, now: float) -> None:
        """ACK the last event delivered in order and the newest held past a gap."""
        highest = max(self.ahead) if self.ahead else self.delivered
        self._send(now, M.ACK, self.epoch or 0, self.delivered, highest)

    # ---- frames out ---------------------------------------------------------------------
    def _send(self, now: float, message: M.Message, *values: Any) -> None:
        self._send_payload(now, message, message.encode(*values))

    def _send_payload(self, now: float, message: M.Message, payload: bytes) -> None:
        self._last_sent = now
        self._tx_seq = (self._tx_seq + 1) & 0xFF
        data = P.encode_frame(message.type, self._tx_seq, payload)
        self._write(data)
        self.stats["frames_sent"] += 1
        self.stats["bytes_sent"] += len(data)

    def _begin_hello(self, now: float) -> None:
        self.phase = "hello"
        self._hello_nonces = []
        if self.state == "connected":
            self.state = "handshaking"
            self._lost_at = now
        self._hello_count = 0
        self.ahead.clear()
        self._send_hello(now)

    def _send_hello(self, now: float) -> None:
        self._nonce = self._nonce_source()
        self._hello_nonces = [*self._hello_nonces, self._nonce][-self.hello_tries:]
        self._hello_count += 1
        self._last_request = now
        self._last_rx = self._last_rx or now
        self._send(now, M.HELLO, P.PROTOCOL_VERSION, self._nonce)

    def _send_replay_req(self, now: float) -> None:
        self._last_request = now
        self._send(now, M.REPLAY_REQ, self.epoch or 0, self.delivered)

    def _request_dump(self, now: float) -> None:
        self._last_request = now
        self._send(now, M.STATE_REQ)

    def _flush_leds(self, now: float) -> None:
        """Send the waiting LED frame unless one is still in flight, then a PING behind it."""
        fence = self._led_fence
        if fence is not None and now - fence[1] < self.pico_time(LED_FENCE_S):
            return  # the newest frame waits (latest wins) until the Pico took the last
        chunks = self._leds.take_chunks()
        for chunk in chunks:
            self._send_payload(now, M.LED_FRAME, chunk)
        if chunks:
            self.stats["led_frames_sent"] += 1
            token = self._round_trips.ping(now)
            self._send(now, M.PING, token)
            self._led_fence = (token, now)

    def _persist(self) -> None:
        if self._save is not None and self.epoch is not None:
            self._save(self.epoch, self.delivered)

    # ---- status -------------------------------------------------------------------------
    def status(self, now: float) -> dict[str, Any]:
        """What the link knows, JSON-ready (`Link.get_status` adds the port and thread state)."""
        ident = dict(self.identity)
        beat = self._heartbeat
        beat_age = None if beat is None else now - beat.at
        connected = self.state == "connected"
        return {
            "state": self.state,
            "connected": connected,
            # For a health check: connected and the Pico heard from within 2 heartbeats.
            "healthy": connected and beat_age is not None and beat_age < self.pico_time(1.0),
            "protocol_version": P.PROTOCOL_VERSION,
            "firmware_version": ident.get("firmware_version"),
            "board_id": ident.get("board_id"),
            "sensor_count": ident.get("sensor_count"),
            "profile_crc": ident.get("profile_crc"),
            "epoch": self.epoch,
            "last_seq": self.delivered,
            "last_heartbeat_age_s": None if beat_age is None else round(beat_age, 3),
            "last_error": self.last_error,
            # Lasting problems the Pico reported (a reader or mux missing at boot...).
            "pico_faults": list(self.pico_faults),
            "pico_uptime_s": None if beat is None else beat.uptime_s,
            # Pi seconds per Pico second (1.0 for a real Pico; an emulated one is slower).
            "pico_slowness": round(self._pace.slowness, 2),
            "rtt_ms": self._round_trips.summary_ms(),
            "stats": {**self.stats, "retransmits": 0 if beat is None else beat.retransmits,
                      "crc_errors": self._decoder.crc_errors,
                      "framing_errors": self._decoder.framing_errors,
                      "invalid_bytes": self._decoder.invalid_bytes},
        }
