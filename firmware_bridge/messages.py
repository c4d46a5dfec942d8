"""Every message of the serial protocol, declared once: its type, name, direction and fields.

From the one table below (`MESSAGES`) come the Pi's encoding (`Message.encode`,
`Message.frame`), the Pi's decoding into records with named fields (`decode`), and the
message tables of PROTOCOL.md (``python -m firmware_bridge.messages --write`` rewrites them;
`tests/bridge/test_messages.py` fails while they differ). The idea is Klipper's
``klippy/msgproto.py``: a message is a name and typed parameters, and the code that reads
and writes it is derived, not written per message.

The Pico does not import this module (it has little RAM): `protocol.py` keeps the compact
pack/unpack functions the firmware needs, one for each message it sends or receives, and
`tests/bridge/test_messages.py` checks each of them against this declaration over many
values. The framing (COBS, CRC, delimiters) stays in `protocol.py`, shared by both ends.

Usage (the Pi's side)::

    payload = ACK.encode(epoch=epoch, seq=delivered, highest=highest)
    record = decode(msg_type, payload)   # e.g. Event(epoch=.., seq=.., channel=.., ...)
"""

from __future__ import annotations

import argparse
import sys
from collections import namedtuple
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from firmware_bridge.protocol import (
    KIND_NAMES,
    MAX_PAYLOAD,
    MAX_UID,
    TAG_PRESENT,
    ProtocolError,
    encode_frame,
)

PI_TO_PICO = "Pi -> Pico"
PICO_TO_PI = "Pico -> Pi"
_NO_DEFAULT = object()


# ---- field types ---------------------------------------------------------------------------

class Field:
    """One field of a payload: its name, how it sits on the wire, and what it means.

    ``doc`` is the field's line in a layout table (PROTOCOL.md 3.1); ``note`` a short
    remark after it in the message table. A field with a ``default`` may be left out when
    encoding (only the last fields of a message can have one).
    """

    size: int | None = None  # bytes on the wire; None: it varies (only a last field may)
    wire = ""

    def __init__(self, name: str, doc: str = "", *, note: str = "",
                 default: Any = _NO_DEFAULT) -> None:
        self.name = name
        self.doc = doc
        self.note = note
        self.default = default

    def encode(self, value: Any, out: bytearray, where: str) -> None:
        """Append ``value`` to ``out``; ProtocolError if it does not fit the field."""
        raise NotImplementedError

    def decode(self, payload: bytes, pos: int, where: str) -> tuple[Any, int]:
        """The value at ``payload[pos:]`` and the position after it; ProtocolError if bad."""
        raise NotImplementedError

    def summary(self) -> str:
        """The field in the message table: ``epoch u32``."""
        text = f"{self.name} {self.wire}"
        return f"{text} ({self.note})" if self.note else text

    def rows(self) -> list[tuple[str, str]]:
        """(size, meaning) rows of a layout table (a length-prefixed field has two)."""
        return [(self.wire, self.doc or self.name)]

    def _take(self, payload: bytes, pos: int, size: int, where: str) -> bytes:
        end = pos + size
        if end > len(payload):
            raise ProtocolError(f"{where} payload too short for {self.name}")
        return bytes(payload[pos:end])


class UInt(Field):
    """An unsigned big-endian integer of 1, 2 or 4 bytes, optionally limited to ``choices``
    (a dict of the allowed values) or to at least ``minimum``."""

    def __init__(self, name: str, size: int, doc: str = "", *,
                 choices: dict[int, str] | None = None,
                 minimum: int = 0, **kwargs: Any) -> None:
        super().__init__(name, doc, **kwargs)
        self.width = size
        self.size = size
        self.wire = f"u{size * 8}"
        self.choices = choices
        self.minimum = minimum

    def _check(self, value: Any, where: str) -> None:
        top = (1 << (self.width * 8)) - 1
        if not isinstance(value, int) or not self.minimum <= value <= top:
            raise ProtocolError(f"{where} {self.name} must be {self.minimum}..{top}, "
                                f"got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise ProtocolError(f"{where} {self.name} {value} is none of "
                                f"{sorted(self.choices)}")

    def encode(self, value: Any, out: bytearray, where: str) -> None:
        self._check(value, where)
        out += value.to_bytes(self.width, "big")

    def decode(self, payload: bytes, pos: int, where: str) -> tuple[Any, int]:
        value = int.from_bytes(self._take(payload, pos, self.width, where), "big")
        self._check(value, where)
        return value, pos + self.width


