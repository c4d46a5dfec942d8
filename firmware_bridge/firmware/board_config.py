"""Where every territory sensor of the board is wired, as the Pico firmware sees it.

A ``BoardConfig`` says, for each sensor channel 0..N-1 (the channel numbers of the Pi's board
profile), whether it is a push button (which bit of the 74HC165 chain or MCP23017 bank) or an
NFC reader (a PN532 on which TCA9548A mux port, or an MFRC522 on which SPI chip-select pin),
plus the pins of the buses, the LED chain and the timing knobs (debounce, NFC removal
hysteresis, watchdog). ``BOARDS`` holds one per board profile of ``hardware/boards``
(``classic-42``, ``classic-42-nfc``, ``classic-42-lite``); ``selected()`` picks the one
named in ``board.txt`` on the Pico's flash, else ``SELECTED``.

Canonical sensor-map bytes (what ``sensor_crc()`` covers, so the Pi's
``hardware/profiles.py`` ``BoardProfile.sensor_crc()`` must hash the very same bytes):
the ASCII text ``"riskboard-sensors/1\\n"`` followed by one line ``"<channel>:<kind>\\n"``
per channel in ascending channel order, for channels ``0..sensor_count-1``, where ``<channel>``
is the decimal number and ``<kind>`` is ``button``, ``nfc`` or ``none`` (an unwired channel).
The CRC is CRC-32/ISO-HDLC (the one of ``zlib.crc32``/``binascii.crc32``), as an unsigned
32-bit int. Example: two buttons -> ``b"riskboard-sensors/1\\n0:button\\n1:button\\n"``.
Only what both sides know enters the hash: the Pi does not know shift-register bits or mux
ports, so rewiring a reader to another port keeps the CRC; changing a channel's kind changes it.

MicroPython-compatible: plain classes, tuples and dicts; no dataclasses.
"""

try:  # pragma: no cover - typing is absent on MicroPython
    from typing import Dict, List, Optional, Tuple  # noqa: F401
except ImportError:  # pragma: no cover
    pass

KIND_BUTTON = "button"
KIND_NFC = "nfc"
KIND_NONE = "none"
CANONICAL_HEADER = b"riskboard-sensors/1\n"

BUTTONS_74HC165 = "74hc165"
BUTTONS_MCP23017 = "mcp23017"
READER_PN532 = "pn532"
READER_MFRC522 = "mfrc522"


class ConfigError(ValueError):
    """The board configuration contradicts itself (a channel wired twice, a bad pin...)."""


def crc32(data, crc=0):
    # type: (bytes, int) -> int
    """CRC-32/ISO-HDLC, bit by bit (no table: it runs once at boot), same as ``zlib.crc32``."""
    crc ^= 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            if crc & 1:
                crc = (crc >> 1) ^ 0xEDB88320
            else:
                crc >>= 1
    return crc ^ 0xFFFFFFFF


def canonical_sensor_map(kinds):
    # type: (List[str]) -> bytes
    """The canonical bytes of a sensor map given each channel's kind, in channel order."""
    out = bytearray(CANONICAL_HEADER)
    for channel, kind in enumerate(kinds):
        out.extend(("%d:%s\n" % (channel, kind)).encode())
    return bytes(out)


