"""main.py end to end on the fake Pico: USB serial in and out, buttons, NFC, LEDs, watchdog,
safe mode and the mpremote maintenance escape. The host side decodes with protocol.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_bridge import messages as M
from firmware_bridge import protocol as P
from firmware_bridge.firmware.fakes import FakePico
from firmware_bridge.firmware.fakes.devices import (
    Mcp23017,
    Mfrc522,
    Pn532,
    ShiftRegisterChain165,
    Tag,
    Tca9548a,
)

MPREMOTE_ENTER_RAW_REPL = b"\r\x03\r\x01"


class Host:
    """The Pi's end of the USB serial port, speaking protocol.py."""

    def __init__(self, pico: FakePico) -> None:
        self.usb = pico.usb
        self.decoder = P.FrameDecoder()
        self.seq = 0
        self.received: list[tuple[int, int, bytes]] = []

    def send(self, msg_type: int, payload: bytes = b"") -> None:
        self.seq += 1
        self.usb.host_send(P.encode_frame(msg_type, self.seq, payload))

    def read(self) -> list[tuple[int, int, bytes]]:
        frames = self.decoder.feed(self.usb.take_output())
        self.received.extend(frames)
        return frames

    def of_type(self, msg_type: int) -> list[bytes]:
        self.read()
        return [payload for kind, _, payload in self.received if kind == msg_type]

    def events(self) -> list[tuple[int, int, bytes]]:
        """(channel, kind, uid) of each distinct event, in seq order (retransmits once)."""
        by_seq = {}
        for payload in self.of_type(P.MSG_EVENT):
            event = M.EVENT.decode(payload)
            by_seq[event.seq] = (event.channel, event.kind, event.uid)
        return [by_seq[seq] for seq in sorted(by_seq)]


def classic_chain(pico: FakePico) -> ShiftRegisterChain165:
    return ShiftRegisterChain165(pico.world, load=2, clock=3, data=4, chips=6)


def connected_firmware(pico: FakePico, config: object | None = None) -> tuple[object, Host]:
    """A Firmware on the fake USB port after the host's HELLO and REPLAY_REQ."""
    main = pico.main
    config = config or pico.board_config.classic_42_buttons()
    main.ctrl_c(False)  # as start() does first: 0x03 is a byte of the frames
    firmware = main.Firmware(config, main.UsbSerial(pico.usb.stdin, pico.usb.stdout))
    host = Host(pico)
    host.send(P.MSG_HELLO, M.HELLO.encode(P.PROTOCOL_VERSION, 77))
    firmware.run(max_steps=firmware.steps + 2)
    epoch = M.IDENTIFY.decode(host.of_type(P.MSG_IDENTIFY)[-1]).epoch
    host.send(P.MSG_REPLAY_REQ, M.REPLAY_REQ.encode(epoch, 0))
    firmware.run(max_steps=firmware.steps + 2)
    return firmware, host


def run_ms(pico: FakePico, firmware: object, ms: int) -> None:
    """Run the loop for about ``ms`` fake milliseconds (1 ms per pass)."""
    end = pico.world.now + ms
    while pico.world.now < end:
        firmware.run(max_steps=firmware.steps + 1)


def test_button_press_on_channel_7_and_an_led_frame_run_through_main(pico: FakePico) -> None:
    chain = classic_chain(pico)
    host = Host(pico)
    # The host says HELLO, asks for every event (an unknown epoch means "from the start")
    # and sends a 2-pixel LED frame, all before the loop starts.
    host.send(P.MSG_HELLO, M.HELLO.encode(P.PROTOCOL_VERSION, 1))
    host.send(P.MSG_REPLAY_REQ, M.REPLAY_REQ.encode(0, 0))
    for chunk in M.led_chunks(5, bytes([255, 0, 0, 0, 0, 255])):
        host.send(P.MSG_LED_FRAME, chunk)
    chain.press(7)

    assert pico.main.start(serial=pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout),
                           max_steps=60) == "stopped"

    assert host.events() == [(7, P.PRESS, b"")]
    words = pico.world.state_machines[0].words
    # The first 135 words are the "all off" written at boot; then the frame in GRB order,
    # and the pixels the frame did not cover switched off.
    assert words[135:137] == [0x00FF0000, 0x0000FF00]
    assert words[137:] == [0] * 133


