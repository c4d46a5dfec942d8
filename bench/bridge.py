"""Serial bridge benchmarks: event latency and throughput, emulated Pico -> Link over a pty.

Latency: from the emulator handing an event to the firmware core (which writes the EVENT
frame to the pty at once) to the Link calling ``on_event``; p50/p99 over N paced events.
Both ends run as threads of this one process (shared GIL), so the figure is pessimistic
against a real Pico. Throughput: a burst of N events, delivered events per second.

A pty has no baud rate, so each figure is given twice: raw pty, and with the emulator
pacing its bytes at 115200 baud (10 bits a byte, as a UART sends them). The wire-time bound
at 115200 baud is also computed from the frame size.

Aims (every line ends OK or MISS): latency p99 < 5 ms; at least 420 events/s everywhere,
the wire bound included (a whole 42-territory board touched at once arrives within 100 ms).

Run: ``.venv/bin/python -m bench.bridge [--events 10000]``.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

from firmware_bridge import protocol as P
from firmware_bridge.emulator import Emulator, Faults
from firmware_bridge.link import Link, SensorEvent

BAUD = 115200
AIM_P99_MS = 5.0
AIM_EVENTS_S = 420.0  # 42 touches within 100 ms


def verdict_rate(rate: float) -> str:
    """The aim of an events/s figure, and OK or MISS."""
    return f"(aim >= {AIM_EVENTS_S:.0f} events/s) {'OK' if rate >= AIM_EVENTS_S else 'MISS'}"


def verdict_p99(p99: float) -> str:
    """The aim of a latency p99, and OK or MISS."""
    return f"(aim p99 < {AIM_P99_MS:g} ms) {'OK' if p99 < AIM_P99_MS else 'MISS'}"


class Sink:
    """Collects delivered events with their arrival time."""

    def __init__(self) -> None:
        self.arrived: dict[int, float] = {}
        self.count = 0
        self.done = threading.Event()
        self.target = 0

    def __call__(self, event: SensorEvent) -> None:
        self.arrived[event.seq] = time.perf_counter()
        self.count += 1
        if self.count >= self.target:
            self.done.set()


def _rig(faults: Faults) -> tuple[Emulator, Link, Sink]:
    emu = Emulator(faults=faults)
    sink = Sink()
    link = Link(emu.start(), sink)
    link.start()
    end = time.monotonic() + 5
    while not link.connected and time.monotonic() < end:
        time.sleep(0.005)
    if not link.connected:
        raise RuntimeError("link did not connect")
    return emu, link, sink


def latency(events: int, pace_s: float, faults: Faults) -> tuple[float, float, float]:
    """(p50, p99, max) latency in ms over ``events`` events, one every ``pace_s``."""
    emu, link, sink = _rig(faults)
    try:
        sink.target = events
        for i in range(events):
            emu.press(i % 42)
            time.sleep(pace_s)
        if not sink.done.wait(30):
            raise RuntimeError(f"only {sink.count} of {events} events arrived")
        lat = sorted((sink.arrived[s] - emu.event_times[s]) * 1000 for s in sink.arrived)
        return (statistics.median(lat), lat[int(len(lat) * 0.99) - 1], lat[-1])
    finally:
        link.stop()
        emu.stop()


def throughput(events: int, faults: Faults) -> float:
    """Delivered events per second for a burst of ``events``."""
    emu, link, sink = _rig(faults)
    try:
        sink.target = events
        start = time.perf_counter()
        for i in range(events):
            emu.press(i % 42)
        if not sink.done.wait(120):
            raise RuntimeError(f"only {sink.count} of {events} events arrived")
        return events / (time.perf_counter() - start)
    finally:
        link.stop()
        emu.stop()


def wire_bound() -> tuple[int, float]:
    """(bytes on the wire per plain EVENT, events/s one way at 115200 baud, 10 bits/byte)."""
    size = len(P.encode_frame(P.MSG_EVENT, 1, P.pack_event(0x12345678, 1000, 12, P.PRESS)))
    return size, BAUD / 10 / size


def main(argv: list[str] | None = None) -> None:
    """Print latency and throughput figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    args = parser.parse_args(argv if argv is not None else [])
    n = args.events
    size, bound = wire_bound()
    print(f"wire: a plain EVENT frame is {size} bytes -> at most {bound:.0f} events/s "
          f"at {BAUD} baud (10 bits/byte), acks travel the other way {verdict_rate(bound)}")
    p50, p99, worst = latency(n, 0.001, Faults())
    print(f"latency, raw pty, {n} events 1 ms apart: p50 {p50:.3f} ms  p99 {p99:.3f} ms  "
          f"max {worst:.3f} ms {verdict_p99(p99)}")
    m = max(1000, n // 10)
    p50, p99, worst = latency(m, 0.004, Faults(baud=BAUD))
    print(f"latency, pty paced at {BAUD} baud, {m} events 4 ms apart: p50 {p50:.3f} ms  "
          f"p99 {p99:.3f} ms  max {worst:.3f} ms {verdict_p99(p99)}")
    rate = throughput(n, Faults())
    print(f"throughput, raw pty, burst of {n}: {rate:.0f} events/s {verdict_rate(rate)}")
    rate = throughput(m, Faults(baud=BAUD))
    print(f"throughput, pty paced at {BAUD} baud, burst of {m}: {rate:.0f} events/s "
          f"{verdict_rate(rate)}")
    faulty = Faults(corrupt=0.01, drop=0.01, duplicate=0.01, seed=1)
    rate = throughput(n, faulty)
    print(f"throughput, raw pty with 1% corrupt/lost/duplicated, burst of {n}: "
          f"{rate:.0f} events/s {verdict_rate(rate)}")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
