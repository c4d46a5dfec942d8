"""The wire colour order of an LED chain, learned from what the maker sees.

The driver sends logical red, green and blue in the byte order it assumes (WS2812 chips
usually take "GRB"); a chip that takes another order shows another colour. Showing logical
red, then logical green, and asking which colour each looks like pins the chip's order
among the six permutations of "RGB".
"""

from __future__ import annotations

from itertools import permutations

ORDERS = tuple("".join(p) for p in permutations("RGB"))
SHOWN = ("R", "G")  # what the step shows, in turn
_LOGICAL = {"R": (255, 0, 0), "G": (0, 255, 0), "B": (0, 0, 255)}


def logical_rgb(colour: str) -> tuple[int, int, int]:
    """The logical RGB of a pure colour letter ("R", "G" or "B")."""
    return _LOGICAL[colour]


def wire_order(assumed: str, seen: dict[str, str]) -> str | None:
    """The chip's order given the driver's `assumed` order and `seen` (shown letter -> the
    letter the maker saw), or None if no chip order explains what was seen."""
    if assumed not in ORDERS:
        raise ValueError(f"colour order must be one of {', '.join(ORDERS)}, got {assumed!r}")
    for order in ORDERS:
        if all(order[assumed.index(shown)] == saw for shown, saw in seen.items()):
            return order
    return None


def possible(assumed: str, seen: dict[str, str]) -> bool:
    """True if some chip order explains what was seen so far."""
    return wire_order(assumed, seen) is not None