def test_identify_reports_sensor_count_crc_and_board(pico: FakePico) -> None:
    config = pico.board_config.classic_42_buttons()
    _, host = connected_firmware(pico, config)
    identify = M.IDENTIFY.decode(host.of_type(P.MSG_IDENTIFY)[-1])
    assert identify.sensor_count == 42
    assert identify.profile_crc == config.sensor_crc()
    assert identify.board_id == "classic-42"
    assert identify.fw_version == (1, 0, 0)


def test_press_and_release_are_reported_after_the_debounce(pico: FakePico) -> None:
    chain = classic_chain(pico)
    firmware, host = connected_firmware(pico)
    chain.press(12)
    run_ms(pico, firmware, 15)
    assert host.events() == []
    run_ms(pico, firmware, 10)
    assert host.events() == [(12, P.PRESS, b"")]
    chain.release(12)
    run_ms(pico, firmware, 25)
    assert host.events() == [(12, P.PRESS, b""), (12, P.RELEASE, b"")]


def test_a_tap_shorter_than_the_debounce_is_not_reported(pico: FakePico) -> None:
    chain = classic_chain(pico)
    firmware, host = connected_firmware(pico)
    chain.press(3)
    run_ms(pico, firmware, 8)
    chain.release(3)
    run_ms(pico, firmware, 50)
    assert host.events() == []


def test_nfc_board_reports_tag_arrival_with_uid_and_removal(pico: FakePico) -> None:
    bus = pico.world.i2c_bus(1)
    chips = []
    for k in range(6):
        mux = bus.attach(Tca9548a(), 0x70 + k)
        chips.extend(mux.attach(port, Pn532(pico.world), 0x24) for port in range(8))
    config = pico.board_config.classic_42_nfc()
    firmware, host = connected_firmware(pico, config)
    assert all(chip.configured for chip in chips[:42])
    uid = bytes.fromhex("04a1b2c3d4e5f6")
    chips[19].place(Tag(uid))
    run_ms(pico, firmware, 42 * 6)  # one round of all readers at ~5 ms each
    assert host.events() == [(19, P.TAG_PRESENT, uid)]
    chips[19].remove()
    run_ms(pico, firmware, 42 * 6 * 4)  # three missed rounds and then some
    assert host.events() == [(19, P.TAG_PRESENT, uid), (19, P.TAG_REMOVED, b"")]


def test_mixed_board_of_buttons_pn532_and_mfrc522_reports_each_kind(pico: FakePico) -> None:
    chain = ShiftRegisterChain165(pico.world, load=2, clock=3, data=4, chips=1)
    mux = pico.world.i2c_bus(1).attach(Tca9548a(), 0x70)
    pn532 = mux.attach(4, Pn532(pico.world), 0x24)
    mfrc522 = pico.world.spi_bus(0).attach(Mfrc522(), 17)
    config = pico.board_config.BoardConfig(
        4, buttons={"driver": "74hc165", "load": 2, "clock": 3, "data": 4, "chips": 1,
                    "map": ((0, 6), (1, 7))},
        nfc={"i2c": 1, "spi": {"id": 0, "sck": 18, "mosi": 19, "miso": 16},
             "readers": ((2, "pn532", 0x70, 4), (3, "mfrc522", 17))},
        i2c_buses=pico.board_config.I2C_BUS, led_pin=None)
    firmware, host = connected_firmware(pico, config)
    chain.press(7)
    pn532.place(Tag(bytes.fromhex("a1b2c3d4")))
    mfrc522.place(Tag(bytes.fromhex("04112233445566")))
    run_ms(pico, firmware, 40)
    assert sorted(host.events()) == [(1, P.PRESS, b""),
                                     (2, P.TAG_PRESENT, bytes.fromhex("a1b2c3d4")),
                                     (3, P.TAG_PRESENT, bytes.fromhex("04112233445566"))]


