"""Pico firmware scan costs, measured by running the real firmware on the fake Pico.

Prints what carries over to the RP2040 (counts of pin operations and I2C traffic per scan,
latencies on the simulated millisecond clock, which the firmware paces itself by) and, for
reference only, CPython wall time per main-loop pass on the fakes (not a Pico figure).

- buttons: pin operations per 42-button 74HC165 scan; press -> EVENT frame latency.
- NFC: I2C transactions and bytes per PN532 poll; one round (42 completed polls, the
  readers working concurrently) and the tag-removal latency (``nfc_removal_misses``
  polls of that reader), with the fake PN532 answering 1 ms (ACK) + 3 ms (answer) after
  each command.

Every line ends OK or MISS against its aim: a scan of 48 bits costs at most a load pulse
and three pin operations per bit; a press reaches the Pi within debounce + 5 ms; a PN532
poll takes at most 10 I2C transactions; a round of 42 readers under 100 ms; a removed tag
is reported within (misses + 1) rounds; the CPython pass on fakes under 5 ms (a guard
against a hot spot, not a Pico figure).

Run: ``.venv/bin/python -m bench.firmware_scan [--passes 5000]``.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from firmware_bridge import messages as M
from firmware_bridge import protocol as P
from firmware_bridge.firmware import fakes
from firmware_bridge.firmware.fakes.devices import Pn532, ShiftRegisterChain165, Tag, Tca9548a


def verdict(ok: bool) -> str:
    """OK when the aim is met, else MISS."""
    return "OK" if ok else "MISS"


class Counting:
    """Wraps a Pin or I2C object and counts its calls and the bytes of its buffers
    (written or read into)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls = 0
        self.bytes = 0

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)

        def counted(*args: Any) -> Any:
            self.calls += 1
            for arg in args:
                if isinstance(arg, bytes | bytearray):
                    self.bytes += len(arg)
            return attr(*args)

        return counted


def _host(pico: fakes.FakePico) -> P.FrameDecoder:
    pico.usb.host_send(P.encode_frame(P.MSG_HELLO, 1, M.HELLO.encode(P.PROTOCOL_VERSION, 1)))
    pico.usb.host_send(P.encode_frame(P.MSG_REPLAY_REQ, 2, M.REPLAY_REQ.encode(0, 0)))
    return P.FrameDecoder()


def bench_buttons(passes: int) -> None:
    """Pin operations per scan, press latency, CPython time per pass."""
    pico = fakes.install()
    try:
        Pin = pico.main.machine.Pin
        chain = ShiftRegisterChain165(pico.world, load=2, clock=3, data=4, chips=6)
        pins = [Counting(Pin(2, Pin.OUT)), Counting(Pin(3, Pin.OUT)), Counting(Pin(4, Pin.IN))]
        bank = pico.sensors.ShiftRegisterChain(*pins, 6)
        for pin in pins:
            pin.calls = 0
        bank.read_into(bytearray(48))
        ops = sum(p.calls for p in pins)
        print(f"buttons.pin_ops_per_scan={ops} (6 x 74HC165, 48 bits; aim <= {2 + 3 * 48}) "
              f"{verdict(ops <= 2 + 3 * 48)}")

        config = pico.board_config.classic_42_buttons()
        decoder = _host(pico)
        pico.main.ctrl_c(False)  # as start() does: 0x03 is a byte of the host's frames
        firmware = pico.main.Firmware(config, pico.main.UsbSerial(pico.usb.stdin,
                                                                  pico.usb.stdout))
        firmware.run(max_steps=5)
        decoder.feed(pico.usb.take_output())
        chain.press(7)
        pressed_at = pico.world.now
        latency = None
        while latency is None and pico.world.now - pressed_at < 1000:
            firmware.run(max_steps=firmware.steps + 1)
            for msg_type, _, _ in decoder.feed(pico.usb.take_output()):
                if msg_type == P.MSG_EVENT:
                    latency = pico.world.now - pressed_at
        aim = config.debounce_ms + 5
        print(f"buttons.press_to_event_ms={latency} (debounce_ms={config.debounce_ms}; "
              f"aim <= {aim}) {verdict(latency is not None and latency <= aim)}")

        start = time.perf_counter()
        firmware.run(max_steps=firmware.steps + passes)
        per_pass = (time.perf_counter() - start) / passes * 1e6
        print(f"buttons.cpython_us_per_loop_pass={per_pass:.1f} (fakes, not a Pico figure; "
              f"aim < 5000) {verdict(per_pass < 5000)}")
    finally:
        pico.uninstall()


def bench_nfc() -> None:
    """I2C traffic per PN532 poll, round time for 42 readers, removal latency."""
    pico = fakes.install()
    try:
        bus = pico.world.i2c_bus(1)
        chips = []
        for k in range(6):
            mux = bus.attach(Tca9548a(), 0x70 + k)
            chips.extend(mux.attach(port, Pn532(pico.world), 0x24) for port in range(8))
        i2c = Counting(pico.main.machine.I2C(1))
        reader = pico.nfc.Pn532Reader(0, i2c, pico.nfc.MuxSet(i2c, (0x70,)), 0x70, 0)
        i2c.calls = i2c.bytes = 0
        while reader.poll_step(pico.world.ticks_ms()) is None:
            pico.advance(1)
        print(f"nfc.pn532_i2c_calls_per_poll={i2c.calls} bytes_moved={i2c.bytes} "
              f"(mux select, command, status polls, ACK and answer reads; aim <= 10) "
              f"{verdict(i2c.calls <= 10)}")

        config = pico.board_config.classic_42_nfc()
        decoder = _host(pico)
        pico.main.ctrl_c(False)  # as start() does: 0x03 is a byte of the host's frames
        firmware = pico.main.Firmware(config, pico.main.UsbSerial(pico.usb.stdin,
                                                                  pico.usb.stdout))
        firmware.run(max_steps=firmware.steps + 5)
        polls = firmware.nfc.polls
        start = pico.world.now
        while firmware.nfc.polls < polls + 42:
            firmware.run(max_steps=firmware.steps + 1)
        round_ms = pico.world.now - start
        print(f"nfc.round_ms_42_readers={round_ms} (aim < 100) {verdict(round_ms < 100)}")

        chips[5].place(Tag(bytes.fromhex("04a1b2c3d4e5f6")))
        firmware.run(max_steps=firmware.steps + 3 * round_ms)
        decoder.feed(pico.usb.take_output())
        chips[5].remove()
        removed_at = pico.world.now
        latency = None
        while latency is None and pico.world.now - removed_at < 10_000:
            firmware.run(max_steps=firmware.steps + 1)
            for msg_type, _, payload in decoder.feed(pico.usb.take_output()):
                if msg_type == P.MSG_EVENT and M.EVENT.decode(payload).kind == P.TAG_REMOVED:
                    latency = pico.world.now - removed_at
        aim = (config.nfc_removal_misses + 1) * round_ms
        print(f"nfc.tag_removed_latency_ms={latency} "
              f"(nfc_removal_misses={config.nfc_removal_misses}; aim <= {aim}) "
              f"{verdict(latency is not None and latency <= aim)}")
    finally:
        pico.uninstall()


def main(argv: list[str] | None = None) -> None:
    """Run both benchmarks and print one ``name=value`` line per figure."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--passes", type=int, default=5000)
    args = parser.parse_args(argv or [])
    bench_buttons(args.passes)
    bench_nfc()


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
