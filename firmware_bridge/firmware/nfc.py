"""NFC readers on the territories: PN532 (I2C, behind TCA9548A muxes) and MFRC522 (SPI).

Every reader offers ``poll_step(now_ms)``: ``None`` while a poll is still under way (the
PN532 works on its own and is asked again later, so the scan loop never waits for it),
``b""`` when no tag answered, or the tag's UID (4, 7 or 10 bytes). ``NfcPoller`` asks the
readers round-robin and turns those answers into tag arrival / removal with a removal
hysteresis: a tag counts as gone only after ``removal_misses`` polls in a row miss it.

Why SPI readers are not behind the TCA9548A: that chip multiplexes I2C only, so each MFRC522
gets its own chip-select pin instead (the usual wiring of several RC522 modules on one bus).
PN532 boards all answer at I2C address 0x24, hence the mux for them.

MicroPython-compatible. Buffers are made once; a poll that finds a tag allocates its UID.
"""

try:  # pragma: no cover - absent on CPython
    from micropython import const
except ImportError:  # pragma: no cover
    def const(value):
        # type: (int) -> int
        """CPython stand-in for MicroPython's compile-time constant marker."""
        return value

import time

try:  # pragma: no cover - typing is absent on MicroPython
    from typing import List, Optional  # noqa: F401
except ImportError:  # pragma: no cover
    pass

NO_TAG = b""


def valid_uid_length(n):
    # type: (int) -> bool
    """True for the UID sizes of ISO 14443 type A (single, double, triple): 4, 7, 10."""
    return n == 4 or n == 7 or n == 10


class NfcError(Exception):
    """A reader did not answer as its datasheet says (absent, miswired, garbled frame)."""


# ---- TCA9548A ------------------------------------------------------------------------------


class MuxSet:
    """All TCA9548A I2C multiplexers of one bus: ``select(address, port)`` makes exactly that
    downstream port live (every other mux is switched off first, so a device address that
    exists on several ports is never seen twice)."""

    def __init__(self, i2c, addresses=()):
        # type: (object, tuple) -> None
        self.i2c = i2c
        self.addresses = tuple(addresses)
        self._current = None  # type: Optional[tuple]
        self._one = bytearray(1)
        for address in self.addresses:
            self._write(address, 0)

    def _write(self, address, mask):
        # type: (int, int) -> None
        self._one[0] = mask
        self.i2c.writeto(address, self._one)

    def select(self, address, port):
        # type: (int, int) -> None
        """Connect the bus to ``port`` (0..7) of the mux at ``address``, and only to it."""
        if self._current is not None and self._current[0] == address \
                and self._current[1] == port:
            return
        if self._current is not None and self._current[0] != address:
            self._write(self._current[0], 0)
        self._write(address, 1 << port)
        self._current = (address, port)

    def forget(self):
        # type: () -> None
        """Re-send the selection next time (after a bus error the mux state is unknown)."""
        self._current = None


# ---- PN532 over I2C ------------------------------------------------------------------------

PN532_ADDRESS = const(0x24)
_PN532_HOST_TO = const(0xD4)
_PN532_TO_HOST = const(0xD5)
_CMD_SAM_CONFIGURATION = const(0x14)
_CMD_RF_CONFIGURATION = const(0x32)
_CMD_IN_LIST_PASSIVE_TARGET = const(0x4A)
_PN532_READ_SIZE = const(32)  # status + the longest InListPassiveTarget answer (10-byte UID)

_IDLE = const(0)
_WAIT_ACK = const(1)
_WAIT_RESPONSE = const(2)


def pn532_frame(command, params=b""):
    # type: (int, bytes) -> bytes
    """A PN532 normal information frame: 00 00 FF LEN LCS D4 CMD params DCS 00."""
    body = bytes([_PN532_HOST_TO, command]) + bytes(params)
    length = len(body)
    dcs = (-sum(body)) & 0xFF
    return bytes([0x00, 0x00, 0xFF, length, (-length) & 0xFF]) + body + bytes([dcs, 0x00])


