"""The riskboard serial frame codec, shared by the Pi (CPython) and the Pico (MicroPython).

One frame on the wire is ``COBS(type, seq, payload, crc16) 0x00``: COBS removes every
zero byte, so the 0x00 delimiter resynchronises the receiver after any garbage.
``PROTOCOL.md`` beside this file describes every byte; ``tests/bridge/test_protocol_doc.py``
checks that document's hex examples against this code. The message numbers and the
payload functions below are the Pico's compact copy of the declaration in ``messages.py``
(which the Pi uses, and the Pico never imports), held to it by
``tests/bridge/test_messages.py``.

This module must run unchanged on MicroPython: no dataclasses, no f-strings with ``=``,
no keyword arguments to ``int.to_bytes``/``from_bytes``, type hints only in comments.
"""

import struct

try:  # pragma: no cover - typing is absent on MicroPython
    from typing import List, Optional, Tuple, Union  # noqa: F401
except ImportError:  # pragma: no cover
    pass

PROTOCOL_VERSION = 1
MAX_PAYLOAD = 250
# type + seq + payload + crc16
MAX_RAW_FRAME = 2 + MAX_PAYLOAD + 2
# COBS adds one byte per 254 data bytes; the raw frame never exceeds 254 bytes.
MAX_ENCODED_FRAME = MAX_RAW_FRAME + 1
DELIMITER = 0x00

# Message types, Pi -> Pico (0x01..0x3F).
MSG_HELLO = 0x01
MSG_ACK = 0x02
MSG_REPLAY_REQ = 0x03
MSG_STATE_REQ = 0x04
MSG_PING = 0x05
MSG_LED_FRAME = 0x06
# Message types, Pico -> Pi (0x41..0x7F).
MSG_IDENTIFY = 0x41
MSG_EVENT = 0x42
MSG_STATE_DUMP = 0x43
MSG_HEARTBEAT = 0x44
MSG_PONG = 0x45
MSG_REPLAY_END = 0x46
MSG_ERROR = 0x47
MSG_LOG = 0x48

MESSAGE_NAMES = {
    MSG_HELLO: "hello",
    MSG_ACK: "ack",
    MSG_REPLAY_REQ: "replay_req",
    MSG_STATE_REQ: "state_req",
    MSG_PING: "ping",
    MSG_LED_FRAME: "led_frame",
    MSG_IDENTIFY: "identify",
    MSG_EVENT: "event",
    MSG_STATE_DUMP: "state_dump",
    MSG_HEARTBEAT: "heartbeat",
    MSG_PONG: "pong",
    MSG_REPLAY_END: "replay_end",
    MSG_ERROR: "error",
    MSG_LOG: "log",
}

# Sensor event kinds (also the per-channel states of a state dump).
PRESS = 1
RELEASE = 2
TAG_PRESENT = 3
TAG_REMOVED = 4
KIND_NAMES = {PRESS: "press", RELEASE: "release", TAG_PRESENT: "tag_present",
              TAG_REMOVED: "tag_removed"}
MAX_UID = 10  # ISO 14443 UIDs are 4, 7 or 10 bytes

# Error codes carried by MSG_ERROR.
ERR_VERSION = 1
ERR_NO_SESSION = 2
ERR_BAD_PAYLOAD = 3
ERR_UNKNOWN_TYPE = 4
ERR_RING_OVERFLOW = 5
ERR_LED_CHUNK = 6
ERR_SENSOR = 7
ERROR_NAMES = {ERR_VERSION: "version_mismatch", ERR_NO_SESSION: "no_session",
               ERR_BAD_PAYLOAD: "bad_payload", ERR_UNKNOWN_TYPE: "unknown_type",
               ERR_RING_OVERFLOW: "ring_overflow", ERR_LED_CHUNK: "led_chunk",
               ERR_SENSOR: "sensor_fault"}

# Log levels carried by MSG_LOG.
LOG_DEBUG = 10
LOG_INFO = 20
LOG_WARNING = 30
LOG_ERROR = 40

LED_CHUNK_HEADER = 6


class ProtocolError(ValueError):
    """A frame or payload that does not follow PROTOCOL.md (bad CRC, COBS, length, value)."""


def _make_crc_table():
    # type: () -> List[int]
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_CRC_TABLE = _make_crc_table()


def crc16(data, crc=0xFFFF):
    # type: (Union[bytes, bytearray], int) -> int
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor)."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


def cobs_encode(data):
    # type: (Union[bytes, bytearray]) -> bytes
    """Consistent Overhead Byte Stuffing: returns ``data`` with no zero bytes (no delimiter)."""
    out = bytearray()
    block = bytearray()
    full = False  # the last byte closed a full 254-byte block
    for byte in data:
        full = False
        if byte == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
                full = True
    if not full:
        out.append(len(block) + 1)
        out.extend(block)
    return bytes(out)


