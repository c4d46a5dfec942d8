"""The rpi-ws281x backend, driven against a fake rpi_ws281x module (never a real PixelStrip)."""

from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest

from hardware import ws281x_strip
from hardware.errors import HardwareUnavailable
from hardware.leds import open_strip
from hardware.output_stage import OutputStage
from hardware.platform import parse_model
from hardware.ws281x_strip import Ws281xStrip


class FakePixelStrip:
    """Records what rpi_ws281x.PixelStrip was told."""

    def __init__(self, num, pin, freq_hz, dma, invert, brightness, channel, *, fail=None):
        self.args = (num, pin, freq_hz, dma, invert, brightness, channel)
        self.pixels = [0] * num
        self.shown: list[list[int]] = []
        self.began = False
        self.cleaned = False
        self.fail = fail

    def begin(self):
        if self.fail:
            raise RuntimeError(self.fail)
        self.began = True

    def setPixelColor(self, n, color):  # the library's camelCase name
        self.pixels[n] = color

    def show(self):
        self.shown.append(list(self.pixels))

    def _cleanup(self):
        self.cleaned = True


def fake_module(fail=None):
    made = []

    def pixel_strip(*args):
        strip = FakePixelStrip(*args, fail=fail)
        made.append(strip)
        return strip

    def color(red, green, blue):
        return (red << 16) | (green << 8) | blue

    return SimpleNamespace(PixelStrip=pixel_strip, Color=color, made=made)


def test_frame_is_written_as_24_bit_colours_then_shown():
    module = fake_module()
    strip = Ws281xStrip(2, module=module, output=OutputStage(2, gamma=1.0))
    strip.show([(255, 0, 0), (0, 16, 1)])
    assert module.made[0].shown == [[0xFF0000, 0x001001]]


def test_driver_gets_full_brightness_and_the_pins_pwm_channel():
    module = fake_module()
    Ws281xStrip(5, gpio_pin=13, module=module)
    num, pin, _freq, _dma, _invert, brightness, channel = module.made[0].args
    assert (num, pin, brightness, channel) == (5, 13, 255, 1)


def test_close_blanks_the_strip_and_frees_the_driver():
    module = fake_module()
    with Ws281xStrip(1, module=module) as strip:
        strip.show([(9, 9, 9)])
    driver = module.made[0]
    assert driver.shown[-1] == [0]
    assert driver.cleaned


def test_pin_the_driver_cannot_use_is_refused():
    with pytest.raises(ValueError, match="cannot drive GPIO 4"):
        Ws281xStrip(1, gpio_pin=4, module=fake_module())


def test_driver_start_failure_becomes_hardware_unavailable():
    module = fake_module(fail="ws2811_init failed with code -5 (mmap() failed)")
    with pytest.raises(HardwareUnavailable, match="need root"):
        Ws281xStrip(1, module=module)


def test_failed_driver_is_taken_off_the_exit_cleanup(monkeypatch):
    unregistered = []
    monkeypatch.setattr(ws281x_strip.atexit, "unregister", unregistered.append)
    module = fake_module(fail="ws2811_init failed with code -1")
    with pytest.raises(HardwareUnavailable):
        Ws281xStrip(1, module=module)
    assert unregistered == [module.made[0]._cleanup]


def test_off_a_pi_the_library_is_never_imported(monkeypatch):
    monkeypatch.delitem(sys.modules, "rpi_ws281x", raising=False)
    not_a_pi = parse_model(None)
    with pytest.raises(HardwareUnavailable, match="only runs on a Raspberry Pi 1 to 4"):
        Ws281xStrip(1, platform=not_a_pi)
    assert "rpi_ws281x" not in sys.modules


def test_on_a_pi_5_open_strip_explains_to_use_the_bridge(monkeypatch):
    monkeypatch.delitem(sys.modules, "rpi_ws281x", raising=False)
    pi5 = parse_model("Raspberry Pi 5 Model B Rev 1.0")
    with pytest.raises(HardwareUnavailable, match="use the 'bridge' backend"):
        open_strip("ws281x", 10, platform=pi5)
    assert "rpi_ws281x" not in sys.modules


def test_on_a_pi_4_without_the_package_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "rpi_ws281x", None)  # makes the import fail
    pi4 = parse_model("Raspberry Pi 4 Model B Rev 1.4")
    with pytest.raises(HardwareUnavailable, match=r"pip install 'riskboard\[pi\]'"):
        Ws281xStrip(1, platform=pi4)


def test_default_data_pin_is_spi_gpio_10_the_recommended_wiring():
    # hardware/README.md wires DIN to GPIO 10 (SPI MOSI, no root); rpi-ws281x takes channel 0
    # for it (the channel argument only selects between the two PWM channels).
    module = fake_module()
    Ws281xStrip(3, module=module)
    _num, pin, _freq, _dma, _invert, _brightness, channel = module.made[0].args
    assert (pin, channel) == (10, 0)