def test_state_dump_says_no_tag_for_readers_and_released_for_buttons(pico: FakePico) -> None:
    ShiftRegisterChain165(pico.world, load=2, clock=3, data=4, chips=1)
    mux = pico.world.i2c_bus(1).attach(Tca9548a(), 0x70)
    mux.attach(0, Pn532(pico.world), 0x24)
    config = pico.board_config.BoardConfig(
        2, buttons={"driver": "74hc165", "load": 2, "clock": 3, "data": 4, "chips": 1,
                    "map": ((0, 0),)},
        nfc={"i2c": 1, "readers": ((1, "pn532", 0x70, 0),)},
        i2c_buses=pico.board_config.I2C_BUS, led_pin=None)
    firmware, host = connected_firmware(pico, config)
    host.send(P.MSG_STATE_REQ)
    run_ms(pico, firmware, 2)
    entries = M.STATE_DUMP.decode(host.of_type(P.MSG_STATE_DUMP)[-1]).entries
    assert entries == [(0, P.RELEASE, b""), (1, P.TAG_REMOVED, b"")]


def test_a_hello_with_ctrl_c_bytes_during_boot_does_not_reach_the_repl(
        pico: FakePico) -> None:
    classic_chain(pico)
    host = Host(pico)
    # The Pi keeps saying HELLO while the Pico boots; this nonce holds 0x03 bytes.
    hello = M.HELLO.encode(P.PROTOCOL_VERSION, 0x03030303)
    host.usb.host_send(P.encode_frame(P.MSG_HELLO, 3, hello))
    assert 0x03 in P.encode_frame(P.MSG_HELLO, 3, hello)
    try:
        result = pico.main.start(serial=pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout),
                                 max_steps=20)
    except KeyboardInterrupt:  # caught here: left alone it would end the whole test run
        pytest.fail("a 0x03 in the HELLO interrupted the boot: the Pico sits in the REPL")
    assert result == "stopped"
    assert pico.usb.interrupts == 0
    assert M.IDENTIFY.decode(host.of_type(P.MSG_IDENTIFY)[-1]).nonce == 0x03030303


def test_ctrl_c_interrupts_a_firmware_that_did_not_turn_it_off(pico: FakePico) -> None:
    # The fake's USB stack behaves like MicroPython's: this is what the boot order avoids.
    firmware = pico.main.Firmware(pico.board_config.classic_42_buttons(),
                                  pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout))
    pico.main.ctrl_c(True)  # importing main.py turned it off
    pico.usb.host_send(b"\x03")
    with pytest.raises(KeyboardInterrupt):
        firmware.run(max_steps=firmware.steps + 1)


def test_the_watchdog_runs_before_the_readers_are_set_up(pico: FakePico) -> None:
    feeds_at_setup = []
    config = pico.board_config.BoardConfig(
        2, nfc={"i2c": 1, "readers": ((0, "pn532", 0x70, 0), (1, "pn532", 0x70, 1))},
        i2c_buses=pico.board_config.I2C_BUS, led_pin=None)
    real_begin = pico.nfc.Pn532Reader.begin

    def begin(reader: object) -> None:
        feeds_at_setup.append(pico.world.wdt)
        real_begin(reader)

    pico.nfc.Pn532Reader.begin = begin
    try:
        pico.main.start(config, serial=pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout),
                        max_steps=1)
    finally:
        pico.nfc.Pn532Reader.begin = real_begin
    assert len(feeds_at_setup) == 2 and all(wdt is not None for wdt in feeds_at_setup)
    assert not pico.world.wdt.expired()


def test_a_missing_mux_is_reported_and_the_pico_keeps_running(pico: FakePico) -> None:
    # No TCA9548A on the bus at all: every PN532 behind it is unreachable.
    classic_chain(pico)
    config = pico.board_config.BoardConfig(
        2, nfc={"i2c": 1, "readers": ((0, "pn532", 0x70, 0), (1, "pn532", 0x70, 1))},
        i2c_buses=pico.board_config.I2C_BUS, led_pin=None)
    firmware, host = connected_firmware(pico, config)
    logs = [M.LOG.decode(p).line for p in host.of_type(P.MSG_LOG)]
    assert any("event=nfc.mux_missing addresses=0x70" in line for line in logs)
    run_ms(pico, firmware, 100)
    mux = pico.world.i2c_bus(1).attach(Tca9548a(), 0x70)  # wired back in
    chip = mux.attach(1, Pn532(pico.world), 0x24)
    chip.configured = True  # as if set up by hand; begin() ran while it was absent
    chip.place(Tag(bytes.fromhex("a1b2c3d4")))
    run_ms(pico, firmware, 200)
    assert (1, P.TAG_PRESENT, bytes.fromhex("a1b2c3d4")) in host.events()


