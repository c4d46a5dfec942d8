"""How long the LED output stage takes per frame (goal: a 126-LED frame in well under 1 ms).

Measures `OutputStage.render` (validation, gamma+brightness table, current estimate, power
scaling) and a whole `MemoryStrip.show`/`BridgeStrip.show`, for a 126-LED and a 135-LED
(classic-42 with status LEDs) frame: one within the budget, one full white that gets scaled.
Aim: every case under 1,000 us per frame (each line ends OK or MISS); the painter's 30 fps
leave 33 ms a frame, most of it for the strip's own 4 ms of wire time and the rules.
Run: `python -m bench.led_output`.
"""

from __future__ import annotations

import random
import timeit

from hardware.leds import BridgeStrip, MemoryStrip
from hardware.output_stage import OutputStage

AIM_US = 1000.0


def _per_call_us(fn, number: int = 2000) -> float:
    best = min(timeit.repeat(fn, number=number, repeat=5))
    return best / number * 1e6


def main() -> None:
    """Print microseconds per frame for each case."""
    rng = random.Random(4)
    for count in (126, 135):
        colours = [tuple(rng.randrange(256) for _ in "rgb") for _ in range(count)]
        dim = [(r // 8, g // 8, b // 8) for r, g, b in colours]
        white = [(255, 255, 255)] * count
        stage = OutputStage(count, gamma=2.2, brightness=0.8, supply_amps=3.0)
        cases = {
            "render, within budget": lambda s=stage, f=dim: s.render(f),
            "render, random colours": lambda s=stage, f=colours: s.render(f),
            "render, full white scaled to 3 A": lambda s=stage, f=white: s.render(f),
        }
        memory = MemoryStrip(count, output=OutputStage(count, supply_amps=3.0), history=100)
        bridge = BridgeStrip(lambda pixels: None, count, output=OutputStage(count, supply_amps=3.0))
        cases["MemoryStrip.show, full white"] = lambda m=memory, f=white: m.show(f)
        cases["BridgeStrip.show, full white"] = lambda b=bridge, f=white: b.show(f)
        for name, fn in cases.items():
            us = _per_call_us(fn)
            print(f"{count} LEDs  {name:36s} {us:8.1f} us/frame (aim < {AIM_US:,.0f} us) "
                  f"{'OK' if us < AIM_US else 'MISS'}")


if __name__ == "__main__":
    main()