def cobs_decode(data):
    # type: (bytes) -> bytes
    """Inverse of :func:`cobs_encode`; raises ProtocolError on a malformed block."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError("zero byte inside a COBS block")
        end = i + code
        if end > n:
            raise ProtocolError("COBS block runs past the end of the frame")
        chunk = data[i + 1:end]
        if chunk.find(b"\x00") >= 0:
            raise ProtocolError("zero byte inside a COBS block")
        out.extend(chunk)
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(msg_type, seq, payload=b""):
    # type: (int, int, bytes) -> bytes
    """One complete wire frame: COBS(type, seq, payload, crc16 big-endian) + 0x00."""
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError("payload of %d bytes exceeds %d" % (len(payload), MAX_PAYLOAD))
    raw = bytearray()
    raw.append(msg_type & 0xFF)
    raw.append(seq & 0xFF)
    raw.extend(payload)
    raw.extend(struct.pack(">H", crc16(raw)))
    return cobs_encode(raw) + b"\x00"


def decode_frame(encoded):
    # type: (bytes) -> Tuple[int, int, bytes]
    """Decode one frame without its delimiter into ``(type, seq, payload)``."""
    if len(encoded) > MAX_ENCODED_FRAME:
        raise ProtocolError("frame too long")
    raw = cobs_decode(encoded)
    if len(raw) < 4:
        raise ProtocolError("frame too short")
    body = raw[:-2]
    if crc16(body) != (raw[-2] << 8) | raw[-1]:
        raise ProtocolError("CRC mismatch")
    return body[0], body[1], bytes(body[2:])


class FrameDecoder:
    """Splits a byte stream into frames at 0x00 delimiters, dropping anything invalid.

    ``feed(data)`` returns the list of valid ``(type, seq, payload)`` tuples. Counters:
    ``frames`` (valid), ``crc_errors``, ``framing_errors`` (bad COBS, too short or too
    long) and ``invalid_bytes`` (bytes thrown away, delimiters of bad frames included).
    """

    def __init__(self):
        # type: () -> None
        self._buf = bytearray()
        self._overflow = False
        self.frames = 0
        self.crc_errors = 0
        self.framing_errors = 0
        self.invalid_bytes = 0

    def reset(self):
        # type: () -> None
        """Forget a half-received frame (e.g. after the port was reopened)."""
        self.invalid_bytes += len(self._buf)
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data):
        # type: (bytes) -> List[Tuple[int, int, bytes]]
        """Consume received bytes; return every complete valid frame they finish."""
        out = []  # type: List[Tuple[int, int, bytes]]
        data = bytes(data)
        buf = self._buf
        start = 0
        n = len(data)
        while start < n:
            end = data.find(b"\x00", start)
            if end < 0:
                piece = data[start:]
                if self._overflow or len(buf) + len(piece) > MAX_ENCODED_FRAME:
                    self.invalid_bytes += len(buf) + len(piece)
                    buf = bytearray()
                    self._overflow = True
                else:
                    buf.extend(piece)
                break
            if self._overflow:
                self.invalid_bytes += len(buf) + (end - start) + 1
                self.framing_errors += 1
                self._overflow = False
                buf = bytearray()
            else:
                buf.extend(data[start:end])
                if buf:
                    self._one(bytes(buf), out)
                buf = bytearray()
            start = end + 1
        self._buf = buf
        return out

    def _one(self, encoded, out):
        # type: (bytes, List[Tuple[int, int, bytes]]) -> None
        try:
            out.append(decode_frame(encoded))
            self.frames += 1
        except ProtocolError as exc:
            if str(exc) == "CRC mismatch":
                self.crc_errors += 1
            else:
                self.framing_errors += 1
            self.invalid_bytes += len(encoded) + 1


# ---- payloads ------------------------------------------------------------------------------
# The Pico's own compact code for the payloads it sends (pack_*) and receives (unpack_*).
# firmware_bridge/messages.py declares every message once and derives the Pi's side from
# that; tests/bridge/test_messages.py holds each function below to the same declaration.
# Unpackers raise ProtocolError on any payload that is too short, too long or out of range.


def _need(payload, size, name):
    # type: (bytes, int, str) -> None
    if len(payload) != size:
        raise ProtocolError("%s payload must be %d bytes, got %d" % (name, size, len(payload)))


def parse_version(text):
    # type: (object) -> Tuple[int, int, int]
    """``"1.2.3"`` or ``(1, 2, 3)`` -> ``(1, 2, 3)``, each part 0..255."""
    if isinstance(text, str):
        parts = [int(p) for p in text.split(".")]
    else:
        parts = [int(p) for p in text]  # type: ignore
    while len(parts) < 3:
        parts.append(0)
    if len(parts) != 3 or min(parts) < 0 or max(parts) > 255:
        raise ProtocolError("firmware version must be three numbers 0..255")
    return parts[0], parts[1], parts[2]


# What the Pico sends.

def pack_identify(version, fw_version, sensor_count, profile_crc, epoch, last_seq, nonce,
                  board_id):
    # type: (int, Tuple[int, int, int], int, int, int, int, int, str) -> bytes
    """IDENTIFY: who the firmware is and where its event numbering stands."""
    bid = board_id.encode()
    if len(bid) > 32:
        raise ProtocolError("board id longer than 32 bytes")
    return (struct.pack(">BBBBBIIIIB", version, fw_version[0], fw_version[1], fw_version[2],
                        sensor_count, profile_crc, epoch, last_seq, nonce, MAX_PAYLOAD)
            + bytes([len(bid)]) + bid)


def pack_event(epoch, seq, channel, kind, uid=b""):
    # type: (int, int, int, int, bytes) -> bytes
    """EVENT: one numbered sensor event."""
    if kind not in KIND_NAMES:
        raise ProtocolError("unknown event kind %d" % kind)
    if len(uid) > MAX_UID:
        raise ProtocolError("uid longer than %d bytes" % MAX_UID)
    return struct.pack(">IIBBB", epoch, seq, channel, kind, len(uid)) + bytes(uid)


def pack_replay_end(epoch, first_available, last_seq):
    # type: (int, int, int) -> bytes
    """REPLAY_END: the replay is queued; the ring holds first..last."""
    return struct.pack(">III", epoch, first_available, last_seq)


def pack_heartbeat(epoch, last_seq, uptime_ms, retransmits):
    # type: (int, int, int, int) -> bytes
    """HEARTBEAT: boot epoch, newest event seq, uptime, retransmit count."""
    return struct.pack(">IIII", epoch, last_seq, uptime_ms & 0xFFFFFFFF,
                       retransmits & 0xFFFFFFFF)


def pack_token(token):
    # type: (int) -> bytes
    """PONG: the 32-bit token of the PING it answers."""
    return struct.pack(">I", token & 0xFFFFFFFF)


def pack_text(code, text):
    # type: (int, str) -> bytes
    """ERROR (code, message) or LOG (level, line): one byte then UTF-8, cut to fit."""
    data = text.encode()
    if len(data) > MAX_PAYLOAD - 1:
        data = data[:MAX_PAYLOAD - 1]
    return bytes([code & 0xFF]) + data


def pack_state_dump(epoch, as_of_seq, part, parts, entries):
    # type: (int, int, int, int, bytes) -> bytes
    """STATE_DUMP part: ``entries`` is concatenated packed state entries."""
    return struct.pack(">IIBB", epoch, as_of_seq, part, parts) + entries


def pack_state_entry(channel, kind, uid=b""):
    # type: (int, int, bytes) -> bytes
    """One channel's current state inside a STATE_DUMP: channel, kind, uid length, uid."""
    return bytes([channel, kind, len(uid)]) + bytes(uid)