def test_setup_faults_are_resent_after_every_hello(pico: FakePico) -> None:
    config = pico.board_config.BoardConfig(
        2, nfc={"i2c": 1, "readers": ((0, "pn532", 0x70, 0), (1, "pn532", 0x70, 1))},
        i2c_buses=pico.board_config.I2C_BUS, led_pin=None)
    mux = pico.world.i2c_bus(1).attach(Tca9548a(), 0x70)
    mux.attach(0, Pn532(pico.world), 0x24)
    firmware, host = connected_firmware(pico, config)  # boot log + the first HELLO
    host.read()
    host.received.clear()
    for nonce in (5, 6):  # the Pi service restarts twice
        host.send(P.MSG_HELLO, M.HELLO.encode(P.PROTOCOL_VERSION, nonce))
        run_ms(pico, firmware, 3)
    logs = [M.LOG.decode(p) for p in host.of_type(P.MSG_LOG)]
    setup = [text for level, text in logs
             if level == P.LOG_ERROR and "event=nfc.setup channel=1 model=pn532" in text]
    assert len(setup) == 2


def test_garbage_from_a_reader_is_a_reader_fault_not_a_reset(pico: FakePico) -> None:
    class Garbled:
        channel = 1
        model = "pn532"
        errors = 0

        def begin(self) -> None:
            pass

        def poll_step(self, now_ms: int) -> bytes:
            return b"\x01" * 11  # no type A UID is 11 bytes long

    class Crashing(Garbled):
        channel = 0

        def poll_step(self, now_ms: int) -> bytes:
            return b"\x01\x02"[5]  # an IndexError, as a garbled frame once caused

    classic_chain(pico)
    firmware, host = connected_firmware(pico)
    readers = [Crashing(), Garbled()]
    firmware.nfc = pico.nfc.NfcPoller(readers, 3, firmware._on_tag, 2,
                                      firmware._on_reader_error)
    run_ms(pico, firmware, 50)  # would raise out of step() without the per-reader guard
    assert readers[0].errors > 0 and readers[1].errors > 0
    assert firmware.nfc.faults == readers[0].errors + readers[1].errors
    assert host.events() == []
    errors = [M.ERROR.decode(p) for p in host.of_type(P.MSG_ERROR)]
    assert errors and errors[0].code == P.ERR_SENSOR


def test_missing_nfc_reader_is_logged_to_the_host_at_boot(pico: FakePico) -> None:
    bus = pico.world.i2c_bus(1)
    mux = bus.attach(Tca9548a(), 0x70)
    mux.attach(0, Pn532(pico.world), 0x24)
    config = pico.board_config.BoardConfig(
        2, nfc={"i2c": 1, "readers": ((0, "pn532", 0x70, 0), (1, "pn532", 0x70, 1))},
        i2c_buses=pico.board_config.I2C_BUS, led_pin=None)
    main = pico.main
    firmware = main.Firmware(config, main.UsbSerial(pico.usb.stdin, pico.usb.stdout))
    host = Host(pico)
    logs = [M.LOG.decode(p) for p in host.of_type(P.MSG_LOG)]
    assert len(logs) == 1
    assert logs[0].level == P.LOG_ERROR
    assert "event=nfc.setup channel=1 model=pn532" in logs[0].line
    assert firmware.nfc is not None


def test_a_dead_expander_is_reported_as_a_sensor_fault_and_scanning_goes_on(
        pico: FakePico) -> None:
    config = pico.board_config.BoardConfig(
        16, buttons={"driver": "mcp23017", "i2c": 1, "addresses": (0x20,),
                     "map": tuple((ch, ch) for ch in range(16))},
        i2c_buses=pico.board_config.I2C_BUS, led_pin=None)
    firmware, host = connected_firmware(pico, config)
    run_ms(pico, firmware, 30)
    errors = [M.ERROR.decode(p) for p in host.of_type(P.MSG_ERROR)]
    assert errors and errors[0].code == P.ERR_SENSOR
    expander = pico.world.i2c_bus(1).attach(Mcp23017(), 0x20)  # plugged back in
    expander.press(9)
    run_ms(pico, firmware, 30)
    assert host.events() == [(9, P.PRESS, b"")]


