"""Entry point of the riskboard Pico firmware: boot, then scan, report and light, forever.

Boot: stop Ctrl-C first (0x03 is an ordinary byte in our binary frames), blink the
on-board LED three times; if the safe-mode jumper (``safe_mode_pin``) is grounded, stop
there and give the REPL back. Otherwise start the hardware watchdog, set up the button
bank, the NFC readers and the LED chain from ``board_config`` (a missing mux or reader is
reported to the Pi, at once and after each HELLO, and the rest carries on) and loop: read
what the Pi sent over USB serial into ``FirmwareCore``, scan the buttons, advance the NFC
poll, let the core retransmit and send heartbeats, blink the status LED every half second,
feed the watchdog. A sensor fault of any kind is counted and reported, never fatal.

Maintenance: mpremote announces itself with ``\r\x03`` (Ctrl-C, maybe twice) then ``\r\x01``
(Ctrl-A). When exactly that arrives, with nothing after it, and either no valid frame from
the Pi for a second before it or none for two seconds after it (a running Pi sends one at
least every second), the firmware writes ``maintenance.flag`` and resets the chip; the
next boot deletes the flag and leaves the REPL alone (no watchdog, Ctrl-C on). So
mpremote's first command fails ("could not enter raw repl"), the second one works, and
the boot after that (``mpremote reset``, power) runs the firmware again.

All of this runs on CPython against ``firmware_bridge.firmware.fakes``; see the README.
"""

# Ctrl-C off before anything else. MicroPython runs main.py with Ctrl-C armed, and the
# Pi's HELLO frames (0x03 is an ordinary byte in them) may already be arriving while the
# imports below compile, which takes the Pico ~3 s: a 0x03 then stops main.py in the REPL,
# with no watchdog running (issue 20). boot.py cannot do this: MicroPython re-arms Ctrl-C
# for every file it runs. A 0x03 that arrived in the instant before kbd_intr(-1) is
# pending; sleep_ms(0) raises it here, where it is dropped.
try:
    import micropython
    micropython.kbd_intr(-1)
    import time
    time.sleep_ms(0)
except KeyboardInterrupt:  # the instant before kbd_intr(-1): that HELLO is lost, the next
    import micropython  # one is answered
    micropython.kbd_intr(-1)
except (ImportError, AttributeError):  # pragma: no cover - CPython without the fakes
    micropython = None

import os
import select
import sys
import time

import machine

try:  # the Pi's package layout (and the tests)
    from firmware_bridge import protocol as P
    from firmware_bridge.firmware import board_config, nfc, sensors
    from firmware_bridge.firmware.core import FirmwareCore
except ImportError:  # pragma: no cover - the Pico: every file at the root of its flash
    import board_config
    import nfc
    import protocol as P
    import sensors
    from core import FirmwareCore

try:  # pragma: no cover - typing is absent on MicroPython
    from typing import Optional  # noqa: F401
except ImportError:  # pragma: no cover
    pass

FIRMWARE_VERSION = "1.0.0"
QUIET_BEFORE_ESCAPE_MS = 1000
QUIET_AFTER_ESCAPE_MS = 20
# A running Pi sends a frame at least once a second (its keep-alive, PROTOCOL.md 3.5), so
# this long a silence after the request says the Pi has gone: the request counts even when
# the Pi's last frames came just before it (mpremote started right after the service stopped).
PI_GONE_AFTER_ESCAPE_MS = 2000
STATUS_BLINK_MS = 500
SENSOR_ERROR_EVERY_MS = 1000
MAINTENANCE_FLAG = "maintenance.flag"  # on the Pico's flash: "boot into the REPL once"


class UsbSerial:
    """The USB CDC port as byte stream: ``read_available()`` never blocks; ``write(data)``."""

    def __init__(self, stdin=None, stdout=None, limit=256):
        # type: (object, object, int) -> None
        self._in = stdin if stdin is not None else sys.stdin
        self._out = stdout if stdout is not None else sys.stdout
        self._poll = select.poll()
        self._poll.register(self._in, select.POLLIN)
        self._rx = bytearray(limit)
        self._one = bytearray(1)

    def read_available(self):
        # type: () -> bytes
        """Every byte waiting (up to ``limit``); ``b""`` at once when there is none."""
        n = 0
        rx = self._rx
        one = self._one
        while n < len(rx) and self._waiting():
            # One byte at a time: stdin blocks until it has every byte asked for, and poll
            # only promises one. readinto a preallocated byte allocates nothing.
            if not self._in.buffer.readinto(one):
                break
            rx[n] = one[0]
            n += 1
        return bytes(rx[:n]) if n else b""

    def _waiting(self):
        # type: () -> bool
        # ipoll, unlike poll, allocates nothing: this runs on every pass of the loop.
        for _ in self._poll.ipoll(0):
            return True
        return False

    def write(self, data):
        # type: (bytes) -> None
        """Send ``data`` to the Pi."""
        self._out.buffer.write(data)


