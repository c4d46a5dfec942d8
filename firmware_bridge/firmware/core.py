"""Transport-agnostic firmware logic of the Pico, shared by the real firmware and the emulator.

`FirmwareCore` numbers sensor events, keeps them in a ring buffer, sends them to the host
and retransmits until acknowledged; answers the handshake (IDENTIFY), replays events since
a given seq, dumps the full sensor state, sends heartbeats and assembles LED frames. It
never touches hardware or time itself: bytes go out through ``write``, time comes from
``ticks_ms`` (and ``ticks_diff`` on MicroPython, whose tick counter wraps).

Runs unchanged on MicroPython (the Pico) and CPython (the emulator). Not thread-safe:
call every method from one thread/loop.

Usage on the Pico (firmware engineer)::

    core = FirmwareCore(usb_write, time.ticks_ms, 42, PROFILE_CRC, "1.0.0",
                        on_led_frame=show_rgb, ticks_diff=time.ticks_diff)
    while True:
        core.feed(read_available_usb_bytes())
        for channel, kind, uid in scan_sensors():
            core.sensor_event(channel, kind, uid)
        core.poll()

Every channel starts as RELEASE in state dumps; call ``core.set_state(channel,
P.TAG_REMOVED)`` at boot for NFC channels (and ``set_state`` with what a first scan found),
so a dump taken before any event is already right.
"""

try:  # firmware_bridge is a package on the Pi; on the Pico protocol.py sits beside core.py
    from firmware_bridge import protocol as P
except ImportError:  # pragma: no cover - MicroPython layout
    import protocol as P  # type: ignore

try:  # pragma: no cover
    from typing import Callable, List, Optional  # noqa: F401
except ImportError:  # pragma: no cover
    pass

MAX_FAULTS = 16  # setup faults kept for resending: bounded, the Pico has little RAM


def _plain_diff(a, b):
    # type: (int, int) -> int
    return a - b


def _random_epoch():
    # type: () -> int
    epoch = 0
    while epoch == 0:
        try:
            import os
            raw = os.urandom(4)
            epoch = (raw[0] << 24) | (raw[1] << 16) | (raw[2] << 8) | raw[3]
        except (ImportError, AttributeError, NotImplementedError):  # pragma: no cover
            import random
            epoch = random.getrandbits(32)
    return epoch