def test_watchdog_is_fed_every_pass_and_would_bite_if_the_loop_stopped(pico: FakePico) -> None:
    classic_chain(pico)
    serial = pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout)
    pico.main.start(serial=serial, max_steps=3000)
    wdt = pico.world.wdt
    assert wdt.timeout == 5000
    assert len(wdt.feeds) == 3000
    assert not wdt.expired()
    pico.advance(5001)  # the loop is gone: nobody feeds it any more
    assert wdt.expired()


def test_ctrl_c_is_an_ordinary_byte_while_the_firmware_runs(pico: FakePico) -> None:
    classic_chain(pico)
    pico.main.start(serial=pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout), max_steps=5)
    assert pico.world.kbd_intr == -1


def test_status_led_blinks_at_boot_then_every_half_second(pico: FakePico) -> None:
    classic_chain(pico)
    led = pico.world.pin("LED")
    pico.main.start(serial=pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout), max_steps=1)
    assert led.changes == 6  # three blinks: on, off, on, off, on, off
    pico.main.start(serial=pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout),
                    max_steps=2100)
    assert led.changes == 12 + 4  # two boots, then a toggle every 500 ms over ~2.1 s


def test_safe_mode_jumper_skips_the_firmware(pico: FakePico) -> None:
    pico.world.set_input(15, 0)
    assert pico.main.start(serial=pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout),
                           max_steps=10) == "safe_mode"
    assert pico.world.wdt is None
    assert pico.world.kbd_intr == 3


def test_mpremote_raw_repl_request_reboots_into_the_repl_once(
        pico: FakePico, tmp_path: Path) -> None:
    classic_chain(pico)
    pico.advance(2000)
    pico.usb.host_send(MPREMOTE_ENTER_RAW_REPL)
    with pytest.raises(SystemExit):
        pico.main.start(serial=pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout),
                        max_steps=5000)
    assert pico.world.resets == 1
    assert (tmp_path / "maintenance.flag").exists()
    assert b"rebooting into the REPL" in pico.usb.take_output()

    # The boot after the reset: no watchdog, Ctrl-C on, the flag consumed.
    serial = pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout)
    assert pico.main.start(serial=serial, max_steps=100) == "maintenance"
    assert pico.world.wdt is None
    assert pico.world.kbd_intr == 3
    assert not (tmp_path / "maintenance.flag").exists()

    # The boot after that runs the firmware again.
    assert pico.main.start(serial=serial, max_steps=100) == "stopped"
    assert pico.world.wdt is not None


def test_old_mpremote_double_ctrl_c_also_opens_the_repl(pico: FakePico) -> None:
    classic_chain(pico)
    firmware, _ = connected_firmware(pico)
    pico.advance(1500)
    pico.usb.host_send(b"\r\x03\x03\r\x01")
    assert firmware.run(max_steps=firmware.steps + 100) == "maintenance"
    assert pico.world.resets == 0  # run() only reports it; start() reboots


def test_raw_repl_bytes_amid_live_host_traffic_are_ignored(pico: FakePico) -> None:
    classic_chain(pico)
    firmware, host = connected_firmware(pico)
    pico.usb.host_send(MPREMOTE_ENTER_RAW_REPL)  # e.g. inside a garbled frame
    assert firmware.run(max_steps=firmware.steps + 100) == "stopped"
    host.send(P.MSG_PING, P.pack_token(9))
    run_ms(pico, firmware, 5)
    assert firmware.core.connected


def ms_until_maintenance(pico: FakePico, firmware: object, within_ms: int) -> int | None:
    """Run the loop until it asks for the REPL; the fake milliseconds that took (None: not
    within ``within_ms``)."""
    start = pico.world.now
    while pico.world.now - start < within_ms:
        if firmware.run(max_steps=firmware.steps + 1) == "maintenance":
            return pico.world.now - start
    return None


