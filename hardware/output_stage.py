"""The last step before the LEDs: gamma correction, global brightness and the power budget.

Every LED backend passes its frames through one `OutputStage`, so a frame looks (and draws
current) the same whether it goes to rpi-ws281x, to the Pico over the bridge, or to memory.

Current model (WS2812B at 5 V, documented in hardware/README.md):
- each colour channel draws `channel_ma` (20 mA) at full duty, proportionally less at lower
  duty (the LED's PWM is linear in the byte value it receives after gamma),
- each LED draws `idle_ma` (1 mA) for its controller even when dark,
- so a full-white LED draws 3 x 20 + 1 = 61 mA and a full-white 126-LED strip 7.7 A.
The budget is `supply_amps x (1 - safety_margin)`. A frame whose estimate exceeds it is
scaled down uniformly (all channels of all LEDs by the same factor, rounding down), so hues
stay the same and the estimate after scaling never exceeds the budget.

Speed: gamma and brightness are one precomputed 256-byte table applied with
`bytes.translate`; the current estimate is `sum()` over bytes. A 126-LED frame takes tens of
microseconds (measure with `python -m bench.led_output`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

Pixel = tuple[int, int, int]

DEFAULT_GAMMA = 2.2
DEFAULT_CHANNEL_MA = 20.0
DEFAULT_IDLE_MA = 1.0
DEFAULT_SAFETY_MARGIN = 0.15


def gamma_table(gamma: float, brightness: float) -> bytes:
    """The 256-entry lookup table mapping a requested level to the level sent to the LED."""
    if not (math.isfinite(gamma) and gamma > 0):
        raise ValueError(f"gamma must be a positive number, got {gamma!r}")
    if not (0.0 <= brightness <= 1.0):
        raise ValueError(f"brightness must be between 0 and 1, got {brightness!r}")
    return bytes(round(255 * brightness * (v / 255) ** gamma) for v in range(256))


def _check_margin(value: float) -> None:
    if not (0.0 <= value < 1.0):
        raise ValueError(f"safety_margin must be in [0, 1), got {value!r}")


def _check_idle(value: float) -> None:
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"idle_ma must be 0 or more mA, got {value!r}")


class OutputStage:
    """Turns a frame of requested colours into the bytes the LEDs receive (R, G, B per LED).

    `supply_amps=None` means no power limit (a bench supply, or the memory strip)."""

    def __init__(
        self,
        count: int,
        *,
        gamma: float = DEFAULT_GAMMA,
        brightness: float = 1.0,
        supply_amps: float | None = None,
        safety_margin: float = DEFAULT_SAFETY_MARGIN,
        channel_ma: float = DEFAULT_CHANNEL_MA,
        idle_ma: float = DEFAULT_IDLE_MA,
    ) -> None:
        if not isinstance(count, int) or count <= 0:
            raise ValueError(f"an LED strip needs at least one LED, got count={count!r}")
        if channel_ma <= 0:
            raise ValueError(f"channel_ma must be a positive number of mA, got {channel_ma!r}")
        _check_margin(safety_margin)
        _check_idle(idle_ma)
        self.count = count
        self.channel_ma = float(channel_ma)
        self._idle_ma = float(idle_ma)
        self._safety_margin = float(safety_margin)
        self._supply_amps: float | None = None
        self._gamma = float(gamma)
        self._brightness = float(brightness)
        self._table = gamma_table(self._gamma, self._brightness)
        self._budget_ma: float | None = None
        self._scale_tables: dict[int, bytes] = {}
        self.supply_amps = supply_amps
        self.last_milliamps = self.idle_ma * count
        self.limited_frames = 0

    # -- settings -------------------------------------------------------------------------

    @property
    def gamma(self) -> float:
        """The gamma exponent (1.0 = no correction)."""
        return self._gamma

    @gamma.setter
    def gamma(self, value: float) -> None:
        self._table = gamma_table(value, self._brightness)
        self._gamma = float(value)

    @property
    def brightness(self) -> float:
        """Global brightness, 0 (dark) to 1 (full), applied after gamma."""
        return self._brightness

    @brightness.setter
    def brightness(self, value: float) -> None:
        self._table = gamma_table(self._gamma, value)
        self._brightness = float(value)

    @property
    def supply_amps(self) -> float | None:
        """The LED supply's rating in amps, or None for no power limit."""
        return self._supply_amps

    @supply_amps.setter
    def supply_amps(self, value: float | None) -> None:
        if value is not None and not (math.isfinite(value) and value > 0):
            raise ValueError(f"supply_amps must be a positive number of amps, got {value!r}")
        self._set_power(value, self._safety_margin, self._idle_ma)

    @property
    def safety_margin(self) -> float:
        """The share of the supply kept in reserve, 0 <= margin < 1 (0.15 = 15 %)."""
        return self._safety_margin

    @safety_margin.setter
    def safety_margin(self, value: float) -> None:
        _check_margin(value)
        self._set_power(self._supply_amps, value, self._idle_ma)

    @property
    def idle_ma(self) -> float:
        """What each LED's controller draws when dark, in mA."""
        return self._idle_ma

    @idle_ma.setter
    def idle_ma(self, value: float) -> None:
        _check_idle(value)
        self._set_power(self._supply_amps, self._safety_margin, value)

    def _set_power(self, supply_amps: float | None, margin: float, idle_ma: float) -> None:
        """Recompute the budget from the three power settings; all change or none does."""
        budget: float | None = None
        if supply_amps is not None:
            budget = supply_amps * 1000.0 * (1.0 - margin)
            idle = idle_ma * self.count
            if budget <= idle:
                raise ValueError(
                    f"a {supply_amps} A supply cannot even keep {self.count} dark LEDs "
                    f"powered ({idle / 1000:.2f} A idle after a {margin:.0%} margin)"
                )
            supply_amps = float(supply_amps)
        self._supply_amps, self._safety_margin, self._idle_ma = (
            supply_amps, float(margin), float(idle_ma)
        )
        self._budget_ma = budget

    @property
    def budget_milliamps(self) -> float | None:
        """The most current a frame may draw (supply minus the safety margin), or None."""
        return self._budget_ma

    # -- the work ---------------------------------------------------------------------------

    def estimate_milliamps(self, data: bytes) -> float:
        """The modelled current of `data` (output bytes, R, G, B per LED) in mA."""
        return self.idle_ma * self.count + sum(data) * (self.channel_ma / 255.0)

    def render(self, pixels: Sequence[Sequence[int]]) -> bytes:
        """Validate a frame of `count` (r, g, b) colours (0..255) and return the output bytes.

        Raises ValueError naming the first bad pixel if the frame is malformed."""
        if len(pixels) != self.count:
            raise ValueError(f"a frame needs exactly {self.count} pixels, got {len(pixels)}")
        try:
            flat = bytes(itertools.chain.from_iterable(pixels))
        except (TypeError, ValueError):
            raise ValueError(self._describe_bad_pixel(pixels)) from None
        if len(flat) != 3 * self.count:
            raise ValueError(self._describe_bad_pixel(pixels))
        data = flat.translate(self._table)
        milliamps = self.estimate_milliamps(data)
        budget = self._budget_ma
        if budget is not None and milliamps > budget:
            idle = self.idle_ma * self.count
            data = data.translate(self._scale_table((budget - idle) / (milliamps - idle)))
            milliamps = self.estimate_milliamps(data)
            self.limited_frames += 1
        self.last_milliamps = milliamps
        return data

    def _scale_table(self, scale: float) -> bytes:
        """The table multiplying every level by `scale` rounded down to a 1/4096 step (never
        up, so the frame stays within budget); the last tables are kept, frames repeat."""
        step = math.floor(scale * 4096)
        table = self._scale_tables.get(step)
        if table is None:
            if len(self._scale_tables) >= 64:
                self._scale_tables.clear()
            table = bytes(v * step // 4096 for v in range(256))
            self._scale_tables[step] = table
        return table

    def blank(self) -> bytes:
        """The output bytes of an all-dark frame."""
        return bytes(3 * self.count)

    def get_status(self) -> dict[str, object]:
        """A JSON-ready snapshot of the settings and the last frame's estimated current."""
        return {
            "gamma": self._gamma,
            "brightness": self._brightness,
            "supply_amps": self._supply_amps,
            "budget_amps": None if self._budget_ma is None else round(self._budget_ma / 1000, 3),
            "last_amps": round(self.last_milliamps / 1000, 3),
            "limited_frames": self.limited_frames,
        }

    @staticmethod
    def _describe_bad_pixel(pixels: Sequence[Sequence[int]]) -> str:
        for index, pixel in enumerate(pixels):
            try:
                ok = len(pixel) == 3 and all(
                    isinstance(c, int) and 0 <= c <= 255 for c in pixel
                )
            except TypeError:
                ok = False
            if not ok:
                return f"pixel {index} must be three integers 0..255 (r, g, b), got {pixel!r}"
        return "a frame must be a sequence of (r, g, b) tuples"