def u8(name: str, doc: str = "", **kwargs: Any) -> UInt:
    """A one-byte unsigned field."""
    return UInt(name, 1, doc, **kwargs)


def u16(name: str, doc: str = "", **kwargs: Any) -> UInt:
    """A two-byte unsigned field, big-endian."""
    return UInt(name, 2, doc, **kwargs)


def u32(name: str, doc: str = "", **kwargs: Any) -> UInt:
    """A four-byte unsigned field, big-endian."""
    return UInt(name, 4, doc, **kwargs)


class Version(Field):
    """A version as three bytes, major, minor, patch: the value is a tuple of three ints."""

    size = 3
    wire = "u8×3"

    def encode(self, value: Any, out: bytearray, where: str) -> None:
        parts = tuple(value)
        if len(parts) != 3 or not all(isinstance(p, int) and 0 <= p <= 255 for p in parts):
            raise ProtocolError(f"{where} {self.name} must be three numbers 0..255")
        out += bytes(parts)

    def decode(self, payload: bytes, pos: int, where: str) -> tuple[Any, int]:
        return tuple(self._take(payload, pos, 3, where)), pos + 3


class Sized(Field):
    """Bytes after a u8 length (``<name>_len``), at most ``max_len``; ``text``: the value is a
    str sent as UTF-8."""

    wire = "L"

    def __init__(self, name: str, doc: str = "", *, max_len: int, text: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(name, doc, **kwargs)
        self.max_len = max_len
        self.text = text

    def encode(self, value: Any, out: bytearray, where: str) -> None:
        data = value.encode() if self.text else bytes(value)
        if len(data) > self.max_len:
            raise ProtocolError(f"{where} {self.name} longer than {self.max_len} bytes")
        out.append(len(data))
        out += data

    def decode(self, payload: bytes, pos: int, where: str) -> tuple[Any, int]:
        length = self._take(payload, pos, 1, where)[0]
        if length > self.max_len:
            raise ProtocolError(f"{where} {self.name} longer than {self.max_len} bytes")
        data = self._take(payload, pos + 1, length, where)
        if not self.text:
            return data, pos + 1 + length
        try:
            return data.decode(), pos + 1 + length
        except UnicodeError:
            raise ProtocolError(f"{where} {self.name} is not UTF-8") from None

    def summary(self) -> str:
        return f"{self.name}_len u8, {self.name}"

    def rows(self) -> list[tuple[str, str]]:
        label = self.name.replace("_", " ")
        return [("u8", f"{label} length L (0..{self.max_len})"), ("L", self.doc or self.name)]


class Rest(Field):
    """All the bytes left, in whole units of ``unit`` bytes (3: RGB pixels)."""

    def __init__(self, name: str, doc: str = "", *, unit: int = 1, **kwargs: Any) -> None:
        super().__init__(name, doc, **kwargs)
        self.unit = unit

    def encode(self, value: Any, out: bytearray, where: str) -> None:
        data = bytes(value)
        if len(data) % self.unit:
            raise ProtocolError(f"{where} {self.name} must be whole units of {self.unit} bytes")
        out += data

    def decode(self, payload: bytes, pos: int, where: str) -> tuple[Any, int]:
        data = bytes(payload[pos:])
        if len(data) % self.unit:
            raise ProtocolError(f"{where} {self.name} ends in a partial unit of {self.unit}")
        return data, len(payload)

    def summary(self) -> str:
        return f"{self.name} ({self.note})" if self.note else self.name


class Text(Field):
    """The bytes left as UTF-8 text: cut to fit the payload when encoding, decoded with
    replacement characters (a cut may split a character)."""

    def encode(self, value: Any, out: bytearray, where: str) -> None:
        out += value.encode()[:MAX_PAYLOAD - len(out)]

    def decode(self, payload: bytes, pos: int, where: str) -> tuple[Any, int]:
        return bytes(payload[pos:]).decode("utf-8", "replace"), len(payload)

    def summary(self) -> str:
        return f"UTF-8 {self.name}"


class Repeated(Field):
    """Records of the ``item`` layout one after another up to the end: the value is a list."""

    def __init__(self, name: str, item: Layout, doc: str = "", **kwargs: Any) -> None:
        super().__init__(name, doc, **kwargs)
        self.item = item

    def encode(self, value: Any, out: bytearray, where: str) -> None:
        for entry in value:
            self.item.encode_into(self.item.record(*entry), out, where)

    def decode(self, payload: bytes, pos: int, where: str) -> tuple[Any, int]:
        entries = []
        while pos < len(payload):
            entry, pos = self.item.decode_from(payload, pos, where)
            entries.append(entry)
        return entries, pos

    def summary(self) -> str:
        return self.name


# ---- layouts and messages ------------------------------------------------------------------

Rule = Callable[[Any], "str | None"]


class Layout:
    """Fields in wire order, the rules that bind them together, and the record type
    (a named tuple with one attribute per field) that decoding returns."""

    def __init__(self, name: str, fields: Sequence[Field], rules: Sequence[Rule] = ()) -> None:
        self.name = name
        self.fields = tuple(fields)
        self.rules = tuple(rules)
        if any(f.size is None for f in self.fields[:-1]):
            raise ValueError(f"{name}: only the last field may vary in size")
        defaults = [f.default for f in self.fields if f.default is not _NO_DEFAULT]
        if any(f.default is _NO_DEFAULT for f in self.fields[len(self.fields) - len(defaults):]):
            raise ValueError(f"{name}: only the last fields may have a default")
        self.record = namedtuple(  # type: ignore[misc]
            "".join(part.title() for part in name.split("_")),
            [f.name for f in self.fields], defaults=defaults)

    @property
    def fixed_size(self) -> int:
        """The bytes of the fixed-size fields (all of them but a variable last one)."""
        return sum(f.size for f in self.fields if f.size is not None)

    def check(self, record: Any, where: str) -> None:
        """Raise ProtocolError if ``record`` breaks one of the layout's rules."""
        for rule in self.rules:
            problem = rule(record)
            if problem:
                raise ProtocolError(f"{where}: {problem}")

    def encode_into(self, record: Any, out: bytearray, where: str) -> None:
        """Append ``record``'s fields to ``out`` after checking its rules."""
        self.check(record, where)
        for field, value in zip(self.fields, record):
            field.encode(value, out, where)

    def decode_from(self, payload: bytes, pos: int, where: str) -> tuple[Any, int]:
        """One record read at ``payload[pos:]`` and the position after it."""
        values = []
        for field in self.fields:
            value, pos = field.decode(payload, pos, where)
            values.append(value)
        record = self.record(*values)
        self.check(record, where)
        return record, pos


class Message(Layout):
    """One message type: its number on the wire, name, direction and payload layout.

    ``see``: the section of PROTOCOL.md that lays the payload out (the message table then
    points there). ``lenient``: only the first field is promised across protocol versions,
    so a payload too short for the rest decodes them as 0 and bytes after them are ignored.
    """

    def __init__(self, type_: int, name: str, direction: str, *fields: Field,
                 rules: Sequence[Rule] = (), see: str = "", lenient: bool = False) -> None:
        super().__init__(name, fields, rules)
        self.type = type_
        self.direction = direction
        self.see = see
        self.lenient = lenient

    def __repr__(self) -> str:
        return f"<Message 0x{self.type:02x} {self.name}>"

    def encode(self, *values: Any, **named: Any) -> bytes:
        """The payload of this message with the given field values (by position or name)."""
        out = bytearray()
        self.encode_into(self.record(*values, **named), out, self.name)
        if len(out) > MAX_PAYLOAD:
            raise ProtocolError(f"{self.name} payload of {len(out)} bytes exceeds {MAX_PAYLOAD}")
        return bytes(out)

    def frame(self, frame_seq: int, /, *values: Any, **named: Any) -> bytes:
        """One wire frame (PROTOCOL.md section 1) of this message, the sender's frame counter
        at ``frame_seq`` (the first argument, whatever the fields are called)."""
        return encode_frame(self.type, frame_seq, self.encode(*values, **named))

    def decode(self, payload: bytes) -> Any:
        """The record this payload holds; ProtocolError if it breaks the layout."""
        if self.lenient and len(payload) < self.fixed_size:
            if not payload:
                raise ProtocolError(f"{self.name} payload is empty")
            first, _ = self.fields[0].decode(payload, 0, self.name)
            return self.record(first, *[0] * (len(self.fields) - 1))
        record, end = self.decode_from(payload, 0, self.name)
        if end != len(payload) and not self.lenient:
            raise ProtocolError(f"{self.name} payload has {len(payload) - end} bytes too many")
        return record


# ---- the rules that bind fields together ---------------------------------------------------

def uid_only_for_tag_present(record: Any) -> str | None:
    """uid_len is 0 for every kind but TAG_PRESENT, where it is 1..10 (PROTOCOL.md 3)."""
    if (record.kind == TAG_PRESENT) != (len(record.uid) > 0):
        return "only tag_present carries a uid, and it always does"
    return None


def part_within_parts(record: Any) -> str | None:
    """A state dump is split into ``parts`` >= 1 parts numbered 0..parts-1 (PROTOCOL.md 3.3)."""
    if record.parts == 0 or record.part >= record.parts:
        return f"part {record.part} of {record.parts} is out of range"
    return None


def pixels_within_total(record: Any) -> str | None:
    """An LED chunk's pixels end at or before the frame's ``total`` (PROTOCOL.md 3.7)."""
    if record.first + len(record.rgb) // 3 > record.total:
        return "LED chunk runs past the frame's pixel count"
    return None


# ---- the declaration -----------------------------------------------------------------------

STATE_ENTRY = Layout("state_entry", [
    u8("channel"),
    u8("kind", choices=KIND_NAMES),
    Sized("uid", max_len=MAX_UID, default=b""),
], rules=[uid_only_for_tag_present])

HELLO = Message(0x01, "hello", PI_TO_PICO, u8("version"), u32("nonce"), lenient=True)
ACK = Message(0x02, "ack", PI_TO_PICO, u32("epoch"), u32("seq"), u32("highest"))
REPLAY_REQ = Message(0x03, "replay_req", PI_TO_PICO, u32("epoch"), u32("since_seq"))
STATE_REQ = Message(0x04, "state_req", PI_TO_PICO)
PING = Message(0x05, "ping", PI_TO_PICO, u32("token"))
LED_FRAME = Message(0x06, "led_frame", PI_TO_PICO,
                    u16("frame_id"), u16("first"), u16("total"),
                    Rest("rgb", unit=3, note="3 bytes per LED"),
                    rules=[pixels_within_total])
IDENTIFY = Message(
    0x41, "identify", PICO_TO_PI,
    u8("version", "protocol version"),
    Version("fw_version", "firmware version major, minor, patch"),
    u8("sensor_count", "sensor count (channels 0..count-1)"),
    u32("profile_crc", "board profile CRC: the CRC-32 of the sensor map (below)"),
    u32("epoch", "epoch"),
    u32("last_seq", "last_seq: the newest event seq of this epoch (0: none yet)"),
    u32("nonce", "nonce copied from HELLO"),
    u8("max_payload", f"the largest payload this Pico accepts ({MAX_PAYLOAD})"),
    Sized("board_id", "board id, ASCII (e.g. `classic-42`)", max_len=32, text=True),
    see="3.1")
EVENT = Message(0x42, "event", PICO_TO_PI,
                u32("epoch"), u32("seq", minimum=1), u8("channel"),
                u8("kind", choices=KIND_NAMES), Sized("uid", max_len=MAX_UID, default=b""),
                rules=[uid_only_for_tag_present])
STATE_DUMP = Message(0x43, "state_dump", PICO_TO_PI,
                     u32("epoch"), u32("as_of_seq"), u8("part"), u8("parts"),
                     Repeated("entries", STATE_ENTRY), rules=[part_within_parts])
HEARTBEAT = Message(0x44, "heartbeat", PICO_TO_PI,
                    u32("epoch"), u32("last_seq"), u32("uptime_ms"), u32("retransmits"))
PONG = Message(0x45, "pong", PICO_TO_PI, u32("token", note="copied from PING"))
REPLAY_END = Message(0x46, "replay_end", PICO_TO_PI,
                     u32("epoch"), u32("first_available"), u32("last_seq"))
ERROR = Message(0x47, "error", PICO_TO_PI, u8("code"), Text("message"))
LOG = Message(0x48, "log", PICO_TO_PI, u8("level"), Text("line"))

MESSAGES = (HELLO, ACK, REPLAY_REQ, STATE_REQ, PING, LED_FRAME,
            IDENTIFY, EVENT, STATE_DUMP, HEARTBEAT, PONG, REPLAY_END, ERROR, LOG)
BY_TYPE = {m.type: m for m in MESSAGES}

# The most LEDs one LED_FRAME chunk holds: 81 (6 + 81 x 3 = 249 payload bytes).
LEDS_PER_CHUNK = (MAX_PAYLOAD - LED_FRAME.fixed_size) // 3


def decode(msg_type: int, payload: bytes) -> Any:
    """The record a frame of ``msg_type`` carries; KeyError for a type not declared,
    ProtocolError for a payload that breaks its layout."""
    return BY_TYPE[msg_type].decode(payload)


def led_chunks(frame_id: int, rgb: bytes) -> list[bytes]:
    """One whole LED frame (3 bytes a pixel) as LED_FRAME payloads in order: chunks of at
    most `LEDS_PER_CHUNK` pixels, and one empty chunk for a frame of no pixels."""
    total = len(rgb) // 3
    return [LED_FRAME.encode(frame_id, first, total, rgb[first * 3:(first + LEDS_PER_CHUNK) * 3])
            for first in range(0, total, LEDS_PER_CHUNK)] or [
        LED_FRAME.encode(frame_id, 0, 0, b"")]


# ---- PROTOCOL.md's tables ------------------------------------------------------------------

DOCUMENT = Path(__file__).with_name("PROTOCOL.md")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table, every column but the last padded to its widest cell."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    widths.append(len(header[-1]))

    def line(cells: Sequence[str]) -> str:
        padded = [c.ljust(w) for c, w in zip(cells[:-1], widths)] + [cells[-1]]
        return "| " + " | ".join(padded) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), rule, *(line(row) for row in rows)])


