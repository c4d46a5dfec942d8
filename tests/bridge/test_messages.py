"""The message declaration (firmware_bridge/messages.py) against everything that must agree
with it: the Pico's own compact pack/unpack code in protocol.py (byte for byte, both ways,
over many values), the message numbers the firmware uses, and the tables of
firmware_bridge/PROTOCOL.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import messages as M
from firmware_bridge import protocol as P

# ---- the Pico's compact code, by the message it serves --------------------------------------
# Each adapter calls the firmware's function with the record's fields by name, so a firmware
# function that takes (or returns) them in another order than the declaration fails below.

PICO_PACKS: dict[M.Message, Callable[[Any], bytes]] = {
    M.IDENTIFY: lambda r: P.pack_identify(r.version, r.fw_version, r.sensor_count,
                                          r.profile_crc, r.epoch, r.last_seq, r.nonce,
                                          r.board_id),
    M.EVENT: lambda r: P.pack_event(r.epoch, r.seq, r.channel, r.kind, r.uid),
    M.STATE_DUMP: lambda r: P.pack_state_dump(
        r.epoch, r.as_of_seq, r.part, r.parts,
        b"".join(P.pack_state_entry(e.channel, e.kind, e.uid) for e in r.entries)),
    M.HEARTBEAT: lambda r: P.pack_heartbeat(r.epoch, r.last_seq, r.uptime_ms, r.retransmits),
    M.PONG: lambda r: P.pack_token(r.token),
    M.REPLAY_END: lambda r: P.pack_replay_end(r.epoch, r.first_available, r.last_seq),
    M.ERROR: lambda r: P.pack_text(r.code, r.message),
    M.LOG: lambda r: P.pack_text(r.level, r.line),
}


def _fields(*names: str) -> Callable[[tuple], dict[str, Any]]:
    return lambda values: dict(zip(names, values))


PICO_UNPACKS: dict[M.Message, Callable[[bytes], dict[str, Any]]] = {
    M.HELLO: lambda p: _fields("version", "nonce")(P.unpack_hello(p)),
    M.ACK: lambda p: _fields("epoch", "seq", "highest")(P.unpack_ack(p)),
    M.REPLAY_REQ: lambda p: _fields("epoch", "since_seq")(P.unpack_replay_req(p)),
    M.PING: lambda p: {"token": P.unpack_token(p)},
    M.LED_FRAME: lambda p: _fields("frame_id", "first", "total", "rgb")(P.unpack_led_chunk(p)),
}
# STATE_REQ has no payload, and the firmware reads none.
PICO_READS_NOTHING = {M.STATE_REQ}


def test_every_message_the_pico_sends_or_receives_has_its_compact_code() -> None:
    assert set(PICO_PACKS) == {m for m in M.MESSAGES if m.direction == M.PICO_TO_PI}
    assert set(PICO_UNPACKS) | PICO_READS_NOTHING == {
        m for m in M.MESSAGES if m.direction == M.PI_TO_PICO}


def test_the_firmwares_message_numbers_and_names_are_the_declarations() -> None:
    constants = {name: value for name, value in vars(P).items() if name.startswith("MSG_")}
    assert constants == {f"MSG_{m.name.upper()}": m.type for m in M.MESSAGES}
    assert {m.type: m.name for m in M.MESSAGES} == P.MESSAGE_NAMES


def test_each_direction_keeps_to_its_range_of_types() -> None:
    # firmware_bridge/PROTOCOL.md section 3: Pi -> Pico types are 0x01..0x3F; Pico -> Pi
    # types are 0x41..0x7F.
    for message in M.MESSAGES:
        low, high = (0x01, 0x3F) if message.direction == M.PI_TO_PICO else (0x41, 0x7F)
        assert low <= message.type <= high, message
    assert len(M.BY_TYPE) == len(M.MESSAGES) == len({m.name for m in M.MESSAGES})


# ---- values that fit a declaration ----------------------------------------------------------

def field_values(field: M.Field) -> st.SearchStrategy[Any]:
    """Any value the field can carry (the rules binding fields together come after)."""
    if isinstance(field, M.UInt):
        if field.choices is not None:
            return st.sampled_from(sorted(field.choices))
        return st.integers(field.minimum, (1 << (field.width * 8)) - 1)
    if isinstance(field, M.Version):
        return st.tuples(*[st.integers(0, 255)] * 3)
    if isinstance(field, M.Sized):
        if field.text:
            return st.text(max_size=field.max_len).filter(
                lambda t: len(t.encode()) <= field.max_len)
        return st.binary(max_size=field.max_len)
    if isinstance(field, M.Rest):
        return st.binary(max_size=M.LEDS_PER_CHUNK * field.unit).map(
            lambda b: b[:len(b) // field.unit * field.unit])
    if isinstance(field, M.Text):
        return st.text(max_size=80)
    if isinstance(field, M.Repeated):
        # 18 entries of at most 13 bytes fill one part (firmware_bridge/PROTOCOL.md 3.3).
        return st.lists(records(field.item), max_size=18)
    raise AssertionError(f"no values for {field!r}")


def _fix_uid(r: Any) -> Any:
    return r._replace(uid=(r.uid or b"\x04") if r.kind == P.TAG_PRESENT else b"")


def _fix_part(r: Any) -> Any:
    parts = max(r.parts, 1)
    return r._replace(parts=parts, part=r.part % parts)


def _fix_pixels(r: Any) -> Any:
    pixels = len(r.rgb) // 3
    first = min(r.first, 0xFFFF - pixels)
    return r._replace(first=first, total=max(r.total, first + pixels))


# How a record of random fields is made to keep each rule (each fix keeps it, tested below).
FIXES = {M.uid_only_for_tag_present: _fix_uid, M.part_within_parts: _fix_part,
         M.pixels_within_total: _fix_pixels}


@st.composite
def records(draw: st.DrawFn, layout: M.Layout) -> Any:
    """A record of ``layout`` that keeps every rule of it."""
    record = layout.record(*[draw(field_values(f)) for f in layout.fields])
    for rule in layout.rules:
        record = FIXES[rule](record)
    layout.check(record, layout.name)
    return record


def payloads(message: M.Message) -> st.SearchStrategy[bytes]:
    """Valid payloads of ``message``, and near misses: cut short, lengthened, one byte off."""
    valid = records(message).map(lambda r: message.encode(*r))

    @st.composite
    def spoiled(draw: st.DrawFn) -> bytes:
        payload = bytearray(draw(valid))
        how = draw(st.sampled_from(["cut", "grow", "flip"]))
        if how == "cut":
            del payload[draw(st.integers(0, len(payload))):]
        elif how == "grow":
            payload += draw(st.binary(min_size=1, max_size=4))
        elif payload:
            payload[draw(st.integers(0, len(payload) - 1))] = draw(st.integers(0, 255))
        return bytes(payload)

    return st.one_of(valid, spoiled(), st.binary(max_size=40))


PAYLOADS = {message: payloads(message) for message in PICO_UNPACKS}


# ---- the firmware's code, held to the declaration -------------------------------------------

@pytest.mark.parametrize("message", list(PICO_PACKS), ids=lambda m: m.name)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_the_picos_packing_writes_the_declared_bytes(message: M.Message,
                                                     data: st.DataObject) -> None:
    record = data.draw(records(message))
    if message is M.IDENTIFY:  # the firmware always states its own limit
        record = record._replace(max_payload=P.MAX_PAYLOAD)
    payload = PICO_PACKS[message](record)
    assert payload == message.encode(*record)
    assert message.decode(payload) == record


@pytest.mark.parametrize("message", list(PICO_UNPACKS), ids=lambda m: m.name)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_the_picos_unpacking_reads_what_the_declaration_reads(message: M.Message,
                                                              data: st.DataObject) -> None:
    payload = data.draw(PAYLOADS[message])
    try:
        declared: dict[str, Any] | str = message.decode(payload)._asdict()
    except P.ProtocolError:
        declared = "refused"
    try:
        firmware: dict[str, Any] | str = PICO_UNPACKS[message](payload)
    except P.ProtocolError:
        firmware = "refused"
    assert firmware == declared


@given(st.text(min_size=200, max_size=400))
def test_text_too_long_for_a_frame_is_cut_alike_on_both_sides(text: str) -> None:
    payload = P.pack_text(P.LOG_INFO, text)
    assert payload == M.LOG.encode(P.LOG_INFO, text)
    assert len(payload) == min(P.MAX_PAYLOAD, 1 + len(text.encode()))


@pytest.mark.parametrize("message", M.MESSAGES, ids=lambda m: m.name)
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_every_message_round_trips(message: M.Message, data: st.DataObject) -> None:
    record = data.draw(records(message))
    payload = message.encode(**record._asdict())
    assert len(payload) <= P.MAX_PAYLOAD
    assert message.decode(payload) == record
    assert P.FrameDecoder().feed(message.frame(9, *record)) == [(message.type, 9, payload)]


# ---- what the declaration refuses -----------------------------------------------------------

@pytest.mark.parametrize(("message", "values"), [
    (M.ACK, (1 << 32, 0, 0)),  # a u32 out of range
    (M.EVENT, (1, 0, 0, P.PRESS)),  # event seq 0 is reserved
    (M.EVENT, (1, 1, 0, 9)),  # no such kind
    (M.EVENT, (1, 1, 0, P.PRESS, b"\x01")),  # a uid on a button
    (M.EVENT, (1, 1, 0, P.TAG_PRESENT)),  # a tag without its uid
    (M.EVENT, (1, 1, 0, P.TAG_PRESENT, bytes(P.MAX_UID + 1))),
    (M.IDENTIFY, (1, (1, 0, 0), 42, 0, 1, 0, 0, 250, "x" * 33)),  # board id over 32 bytes
    (M.IDENTIFY, (1, (1, 0), 42, 0, 1, 0, 0, 250, "x")),  # a version of two numbers
    (M.STATE_DUMP, (1, 0, 1, 1, [])),  # part 1 of 1
    (M.LED_FRAME, (1, 0, 1, b"\x01\x02")),  # a partial pixel
    (M.LED_FRAME, (1, 1, 1, b"\x01\x02\x03")),  # past the frame's total
    (M.LED_FRAME, (1, 0, 82, bytes(82 * 3))),  # 82 LEDs do not fit one chunk
])
def test_the_declaration_refuses_to_encode_what_breaks_it(message: M.Message,
                                                         values: tuple) -> None:
    with pytest.raises(P.ProtocolError):
        message.encode(*values)


def test_every_fix_of_the_value_strategies_keeps_its_rule() -> None:
    event = M.EVENT.record(1, 1, 0, P.TAG_PRESENT, b"")
    assert M.uid_only_for_tag_present(event) and not M.uid_only_for_tag_present(
        _fix_uid(event))
    dump = M.STATE_DUMP.record(1, 0, 7, 0, [])
    assert M.part_within_parts(dump) and not M.part_within_parts(_fix_part(dump))
    chunk = M.LED_FRAME.record(1, 0xFFFF, 0, b"\x01\x02\x03")
    assert M.pixels_within_total(chunk) and not M.pixels_within_total(_fix_pixels(chunk))


def test_a_hello_of_another_version_still_shows_its_version() -> None:
    # firmware_bridge/PROTOCOL.md section 6: byte 0 of HELLO is promised across versions.
    assert M.HELLO.decode(b"\x02") == (2, 0)
    assert M.HELLO.decode(b"\x02\x00\x00\x00\x07future") == (2, 7)
    with pytest.raises(P.ProtocolError):
        M.HELLO.decode(b"")


def test_records_name_their_fields() -> None:
    ident = M.IDENTIFY.decode(M.IDENTIFY.encode(
        version=1, fw_version=(1, 2, 3), sensor_count=42, profile_crc=0xF6073F80,
        epoch=0x1A2B3C4D, last_seq=5, nonce=77, max_payload=250, board_id="classic-42"))
    assert (ident.fw_version, ident.sensor_count, ident.board_id) == ((1, 2, 3), 42,
                                                                      "classic-42")
    assert type(ident).__name__ == "Identify"
    assert M.decode(M.EVENT.type, M.EVENT.encode(1, 2, 3, P.PRESS)).uid == b""


# ---- the tables of firmware_bridge/PROTOCOL.md ----------------------------------------------

def test_protocol_md_has_the_tables_the_declaration_makes() -> None:
    # Fix with: python -m firmware_bridge.messages --write
    assert M.document_tables(M.DOCUMENT.read_text()) == M.generated_tables()


def test_a_table_edited_by_hand_is_noticed_and_rewritten() -> None:
    text = M.DOCUMENT.read_text()
    edited = text.replace("| 0x42 | EVENT      |", "| 0x42 | EVENTS     |", 1)
    assert edited != text
    assert M.document_tables(edited) != M.generated_tables()
    assert M.with_tables(edited) == text


def test_the_message_table_lists_each_payload_as_declared() -> None:
    table = M.message_table()
    assert "| 0x42 | EVENT      | Pico -> Pi | epoch u32, seq u32, channel u8, kind u8, " \
           "uid_len u8, uid |" in table
    assert "| 0x04 | STATE_REQ  | Pi -> Pico | (empty) |" in table
    assert "| 0x41 | IDENTIFY   | Pico -> Pi | see 3.1 |" in table
    assert table.count("\n") == len(M.MESSAGES) + 1
