"""LED strips: the memory and bridge backends, the shared interface, and open_strip."""

from __future__ import annotations

import pytest

from hardware.errors import DeviceClosed, HardwareUnavailable
from hardware.leds import BridgeStrip, LedStrip, MemoryStrip, open_strip
from hardware.output_stage import OutputStage

RED, BLACK = (255, 0, 0), (0, 0, 0)


def test_memory_strip_records_every_frame_in_order():
    strip = MemoryStrip(2)
    strip.show([RED, BLACK])
    strip.show([BLACK, RED])
    assert list(strip.frames) == [(RED, BLACK), (BLACK, RED)]
    assert strip.last == (BLACK, RED)


def test_memory_strip_copies_the_frame_so_later_changes_do_not_rewrite_history():
    strip = MemoryStrip(1)
    frame = [[255, 0, 0]]
    strip.show(frame)
    frame[0][0] = 0
    assert strip.last == (RED,)


def test_memory_strip_keeps_requested_and_output_frames_apart():
    strip = MemoryStrip(1, output=OutputStage(1, gamma=1.0, brightness=0.5))
    strip.show([(200, 100, 0)])
    assert strip.last == ((200, 100, 0),)
    assert strip.last_output == ((100, 50, 0),)


def test_memory_strip_history_is_bounded_but_counts_all_frames():
    strip = MemoryStrip(1, history=3)
    for level in range(5):
        strip.show([(level, 0, 0)])
    assert [f[0][0] for f in strip.frames] == [2, 3, 4]
    assert strip.frames_shown == 5


def test_memory_strip_calls_on_show_with_each_frame():
    seen = []
    strip = MemoryStrip(1, on_show=seen.append)
    strip.show([RED])
    assert seen == [(RED,)]


def test_close_turns_the_leds_off():
    strip = MemoryStrip(2)
    strip.show([RED, RED])
    strip.close()
    assert strip.last == (BLACK, BLACK)
    assert strip.closed


def test_close_before_any_frame_shows_nothing():
    strip = MemoryStrip(2)
    strip.close()
    assert strip.frames_shown == 0 and not strip.frames


def test_show_after_close_raises_device_closed():
    with MemoryStrip(1) as strip:
        pass
    with pytest.raises(DeviceClosed):
        strip.show([RED])


def test_close_twice_is_harmless():
    strip = MemoryStrip(1)
    strip.show([RED])
    strip.close()
    strip.close()
    assert len(strip.frames) == 2


def test_bridge_strip_sends_output_pixels_as_tuples():
    sent = []
    strip = BridgeStrip(sent.append, 2, output=OutputStage(2, gamma=1.0, brightness=0.5))
    strip.show([RED, (0, 0, 100)])
    assert sent == [[(128, 0, 0), (0, 0, 50)]]


def test_bridge_strip_blanks_the_pico_leds_at_close():
    sent = []
    with BridgeStrip(sent.append, 1) as strip:
        strip.show([RED])
    assert sent[-1] == [BLACK]


def test_open_strip_passes_output_options_to_the_output_stage():
    strip = open_strip("memory", 4, brightness=0.3, gamma=1.8, supply_amps=2.0)
    assert isinstance(strip, MemoryStrip)
    assert strip.output.brightness == 0.3
    assert strip.output.gamma == 1.8
    assert strip.output.supply_amps == 2.0


def test_open_strip_bridge_uses_the_send_callable():
    sent = []
    strip = open_strip("bridge", 1, send=sent.append, gamma=1.0)
    strip.show([RED])
    assert isinstance(strip, BridgeStrip) and sent == [[RED]]


def test_open_strip_bridge_without_a_link_says_what_is_missing():
    with pytest.raises(HardwareUnavailable, match="serial link to the Pico"):
        open_strip("bridge", 1)


def test_open_strip_rejects_unknown_backend_naming_the_choices():
    with pytest.raises(ValueError, match="unknown LED backend 'neopixel'; use one of ws281x"):
        open_strip("neopixel", 1)


def test_open_strip_rejects_unknown_option():
    with pytest.raises(TypeError):
        open_strip("memory", 1, pixel_order="grb")


def test_a_backend_that_does_not_write_frames_cannot_be_created():
    # LedStrip is the interface every backend implements: _write is abstract, so a backend
    # that forgets it fails at construction instead of silently dropping frames.
    class Forgetful(LedStrip):
        backend = "forgetful"

    with pytest.raises(TypeError, match="_write"):
        Forgetful(1)


def test_status_reports_backend_frames_and_estimated_current():
    strip = open_strip("memory", 10, gamma=1.0, idle_ma=1.0, channel_ma=20.0)
    strip.show([(255, 0, 0)] * 10)
    status = strip.get_status()
    assert status["backend"] == "memory"
    assert status["frames_shown"] == 1
    assert status["last_amps"] == pytest.approx(0.21)  # 10 x (20 + 1) mA


def test_close_still_releases_when_blanking_fails():
    calls = []

    def send(pixels):
        calls.append(pixels)
        if len(calls) > 1:
            raise ConnectionError("link down")

    strip = BridgeStrip(send, 1)
    strip.show([RED])
    strip.close()
    assert strip.closed and len(calls) == 2