def pn532_parse(buf, command):
    # type: (bytes, int) -> bytes
    """The data of the PN532's answer to ``command`` read over I2C (``buf[0]`` is the
    status byte); raises NfcError on a bad preamble, checksum or command code."""
    i = 1
    n = len(buf)
    while i < n - 1 and buf[i] == 0x00 and buf[i + 1] != 0xFF:
        i += 1
    if i + 4 >= n or buf[i] != 0x00 or buf[i + 1] != 0xFF:
        raise NfcError("PN532 frame has no 00 FF preamble")
    length = buf[i + 2]
    if (length + buf[i + 3]) & 0xFF:
        raise NfcError("PN532 frame length checksum is wrong")
    start = i + 4
    end = start + length
    if end >= n:
        raise NfcError("PN532 frame longer than the read")
    if (sum(buf[start:end + 1])) & 0xFF:
        raise NfcError("PN532 frame data checksum is wrong")
    if length < 2 or buf[start] != _PN532_TO_HOST or buf[start + 1] != command + 1:
        raise NfcError("PN532 answered another command")
    return bytes(buf[start + 2:end])


class Pn532Reader:
    """One PN532 on an I2C bus, optionally behind a mux port; polls without blocking.

    ``begin()`` (blocking, at boot) configures the SAM and limits the passive-activation
    retries to one, so InListPassiveTarget answers "no target" quickly when the field is
    empty. ``poll_step`` then sends InListPassiveTarget (1 target, 106 kbps type A) and on
    later calls reads the ACK and the answer once the status byte says ready.
    """

    model = "pn532"

    def __init__(self, channel, i2c, mux=None, mux_address=0, port=0, address=PN532_ADDRESS,
                 timeout_ms=60):
        # type: (int, object, Optional[MuxSet], int, int, int, int) -> None
        self.channel = channel
        self.i2c = i2c
        self.mux = mux
        self.mux_address = mux_address
        self.port = port
        self.address = address
        self.timeout_ms = timeout_ms
        self.errors = 0
        self._state = _IDLE
        self._since = 0
        self._buf = bytearray(_PN532_READ_SIZE)
        self._status = bytearray(1)
        self._poll_frame = pn532_frame(_CMD_IN_LIST_PASSIVE_TARGET, b"\x01\x00")

    def _select(self):
        # type: () -> None
        if self.mux is not None:
            self.mux.select(self.mux_address, self.port)

    def _ready(self):
        # type: () -> bool
        """Read the status byte; once it says ready, read status + frame into ``_buf``
        (every I2C read of the PN532 starts with the status byte)."""
        self._select()
        self.i2c.readfrom_into(self.address, self._status)
        if not self._status[0] & 0x01:
            return False
        self.i2c.readfrom_into(self.address, self._buf)
        return True

    def begin(self):
        # type: () -> None
        """Configure the chip (SAM normal mode; one passive-activation retry). Blocking.

        The first frame may only wake a PN532 from power-down, so SAMConfiguration is
        tried twice."""
        try:
            self.command(_CMD_SAM_CONFIGURATION, b"\x01\x14\x01")
        except NfcError:
            self.command(_CMD_SAM_CONFIGURATION, b"\x01\x14\x01")
        self.command(_CMD_RF_CONFIGURATION, b"\x05\xff\x01\x01")

    def command(self, command, params=b""):
        # type: (int, bytes) -> bytes
        """Send one command and wait (up to ``timeout_ms``) for its answer's data."""
        self._send(pn532_frame(command, params), time.ticks_ms())
        deadline = self.timeout_ms
        start = time.ticks_ms()
        while self._state != _IDLE:
            result = self._advance(time.ticks_ms(), command)
            if result is not None:
                return result
            if time.ticks_diff(time.ticks_ms(), start) > deadline:
                self._state = _IDLE
                raise NfcError("PN532 on channel %d did not answer" % self.channel)
            time.sleep_ms(1)
        raise NfcError("PN532 on channel %d lost its command" % self.channel)

    def _send(self, frame, now_ms):
        # type: (bytes, int) -> None
        self._select()
        self.i2c.writeto(self.address, frame)
        self._state = _WAIT_ACK
        self._since = now_ms

    def _advance(self, now_ms, command):
        # type: (int, int) -> Optional[bytes]
        """Move the exchange on if the chip is ready; the answer's data once complete."""
        if not self._ready():
            return None
        buf = self._buf
        if self._state == _WAIT_ACK:
            if buf[1] != 0 or buf[2] != 0 or buf[3] != 0xFF or buf[4] != 0 or buf[5] != 0xFF:
                self._state = _IDLE
                raise NfcError("PN532 sent no ACK")
            self._state = _WAIT_RESPONSE
            # The chip answered: the time for its response starts now. A lap of many
            # readers can take as long as timeout_ms, and the ACK is read a lap after the
            # command, so timing from the command would fail readers that are not late.
            self._since = now_ms
            return None
        self._state = _IDLE
        return pn532_parse(buf, command)

    def poll_step(self, now_ms):
        # type: (int) -> Optional[bytes]
        """Advance this reader's poll: None while busy, ``b""`` for no tag, else the UID."""
        try:
            if self._state == _IDLE:
                self._send(self._poll_frame, now_ms)
                return None
            data = self._advance(now_ms, _CMD_IN_LIST_PASSIVE_TARGET)
        except (OSError, NfcError):
            self._fail()
            return NO_TAG
        if data is None:
            if time.ticks_diff(now_ms, self._since) > self.timeout_ms:
                self._fail()
                return NO_TAG
            return None
        # data: NbTg [Tg SENS_RES(2) SEL_RES NFCIDLength NFCID1...]
        if len(data) < 6 or data[0] == 0:
            return NO_TAG
        uid_len = data[5]
        if not valid_uid_length(uid_len) or len(data) < 6 + uid_len:
            self._fail()  # a type A UID is 4, 7 or 10 bytes: this answer is garbled
            return NO_TAG
        self.errors = 0
        return bytes(data[6:6 + uid_len])

    def _fail(self):
        # type: () -> None
        self._state = _IDLE
        self.errors += 1
        if self.mux is not None:
            self.mux.forget()


