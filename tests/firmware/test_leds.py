"""The WS281x PIO driver: the program assembles, frames go out as GRB words, nothing else."""

from __future__ import annotations

from firmware_bridge.firmware.fakes import FakePico


def test_ws2812_program_is_the_four_instruction_bit_loop(pico: FakePico) -> None:
    program = pico.leds.ws2812
    assert [ins.op for ins in program.instructions] == ["out", "jmp", "jmp", "nop"]
    assert [ins.sideset for ins in program.instructions] == [0, 1, 1, 0]
    # 10 cycles per bit at 8 MHz = 800 kHz: (T3) + (T1) + (T2) with delays = cycles - 1.
    assert sum(ins.delay + 1 for ins in program.instructions[:3]) == 10
    assert program.config["pull_thresh"] == 24


def test_a_frame_goes_out_as_grb_words_shifted_to_the_top(pico: FakePico) -> None:
    strip = pico.leds.Ws2812Pio(22, 2)
    sm = pico.world.state_machines[0]
    sm.take_words()
    strip.show_rgb(bytes([0x11, 0x22, 0x33, 0xFF, 0x00, 0x80]))
    # GRB order, MSB first from bit 31: G R B 00.
    assert sm.take_words() == [0x22113300, 0x00FF8000]
    assert sm.kwargs["sideset_base"].id == 22
    assert sm.freq == 8_000_000


def test_values_pass_through_unchanged_no_gamma_or_brightness(pico: FakePico) -> None:
    strip = pico.leds.Ws2812Pio(22, 1)
    sm = pico.world.state_machines[0]
    for value in (1, 2, 127, 254):
        sm.take_words()
        strip.show_rgb(bytes([value, value, value]))
        assert sm.take_words() == [(value << 24) | (value << 16) | (value << 8)]


def test_a_short_frame_switches_the_remaining_pixels_off(pico: FakePico) -> None:
    strip = pico.leds.Ws2812Pio(22, 3)
    sm = pico.world.state_machines[0]
    strip.show_rgb(bytes([9, 9, 9] * 3))
    sm.take_words()
    strip.show_rgb(bytes([1, 2, 3]))
    assert sm.take_words() == [0x02010300, 0, 0]


def test_a_longer_frame_grows_the_chain(pico: FakePico) -> None:
    strip = pico.leds.Ws2812Pio(22, 1)
    sm = pico.world.state_machines[0]
    sm.take_words()
    strip.show_rgb(bytes(range(1, 7)))
    assert sm.take_words() == [0x02010300, 0x05040600]
    assert strip.count == 2
