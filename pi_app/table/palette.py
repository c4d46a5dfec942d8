"""Player colours and patterns as the LEDs show them, chosen to stay apart for colour-blind eyes.

How apart is measured (`min_contrast`): each colour is mixed with a warm (~2700 K) room
light reflected by the board (a veil of 0 % and 25 %), the mix is passed through a
simulated eye (normal vision, and protanopia, deuteranopia and tritanopia with the
Machado, Oliveira & Fernandes 2009 matrices at severity 1.0, on linear RGB), and every
pair is compared with CIEDE2000 in CIELAB (D65). The warm light goes in first because it
reaches the viewer's eye together with the LED's light.

Thresholds (ΔE2000, the worst pair over all eight viewing conditions):
- `SEAT_MIN_DELTA_E` (15) between any two seat colours: six colours on one board. The
  default palette was searched (hue ranges kept so red stays red, ...) to 17.4; its
  closest pairs are blue/pink (protanopia), red/pink (tritanopia) and red/green
  (deuteranopia), all with the warm veil. (The earlier palette, tuned with CIE76 and the
  veil after the eye, was 8.6.)
- `THIRD_ARMY_MIN_DELTA_E` (10) between a third army (the two-player neutral, the
  Allied Army) and any seat: a grey cannot get further from every seat colour under all
  three deficiencies than 12.4.
`riskboard doctor` warns when a configured palette falls below either.
The "black" army is shown as a cool white: an LED cannot shine black.

A player may also carry a pattern so colours are never the only cue:
`steady`, `breath` (slow 3 s swell) or `double_blink` (two short dips every 2 s).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from pi_app.table.swells import PATTERN_BREATH

RGB = tuple[int, int, int]
Pattern = Literal["steady", "breath", "double_blink"]
PATTERNS: tuple[str, ...] = ("steady", "breath", "double_blink")

DEFAULT_COLOURS: Mapping[str, RGB] = MappingProxyType(
    {
        "red": (181, 1, 0),
        "blue": (0, 0, 179),
        "green": (57, 199, 158),
        "yellow": (239, 236, 40),
        "black": (213, 238, 255),
        "pink": (255, 102, 255),
    }
)
NEUTRAL_COLOUR: RGB = (150, 110, 60)
"""Colour of an army id the palette does not know (never a seat's colour)."""

THIRD_ARMY_COLOURS: Mapping[str, RGB] = MappingProxyType(
    {
        "neutral": (113, 101, 114),  # grey: the two-player game's neutral army
        "allied": (64, 126, 156),  # muted teal: the Allied Army
    }
)
"""The armies that are no seat. Each stays >= `THIRD_ARMY_MIN_DELTA_E` from every seat
colour (`min_contrast`: neutral 12.4, allied 16.8); they never share a board (one per
two-player variant)."""
SEAT_MIN_DELTA_E = 15.0
THIRD_ARMY_MIN_DELTA_E = 10.0


class PaletteError(ValueError):
    """A configured colour or pattern cannot be used; the message names the player and value."""


@dataclass(frozen=True)
class PlayerLook:
    """How one player's territories shine: a colour and a time pattern."""

    rgb: RGB
    pattern: Pattern = "steady"


NEUTRAL_LOOK = PlayerLook(NEUTRAL_COLOUR)


def parse_colour(value: str | Iterable[int], *, what: str = "colour") -> RGB:
    """Read a colour from `"#rrggbb"`, `"rrggbb"` or `[r, g, b]`; raise `PaletteError` if bad.

    >>> parse_colour("#ff8000")
    (255, 128, 0)
    >>> parse_colour([1, 2, 3])
    (1, 2, 3)
    """
    if isinstance(value, str):
        text = value.strip().removeprefix("#")
        if len(text) != 6:
            raise PaletteError(f"{what} must look like #rrggbb, got {value!r}")
        try:
            return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))
        except ValueError:
            raise PaletteError(f"{what} must look like #rrggbb, got {value!r}") from None
    parts = list(value)
    if len(parts) != 3 or not all(isinstance(p, int) and 0 <= p <= 255 for p in parts):
        raise PaletteError(f"{what} must be three integers 0..255, got {parts!r}")
    return (parts[0], parts[1], parts[2])