class EscapeDetector:
    """Spots mpremote's raw-REPL request (``\\r\\x03`` [``\\x03``] ``\\r\\x01``) in the stream.

    ``feed(data, now_ms)`` follows the bytes; ``matched_at`` is the time the sequence ended
    (None when the last bytes received are not that sequence).
    """

    def __init__(self):
        # type: () -> None
        self._state = 0
        self.matched_at = None  # type: Optional[int]

    def feed(self, data, now_ms):
        # type: (bytes, int) -> None
        """Advance over received bytes."""
        state = self._state
        for byte in data:
            self.matched_at = None
            if byte == 0x0D:
                state = 3 if state == 2 else 1
            elif byte == 0x03 and state in (1, 2):
                state = 2
            elif byte == 0x01 and state == 3:
                self.matched_at = now_ms
                state = 0
            else:
                state = 0
        self._state = state


class Firmware:
    """The running firmware: the core, the sensors and the LEDs of one ``BoardConfig``."""

    def __init__(self, config, serial, wdt=None):
        # type: (board_config.BoardConfig, UsbSerial, object) -> None
        self.config = config
        self.serial = serial
        self.wdt = wdt
        self.leds = None
        self.status = machine.Pin(config.status_led, machine.Pin.OUT, value=0)
        self.escape = EscapeDetector()
        self._i2c = {}
        if config.led_pin is not None:
            try:
                from firmware_bridge.firmware import leds
            except ImportError:  # pragma: no cover - the Pico layout
                import leds
            self.leds = leds.Ws2812Pio(config.led_pin, config.led_count)
            self.leds.off()
        self.core = FirmwareCore(
            serial.write, time.ticks_ms, config.sensor_count, config.sensor_crc(),
            FIRMWARE_VERSION, on_led_frame=self._on_led_frame, board_id=config.board_id,
            ticks_diff=time.ticks_diff)
        self.faults = self.core.faults  # setup problems, resent to the Pi after each HELLO
        self.buttons = self._make_buttons()
        self.nfc = self._make_nfc()
        for reader in self.config.readers():  # an empty reader's state is "no tag"
            self.core.set_state(reader[0], P.TAG_REMOVED)
        now = time.ticks_ms()
        self._last_blink = now
        self._last_rx_frame = time.ticks_add(now, -QUIET_BEFORE_ESCAPE_MS)  # none yet
        self._frames_rx = 0
        self._last_error = time.ticks_add(now, -SENSOR_ERROR_EVERY_MS)
        self.sensor_errors = 0
        self.steps = 0

    # ---- setup -----------------------------------------------------------------------
    def _bus(self, bus_id):
        # type: (int) -> object
        if bus_id not in self._i2c:
            spec = self.config.i2c_buses[bus_id]
            self._i2c[bus_id] = machine.I2C(bus_id, sda=machine.Pin(spec["sda"]),
                                            scl=machine.Pin(spec["scl"]),
                                            freq=spec.get("freq", 400000))
        return self._i2c[bus_id]

    def _make_buttons(self):
        # type: () -> Optional[sensors.ButtonScanner]
        spec = self.config.buttons
        if not spec:
            return None
        Pin = machine.Pin
        if spec["driver"] == board_config.BUTTONS_74HC165:
            bank = sensors.ShiftRegisterChain(
                Pin(spec["load"], Pin.OUT, value=1), Pin(spec["clock"], Pin.OUT, value=0),
                Pin(spec["data"], Pin.IN), spec.get("chips", 1))
        else:
            bank = sensors.Mcp23017Bank(self._bus(spec["i2c"]), spec["addresses"])
        return sensors.ButtonScanner(bank, self.config.button_map(), self.config.debounce_ms,
                                     self._on_button, spec.get("active_low", True))

    def _make_nfc(self):
        # type: () -> Optional[nfc.NfcPoller]
        spec = self.config.nfc
        if not spec or not spec.get("readers"):
            return None
        Pin = machine.Pin
        readers = []
        muxes = None
        spi = None
        pn532 = [r for r in spec["readers"] if r[1] == board_config.READER_PN532]
        if pn532:
            i2c = self._bus(spec["i2c"])
            addresses = sorted(set(r[2] for r in pn532 if r[2] is not None))
            try:
                muxes = nfc.MuxSet(i2c, addresses)
            except OSError as exc:
                # A missing or miswired TCA9548A: its readers fail below and poll as
                # "no tag"; the Pi hears of it, and a mux that answers later just works.
                self.core.report_fault("event=nfc.mux_missing addresses=%s error=%s" % (
                    ",".join("0x%02x" % a for a in addresses), exc))
                muxes = nfc.MuxSet(i2c)
        for reader in spec["readers"]:
            channel = reader[0]
            if reader[1] == board_config.READER_PN532:
                readers.append(nfc.Pn532Reader(
                    channel, self._bus(spec["i2c"]), muxes if reader[2] is not None else None,
                    reader[2] or 0, reader[3], timeout_ms=self.config.nfc_timeout_ms))
            else:
                if spi is None:
                    s = spec["spi"]
                    spi = machine.SPI(s.get("id", 0), baudrate=s.get("baudrate", 4000000),
                                      sck=Pin(s["sck"]), mosi=Pin(s["mosi"]),
                                      miso=Pin(s["miso"]))
                readers.append(nfc.Mfrc522Reader(channel, spi,
                                                 Pin(reader[2], Pin.OUT, value=1)))
        for reader in readers:
            try:
                reader.begin()
            except Exception as exc:  # any reader fault: report it, set up the rest
                self.core.report_fault("event=nfc.setup channel=%d model=%s error=%s"
                                       % (reader.channel, reader.model, exc))
            self._feed()  # 42 absent PN532s take longer than the watchdog timeout
        return nfc.NfcPoller(readers, self.config.nfc_removal_misses, self._on_tag,
                             self.config.nfc_visits_per_pass, self._on_reader_error)

    def _feed(self):
        # type: () -> None
        if self.wdt is not None:
            self.wdt.feed()

    # ---- callbacks ---------------------------------------------------------------------
    def _on_button(self, channel, pressed):
        # type: (int, bool) -> None
        self.core.sensor_event(channel, P.PRESS if pressed else P.RELEASE)

    def _on_tag(self, channel, uid):
        # type: (int, Optional[bytes]) -> None
        if uid:
            self.core.sensor_event(channel, P.TAG_PRESENT, uid)
        else:
            self.core.sensor_event(channel, P.TAG_REMOVED)

    def _on_reader_error(self, channel, exc):
        # type: (int, Exception) -> None
        self._sensor_error(time.ticks_ms(), exc)

    def _on_led_frame(self, rgb):
        # type: (bytes) -> None
        if self.leds is not None:
            self.leds.show_rgb(rgb)

    # ---- the loop ----------------------------------------------------------------------
    def step(self):
        # type: () -> bool
        """One pass of the main loop; False when mpremote asked for the REPL."""
        now = time.ticks_ms()
        data = self.serial.read_available()
        if data:
            self.core.feed(data)
            self.escape.feed(data, now)
        if self.core.stats["frames_rx"] != self._frames_rx:
            self._frames_rx = self.core.stats["frames_rx"]
            self._last_rx_frame = now
        # Any sensor fault is counted and reported, never fatal: an exception leaving the
        # loop would end in a watchdog reset, a new epoch and the event ring lost.
        if self.buttons is not None:
            try:
                self.buttons.scan(now)
            except Exception as exc:  # an expander gone from the bus: the readers go on
                self._sensor_error(now, exc)
        if self.nfc is not None:
            try:
                self.nfc.step(now)  # catches each reader's faults itself
            except Exception as exc:
                self._sensor_error(now, exc)
        self.core.poll()
        if time.ticks_diff(now, self._last_blink) >= STATUS_BLINK_MS:
            self._last_blink = now
            self.status.toggle()
        self.steps += 1
        self._feed()
        return not self._escape_requested(now)

    def _sensor_error(self, now, exc):
        # type: (int, Exception) -> None
        self.sensor_errors += 1
        if time.ticks_diff(now, self._last_error) >= SENSOR_ERROR_EVERY_MS:
            self._last_error = now
            self.core.send_error(P.ERR_SENSOR, "event=sensor.error count=%d error=%s"
                                 % (self.sensor_errors, exc))

    def _escape_requested(self, now):
        # type: (int) -> bool
        at = self.escape.matched_at  # None again as soon as another byte arrives
        if at is None:
            return False
        silent = time.ticks_diff(now, at)
        if silent < QUIET_AFTER_ESCAPE_MS:
            return False
        if time.ticks_diff(at, self._last_rx_frame) >= QUIET_BEFORE_ESCAPE_MS:
            return True
        return silent >= PI_GONE_AFTER_ESCAPE_MS

    def run(self, max_steps=None):
        # type: (Optional[int]) -> str
        """Loop until mpremote asks for the REPL (returns "maintenance") or ``max_steps``."""
        period = self.config.loop_period_ms
        while max_steps is None or self.steps < max_steps:
            started = time.ticks_ms()
            if not self.step():
                return "maintenance"
            spent = time.ticks_diff(time.ticks_ms(), started)
            if spent < period:
                time.sleep_ms(period - spent)
        return "stopped"

    def enter_maintenance(self):
        # type: () -> None
        """Reboot into the REPL: leave the flag file, then reset the chip.

        Once started, the RP2040 watchdog cannot be stopped, and a timer feeding it would
        not survive the soft reset mpremote does; a hardware reset is the one clean way out.
        The next boot finds the flag, deletes it and stays out of the way (see ``start``).
        """
        try:
            with open(MAINTENANCE_FLAG, "w") as handle:
                handle.write("mpremote\n")
        except OSError:
            pass
        self.serial.write(b"\r\nriskboard firmware: rebooting into the REPL for mpremote; "
                          b"repeat the mpremote command\r\n")
        machine.reset()