class BoardConfig:
    """The firmware's wiring and timing for one board.

    ``buttons``: ``None`` or a dict ``{"driver": "74hc165", "load": pin, "clock": pin,
    "data": pin, "chips": n, "active_low": True, "map": ((channel, bit), ...)}`` or
    ``{"driver": "mcp23017", "i2c": bus_id, "addresses": (0x20, ...), "active_low": True,
    "map": ((channel, bit), ...)}`` (bit ``16*k + j``: chip ``k``, GPA0..7 then GPB0..7).

    ``nfc``: ``None`` or ``{"i2c": bus_id, "spi": {"id": 0, "sck": pin, "mosi": pin,
    "miso": pin, "baudrate": 4000000}, "readers": ((channel, "pn532", mux_address, port),
    (channel, "pn532", None, 0), (channel, "mfrc522", cs_pin), ...)}`` (a PN532 with
    ``mux_address`` None sits directly on the bus; only one can, they share address 0x24).

    ``i2c_buses``: ``{bus_id: {"sda": pin, "scl": pin, "freq": 400000}}`` for the buses the
    MCP23017s and PN532s use. Pins are RP2040 GPIO numbers (``"LED"``: the on-board LED).
    """

    def __init__(self, sensor_count, buttons=None, nfc=None, led_pin=22, led_count=0,
                 debounce_ms=20, nfc_removal_misses=3, nfc_timeout_ms=60, watchdog_ms=5000,
                 status_led="LED", safe_mode_pin=15, board_id="riskboard",
                 i2c_buses=None, loop_period_ms=1, nfc_visits_per_pass=2):
        # type: (int, Optional[dict], Optional[dict], Optional[int], int, int, int, int, int, object, Optional[int], str, Optional[dict], int, int) -> None  # noqa: E501
        self.sensor_count = sensor_count
        self.buttons = buttons
        self.nfc = nfc
        self.led_pin = led_pin
        self.led_count = led_count
        self.debounce_ms = debounce_ms
        self.nfc_removal_misses = nfc_removal_misses
        self.nfc_timeout_ms = nfc_timeout_ms
        self.watchdog_ms = watchdog_ms
        self.status_led = status_led
        self.safe_mode_pin = safe_mode_pin
        self.board_id = board_id
        # I2C buses by id: {0: {"sda": 4, "scl": 5, "freq": 400000}}
        self.i2c_buses = i2c_buses or {}
        self.loop_period_ms = loop_period_ms
        self.nfc_visits_per_pass = nfc_visits_per_pass
        self.validate()

    def button_map(self):
        # type: () -> Tuple[Tuple[int, int], ...]
        """``((channel, bit), ...)`` of the button bank, empty without buttons."""
        if not self.buttons:
            return ()
        return tuple(self.buttons.get("map", ()))

    def readers(self):
        # type: () -> Tuple[tuple, ...]
        """The NFC reader descriptions ``(channel, model, ...)``, empty without readers."""
        if not self.nfc:
            return ()
        return tuple(self.nfc.get("readers", ()))

    def channel_kinds(self):
        # type: () -> List[str]
        """Each channel's sensor kind (``button``, ``nfc`` or ``none``), in channel order."""
        kinds = [KIND_NONE] * self.sensor_count
        for channel, _bit in self.button_map():
            kinds[channel] = KIND_BUTTON
        for reader in self.readers():
            kinds[reader[0]] = KIND_NFC
        return kinds

    def sensor_crc(self):
        # type: () -> int
        """CRC-32 of the canonical sensor map (see the module docstring), sent in IDENTIFY."""
        return crc32(canonical_sensor_map(self.channel_kinds()))

    def validate(self):
        # type: () -> None
        """Raise ConfigError when a channel is out of range or wired twice, or a bit reused."""
        if not 0 < self.sensor_count <= 255:
            raise ConfigError("sensor_count must be 1..255, got %r" % (self.sensor_count,))
        if self.debounce_ms < 0 or self.nfc_removal_misses < 1 or self.nfc_visits_per_pass < 1:
            raise ConfigError("debounce_ms must be >= 0, nfc_removal_misses and "
                              "nfc_visits_per_pass >= 1")
        if not 0 < self.watchdog_ms <= 8388:
            raise ConfigError("watchdog_ms must be 1..8388 (the RP2040 limit)")
        seen = {}  # type: Dict[int, str]
        bits = {}  # type: Dict[int, int]
        if self.buttons:
            driver = self.buttons.get("driver")
            if driver == BUTTONS_74HC165:
                width = 8 * self.buttons.get("chips", 1)
            elif driver == BUTTONS_MCP23017:
                width = 16 * len(self.buttons.get("addresses", ()))
                self._need_bus(self.buttons.get("i2c"), "mcp23017 buttons")
            else:
                raise ConfigError("buttons driver must be 74hc165 or mcp23017, got %r" % driver)
            for channel, bit in self.button_map():
                self._claim(seen, channel, "button bit %d" % bit)
                if not 0 <= bit < width:
                    raise ConfigError("button bit %d is outside the %d-bit bank" % (bit, width))
                if bit in bits:
                    raise ConfigError("button bit %d wired to channels %d and %d"
                                      % (bit, bits[bit], channel))
                bits[bit] = channel
        ports = {}  # type: Dict[tuple, int]
        nfc = self.nfc or {}  # readers() is empty without it
        for reader in self.readers():
            model = reader[1]
            if model == READER_PN532:
                self._need_bus(nfc.get("i2c"), "pn532 readers")
                where = (reader[2], reader[3])
                if not 0 <= reader[3] <= 7:
                    raise ConfigError("mux port must be 0..7, got %r" % (reader[3],))
            elif model == READER_MFRC522:
                if not nfc.get("spi"):
                    raise ConfigError("mfrc522 readers need an nfc \"spi\" bus")
                where = ("cs", reader[2])
            else:
                raise ConfigError("NFC reader model must be pn532 or mfrc522, got %r" % model)
            self._claim(seen, reader[0], "%s reader" % model)
            if where in ports:
                raise ConfigError("readers on channels %d and %d share %r"
                                  % (ports[where], reader[0], where))
            ports[where] = reader[0]

    def _need_bus(self, bus_id, what):
        # type: (object, str) -> None
        if bus_id not in self.i2c_buses:
            raise ConfigError("%s use I2C bus %r, which i2c_buses does not define"
                              % (what, bus_id))

    def _claim(self, seen, channel, what):
        # type: (dict, int, str) -> None
        if not 0 <= channel < self.sensor_count:
            raise ConfigError("channel %r (%s) is outside 0..%d"
                              % (channel, what, self.sensor_count - 1))
        if channel in seen:
            raise ConfigError("channel %d is wired twice: %s and %s"
                              % (channel, seen[channel], what))
        seen[channel] = what


