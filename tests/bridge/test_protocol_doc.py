"""PROTOCOL.md's worked hex examples are checked against the codec, so the document cannot
rot. Each ```frame block names the call that builds the frame; its payload, raw and wire
lines must be exactly what the codec produces, and the wire bytes must decode back.

Regenerate a block's text with ``python -m tests.bridge.test_protocol_doc "<call>"``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from firmware_bridge import protocol as P

DOC = Path(__file__).resolve().parents[2] / "firmware_bridge" / "PROTOCOL.md"
BLOCK = re.compile(r"```frame\n(.*?)```", re.S)
NAMESPACE = {name: getattr(P, name) for name in dir(P) if not name.startswith("_")}
NAMESPACE["bytes"] = bytes


def hexs(data: bytes) -> str:
    """Bytes as lower-case hex pairs separated by spaces, 16 to a line."""
    pairs = [f"{b:02x}" for b in data]
    lines = [" ".join(pairs[i:i + 16]) for i in range(0, len(pairs), 16)] or [""]
    return ("\n" + " " * 9).join(lines)


def render(call: str) -> str:
    """The block text for a frame built by ``call`` (an expression over protocol's names)."""
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
    calls = [b.split("\n", 1)[0] for b in blocks()]
    for name in (n for n in NAMESPACE if n.startswith("MSG_")):
        assert any(f"({name}," in c for c in calls), f"no example for {name}"


@pytest.mark.parametrize("block", blocks(), ids=lambda b: b.split("\n", 1)[0][9:60])
def test_each_example_matches_the_codec(block: str) -> None:
    call = block.split("\n", 1)[0].removeprefix("call:    ")
    assert block == render(call)
    wire = bytes.fromhex(block.split("wire:", 1)[1].replace("\n", " "))
    assert wire.count(0) == 1 and wire[-1] == 0
    [(msg_type, _seq, payload)] = P.FrameDecoder().feed(wire)
    stated = block.split("payload:", 1)[1].split("crc16:")[0].replace("(none)", "")
    assert payload.hex() == "".join(stated.split())
    assert msg_type in P.MESSAGE_NAMES


if __name__ == "__main__":
    for expression in sys.argv[1:]:
        print("```frame\n" + render(expression) + "```\n")
