"""Territory push buttons: reading a 74HC165 chain or MCP23017 expanders, and debouncing.

Three small parts, each tested on its own: a bank reader fills a preallocated ``bytearray``
with one raw level (0/1) per input bit (``ShiftRegisterChain``, ``Mcp23017Bank``); a
``Debouncer`` accepts a channel's new level only once it held for ``debounce_ms``; a
``ButtonScanner`` maps bits to channels and calls ``on_change(channel, pressed)``.

MicroPython-compatible; the scan loop allocates nothing (levels, stable states and
timestamps live in buffers made once).
"""

try:  # pragma: no cover - absent on CPython
    from micropython import const
except ImportError:  # pragma: no cover
    def const(value):
        # type: (int) -> int
        """CPython stand-in for MicroPython's compile-time constant marker."""
        return value

import time

_MCP_IODIRA = const(0x00)
_MCP_GPPUA = const(0x0C)
_MCP_GPIOA = const(0x12)


class ShiftRegisterChain:
    """A chain of 74HC165 parallel-in/serial-out registers read by bit-banging three pins.

    ``load`` (SH/LD, active low) latches every input at once; then the serial output ``data``
    (QH of the chip nearest the Pico) shows one bit, and each rising edge of ``clock``
    shifts the next one in. Bit ``i`` of ``read_into`` is the ``i``-th bit shifted out (the
    first is input H of the nearest chip); the board map names bits in this order, whatever
    the wiring, so a chain is simply ``8 * chips`` bits.
    """

    def __init__(self, load, clock, data, chips):
        # type: (object, object, object, int) -> None
        self.load = load
        self.clock = clock
        self.data = data
        self.width = 8 * chips
        load.value(1)
        clock.value(0)

    def read_into(self, levels):
        # type: (bytearray) -> None
        """Latch the inputs and shift all ``width`` bits into ``levels`` (one byte per bit)."""
        load = self.load
        clock = self.clock
        data = self.data
        load.value(0)
        load.value(1)
        for i in range(self.width):
            levels[i] = data.value()
            clock.value(1)
            clock.value(0)


class Mcp23017Bank:
    """One or more MCP23017 16-bit I2C expanders, every pin an input with its pull-up on.

    Bit ``16*k + j`` of ``read_into`` is chip ``addresses[k]``, GPA0..GPA7 for ``j`` 0..7
    then GPB0..GPB7 for ``j`` 8..15 (registers in the default IOCON.BANK=0 layout). The chips
    are configured on the first read and again after any bus error (a chip that lost power
    comes back with its pull-ups off), so a missing chip is an error per scan, not a crash.
    """

    def __init__(self, i2c, addresses):
        # type: (object, tuple) -> None
        self.i2c = i2c
        self.addresses = tuple(addresses)
        self.width = 16 * len(self.addresses)
        self._pair = bytearray(2)
        self._configured = False

    def _configure(self):
        # type: () -> None
        for address in self.addresses:
            self.i2c.writeto_mem(address, _MCP_IODIRA, b"\xff\xff")  # IODIRA/B: all inputs
            self.i2c.writeto_mem(address, _MCP_GPPUA, b"\xff\xff")  # GPPUA/B: all pull-ups
        self._configured = True

    def read_into(self, levels):
        # type: (bytearray) -> None
        """Read GPIOA and GPIOB of every chip into ``levels`` (one byte per bit)."""
        try:
            if not self._configured:
                self._configure()
            pair = self._pair
            base = 0
            for address in self.addresses:
                self.i2c.readfrom_mem_into(address, _MCP_GPIOA, pair)
                low = pair[0]
                high = pair[1]
                for j in range(8):
                    levels[base + j] = (low >> j) & 1
                    levels[base + 8 + j] = (high >> j) & 1
                base += 16
        except OSError:
            self._configured = False
            raise


class Debouncer:
    """Per-channel debounce: a new level is accepted once it held ``debounce_ms`` unchanged.

    ``update(index, level, now_ms)`` returns True exactly when the accepted level of that
    index changes; ``level(index)`` is the accepted level. A bounce (a level that flips
    back before the delay) restarts the wait and never reaches the caller. Times are
    ``time.ticks_ms()`` values, compared with ``ticks_diff`` so the wrap-around is harmless.
    """

    def __init__(self, count, debounce_ms, initial=0):
        # type: (int, int, int) -> None
        self.debounce_ms = debounce_ms
        self._stable = bytearray([initial] * count)
        self._pending = bytearray(count)  # 1 while a different level waits out the delay
        self._since = [0] * count

    def level(self, index):
        # type: (int) -> int
        """The accepted (debounced) level of ``index``."""
        return self._stable[index]

    def update(self, index, level, now_ms):
        # type: (int, int, int) -> bool
        """Feed one raw sample; True when the accepted level of ``index`` just changed."""
        if level == self._stable[index]:
            self._pending[index] = 0
            return False
        if not self._pending[index]:
            self._pending[index] = 1
            self._since[index] = now_ms
            if self.debounce_ms > 0:
                return False
        if time.ticks_diff(now_ms, self._since[index]) >= self.debounce_ms:
            self._stable[index] = level
            self._pending[index] = 0
            return True
        return False


class ButtonScanner:
    """Scans a button bank, debounces each mapped bit and reports presses and releases.

    ``bank`` is a ``ShiftRegisterChain`` or ``Mcp23017Bank``; ``bit_map`` is
    ``((channel, bit), ...)``; ``on_change(channel, pressed)`` is called once per accepted
    change. With ``active_low`` (buttons to ground, pull-ups) a 0 level means pressed.
    """

    def __init__(self, bank, bit_map, debounce_ms, on_change, active_low=True):
        # type: (object, tuple, int, object, bool) -> None
        self.bank = bank
        self.channels = bytearray(len(bit_map))
        self.bits = bytearray(len(bit_map))
        for i, pair in enumerate(bit_map):
            self.channels[i] = pair[0]
            self.bits[i] = pair[1]
        self.levels = bytearray(bank.width)
        self.debouncer = Debouncer(len(bit_map), debounce_ms)
        self.on_change = on_change
        self.active_low = 1 if active_low else 0
        self.scans = 0

    def scan(self, now_ms):
        # type: (int) -> None
        """Read the bank once and report every debounced change."""
        self.bank.read_into(self.levels)
        levels = self.levels
        bits = self.bits
        active_low = self.active_low
        debouncer = self.debouncer
        for i in range(len(bits)):
            pressed = levels[bits[i]] ^ active_low
            if debouncer.update(i, pressed, now_ms):
                self.on_change(self.channels[i], pressed == 1)
        self.scans += 1

    def pressed(self, channel):
        # type: (int) -> bool
        """Whether ``channel`` is currently (debounced) held down."""
        for i in range(len(self.channels)):
            if self.channels[i] == channel:
                return self.debouncer.level(i) == 1
        return False
