"""The WS281x LED chain, driven by an RP2040 PIO state machine from the Pi's LED frames.

The Pi already applied gamma, brightness and the power budget: this module only reorders
each pixel to the GRB order the WS2812 expects and shifts the bits out. The PIO program is
the Raspberry Pi ws2812 example: 24 bits per pixel, MSB first, at 800 kHz (10 PIO cycles
per bit at 8 MHz: T1=2 high, T2=5 high for a 1 / low for a 0, T3=3 low).

MicroPython-compatible. The word buffer is made once per strip length.
"""

import array

import rp2
from machine import Pin


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
             pull_thresh=24)
def ws2812():
    """PIO program: one WS2812 bit per 10 cycles, driven on the side-set pin."""
    T1 = 2
    T2 = 5
    T3 = 3
    wrap_target()  # noqa: F821
    label("bitloop")  # noqa: F821
    out(x, 1).side(0)[T3 - 1]  # noqa: F821
    jmp(not_x, "do_zero").side(1)[T1 - 1]  # noqa: F821
    jmp("bitloop").side(1)[T2 - 1]  # noqa: F821
    label("do_zero")  # noqa: F821
    nop().side(0)[T2 - 1]  # noqa: F821
    wrap()  # noqa: F821


def grb_word(r, g, b):
    # type: (int, int, int) -> int
    """One pixel as the 24-bit GRB word the PIO program shifts out (MSB first)."""
    return (g << 16) | (r << 8) | b


class Ws2812Pio:
    """A WS281x chain on one GPIO pin, fed through PIO state machine ``sm_id``.

    ``show_rgb(rgb)`` displays one frame: ``rgb`` holds 3 bytes (R, G, B) per pixel from
    pixel 0. Pixels past the end of a shorter frame are switched off; a longer frame (up to
    ``max_count`` pixels) grows the chain, so ``count`` need only be a first guess.
    """

    def __init__(self, pin, count, sm_id=0, freq=8000000, max_count=1024):
        # type: (int, int, int, int, int) -> None
        self.count = count
        self.max_count = max_count
        self._words = array.array("I", [0] * count)
        self._sm = rp2.StateMachine(sm_id, ws2812, freq=freq, sideset_base=Pin(pin))
        self._sm.active(1)
        self.frames = 0

    def show_rgb(self, rgb):
        # type: (bytes) -> None
        """Send one RGB frame to the chain in GRB order."""
        words = self._words
        n = len(rgb) // 3
        if n > self.count:
            if n > self.max_count:
                n = self.max_count
            self.count = n
            self._words = words = array.array("I", [0] * n)
        for i in range(n):
            j = 3 * i
            words[i] = (rgb[j + 1] << 16) | (rgb[j] << 8) | rgb[j + 2]
        for i in range(n, self.count):
            words[i] = 0
        # The program shifts left from bit 31: move each 24-bit word to the top.
        self._sm.put(words, 8)
        self.frames += 1

    def off(self):
        # type: () -> None
        """Switch every pixel off."""
        self.show_rgb(b"")
