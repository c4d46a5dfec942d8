"""The colour order of an LED chain: which colour each of a pixel's three bytes lights.

WS2812 chips take their bytes green, red, blue ("GRB"); other chips take "RGB", "BRG" and
so on. A board profile names its chips' order (`colour_order`, default "GRB"). Both LED
drivers send "GRB" (rpi-ws281x's default strip type, and the Pico firmware's
`firmware_bridge/firmware/leds.py`), so for a chain of another order the strip swaps each
pixel's channels before the driver packs it (`wire_map`, `to_wire`): the chip then lights
logical red as red.
"""

from __future__ import annotations

from itertools import permutations

COLOUR_ORDERS = tuple("".join(p) for p in permutations("RGB"))  # RGB RBG GRB GBR BRG BGR
DEFAULT_ORDER = "GRB"
DRIVER_ORDER = "GRB"  # the byte order both drivers send


def check_colour_order(order: object) -> str:
    """`order` as an upper-case colour order; ValueError naming the choices if it is none."""
    if isinstance(order, str) and order.upper() in COLOUR_ORDERS:
        return order.upper()
    raise ValueError(f"colour_order must be one of {', '.join(COLOUR_ORDERS)} (the order "
                     f"the LED chips take red, green and blue), got {order!r}")


def wire_map(chip: str, driver: str = DRIVER_ORDER) -> tuple[int, int, int] | None:
    """Source channel of each output channel: a pixel (r, g, b) sent as
    `tuple(pixel[i] for i in wire_map)` by a `driver`-order driver lights a `chip`-order
    chip in its logical colour. None when nothing needs swapping (`chip == driver`)."""
    chip, driver = check_colour_order(chip), check_colour_order(driver)
    if chip == driver:
        return None
    # The driver puts channel driver[k] in byte k, and the chip lights byte k as chip[k].
    source = {driver[k]: "RGB".index(chip[k]) for k in range(3)}
    return (source["R"], source["G"], source["B"])


def to_wire(data: bytes, mapping: tuple[int, int, int] | None) -> bytes:
    """Output bytes (R, G, B per LED) with each pixel's channels swapped by `mapping`."""
    if mapping is None:
        return data
    out = bytearray(len(data))
    for channel, source in enumerate(mapping):
        out[channel::3] = data[source::3]
    return bytes(out)
