"""firmware_bridge/PROTOCOL.md's worked hex examples are checked against the message
declaration and the codec, so the document cannot rot. Each ```frame block names the call
that builds the frame (a message of firmware_bridge/messages.py); its payload, raw and wire
lines must be exactly what the codec produces, and the wire bytes must decode back into the
same fields. The sensor-map CRC example and the state-dump examples are checked against both sides'
code.

Regenerate a block's text with ``python -m tests.bridge.test_protocol_doc "<call>"``."""

from __future__ import annotations

import re
import sys
import zlib
from pathlib import Path

import pytest

from firmware_bridge import messages as M
from firmware_bridge import protocol as P
from firmware_bridge.firmware import board_config
from firmware_bridge.firmware.core import FirmwareCore
from hardware.profiles import BoardProfile, SensorSpec, load_profile

DOC = Path(__file__).resolve().parents[2] / "firmware_bridge" / "PROTOCOL.md"
BLOCK = re.compile(r"```frame\n(.*?)```", re.S)
# The calls name messages (HELLO, EVENT...) and protocol's constants (PRESS, ERR_VERSION...).
NAMESPACE = {name: getattr(module, name) for module in (P, M) for name in dir(module)
             if not name.startswith("_")}
NAMESPACE["bytes"] = bytes


def hexs(data: bytes) -> str:
    """Bytes as lower-case hex pairs separated by spaces, 16 to a line."""
    pairs = [f"{b:02x}" for b in data]
    lines = [" ".join(pairs[i:i + 16]) for i in range(0, len(pairs), 16)] or [""]
    return ("\n" + " " * 9).join(lines)


def render(call: str) -> str:
    """The block text for a frame built by ``call`` (an expression over the names above)."""
    wire = eval(call, {"__builtins__": {}}, NAMESPACE)  # the doc's own, trusted text
    raw = P.cobs_decode(wire[:-1])
    return (f"call:    {call}\n"
            f"payload: {hexs(raw[2:-2]) if raw[2:-2] else '(none)'}\n"
            f"crc16:   {raw[-2]:02x} {raw[-1]:02x}\n"
            f"raw:     {hexs(raw)}\n"
            f"wire:    {hexs(wire)}\n")


def blocks() -> list[str]:
    return BLOCK.findall(DOC.read_text())


def test_the_document_has_an_example_of_every_message_type() -> None:
    calls = [b.split("\n", 1)[0].removeprefix("call:    ") for b in blocks()]
    for message in M.MESSAGES:
        name = message.name.upper()
        assert any(c.startswith(f"{name}.frame(") for c in calls), f"no example for {name}"


@pytest.mark.parametrize("block", blocks(), ids=lambda b: b.split("\n", 1)[0][9:60])
def test_each_example_matches_the_codec(block: str) -> None:
    call = block.split("\n", 1)[0].removeprefix("call:    ")
    assert block == render(call)
    wire = bytes.fromhex(block.split("wire:", 1)[1].replace("\n", " "))
    assert wire.count(0) == 1 and wire[-1] == 0
    [(msg_type, _seq, payload)] = P.FrameDecoder().feed(wire)
    stated = block.split("payload:", 1)[1].split("crc16:")[0].replace("(none)", "")
    assert payload.hex() == "".join(stated.split())
    # ... and the Pi decodes the wire back into the fields the call named.
    assert M.decode(msg_type, payload) == stated_fields(call)


class _Stated:
    """Stands for a message in a call: ``frame(seq, **fields)`` gives the fields back."""

    def __init__(self, message: M.Message) -> None:
        self.message = message

    def frame(self, _frame_seq: int, /, *values: object, **named: object) -> object:
        record = self.message.record(*values, **named)
        for field in self.message.fields:  # lists of plain tuples -> lists of records
            if isinstance(field, M.Repeated):
                entries = [field.item.record(*e) for e in getattr(record, field.name)]
                record = record._replace(**{field.name: entries})
        return record


def stated_fields(call: str) -> object:
    """The record of the fields ``call`` names (without encoding them)."""
    names = {**NAMESPACE, **{m.name.upper(): _Stated(m) for m in M.MESSAGES}}
    return eval(call, {"__builtins__": {}}, names)  # the doc's own, trusted text


SENSOR_MAP = re.compile(r"```sensor-map\n(.*?)```", re.S)


def _field(block: str, name: str) -> str:
    """The text after `name:` up to the next field (continuation lines joined)."""
    text = block.split(f"{name}:", 1)[1]
    text = re.split(r"\n[a-z0-9]+:", text, maxsplit=1)[0]
    return " ".join(text.split())