def message_table() -> str:
    """PROTOCOL.md section 3: every message with its type, direction and payload."""
    rows = []
    for message in MESSAGES:
        if message.see:
            payload = f"see {message.see}"
        else:
            payload = ", ".join(f.summary() for f in message.fields) or "(empty)"
        rows.append((f"0x{message.type:02x}", message.name.upper(),
                     message.direction, payload))
    return markdown_table(("type", "name", "direction", "payload"), rows)


def layout_table(layout: Layout) -> str:
    """Offset, size and meaning of each field of ``layout`` (PROTOCOL.md 3.1 for IDENTIFY)."""
    rows = []
    offset = 0
    for field in layout.fields:
        for size, meaning in field.rows():
            rows.append((str(offset), size, meaning))
            offset += {"u8": 1, "u16": 2, "u32": 4, "u8×3": 3}.get(size, 0)
    return markdown_table(("offset", "size", "field"), rows)


def generated_tables() -> dict[str, str]:
    """The tables PROTOCOL.md takes from this declaration, by the name of their marker."""
    return {"messages": message_table(), "identify": layout_table(IDENTIFY)}


def _markers(name: str) -> tuple[str, str]:
    return (f"<!-- generated by `python -m firmware_bridge.messages --write`: {name} -->",
            f"<!-- end of {name} -->")