# ---- MFRC522 over SPI ----------------------------------------------------------------------

_REG_COMMAND = const(0x01)
_REG_COM_IRQ = const(0x04)
_REG_ERROR = const(0x06)
_REG_FIFO_DATA = const(0x09)
_REG_FIFO_LEVEL = const(0x0A)
_REG_BIT_FRAMING = const(0x0D)
_REG_MODE = const(0x11)
_REG_TX_CONTROL = const(0x14)
_REG_TX_ASK = const(0x15)
_REG_T_MODE = const(0x2A)
_REG_T_PRESCALER = const(0x2B)
_REG_T_RELOAD_H = const(0x2C)
_REG_T_RELOAD_L = const(0x2D)
_REG_VERSION = const(0x37)

_PCD_IDLE = const(0x00)
_PCD_TRANSCEIVE = const(0x0C)
_PCD_SOFT_RESET = const(0x0F)

PICC_REQA = const(0x26)
PICC_WUPA = const(0x52)
PICC_SEL_CL1 = const(0x93)
PICC_SEL_CL2 = const(0x95)
PICC_SEL_CL3 = const(0x97)
PICC_HLTA = const(0x50)
PICC_CASCADE_TAG = const(0x88)


def crc_a(data, length):
    # type: (bytes, int) -> int
    """ISO/IEC 14443-3 type A CRC of ``data[:length]`` (init 0x6363); low byte is sent first."""
    crc = 0x6363
    for i in range(length):
        b = data[i] ^ (crc & 0xFF)
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return crc