# What the Pico receives.

def unpack_hello(payload):
    # type: (bytes) -> Tuple[int, int]
    """HELLO -> (version, nonce). Only byte 0 is promised across versions."""
    if len(payload) < 1:
        raise ProtocolError("hello payload is empty")
    if len(payload) < 5:
        return payload[0], 0
    return struct.unpack(">BI", payload[:5])


def unpack_token(payload):
    # type: (bytes) -> int
    """PING -> token."""
    _need(payload, 4, "ping/pong")
    token = struct.unpack(">I", payload)[0]  # type: int
    return token


def unpack_ack(payload):
    # type: (bytes) -> Tuple[int, int, int]
    """ACK -> (epoch, seq, highest)."""
    _need(payload, 12, "ack")
    return struct.unpack(">III", payload)


def unpack_replay_req(payload):
    # type: (bytes) -> Tuple[int, int]
    """REPLAY_REQ -> (epoch, since_seq)."""
    _need(payload, 8, "replay_req")
    return struct.unpack(">II", payload)


def unpack_led_chunk(payload):
    # type: (bytes) -> Tuple[int, int, int, bytes]
    """LED_FRAME -> (frame_id, first, total, rgb)."""
    if len(payload) < LED_CHUNK_HEADER or (len(payload) - LED_CHUNK_HEADER) % 3:
        raise ProtocolError("LED chunk payload has a partial pixel")
    frame_id, first, total = struct.unpack(">HHH", payload[:LED_CHUNK_HEADER])
    rgb = bytes(payload[LED_CHUNK_HEADER:])
    if first + len(rgb) // 3 > total:
        raise ProtocolError("LED chunk runs past the frame's pixel count")
    return frame_id, first, total, rgb