class Palette:
    """Every seat's look (colour + pattern), plus the third armies' (`THIRD_ARMY_COLOURS`);
    unknown ids fall back to `NEUTRAL_COLOUR`."""

    def __init__(self, looks: Mapping[str, PlayerLook] | None = None) -> None:
        merged = {army: PlayerLook(rgb) for army, rgb in THIRD_ARMY_COLOURS.items()}
        merged.update({colour: PlayerLook(rgb) for colour, rgb in DEFAULT_COLOURS.items()})
        merged.update(looks or {})
        self._looks: Mapping[str, PlayerLook] = MappingProxyType(merged)

    @classmethod
    def from_config(
        cls,
        colours: Mapping[str, str | Iterable[int]] | None = None,
        patterns: Mapping[str, str] | None = None,
    ) -> Palette:
        """Build a palette from config tables `{colour: "#rrggbb"}` and `{colour: pattern}`."""
        looks = {c: PlayerLook(rgb) for c, rgb in DEFAULT_COLOURS.items()}
        for player, value in (colours or {}).items():
            rgb = parse_colour(value, what=f"colour of {player}")
            looks[player] = PlayerLook(rgb, looks.get(player, PlayerLook(rgb)).pattern)
        for player, pattern in (patterns or {}).items():
            if pattern not in PATTERNS:
                raise PaletteError(
                    f"pattern of {player} must be one of {', '.join(PATTERNS)}, got {pattern!r}"
                )
            base = looks.get(player, PlayerLook(NEUTRAL_COLOUR))
            looks[player] = PlayerLook(base.rgb, pattern)  # type: ignore[arg-type]
        return cls(looks)

    def look(self, player: str | None) -> PlayerLook:
        """The look of `player` (neutral for None or an unknown id)."""
        if player is None:
            return NEUTRAL_LOOK
        return self._looks.get(player, NEUTRAL_LOOK)

    def rgb(self, player: str | None) -> RGB:
        """Just the colour of `player`."""
        return self.look(player).rgb

    def as_dict(self) -> dict[str, dict[str, object]]:
        """JSON form for status pages: `{colour_id: {"rgb": [r,g,b], "pattern": ...}}`."""
        return {k: {"rgb": list(v.rgb), "pattern": v.pattern} for k, v in self._looks.items()}


def pattern_level(pattern: str, t: float) -> float:
    """Brightness factor 0..1 of a player pattern at time `t` seconds (pure, periodic).

    >>> pattern_level("steady", 12.3)
    1.0
    """
    if pattern == "breath":
        return 0.55 + 0.45 * PATTERN_BREATH.level(t)
    if pattern == "double_blink":
        phase = t % 2.0
        return 0.15 if (0.0 <= phase < 0.12 or 0.24 <= phase < 0.36) else 1.0
    return 1.0


# --- colour-blind distinguishability -------------------------------------------------------

_CVD_MATRICES: Mapping[str, tuple[tuple[float, ...], ...]] = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
_WARM_LIGHT = (1.0, 0.55, 0.2)  # linear RGB of a ~2700 K room light reflected by the board


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = lin
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(v: float) -> float:
        return v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def perceived_lab(rgb: RGB, vision: str = "normal", warm: float = 0.0) -> tuple[float, ...]:
    """CIELAB of an LED colour under a `warm` (0..1) room-light veil, as seen with `vision`.

    The warm light mixes with the LED's light on the board first; the mix then passes
    through the viewer's eye, so the colour-vision simulation applies to both."""
    m = _CVD_MATRICES[vision]
    lin = [_linear(c) for c in rgb]
    mixed = [(1 - warm) * lin[i] + warm * _WARM_LIGHT[i] for i in range(3)]
    seen = tuple(min(1.0, max(0.0, sum(m[i][j] * mixed[j] for j in range(3)))) for i in range(3))
    return _lab(seen)  # type: ignore[arg-type]


def delta_e2000(lab1: tuple[float, ...], lab2: tuple[float, ...]) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (Sharma, Wu & Dalal 2005;
    kL = kC = kH = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    dh_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_mean = (h1p + h2p) / 2
    else:
        hp_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hp_mean - 30))
         + 0.24 * math.cos(math.radians(2 * hp_mean))
         + 0.32 * math.cos(math.radians(3 * hp_mean + 6))
         - 0.20 * math.cos(math.radians(4 * hp_mean - 63)))
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = (-2 * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
          * math.sin(math.radians(60 * math.exp(-(((hp_mean - 275) / 25) ** 2)))))
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dh_big / sh) ** 2
                     + rt * (dc / sc) * (dh_big / sh))


@dataclass(frozen=True)
class Contrast:
    """The closest pair of a palette: ΔE, the two ids, and the viewing condition."""

    delta_e: float
    first: str
    second: str
    vision: str
    warm: float


def min_contrast(
    colours: Mapping[str, RGB], warm_levels: Iterable[float] = (0.0, 0.25)
) -> Contrast:
    """The worst pair of `colours` over every vision type and warm-light level (ΔE2000)."""
    worst: Contrast | None = None
    levels = tuple(warm_levels)
    for vision in _CVD_MATRICES:
        for warm in levels:
            labs = {k: perceived_lab(v, vision, warm) for k, v in colours.items()}
            for a, b in itertools.combinations(sorted(labs), 2):
                d = delta_e2000(labs[a], labs[b])
                if worst is None or d < worst.delta_e:
                    worst = Contrast(d, a, b, vision, warm)
    if worst is None:
        raise ValueError("min_contrast needs at least two colours")
    return worst


def contrast_to(army: str, rgb: RGB, seats: Mapping[str, RGB],
                warm_levels: Iterable[float] = (0.0, 0.25)) -> Contrast:
    """The seat closest to one more army (`army` drawn in `rgb`) over every viewing
    condition; seat pairs among themselves are not compared (see `min_contrast`)."""
    levels = tuple(warm_levels)
    pairs = (min_contrast({army: rgb, seat: colour}, levels)
             for seat, colour in seats.items() if seat != army)
    worst = min(pairs, key=lambda c: c.delta_e, default=None)
    if worst is None:
        raise ValueError("contrast_to needs at least one seat")
    return worst