class Mfrc522Reader:
    """One MFRC522 on an SPI bus with its own chip-select pin.

    A poll is WUPA (wakes idle and halted tags), then anticollision and SELECT per cascade
    level until the SAK says the UID is complete, then HLTA so the next WUPA finds it again.
    Each exchange waits at most the chip's own timer (about 5 ms) when no tag answers.
    """

    model = "mfrc522"

    def __init__(self, channel, spi, cs):
        # type: (int, object, object) -> None
        self.channel = channel
        self.spi = spi
        self.cs = cs
        self.errors = 0
        cs.value(1)
        self._tx = bytearray(2)
        self._rx = bytearray(2)
        self._frame = bytearray(9)
        self._answer = bytearray(16)
        self._uid = bytearray(10)

    def _write(self, reg, value):
        # type: (int, int) -> None
        self._tx[0] = (reg << 1) & 0x7E
        self._tx[1] = value
        self.cs.value(0)
        self.spi.write(self._tx)
        self.cs.value(1)

    def _read(self, reg):
        # type: (int) -> int
        self._tx[0] = ((reg << 1) & 0x7E) | 0x80
        self._tx[1] = 0
        self.cs.value(0)
        self.spi.write_readinto(self._tx, self._rx)
        self.cs.value(1)
        return self._rx[1]

    def begin(self):
        # type: () -> None
        """Soft-reset and configure the chip: 5 ms receive timeout, 100% ASK, antenna on."""
        self._write(_REG_COMMAND, _PCD_SOFT_RESET)
        time.sleep_ms(2)
        version = self._read(_REG_VERSION)
        if version in (0x00, 0xFF):
            raise NfcError("MFRC522 on channel %d is not answering (version 0x%02x)"
                           % (self.channel, version))
        self._write(_REG_T_MODE, 0x80)  # timer starts at the end of each transmission
        self._write(_REG_T_PRESCALER, 0xA9)  # 13.56 MHz / (2*0xA9+1) ~ 40 kHz: 25 us ticks
        self._write(_REG_T_RELOAD_H, 0x00)
        self._write(_REG_T_RELOAD_L, 200)  # 200 ticks = 5 ms
        self._write(_REG_TX_ASK, 0x40)
        self._write(_REG_MODE, 0x3D)
        self._write(_REG_TX_CONTROL, self._read(_REG_TX_CONTROL) | 0x03)

    def transceive(self, frame, length, last_bits=0):
        # type: (bytearray, int, int) -> int
        """Send ``frame[:length]`` (``last_bits`` valid bits in its last byte, 0 = 8) and
        receive into ``self._answer``; the number of bytes received, -1 on timeout/error."""
        self._write(_REG_COMMAND, _PCD_IDLE)
        self._write(_REG_COM_IRQ, 0x7F)
        self._write(_REG_FIFO_LEVEL, 0x80)
        for i in range(length):
            self._write(_REG_FIFO_DATA, frame[i])
        self._write(_REG_BIT_FRAMING, last_bits)
        self._write(_REG_COMMAND, _PCD_TRANSCEIVE)
        self._write(_REG_BIT_FRAMING, 0x80 | last_bits)
        start = time.ticks_ms()
        for _ in range(2000):
            irq = self._read(_REG_COM_IRQ)
            if irq & 0x30:  # RxIRq or IdleIRq
                break
            if irq & 0x01:  # TimerIRq: nobody answered
                return -1
            if time.ticks_diff(time.ticks_ms(), start) > 25:
                return -1
        else:
            return -1
        self._write(_REG_BIT_FRAMING, 0)
        if self._read(_REG_ERROR) & 0x1B:  # BufferOvfl, CollErr, ParityErr, ProtocolErr
            return -1
        count = self._read(_REG_FIFO_LEVEL)
        if count > len(self._answer):
            return -1
        for i in range(count):
            self._answer[i] = self._read(_REG_FIFO_DATA)
        return count

    def poll_step(self, now_ms):
        # type: (int) -> Optional[bytes]
        """Look for one tag: ``b""`` when none answers, else its full UID (never None).

        A garbled exchange (bad SAK CRC, a UID of an impossible size) counts as an error
        and reads as no tag."""
        try:
            return self._poll()
        except (OSError, NfcError):
            self.errors += 1
            return NO_TAG

    def _poll(self):
        # type: () -> bytes
        frame = self._frame
        answer = self._answer
        frame[0] = PICC_WUPA
        if self.transceive(frame, 1, 7) != 2:
            return NO_TAG
        uid = self._uid
        size = 0
        for level in (PICC_SEL_CL1, PICC_SEL_CL2, PICC_SEL_CL3):
            frame[0] = level
            frame[1] = 0x20  # anticollision: NVB = 2 bytes sent, ask for the rest
            if self.transceive(frame, 2) != 5:
                return NO_TAG
            if answer[0] ^ answer[1] ^ answer[2] ^ answer[3] ^ answer[4]:
                return NO_TAG  # BCC mismatch
            frame[1] = 0x70  # SELECT: NVB = 7 bytes
            for i in range(5):
                frame[2 + i] = answer[i]
            crc = crc_a(frame, 7)
            frame[7] = crc & 0xFF
            frame[8] = crc >> 8
            if self.transceive(frame, 9) != 3:
                return NO_TAG
            sak = answer[0]
            if crc_a(answer, 1) != answer[1] | (answer[2] << 8):
                raise NfcError("MFRC522 on channel %d: SAK with a bad CRC" % self.channel)
            first = 1 if frame[2] == PICC_CASCADE_TAG else 0
            if size + 4 - first > len(uid):
                raise NfcError("MFRC522 on channel %d: UID longer than 10 bytes" % self.channel)
            for i in range(first, 4):
                uid[size] = frame[2 + i]
                size += 1
            if not sak & 0x04:  # cascade bit clear: UID complete
                break
        if not valid_uid_length(size) or sak & 0x04:
            raise NfcError("MFRC522 on channel %d: UID of %d bytes" % (self.channel, size))
        frame[0] = PICC_HLTA
        frame[1] = 0
        crc = crc_a(frame, 2)
        frame[2] = crc & 0xFF
        frame[3] = crc >> 8
        self.transceive(frame, 4)  # a halted tag does not answer: timeout is success
        return bytes(uid[:size])