def document_tables(text: str) -> dict[str, str]:
    """The generated tables as PROTOCOL.md's ``text`` has them now, by marker name."""
    found = {}
    for name in generated_tables():
        begin, end = _markers(name)
        if begin in text and end in text:
            found[name] = text.split(begin, 1)[1].split(end, 1)[0].strip("\n")
    return found


def with_tables(text: str) -> str:
    """``text`` (PROTOCOL.md) with every generated table replaced by the current one."""
    for name, table in generated_tables().items():
        begin, end = _markers(name)
        if begin not in text or end not in text:
            raise ValueError(f"PROTOCOL.md has no {begin!r} ... {end!r} block")
        head, rest = text.split(begin, 1)
        tail = rest.split(end, 1)[1]
        text = f"{head}{begin}\n{table}\n{end}{tail}"
    return text


def main(argv: Sequence[str] | None = None) -> int:
    """``--markdown`` prints PROTOCOL.md's tables as this declaration makes them;
    ``--write`` puts them into PROTOCOL.md."""
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.messages",
                                     description=main.__doc__)
    parser.add_argument("--markdown", action="store_true", help="print the tables")
    parser.add_argument("--write", action="store_true", help="rewrite PROTOCOL.md's tables")
    args = parser.parse_args(argv)
    if args.write:
        DOCUMENT.write_text(with_tables(DOCUMENT.read_text()))
    if args.markdown or not args.write:
        for name, table in generated_tables().items():
            print(f"{_markers(name)[0]}\n{table}\n{_markers(name)[1]}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
