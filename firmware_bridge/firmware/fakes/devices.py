"""Fake chips wired to the fake Pico: 74HC165 chain, MCP23017, TCA9548A, PN532, MFRC522.

Each behaves at the level the firmware sees (pin edges, I2C transactions, SPI register
accesses), following its datasheet closely enough that a driver bug (a missing latch pulse,
pull-ups never enabled, two mux ports open at once, a bad checksum, a tag never halted)
shows up as a wrong reading rather than passing silently. Tags are ``Tag`` objects a test
places on and removes from readers.
"""

from __future__ import annotations

from typing import Any

from firmware_bridge.firmware.fakes.world import World

# ---- buttons -------------------------------------------------------------------------------


class ShiftRegisterChain165:
    """``chips`` daisy-chained 74HC165 on three GPIOs; input bit ``i`` is the ``i``-th bit
    shifted out after a load pulse. Inputs idle high (pull-ups); ``press(bit)`` pulls low."""

    def __init__(self, world: World, load: object, clock: object, data: object,
                 chips: int) -> None:
        self.width = 8 * chips
        self.inputs = bytearray([1] * self.width)
        self._latched = bytearray([1] * self.width)
        self._index = 0
        self._load = world.pin(load)
        self._clock_level = world.pin(clock).out_level
        self.loads = 0
        world.pin(load).listeners.append(self._on_load)
        world.pin(clock).listeners.append(self._on_clock)
        world.pin(data).driver = self._qh

    def press(self, bit: int) -> None:
        """Close the button on input ``bit`` (level 0)."""
        self.inputs[bit] = 0

    def release(self, bit: int) -> None:
        """Open the button on input ``bit`` (level 1)."""
        self.inputs[bit] = 1

    def _on_load(self, level: int) -> None:
        if level == 0:  # SH/LD low: parallel load, output shows the first bit
            self._latched[:] = self.inputs
            self._index = 0
            self.loads += 1

    def _on_clock(self, level: int) -> None:
        rising = level == 1 and self._clock_level == 0
        self._clock_level = level
        if rising and self._load.out_level == 1:
            self._index += 1

    def _qh(self) -> int:
        if self._load.out_level == 0:
            return self.inputs[0]
        if self._index < self.width:
            return self._latched[self._index]
        return 0  # serial input of the last chip tied to ground


class Mcp23017:
    """An MCP23017 (IOCON.BANK=0, sequential addressing). Pins idle at 1 only if their
    pull-up is on (else they float: read as 0); ``press(pin)`` pulls pin 0..15 low."""

    def __init__(self) -> None:
        self.regs = bytearray(0x16)
        self.regs[0x00] = 0xFF
        self.regs[0x01] = 0xFF
        self.pressed = [False] * 16
        self._pointer = 0

    def press(self, pin: int) -> None:
        """Ground GPA0..7 (0..7) or GPB0..7 (8..15)."""
        self.pressed[pin] = True

    def release(self, pin: int) -> None:
        """Let the pin go back to its idle level."""
        self.pressed[pin] = False

    def _port(self, port: int) -> int:
        pullups = self.regs[0x0C + port]
        value = 0
        for j in range(8):
            pin = 8 * port + j
            level = 0 if self.pressed[pin] else (pullups >> j) & 1
            value |= level << j
        return value

    def i2c_write(self, data: bytes) -> None:
        """Register pointer, then data written at the pointer (auto-incrementing)."""
        self._pointer = data[0]
        for byte in data[1:]:
            if self._pointer < len(self.regs):
                self.regs[self._pointer] = byte
            self._pointer += 1

    def i2c_read(self, n: int) -> bytes:
        """Registers from the pointer; GPIOA/GPIOB (0x12/0x13) read the pins."""
        out = bytearray()
        for _ in range(n):
            reg = self._pointer
            if reg in (0x12, 0x13):
                out.append(self._port(reg - 0x12))
            else:
                out.append(self.regs[reg] if reg < len(self.regs) else 0)
            self._pointer += 1
        return bytes(out)


# ---- I2C multiplexer -----------------------------------------------------------------------


