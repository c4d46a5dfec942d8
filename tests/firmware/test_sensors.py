"""Button scanning: 74HC165 chain and MCP23017 reading, per-channel debouncing, bit mapping."""

from __future__ import annotations

from firmware_bridge.firmware.fakes import FakePico
from firmware_bridge.firmware.fakes.devices import Mcp23017, ShiftRegisterChain165
from firmware_bridge.firmware.fakes.world import TICKS_PERIOD


def make_chain(pico: FakePico, chips: int = 2) -> tuple[object, ShiftRegisterChain165]:
    fake = ShiftRegisterChain165(pico.world, load=2, clock=3, data=4, chips=chips)
    Pin = pico.firmware["main"].machine.Pin
    chain = pico.sensors.ShiftRegisterChain(Pin(2, Pin.OUT), Pin(3, Pin.OUT), Pin(4, Pin.IN),
                                            chips)
    return chain, fake


def test_shift_register_chain_reads_each_input_at_its_bit_index(pico: FakePico) -> None:
    chain, fake = make_chain(pico, chips=2)
    fake.press(7)
    fake.press(12)
    levels = bytearray(16)
    chain.read_into(levels)
    assert [i for i, level in enumerate(levels) if level == 0] == [7, 12]


def test_shift_register_chain_latches_once_per_read(pico: FakePico) -> None:
    chain, fake = make_chain(pico, chips=1)
    levels = bytearray(8)
    chain.read_into(levels)
    chain.read_into(levels)
    assert fake.loads == 2


def test_mcp23017_enables_pull_ups_so_idle_buttons_read_high(pico: FakePico) -> None:
    expander = pico.world.i2c_bus(1).attach(Mcp23017(), 0x20)
    second = pico.world.i2c_bus(1).attach(Mcp23017(), 0x21)
    i2c = pico.firmware["main"].machine.I2C(1)
    bank = pico.sensors.Mcp23017Bank(i2c, (0x20, 0x21))
    expander.press(9)  # GPB1 of the first chip
    second.press(0)  # GPA0 of the second chip: bit 16
    levels = bytearray(32)
    bank.read_into(levels)
    assert [i for i, level in enumerate(levels) if level == 0] == [9, 16]


def test_debouncer_reports_a_level_held_for_the_whole_delay_exactly_once(pico: FakePico) -> None:
    debouncer = pico.sensors.Debouncer(1, debounce_ms=20)
    changes = [t for t in range(0, 40) if debouncer.update(0, 1, t)]
    assert changes == [20]
    assert debouncer.level(0) == 1


def test_debouncer_ignores_bounces_shorter_than_the_delay(pico: FakePico) -> None:
    debouncer = pico.sensors.Debouncer(1, debounce_ms=20)
    # Contact chatter: 1 for 5 ms, 0 for 3 ms, repeated for 60 ms; never 20 ms steady.
    samples = [(t, 1 if t % 8 < 5 else 0) for t in range(60)]
    assert not any(debouncer.update(0, level, t) for t, level in samples)
    assert debouncer.level(0) == 0


def test_debouncer_restarts_the_wait_after_a_bounce(pico: FakePico) -> None:
    debouncer = pico.sensors.Debouncer(1, debounce_ms=20)
    debouncer.update(0, 1, 0)
    debouncer.update(0, 0, 10)  # bounce back at 10 ms
    assert not debouncer.update(0, 1, 15)
    assert not debouncer.update(0, 1, 34)
    assert debouncer.update(0, 1, 35)  # 20 ms after the level came back at 15 ms


def test_debouncer_keeps_channels_independent(pico: FakePico) -> None:
    debouncer = pico.sensors.Debouncer(2, debounce_ms=20)
    debouncer.update(0, 1, 0)
    debouncer.update(1, 1, 10)
    assert debouncer.update(0, 1, 20)
    assert not debouncer.update(1, 1, 20)
    assert debouncer.update(1, 1, 30)


def test_debouncer_survives_the_tick_counter_wrapping(pico: FakePico) -> None:
    debouncer = pico.sensors.Debouncer(1, debounce_ms=20)
    start = TICKS_PERIOD - 10  # ticks_ms wraps to 0 ten ms later
    assert not debouncer.update(0, 1, start)
    assert not debouncer.update(0, 1, 5)  # 15 ms later, after the wrap
    assert debouncer.update(0, 1, 10)  # 20 ms later


def test_debounce_of_zero_reports_at_once(pico: FakePico) -> None:
    debouncer = pico.sensors.Debouncer(1, debounce_ms=0)
    assert debouncer.update(0, 1, 100)


def test_scanner_maps_bits_to_channels_and_reports_press_then_release(pico: FakePico) -> None:
    chain, fake = make_chain(pico, chips=1)
    seen: list[tuple[int, bool]] = []
    scanner = pico.sensors.ButtonScanner(chain, ((30, 2), (31, 5)), 20,
                                         lambda ch, pressed: seen.append((ch, pressed)))
    fake.press(5)
    for t in range(0, 25):
        scanner.scan(t)
    assert seen == [(31, True)]
    assert scanner.pressed(31) and not scanner.pressed(30)
    fake.release(5)
    for t in range(25, 50):
        scanner.scan(t)
    assert seen == [(31, True), (31, False)]


def test_scanner_active_high_treats_a_high_level_as_pressed(pico: FakePico) -> None:
    chain, _fake = make_chain(pico, chips=1)
    seen: list[tuple[int, bool]] = []
    scanner = pico.sensors.ButtonScanner(chain, ((0, 0),), 0,
                                         lambda ch, pressed: seen.append((ch, pressed)),
                                         active_low=False)
    scanner.scan(0)  # inputs idle high: with active-high wiring, that is a press
    assert seen == [(0, True)]