class FirmwareCore:
    """The Pico's side of the protocol (see firmware_bridge/PROTOCOL.md).

    ``write(data: bytes)`` sends bytes to the host; ``ticks_ms()`` is a millisecond clock.
    ``on_led_frame(rgb: bytes)`` receives each complete LED frame (3 bytes per pixel, RGB).
    ``epoch`` is this boot's id (random, never 0, when None): the host uses it to tell a
    reset Pico from duplicated events.
    """

    def __init__(self, write, ticks_ms, sensor_count, profile_crc, firmware_version,
                 on_led_frame=None, ring_size=256, board_id="classic-42", epoch=None,
                 ticks_diff=None, heartbeat_ms=500, retransmit_ms=50, window=32,
                 host_timeout_ms=3000, protocol_version=P.PROTOCOL_VERSION,
                 fast_retransmit_ms=2):
        # type: (Callable, Callable, int, int, object, Optional[Callable], int, str, Optional[int], Optional[Callable], int, int, int, int, int, int) -> None
        if not 0 < sensor_count <= 255:
            raise ValueError("sensor_count must be 1..255")
        self._write = write
        self._ticks = ticks_ms
        self._diff = ticks_diff or _plain_diff
        self.sensor_count = sensor_count
        self.profile_crc = profile_crc & 0xFFFFFFFF
        self.firmware_version = P.parse_version(firmware_version)
        self.board_id = board_id
        self.on_led_frame = on_led_frame
        self.epoch = epoch if epoch else _random_epoch()
        self.heartbeat_ms = heartbeat_ms
        self.retransmit_ms = retransmit_ms
        self.fast_retransmit_ms = fast_retransmit_ms
        self.window = window
        self.host_timeout_ms = host_timeout_ms
        # Only tests change this (to prove a mismatched peer is refused).
        self.protocol_version = protocol_version
        self._ring_size = ring_size
        self._ring = [None] * ring_size  # type: List
        self.next_seq = 1
        self.acked = 0
        self._send_next = 1
        self._session = False  # host said a compatible HELLO
        self._streaming = False  # host asked for a replay: events flow
        now = ticks_ms()
        self._last_host = now
        self._last_progress = now
        self._last_heartbeat = now
        self._last_fast = {}  # type: dict
        self._last_no_session = None  # type: Optional[int]
        self._unknown_told = set()  # type: set  # types answered with unknown_type since HELLO
        self._boot = now
        self._tx_seq = 0
        self._decoder = P.FrameDecoder()
        self._state = [(P.RELEASE, b"")] * sensor_count
        self._led_id = -1
        self._led_buf = bytearray()
        self._led_total = 0
        self.faults = []  # type: List  # lasting setup problems: see report_fault
        self.stats = {"frames_tx": 0, "frames_rx": 0, "events": 0, "retransmits": 0,
                      "overflows": 0, "unknown": 0, "bad_payload": 0, "led_frames": 0}

    # ---- sensor side ------------------------------------------------------------------
    def sensor_event(self, channel, kind, uid=b""):
        # type: (int, int, bytes) -> int
        """Number and queue one sensor event, send it now if the host is listening.

        Updates the channel's state too. Returns the event's seq.
        """
        uid = bytes(uid) if kind == P.TAG_PRESENT else b""
        if not 0 <= channel < self.sensor_count:
            raise ValueError("channel out of range")
        if kind not in P.KIND_NAMES or len(uid) > P.MAX_UID:
            raise ValueError("bad event kind or uid")
        self.set_state(channel, kind, uid)
        seq = self.next_seq
        old = self._ring[seq % self._ring_size]
        if old is not None and old[0] > self.acked:
            self.stats["overflows"] += 1
        self._ring[seq % self._ring_size] = (seq, channel, kind, uid)
        self.next_seq = seq + 1
        self.stats["events"] += 1
        self._pump()
        return seq

    def set_state(self, channel, kind, uid=b""):
        # type: (int, int, bytes) -> None
        """Set a channel's current state (for state dumps) without emitting an event."""
        if kind == P.TAG_REMOVED or kind == P.TAG_PRESENT:
            self._state[channel] = (kind, bytes(uid) if kind == P.TAG_PRESENT else b"")
        else:
            self._state[channel] = (kind, b"")

    @property
    def first_available(self):
        # type: () -> int
        """Oldest seq still held in the ring."""
        first = self.next_seq - self._ring_size
        return first if first > 1 else 1

    @property
    def connected(self):
        # type: () -> bool
        """True while a host holds a session and has been heard from recently."""
        return self._session

    # ---- host side --------------------------------------------------------------------
    def feed(self, data):
        # type: (bytes) -> None
        """Handle bytes received from the host (any amount, any split)."""
        if not data:
            return
        for msg_type, _seq, payload in self._decoder.feed(data):
            self.stats["frames_rx"] += 1
            try:
                self._handle(msg_type, payload)
            except P.ProtocolError as exc:
                self.stats["bad_payload"] += 1
                self.send_error(P.ERR_BAD_PAYLOAD, "bad %s payload: %s" % (
                    P.MESSAGE_NAMES.get(msg_type, "?"), exc))

    def poll(self):
        # type: () -> None
        """Call often (every few ms): retransmits, heartbeats, host-timeout."""
        now = self._ticks()
        if self._session and self._diff(now, self._last_host) > self.host_timeout_ms:
            self._session = False
            self._streaming = False
        if (self._streaming and self.acked < self._send_next - 1
                and self._diff(now, self._last_progress) >= self.retransmit_ms):
            self._last_progress = now
            last = self._send_next - 1
            if last > self.acked + 8:
                last = self.acked + 8
            for seq in range(self.acked + 1, last + 1):
                self._send_event(seq, True)
        if self._diff(now, self._last_heartbeat) >= self.heartbeat_ms:
            self._last_heartbeat = now
            self._send(P.MSG_HEARTBEAT, P.pack_heartbeat(
                self.epoch, self.next_seq - 1, self._diff(now, self._boot),
                self.stats["retransmits"]))
        self._pump()

    def log(self, level, text):
        # type: (int, str) -> None
        """Send a log line to the host (P.LOG_INFO, P.LOG_WARNING, ...)."""
        self._send(P.MSG_LOG, P.pack_text(level, text))

    def report_fault(self, text):
        # type: (str) -> None
        """Keep a lasting problem (a reader missing at boot...) and log it to the host now
        and again after each HELLO, so a Pi that connects later still hears of it."""
        if len(self.faults) < MAX_FAULTS:
            self.faults.append(text)
        self.log(P.LOG_ERROR, text)

    def send_error(self, code, text):
        # type: (int, str) -> None
        """Report an error to the host (P.ERR_* code and a sentence)."""
        self._send(P.MSG_ERROR, P.pack_text(code, text))

    # ---- internals --------------------------------------------------------------------
    def _send(self, msg_type, payload):
        # type: (int, bytes) -> None
        self._tx_seq = (self._tx_seq + 1) & 0xFF
        self.stats["frames_tx"] += 1
        self._write(P.encode_frame(msg_type, self._tx_seq, payload))

    def _send_event(self, seq, retransmit):
        # type: (int, bool) -> None
        entry = self._ring[seq % self._ring_size]
        if entry is None or entry[0] != seq:
            return
        if retransmit:
            self.stats["retransmits"] += 1
        self._send(P.MSG_EVENT, P.pack_event(self.epoch, seq, entry[1], entry[2], entry[3]))

    def _pump(self):
        # type: () -> None
        if not self._streaming:
            return
        if self.acked < self.first_available - 1:
            self._skip_lost()
        if self.acked + 1 == self._send_next:
            self._last_progress = self._ticks()
        while self._send_next < self.next_seq and self._send_next - 1 - self.acked < self.window:
            self._send_event(self._send_next, False)
            self._send_next += 1

    def _skip_lost(self):
        # type: () -> None
        # Events the ring no longer holds are gone: tell the host where the ring starts.
        lost_from = self.acked + 1
        self.acked = self.first_available - 1
        if self._send_next < self.first_available:
            self._send_next = self.first_available
        self._send_replay_end()
        self._overflow_error(lost_from)

    def _overflow_error(self, lost_from):
        # type: (int) -> None
        # PROTOCOL.md 3.2: after a REPLAY_END that skips events the host never acknowledged.
        last_lost = self.first_available - 1
        self.send_error(P.ERR_RING_OVERFLOW, "ring overflow: events %d..%d lost (the ring "
                        "holds %d)" % (lost_from, last_lost, self._ring_size))

    def _send_replay_end(self):
        # type: () -> None
        self._send(P.MSG_REPLAY_END, P.pack_replay_end(
            self.epoch, self.first_available, self.next_seq - 1))

    def _handle(self, msg_type, payload):
        # type: (int, bytes) -> None
        now = self._ticks()
        self._last_host = now
        if msg_type == P.MSG_HELLO:
            version, nonce = P.unpack_hello(payload)
            self._unknown_told = set()
            self._send(P.MSG_IDENTIFY, P.pack_identify(
                self.protocol_version, self.firmware_version, self.sensor_count, self.profile_crc,
                self.epoch, self.next_seq - 1, nonce, self.board_id))
            if version != self.protocol_version:
                self._session = False
                self._streaming = False
                self.send_error(P.ERR_VERSION, "firmware speaks protocol %d, host sent %d" % (
                    self.protocol_version, version))
            else:
                self._session = True
                self._streaming = False
                for fault in self.faults:
                    self.log(P.LOG_ERROR, fault)
            return
        if msg_type == P.MSG_LED_FRAME:
            self._led_chunk(payload)
            return
        if msg_type == P.MSG_PING:
            self._send(P.MSG_PONG, P.pack_token(P.unpack_token(payload)))
            if not self._session:
                self._no_session(now)
            return
        if msg_type not in (P.MSG_ACK, P.MSG_REPLAY_REQ, P.MSG_STATE_REQ):
            # PROTOCOL.md, error table: the first frame of each unknown type after a HELLO (or boot)
            # gets ERROR unknown_type; later ones of that type are skipped silently.
            self.stats["unknown"] += 1
            if msg_type not in self._unknown_told:
                self._unknown_told.add(msg_type)
                self.send_error(P.ERR_UNKNOWN_TYPE,
                                "unknown message type 0x%02x skipped" % msg_type)
            return
        if not self._session:
            self._no_session(now)
            return
        if msg_type == P.MSG_ACK:
            self._ack(now, *P.unpack_ack(payload))
        elif msg_type == P.MSG_REPLAY_REQ:
            epoch, since = P.unpack_replay_req(payload)
            if epoch != self.epoch:
                since = 0
            if since > self.next_seq - 1:
                since = self.next_seq - 1
            self.acked = since
            self._send_next = since + 1
            lost = self.acked < self.first_available - 1
            if lost:
                self.acked = self.first_available - 1
                self._send_next = self.first_available
            self._last_fast = {}
            self._streaming = True
            self._send_replay_end()
            if lost:
                self._overflow_error(since + 1)
            self._pump()
        else:
            self._dump_state()

    def _no_session(self, now):
        # type: (int) -> None
        # At most one ERROR no_session per 100 ms (the first one always goes out).
        last = self._last_no_session
        if last is None or self._diff(now, last) >= 100:
            self._last_no_session = now
            self.send_error(P.ERR_NO_SESSION, "no session: send HELLO first")

    def _ack(self, now, epoch, seq, highest):
        # type: (int, int, int, int) -> None
        if epoch != self.epoch or not self._streaming:
            return
        if self.acked < seq < self.next_seq:
            self.acked = seq
            self._last_progress = now
            if self._send_next <= seq:
                self._send_next = seq + 1
        if highest > self.acked and self.acked < self._send_next - 1:
            # The host holds later events: acked + 1 was lost. Resend it at once, but not
            # more often than every fast_retransmit_ms for the same seq.
            missing = self.acked + 1
            if missing < self.first_available:
                self._skip_lost()
                self._pump()
                return
            last = self._last_fast.get(missing)
            if last is None or self._diff(now, last) >= self.fast_retransmit_ms:
                if len(self._last_fast) > 16:
                    self._last_fast = {}
                self._last_fast[missing] = now
                self._send_event(missing, True)
        self._pump()

    def _dump_state(self):
        # type: () -> None
        room = P.MAX_PAYLOAD - 10
        parts = []
        cur = bytearray()
        for channel in range(self.sensor_count):
            kind, uid = self._state[channel]
            entry = P.pack_state_entry(channel, kind, uid)
            if len(cur) + len(entry) > room:
                parts.append(bytes(cur))
                cur = bytearray()
            cur.extend(entry)
        parts.append(bytes(cur))
        as_of = self.next_seq - 1
        for i, entries in enumerate(parts):
            self._send(P.MSG_STATE_DUMP, P.pack_state_dump(self.epoch, as_of, i, len(parts),
                                                           entries))

    def _led_chunk(self, payload):
        # type: (bytes) -> None
        # PROTOCOL.md 3.7: a chunk that cannot continue the frame being assembled drops it
        # (and the chunk) with one ERROR led_chunk; a first chunk always starts a frame.
        frame_id, first, total, rgb = P.unpack_led_chunk(payload)
        if first == 0:
            if self._led_id >= 0:
                self.send_error(P.ERR_LED_CHUNK, "LED frame %d dropped: %d of %d LEDs came "
                                "before frame %d began" % (self._led_id, len(self._led_buf) // 3,
                                                            self._led_total, frame_id))
            self._led_id = frame_id
            self._led_buf = bytearray()
            self._led_total = total
        elif frame_id != self._led_id or first * 3 != len(self._led_buf) \
                or total != self._led_total:
            if self._led_id >= 0:
                expected = "frame %d from LED %d" % (self._led_id, len(self._led_buf) // 3)
            else:
                expected = "a first chunk"
            self.send_error(P.ERR_LED_CHUNK, "LED chunk of frame %d from LED %d dropped: "
                            "expected %s" % (frame_id, first, expected))
            self._led_id = -1  # a chunk went missing: drop this frame, wait for the next
            return
        self._led_buf.extend(rgb)
        if len(self._led_buf) == total * 3:
            self._led_id = -1
            self.stats["led_frames"] += 1
            if self.on_led_frame is not None:
                self.on_led_frame(bytes(self._led_buf))