class Tca9548a:
    """A TCA9548A: one control byte, bit ``n`` connects downstream port ``n``."""

    def __init__(self) -> None:
        self.control = 0
        self.ports: dict[int, dict[int, Any]] = {p: {} for p in range(8)}
        self.writes = 0

    def attach(self, port: int, device: Any, address: int) -> Any:
        """Wire ``device`` at ``address`` on downstream ``port``."""
        self.ports[port][address] = device
        return device

    def reachable(self) -> list[tuple[int, Any]]:
        """Devices on the ports that are connected now."""
        out: list[tuple[int, Any]] = []
        for port in range(8):
            if self.control & (1 << port):
                out.extend(self.ports[port].items())
        return out

    def i2c_write(self, data: bytes) -> None:
        """Set the control register (last byte wins)."""
        self.control = data[-1]
        self.writes += 1

    def i2c_read(self, n: int) -> bytes:
        """Read the control register back."""
        return bytes([self.control]) * n


# ---- tags and NFC readers ------------------------------------------------------------------


class Tag:
    """An ISO 14443 type A tag with a 4-, 7- or 10-byte UID."""

    def __init__(self, uid: bytes, sak: int = 0x00) -> None:
        if len(uid) not in (4, 7, 10):
            raise ValueError("a type A UID is 4, 7 or 10 bytes")
        self.uid = bytes(uid)
        self.sak = sak


def _crc_a(data: bytes) -> bytes:
    crc = 0x6363
    for byte in data:
        b = byte ^ (crc & 0xFF)
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


class Pn532:
    """A PN532 in I2C mode. Answers are ready ``ack_ms`` then ``answer_ms`` after a
    command (the status byte reads 0x00 until then). Frames with a bad checksum are
    ignored, as the chip does. ``commands`` counts the command codes received."""

    ACK = b"\x00\x00\xff\x00\xff\x00"

    def __init__(self, world: World, ack_ms: int = 1, answer_ms: int = 3) -> None:
        self.world = world
        self.ack_ms = ack_ms
        self.answer_ms = answer_ms
        self.tag: Tag | None = None
        self.pending: list[tuple[int, bytes]] = []
        self.commands: dict[int, int] = {}
        self.bad_frames = 0
        self.configured = False
        self.reads = 0
        self.asleep = False  # True: the next frame only wakes the chip (no ACK, no answer)

    def place(self, tag: Tag) -> None:
        """Put ``tag`` in the field."""
        self.tag = tag

    def remove(self) -> None:
        """Take the tag away."""
        self.tag = None

    def i2c_write(self, data: bytes) -> None:
        """Receive one normal information frame from the host."""
        start = data.find(b"\x00\xff")
        if start < 0 or start + 4 > len(data):
            self.bad_frames += 1
            return
        length, lcs = data[start + 2], data[start + 3]
        body = data[start + 4:start + 4 + length]
        dcs_index = start + 4 + length
        if ((length + lcs) & 0xFF or len(body) != length or dcs_index >= len(data)
                or (sum(body) + data[dcs_index]) & 0xFF or body[0] != 0xD4):
            self.bad_frames += 1
            return
        if self.asleep:
            self.asleep = False
            return
        command, params = body[1], body[2:]
        self.commands[command] = self.commands.get(command, 0) + 1
        now = self.world.now
        self.pending = [(now + self.ack_ms, self.ACK),
                        (now + self.ack_ms + self.answer_ms, self._answer(command, params))]

    def _answer(self, command: int, params: bytes) -> bytes:
        if command == 0x14:
            self.configured = True
            data = b""
        elif command == 0x02:
            data = b"\x32\x01\x06\x07"
        elif command == 0x4A and self.tag is not None:
            uid = self.tag.uid
            data = bytes([1, 1, 0x00, 0x44, self.tag.sak, len(uid)]) + uid
        elif command == 0x4A:
            data = b"\x00"
        else:
            data = b""
        body = bytes([0xD5, command + 1]) + data
        return (bytes([0x00, 0x00, 0xFF, len(body), (-len(body)) & 0xFF]) + body
                + bytes([(-sum(body)) & 0xFF, 0x00]))

    def i2c_read(self, n: int) -> bytes:
        """Status byte (bit 0: ready) followed by the next frame once it is due; reading
        more than the status byte consumes that frame."""
        self.reads += 1
        if self.pending and self.world.now >= self.pending[0][0]:
            frame = self.pending[0][1]
            if n > 1:
                self.pending.pop(0)
            out = b"\x01" + frame
        else:
            out = b"\x00"
        return (out + b"\x00" * n)[:n]