# Pico pinout shared by the default boards (RP2040 GPIO numbers):
#   GP2 74HC165 SH/LD, GP3 74HC165 CLK, GP4 74HC165 QH (data in)
#   GP6 I2C1 SDA, GP7 I2C1 SCL (TCA9548A muxes, PN532 readers, MCP23017 expanders)
#   GP16 SPI0 MISO, GP18 SPI0 SCK, GP19 SPI0 MOSI, GP17/20/21/26/27 MFRC522 chip selects
#   GP22 WS281x data (through a 3.3 V -> 5 V level shifter)
#   GP15 safe-mode jumper: tied to ground at power-up, the firmware does not start
PIN_LOAD = 2
PIN_CLOCK = 3
PIN_DATA = 4
I2C_BUS = {1: {"sda": 6, "scl": 7, "freq": 400000}}
LED_PIN = 22


def classic_42_buttons():
    # type: () -> BoardConfig
    """``classic-42``: 42 buttons on six chained 74HC165 (channel ``i`` = chain bit ``i``),
    active low with pull-ups; 135 LEDs (126 territory + 9 status) on GP22."""
    return BoardConfig(
        sensor_count=42,
        buttons={"driver": BUTTONS_74HC165, "load": PIN_LOAD, "clock": PIN_CLOCK,
                 "data": PIN_DATA, "chips": 6, "active_low": True,
                 "map": tuple((ch, ch) for ch in range(42))},
        led_pin=LED_PIN,
        led_count=135,
        board_id="classic-42",
    )


def classic_42_nfc():
    # type: () -> BoardConfig
    """``classic-42-nfc``: a PN532 under every territory, on six TCA9548A muxes
    (0x70..0x75) of I2C1; channel ``i`` is mux ``0x70 + i // 8``, port ``i % 8``."""
    return BoardConfig(
        sensor_count=42,
        nfc={"i2c": 1, "readers": tuple((ch, READER_PN532, 0x70 + ch // 8, ch % 8)
                                        for ch in range(42))},
        i2c_buses=I2C_BUS,
        led_pin=LED_PIN,
        led_count=135,
        board_id="classic-42-nfc",
    )


def classic_42_lite():
    # type: () -> BoardConfig
    """``classic-42-lite``: the button wiring of ``classic-42`` with one LED per territory."""
    config = classic_42_buttons()
    config.led_count = 42
    config.board_id = "classic-42-lite"
    return config


BOARDS = {"classic-42": classic_42_buttons, "classic-42-nfc": classic_42_nfc,
          "classic-42-lite": classic_42_lite}

# The board main.py runs when the Pico holds no ``board.txt`` naming another one.
SELECTED = "classic-42"
BOARD_FILE = "board.txt"


def selected(path=BOARD_FILE):
    # type: (str) -> BoardConfig
    """The configuration of the board this Pico is wired for: the name in ``path`` (a file
    at the root of the Pico's flash, e.g. ``classic-42-nfc``) or else ``SELECTED``."""
    name = SELECTED
    try:
        with open(path) as handle:
            name = handle.read().strip() or SELECTED
    except OSError:
        pass
    if name not in BOARDS:
        raise ConfigError("%s names board %r; known boards: %s"
                          % (path, name, ", ".join(sorted(BOARDS))))
    return BOARDS[name]()