def prose() -> str:
    """The document with its line breaks folded, for checking sentences."""
    return " ".join(DOC.read_text().split())


def test_the_sensor_map_example_is_what_both_sides_hash() -> None:
    [block] = SENSOR_MAP.findall(DOC.read_text())
    kinds = _field(block, "kinds").split()
    stated = bytes.fromhex(_field(block, "bytes"))
    crc = int(_field(block, "crc32"), 16)
    assert _field(block, "text").encode().decode("unicode_escape").encode() == stated
    # the Pico's computation
    assert board_config.canonical_sensor_map(kinds) == stated
    assert board_config.crc32(stated) == crc
    # the Pi's computation, from a profile with those sensors
    sensors = {f"t{channel}": SensorSpec(channel, kind)
               for channel, kind in enumerate(kinds) if kind != "none"}
    profile = BoardProfile("example", "", "classic", 0, len(kinds), {}, sensors, {}, {}, {}, {})
    assert profile.sensor_map_bytes() == stated and profile.sensor_crc() == crc
    # and any CRC-32/ISO-HDLC library
    assert zlib.crc32(stated) == crc


def test_the_crc32_named_is_the_one_computed() -> None:
    assert "`123456789` is `0xCBF43926`" in prose()
    assert board_config.crc32(b"123456789") == 0xCBF43926 == zlib.crc32(b"123456789")


def test_the_shipped_profiles_crcs_are_stated_right() -> None:
    line = re.search(r"The shipped profiles: (.*?)\. ", prose()).group(1)
    stated = dict(re.findall(r"`([a-z0-9-]+)`[^`]*`([0-9a-f]{8})`", line))
    assert set(stated) >= {"classic-42", "classic-42-nfc"}
    for name, crc in stated.items():
        assert load_profile(name).sensor_crc() == int(crc, 16), name
        assert board_config.BOARDS[name]().sensor_crc() == int(crc, 16), name


def _stated_payload(call_contains: str) -> bytes:
    block = next(b for b in blocks() if call_contains in b.split("\n", 1)[0])
    stated = block.split("payload:", 1)[1].split("crc16:")[0].replace("(none)", "")
    return bytes.fromhex("".join(stated.split()))


def _dumps(core: FirmwareCore, wire: bytearray) -> list[bytes]:
    wire.clear()
    core.feed(P.encode_frame(P.MSG_STATE_REQ, 9, b""))
    return [p for t, _s, p in P.FrameDecoder().feed(bytes(wire)) if t == P.MSG_STATE_DUMP]


def _core(kinds: list[str]) -> tuple[FirmwareCore, bytearray]:
    wire = bytearray()
    core = FirmwareCore(wire.extend, lambda: 1000, len(kinds), 0, "1.0.0", epoch=0x1A2B3C4D)
    for channel, kind in enumerate(kinds):
        if kind == "nfc":  # what main.py does at boot for every reader
            core.set_state(channel, P.TAG_REMOVED)
    core.feed(M.HELLO.frame(1, P.PROTOCOL_VERSION, 1))
    return core, wire


def test_the_state_dump_example_is_what_the_firmware_sends() -> None:
    core, wire = _core(["button", "nfc", "none"])
    core.sensor_event(0, P.PRESS)  # seq 1, still held
    core.sensor_event(1, P.TAG_PRESENT, bytes.fromhex("04a1b2c3"))  # seq 2
    assert _dumps(core, wire) == [_stated_payload("STATE_DUMP.frame(")]


def test_the_state_dump_split_example_holds() -> None:
    core, wire = _core(["nfc"] * 30)
    for channel in range(30):
        core.set_state(channel, P.TAG_PRESENT, bytes(range(1, 11)))
    dumps = [M.STATE_DUMP.decode(p) for p in _dumps(core, wire)]
    assert [(d.part, d.parts, [e.channel for e in d.entries]) for d in dumps] == [
        (0, 2, list(range(18))), (1, 2, list(range(18, 30)))]
    assert [len(p) - 10 for p in _dumps(core, wire)] == [234, 156]
    assert ("18 of them (234 bytes) fill part 0 (channels 0..17), part 1 holds channels 18..29"
            " (156 bytes): parts = 2") in prose()
    # "at most 80 channels with no tag present fits in one part"
    assert "at most 80 channels with no tag present fits in one part" in prose()
    assert len(_dumps(*_core(["none"] * 80))) == 1
    assert len(_dumps(*_core(["none"] * 81))) == 2


if __name__ == "__main__":
    for expression in sys.argv[1:]:
        print("```frame\n" + render(expression) + "```\n")