_IDLE, _READY, _ACTIVE, _HALT = range(4)


class Mfrc522:
    """An MFRC522 on SPI (one register per transfer: address byte, then data) with an
    ISO 14443-3 tag state machine (IDLE, READY, ACTIVE, HALT) for the tag in its field.
    ``exchanges`` lists every frame transmitted to the tag."""

    def __init__(self) -> None:
        self.regs = bytearray(0x40)
        self.fifo: list[int] = []
        self.tag: Tag | None = None
        self.tag_state = _IDLE
        self.level = 0  # cascade level being resolved
        self.exchanges: list[bytes] = []
        self._transceiving = False
        self._reset()

    def _reset(self) -> None:
        self.regs[:] = bytes(0x40)
        self.regs[0x37] = 0x92  # VersionReg: MFRC522 v2.0
        self.regs[0x14] = 0x80
        self.fifo = []
        self._transceiving = False

    def place(self, tag: Tag) -> None:
        """Put ``tag`` in the field (it powers up IDLE)."""
        self.tag = tag
        self.tag_state = _IDLE

    def remove(self) -> None:
        """Take the tag away."""
        self.tag = None
        self.tag_state = _IDLE

    def antenna_on(self) -> bool:
        """Whether the driver switched the antenna drivers on (TxControlReg bits 0-1)."""
        return self.regs[0x14] & 0x03 == 0x03

    def spi_transfer(self, tx: bytes) -> bytes:
        """One register access: address byte (bit 7 = read), then data bytes."""
        address = tx[0]
        reg = (address >> 1) & 0x3F
        rx = bytearray(len(tx))
        for i in range(1, len(tx)):
            if address & 0x80:
                rx[i] = self._read(reg)
            else:
                self._write(reg, tx[i])
        return bytes(rx)

    def _read(self, reg: int) -> int:
        if reg == 0x09:
            return self.fifo.pop(0) if self.fifo else 0
        if reg == 0x0A:
            return len(self.fifo)
        return self.regs[reg]

    def _write(self, reg: int, value: int) -> None:
        if reg == 0x01:
            command = value & 0x0F
            if command == 0x0F:
                self._reset()
                return
            self._transceiving = command == 0x0C
            self.regs[0x01] = value
        elif reg == 0x04:  # ComIrqReg: bit 7 set1 selects set or clear of the marked bits
            if value & 0x80:
                self.regs[0x04] |= value & 0x7F
            else:
                self.regs[0x04] &= ~value & 0x7F
        elif reg == 0x09:
            self.fifo.append(value)
        elif reg == 0x0A:
            if value & 0x80:
                self.fifo = []
        elif reg == 0x0D:
            self.regs[0x0D] = value & 0x7F
            if value & 0x80 and self._transceiving:
                self._exchange(bytes(self.fifo), value & 0x07)
        else:
            self.regs[reg] = value

    def _exchange(self, frame: bytes, last_bits: int) -> None:
        self.fifo = []
        self.exchanges.append(frame)
        answer = self._tag_answer(frame, last_bits) if self.antenna_on() else None
        self.regs[0x06] = 0
        if answer is None:
            self.regs[0x04] |= 0x01 | 0x10  # TimerIRq, IdleIRq
        else:
            self.fifo = list(answer)
            self.regs[0x04] |= 0x20 | 0x10  # RxIRq, IdleIRq

    def _cascade(self, level: int) -> bytes:
        uid = self.tag.uid if self.tag else b""
        if len(uid) == 4:
            parts = [uid]
        elif len(uid) == 7:
            parts = [b"\x88" + uid[:3], uid[3:]]
        else:
            parts = [b"\x88" + uid[:3], b"\x88" + uid[3:6], uid[6:]]
        return parts[level] if level < len(parts) else b""

    def _tag_answer(self, frame: bytes, last_bits: int) -> bytes | None:
        tag = self.tag
        if tag is None or not frame:
            return None
        atqa = b"\x44\x00" if len(tag.uid) > 4 else b"\x04\x00"
        head = frame[0]
        if last_bits == 7 and len(frame) == 1:
            if head == 0x52 or (head == 0x26 and self.tag_state == _IDLE):
                self.tag_state = _READY
                self.level = 0
                return atqa
            return None
        levels = {0x93: 0, 0x95: 1, 0x97: 2}
        if self.tag_state == _READY and head in levels and levels[head] == self.level:
            part = self._cascade(self.level)
            bcc = part[0] ^ part[1] ^ part[2] ^ part[3]
            if frame[1:] == b"\x20":
                return part + bytes([bcc])
            if (len(frame) == 9 and frame[1] == 0x70 and frame[2:7] == part + bytes([bcc])
                    and frame[7:] == _crc_a(frame[:7])):
                more = self.level + 1 < len(self._cascade_parts())
                sak = 0x04 if more else tag.sak
                if more:
                    self.level += 1
                else:
                    self.tag_state = _ACTIVE
                return bytes([sak]) + _crc_a(bytes([sak]))
        if head == 0x50 and frame == b"\x50\x00" + _crc_a(b"\x50\x00") \
                and self.tag_state == _ACTIVE:
            self.tag_state = _HALT
            return None
        if self.tag_state != _HALT:
            self.tag_state = _IDLE  # any unexpected frame sends it back to IDLE
        return None

    def _cascade_parts(self) -> list[bytes]:
        return [p for p in (self._cascade(0), self._cascade(1), self._cascade(2)) if p]