# ---- round-robin polling with removal hysteresis -------------------------------------------


class NfcPoller:
    """Polls the readers round-robin and reports ``on_change(channel, uid)`` on arrival and
    ``on_change(channel, None)`` on removal.

    Each ``step`` visits the next ``visits`` readers. A visit never waits: a PN532 still
    working on its InListPassiveTarget is simply visited again on the next lap, so all the
    readers work at once and a lap costs about ``len(readers) / visits`` passes of the loop,
    whatever each chip's latency (up to a lap).

    A tag seen on a reader is "present" at once; it is "removed" only after
    ``removal_misses`` consecutive polls of that reader without it (a tag lying on the edge
    of the field, or a poll lost to noise, must not flicker). A different UID replacing the
    present one reports the removal of the old tag, then the arrival of the new one.
    """

    def __init__(self, readers, removal_misses, on_change, visits=2, on_error=None):
        # type: (list, int, object, int, object) -> None
        self.readers = list(readers)
        self.on_error = on_error  # on_error(channel, exc): a reader's poll raised
        self.faults = 0
        self.removal_misses = removal_misses
        self.on_change = on_change
        self.visits = visits
        self.present = [None] * len(self.readers)  # type: List[Optional[bytes]]
        self.misses = bytearray(len(self.readers))
        self._index = 0
        self.polls = 0

    def step(self, now_ms):
        # type: (int) -> None
        """Visit the next readers: start, advance or finish their polls."""
        count = len(self.readers)
        if not count:
            return
        visits = self.visits if self.visits < count else count
        for _ in range(visits):
            i = self._index
            self._index = i + 1 if i + 1 < count else 0
            reader = self.readers[i]
            try:
                result = reader.poll_step(now_ms)
                if result is not None:
                    if result and not valid_uid_length(len(result)):
                        raise NfcError("%s on channel %d: UID of %d bytes"
                                       % (reader.model, reader.channel, len(result)))
                    self.polls += 1
                    self._record(i, result)
            except Exception as exc:  # one bad reader must not stop the scan (watchdog)
                self.faults += 1
                reader.errors += 1
                if self.on_error is not None:
                    self.on_error(reader.channel, exc)

    def _record(self, i, uid):
        # type: (int, bytes) -> None
        channel = self.readers[i].channel
        present = self.present[i]
        if uid:
            self.misses[i] = 0
            if present == uid:
                return
            if present is not None:
                self.present[i] = None
                self.on_change(channel, None)
            self.present[i] = uid
            self.on_change(channel, uid)
            return
        if present is None:
            return
        self.misses[i] += 1
        if self.misses[i] >= self.removal_misses:
            self.misses[i] = 0
            self.present[i] = None
            self.on_change(channel, None)