def test_spi_start_failure_names_the_fixed_core_clock():
    module = fake_module(fail="ws2811_init failed with code -13 (Unable to initialize SPI)")
    with pytest.raises(HardwareUnavailable, match="core_freq"):
        Ws281xStrip(1, gpio_pin=10, module=module)


@pytest.mark.parametrize(("failure", "pin", "fix"), [
    ("ws2811_init failed with code -3 (Hardware revision is not supported)", 10,
     "does not know this Pi's hardware revision"),
    ("ws2811_init failed with code -3 (Hardware revision is not supported)", 10,
     'leds.backend = "bridge"'),
    ("ws2811_init failed with code -13 (Unable to initialize SPI)", 10,
     "/dev/spidev0.0 must exist"),
    ("ws2811_init failed with code -5 (mmap() failed)", 18, "/dev/mem, which needs root"),
    ("ws2811_init failed with code -11 (Selected GPIO not possible)", 21,
     "wire the LEDs to GPIO 10"),
])
def test_each_driver_failure_names_its_real_fix(failure, pin, fix):
    """rpi-ws281x's own refusals (its hardware detection first) become the sentence that
    says what to do, not only the library's words."""
    module = fake_module(fail=failure)
    with pytest.raises(HardwareUnavailable) as raised:
        Ws281xStrip(1, gpio_pin=pin, module=module)
    assert fix in str(raised.value) and failure in str(raised.value)


def test_spi_frame_size_follows_rpi_ws281x_and_339_leds_fit_spidevs_default_buffer():
    # ws2811.c sends PCM_BYTE_COUNT bytes a frame on SPI: room for 4 colours x 8 bits x 3
    # SPI bits an LED (96 bits, 12 bytes) plus 55 us x 2.4 MHz = 132 bits of latch, that
    # total in bytes rounded down to 8, plus 8. 339 LEDs: 32676 bits, 4084 -> 4080 + 8 = 4088;
    # 340 LEDs: 32772 bits, 4096 + 8 = 4104, over spidev's 4096 bytes.
    assert ws281x_strip.spi_frame_bytes(339) == 4088
    assert ws281x_strip.spi_frame_bytes(340) == 4104
    assert ws281x_strip.spi_led_limit(4096) == 339
    assert ws281x_strip.spi_led_limit(32768) > 2700


def test_a_strip_longer_than_spidevs_buffer_is_refused_with_the_kernel_parameter():
    Ws281xStrip(339, gpio_pin=10, module=fake_module(), spi_bufsiz=4096).close()
    with pytest.raises(HardwareUnavailable) as raised:
        Ws281xStrip(340, gpio_pin=10, module=fake_module(), spi_bufsiz=4096)
    said = str(raised.value)
    assert "spidev.bufsiz=32768" in said and "/boot/firmware/cmdline.txt" in said
    assert "4104 bytes" in said and "339 LEDs" in said


def test_a_raised_buffer_or_a_pwm_pin_takes_the_long_strip():
    Ws281xStrip(400, gpio_pin=10, module=fake_module(), spi_bufsiz=32768).close()
    Ws281xStrip(400, gpio_pin=18, module=fake_module(), spi_bufsiz=4096).close()  # DMA, no SPI


def test_spidevs_buffer_is_read_from_the_kernel_and_defaults_to_4096(tmp_path):
    param = tmp_path / "bufsiz"
    assert ws281x_strip.spidev_bufsiz(param) == 4096  # spidev not loaded
    param.write_text("32768\n")
    assert ws281x_strip.spidev_bufsiz(param) == 32768


def test_a_frame_spi_refuses_names_the_buffer_not_a_raw_runtime_error():
    """rpi-ws281x's render failure (-14: the SPI transfer was refused, as spidev refuses one
    longer than its buffer) reaches the caller as the sentence with the fix."""
    module = fake_module()
    strip = Ws281xStrip(300, gpio_pin=10, module=module, spi_bufsiz=4096)

    def refused():
        raise RuntimeError("ws2811_render failed with code -14 (SPI transfer error)")

    module.made[0].show = refused
    with pytest.raises(HardwareUnavailable) as raised:
        strip.show([(1, 2, 3)] * 300)
    assert "spidev.bufsiz=" in str(raised.value) and "code -14" in str(raised.value)


def test_spi_start_failure_names_gpiomem_too_and_says_which_node_is_missing(monkeypatch):
    monkeypatch.setattr(ws281x_strip, "Path", lambda node: SimpleNamespace(
        exists=lambda: node != "/dev/gpiomem"))
    module = fake_module(fail="ws2811_init failed with code -13 (Unable to initialize SPI)")
    with pytest.raises(HardwareUnavailable) as raised:
        Ws281xStrip(1, gpio_pin=10, module=module, spi_bufsiz=4096)
    said = str(raised.value)
    assert "/dev/gpiomem" in said and "gpio groups" in said
    assert said.endswith("Here /dev/gpiomem is missing.")