# ---- USB serial ----------------------------------------------------------------------------


class _Buffer:
    def __init__(self, owner: UsbSerial) -> None:
        self.owner = owner

    def read(self, n: int = -1) -> bytes:
        self.owner.deliver()
        pending = self.owner.to_pico
        if n < 0:
            n = len(pending)
        out = bytes(pending[:n])
        del pending[:n]
        return out

    def readinto(self, buf: bytearray) -> int:
        data = self.read(len(buf))
        buf[:len(data)] = data
        return len(data)

    def write(self, data: bytes) -> int:
        self.owner.from_pico.extend(data)
        return len(data)


class _Stream:
    def __init__(self, owner: UsbSerial) -> None:
        self.buffer = _Buffer(owner)
        self.owner = owner


class UsbSerial:
    """The Pico's USB CDC port: ``stdin``/``stdout`` objects for the firmware, plus
    ``host_send(bytes)`` and ``from_pico`` for the test playing the Pi.

    Bytes the host sends are in flight until the Pico's USB stack takes them: when fake
    time passes or the firmware polls or reads stdin. Like MicroPython's, that stack
    raises ``KeyboardInterrupt`` in the running code when the bytes hold the interrupt
    character (``micropython.kbd_intr``, Ctrl-C = 0x03 unless set to -1): once per batch,
    with the bytes before the last such character dropped.
    """

    def __init__(self, world: Any = None) -> None:
        self.world = world
        self.in_flight = bytearray()
        self.to_pico = bytearray()
        self.from_pico = bytearray()
        self.interrupts = 0
        self.stdin = _Stream(self)
        self.stdout = _Stream(self)

    def host_send(self, data: bytes) -> None:
        """The Pi writes ``data`` to the port."""
        self.in_flight.extend(data)

    def deliver(self) -> None:
        """The USB stack takes the bytes in flight (raises KeyboardInterrupt, see above)."""
        if not self.in_flight:
            return
        data = bytes(self.in_flight)
        self.in_flight.clear()
        char = self.world.kbd_intr if self.world is not None else -1
        if 0 <= char < 256 and char in data:
            # MicroPython's USB CDC callback: each interrupt character empties the stdin
            # buffer and schedules one KeyboardInterrupt; the bytes after the last one stay.
            self.to_pico.clear()
            self.to_pico.extend(data[data.rindex(char) + 1:])
            self.interrupts += 1
            raise KeyboardInterrupt
        self.to_pico.extend(data)

    def take_output(self) -> bytes:
        """Everything the Pico wrote since the last call."""
        out = bytes(self.from_pico)
        self.from_pico.clear()
        return out