def maintenance_requested():
    # type: () -> bool
    """True (once) when the last run rebooted for mpremote: the flag file is consumed."""
    try:
        os.remove(MAINTENANCE_FLAG)
    except OSError:
        return False
    return True


def boot_blink(pin, times=3, on_ms=80, off_ms=120):
    # type: (object, int, int, int) -> None
    """The on-board LED blinks ``times`` times: the firmware has started."""
    for _ in range(times):
        pin.value(1)
        time.sleep_ms(on_ms)
        pin.value(0)
        time.sleep_ms(off_ms)


def safe_mode(config):
    # type: (board_config.BoardConfig) -> bool
    """True when the safe-mode jumper grounds ``safe_mode_pin`` (skip the firmware)."""
    if config.safe_mode_pin is None:
        return False
    pin = machine.Pin(config.safe_mode_pin, machine.Pin.IN, machine.Pin.PULL_UP)
    return pin.value() == 0


def ctrl_c(enabled):
    # type: (bool) -> None
    """Let Ctrl-C (0x03) interrupt the firmware, or make it an ordinary byte."""
    if micropython is not None:
        micropython.kbd_intr(3 if enabled else -1)


def start(config=None, serial=None, max_steps=None):
    # type: (Optional[board_config.BoardConfig], Optional[UsbSerial], Optional[int]) -> str
    """Boot and run the firmware; returns "safe_mode", "maintenance" or "stopped".

    Ctrl-C goes off first of all: the Pi sends HELLO frames while the Pico boots, and a
    0x03 among them must not drop into the REPL with no watchdog running. Only the
    maintenance and safe-mode paths (and a broken board config) give it back. The
    watchdog starts before the readers are set up, as that is where a wiring fault hangs.
    """
    ctrl_c(False)
    led = config.status_led if config is not None else "LED"
    boot_blink(machine.Pin(led, machine.Pin.OUT, value=0))
    if config is None:
        try:
            config = board_config.selected()  # a ConfigError leaves its traceback in the REPL
        except Exception:
            ctrl_c(True)
            raise
    if maintenance_requested():
        ctrl_c(True)
        return "maintenance"  # no watchdog, Ctrl-C on: the REPL is mpremote's
    if safe_mode(config):
        ctrl_c(True)
        return "safe_mode"
    wdt = machine.WDT(timeout=config.watchdog_ms)
    firmware = Firmware(config, serial if serial is not None else UsbSerial(), wdt)
    reason = firmware.run(max_steps)
    if reason == "maintenance":
        firmware.enter_maintenance()
    return reason


if __name__ == "__main__":  # pragma: no cover - the Pico runs main.py at boot
    start()
