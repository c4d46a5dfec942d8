"""The Pi's link on the real clock against the real firmware on the emulated RP2040, as the
service in the Pi box meets it: no Pico time handed in (`pico_time` is not used here). The
emulator runs several times slower than real time; the link measures that pace from the
heartbeats (`link.pico_slowness`) and keeps its limits in the Pico's time, so it connects,
stays up and keeps its LED frames from queueing in front of the Pico (issue 33)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from firmware_bridge.link import Link, SensorEvent
from tools.picobox.box import PicoBox

LEDS = 135


@pytest.fixture(scope="module")
def real_clock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[PicoBox, Link,
                                                                          list[Any]]]:
    """A classic-42 Pico and the project's Link with its default clock (time.monotonic)."""
    box = PicoBox(tmp_path_factory.mktemp("realclock"), mpy=True, seed=7)
    got: list[SensorEvent] = []
    box.start()
    link = Link(box.port, got.append)
    link.start()
    try:
        yield box, link, got
    finally:
        link.stop()
        box.stop()


def test_the_link_connects_and_stays_up_on_the_real_clock(real_clock: Any) -> None:
    box, link, got = real_clock
    assert box.wait_until(lambda: link.connected, emu_s=60, real_s=900), link.get_status()
    reconnects = link.get_status()["stats"]["reconnects"]
    box.run_for(8.0, real_s=900)  # 16 heartbeats of the Pico's, however long that takes here
    status = link.get_status()
    assert status["connected"] and status["healthy"], status
    assert status["stats"]["reconnects"] == reconnects, status["last_error"]
    assert status["pico_slowness"] >= 1.0
    box.press(5)
    assert box.wait_until(lambda: any(e.channel == 5 and e.kind == "press" for e in got),
                          emu_s=5)


def test_a_painter_faster_than_the_pico_leaves_no_queue_and_the_newest_frame_shows(
        real_clock: Any) -> None:
    box, link, _got = real_clock
    assert box.wait_until(lambda: link.connected, emu_s=60, real_s=900)
    before = len(box.events())
    sent = box.to_pico
    frames = [[((5 * i + k) & 0xFF, (3 * i) & 0xFF, (k + i) & 0xFF) for k in range(LEDS)]
              for i in range(90)]
    wait = box.wait_until
    for frame in frames:  # 30 frames a second of the Pi's clock, for 3 s
        link.send_led_frame(frame)
        wait(lambda: False, emu_s=10, real_s=1 / 30)
    newest = [list(p) for p in frames[-1]]
    shown = box.wait_event(lambda e: e["ev"] == "leds" and e["pixels"] == newest, emu_s=3,
                           after=before)
    status = link.get_status()
    assert shown is not None, (status["stats"], status.get("pico_slowness"))
    assert status["connected"], status["last_error"]
    decoded = [e["pixels"] for e in box.events()[before:] if e["ev"] == "leds"]
    order = [[list(p) for p in f] for f in frames]
    assert all(d in order for d in decoded)  # none torn
    assert [order.index(d) for d in decoded] == sorted(order.index(d) for d in decoded)
    # What went to the Pico is about the frames it showed, not the 90 the painter drew.
    frame_bytes = LEDS * 3
    assert box.to_pico - sent < (len(decoded) + 3) * frame_bytes * 1.2, \
        (box.to_pico - sent, len(decoded))
