"""Figures of the real firmware on the emulated RP2040 (the Pico in a box, issue 20).

Every time here is the emulated Pico's own clock (rp2040js counts 8 ns per cycle of a
125 MHz RP2040), so the figures say what a Pico does, whatever the host's load; only the
last line (CPU seconds per Pico second) is about the emulator. Reported, not asserted.

- boot -> handshake: from reset to the Pi's link connected (IDENTIFY, replay, state dump),
  with the modules as .py (README's mpremote step) and precompiled .mpy;
- main-loop passes and 74HC165 scans per Pico second (classic-42 scans once a pass);
- press -> EVENT frame on the wire: from the button's level change to the last byte of its
  EVENT frame leaving the Pico's USB (p50, p99);
- LED frame in -> last pixel latched: from the last byte of a 135-LED frame reaching the
  Pico's USB to the chain latching it (50 us after the last bit on GP22);
- CPU seconds of the emulator per Pico second, and boot cost.

Run: ``.venv/bin/python -m bench.pico_box [--presses 40] [--frames 10]`` (needs what
``make pico-check`` installs).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from firmware_bridge import messages as M  # noqa: E402
from firmware_bridge import protocol as P  # noqa: E402
from tools.picobox.box import PicoBox, pico_time  # noqa: E402
from tools.picobox.pi_side import Pi  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def frame_ends(stream: bytes) -> list[tuple[int, int, bytes]]:
    """(end offset, type, payload) of each frame in a byte stream."""
    decoder = P.FrameDecoder()
    out = []
    for offset in range(len(stream)):
        for msg_type, _seq, payload in decoder.feed(stream[offset:offset + 1]):
            out.append((offset + 1, msg_type, payload))
    return out


def time_of_offset(marks: list[dict[str, Any]], offset: int) -> int | None:
    """Emulated ns at which the byte stream (cumulative ``total``) had reached ``offset``."""
    for mark in marks:
        if mark["total"] >= offset:
            return mark["t_ns"]
    return None


def boot_to_handshake(box: PicoBox) -> tuple[Pi, float, float]:
    """Start ``box`` with the link calling from before USB is up: (pi, Pico s to connected,
    real s)."""
    started = time.monotonic()
    box.start()
    pi = Pi(box)
    pi.link.start()
    if not pi.wait_connected(emu_s=30):
        raise RuntimeError(f"no handshake: {pi.status()}")
    return pi, box.emu_s, time.monotonic() - started


def main(argv: list[str] | None = None) -> None:
    """Measure and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--frames", type=int, default=10)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pico-bench-"))

    box = PicoBox(tmp / "py", mpy=False, seed=1)
    with pico_time(box):
        pi, emu, real = boot_to_handshake(box)
        pi.link.stop()
    cost = box.stats()
    box.stop()
    print(f"boot -> handshake (.py):  {emu:6.3f} Pico s  ({real:.0f} s real, "
          f"{cost['cpu_s']:.0f} CPU s)")

    box = PicoBox(tmp / "mpy", mpy=True, seed=1, trace=True)
    with pico_time(box):
        pi, emu, real = boot_to_handshake(box)
        print(f"boot -> handshake (.mpy): {emu:6.3f} Pico s  ({real:.0f} s real)")

        before = box.stats()
        box.run_for(2.0)
        after = box.stats()
        span = after["emu_s"] - before["emu_s"]
        scans = (after["shift_scans"] - before["shift_scans"]) / span
        print(f"main-loop passes / 74HC165 scans: {scans:6.0f} per Pico s (classic-42: one "
              f"scan per pass; idle link)")
        cpu_per_pico = (after["cpu_s"] - before["cpu_s"]) / span
        real_per_pico = (after["real_s"] - before["real_s"]) / span

        pressed_at = []
        start = len(pi.events)
        for i in range(args.presses):
            channel = i % 42
            pressed_at.append((channel, box.press(channel)["t_ns"]))
            pi.wait(channel, "press", start + 2 * i, emu_s=5)
            box.release(channel)
            pi.wait(channel, "release", start + 2 * i, emu_s=5)
        stream = bytes(box.from_pico)
        marks = box.events("cdc_out")
        event_frames = [(end, M.EVENT.decode(payload)) for end, kind, payload
                        in frame_ends(stream) if kind == P.MSG_EVENT]
        latencies = []
        for channel, t_press in pressed_at:
            ends = [time_of_offset(marks, end) for end, ev in event_frames
                    if ev.channel == channel and ev.kind == P.PRESS]
            ends = [t for t in ends if t is not None and t >= t_press]
            if ends:
                latencies.append((min(ends) - t_press) / 1e6)
        if latencies:
            print(f"press -> EVENT frame on the wire: p50 {percentile(latencies, 50):.1f} ms, "
                  f"p99 {percentile(latencies, 99):.1f} ms (n={len(latencies)}; "
                  f"debounce 20 ms included)")

        led_latencies = []
        for i in range(args.frames):
            frame = [((i + k) & 0xFF, (2 * i + k) & 0xFF, (3 * i + k) & 0xFF)
                     for k in range(135)]
            n_leds = len(box.events("leds"))
            in_before = box.stats()["cdc_in_total"]
            pi.link.send_led_frame(frame)
            want = [list(p) for p in frame]
            got = box.wait_event(lambda e, w=want: e["ev"] == "leds" and e["pixels"] == w,
                                 emu_s=5, after=0)
            if got is None or len(box.events("leds")) <= n_leds:
                continue
            # the frame's bytes reached the Pico when the cdc_in total passed them
            arrived = [m for m in box.events("cdc_in") if m["total"] > in_before]
            if arrived:
                last_in = max(m["t_ns"] for m in arrived if m["t_ns"] <= got["t_ns"])
                led_latencies.append((got["t_ns"] - last_in) / 1e6)
            box.run_for(1 / 30)
        if led_latencies:
            print(f"LED frame in -> last pixel latched: p50 {percentile(led_latencies, 50):.1f}"
                  f" ms, max {max(led_latencies):.1f} ms (n={len(led_latencies)}, 135 LEDs)")
        pi.link.stop()
    total = box.stats()
    box.stop()
    print(f"emulator cost: {cpu_per_pico:.1f} CPU s per Pico s with the loop running "
          f"({real_per_pico:.1f} real s per Pico s on this machine now); whole run "
          f"{total['cpu_s'] / total['emu_s']:.1f} CPU s per Pico s")


if __name__ == "__main__":
    main()