def test_raw_repl_request_right_after_the_pis_last_frame_counts_once_the_pi_is_gone(
        pico: FakePico) -> None:
    # `systemctl stop riskboard && mpremote ...`: the service's last frame (its dark LED
    # frame) came a moment before mpremote's request. The Pi then stays silent, as a
    # stopped service does: after PI_GONE_AFTER_ESCAPE_MS the request counts.
    classic_chain(pico)
    firmware, host = connected_firmware(pico)
    host.send(P.MSG_PING, P.pack_token(5))
    run_ms(pico, firmware, 200)  # mpremote starting up: well under a second
    pico.usb.host_send(MPREMOTE_ENTER_RAW_REPL)
    took = ms_until_maintenance(pico, firmware, 5000)
    assert took is not None, "the request was never honoured"
    assert pico.main.PI_GONE_AFTER_ESCAPE_MS <= took <= pico.main.PI_GONE_AFTER_ESCAPE_MS + 50


def test_raw_repl_bytes_amid_a_running_pis_keep_alives_never_count(pico: FakePico) -> None:
    # the same bytes just after a frame, while the Pi goes on sending its keep-alive (a
    # frame at least every second): never mpremote's request
    classic_chain(pico)
    firmware, host = connected_firmware(pico)
    pico.usb.host_send(MPREMOTE_ENTER_RAW_REPL)
    for token in range(10):
        assert ms_until_maintenance(pico, firmware, 900) is None
        host.send(P.MSG_PING, P.pack_token(token))
    assert firmware.core.connected


def test_raw_repl_bytes_followed_by_more_data_are_ignored(pico: FakePico) -> None:
    classic_chain(pico)
    firmware, _ = connected_firmware(pico)
    pico.advance(1500)
    pico.usb.host_send(MPREMOTE_ENTER_RAW_REPL + b"\x07")
    assert firmware.run(max_steps=firmware.steps + 100) == "stopped"


def test_usb_serial_returns_nothing_at_once_when_the_host_is_silent(pico: FakePico) -> None:
    serial = pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout)
    assert serial.read_available() == b""


def test_usb_serial_hands_over_every_byte_in_limited_chunks(pico: FakePico) -> None:
    pico.main.ctrl_c(False)
    serial = pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout, limit=4)
    pico.usb.host_send(bytes(range(10)))
    chunks = [serial.read_available() for _ in range(4)]
    assert chunks == [bytes([0, 1, 2, 3]), bytes([4, 5, 6, 7]), bytes([8, 9]), b""]


def test_a_hello_with_ctrl_c_bytes_while_main_py_imports_does_not_reach_the_repl(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 20: on real MicroPython the Pi's HELLO (nonce with 0x03 bytes) arrived while
    # main.py was still importing its modules, before start() turned Ctrl-C off, and the
    # Pico stayed in the REPL. The fake USB stack takes the bytes at each import main.py runs.
    from firmware_bridge.firmware import fakes

    monkeypatch.chdir(tmp_path)
    hello = P.encode_frame(P.MSG_HELLO, 1, M.HELLO.encode(P.PROTOCOL_VERSION, 0x03030303))
    assert 0x03 in hello
    try:
        pico = fakes.install(boot_input=hello)
    except KeyboardInterrupt:  # caught here: left alone it would end the whole test run
        pytest.fail("a 0x03 while main.py imported interrupted the boot: the Pico sits "
                    "in the REPL")
    try:
        classic_chain(pico)
        # The fake takes the bytes at main.py's very first import, before kbd_intr(-1)
        # (on a Pico the instant is shorter): that HELLO may be lost, never the boot.
        assert pico.world.kbd_intr == -1  # off from main.py's first lines on
        host = Host(pico)
        host.send(P.MSG_HELLO, M.HELLO.encode(P.PROTOCOL_VERSION, 0x03030303))
        result = pico.main.start(serial=pico.main.UsbSerial(pico.usb.stdin, pico.usb.stdout),
                                 max_steps=20)
        assert result == "stopped"
        assert M.IDENTIFY.decode(host.of_type(P.MSG_IDENTIFY)[-1]).nonce == 0x03030303
    finally:
        pico.uninstall()
