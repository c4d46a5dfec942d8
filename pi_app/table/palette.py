"""Player colours and patterns as the LEDs show them, chosen to stay apart for colour-blind eyes.

The default palette was searched so that every pair of colours stays at least ~25 ΔE
(CIELAB) apart for normal vision and under simulated protanopia, deuteranopia and
tritanopia (Machado 2009, full severity), with and without a 25 % warm (2700 K-like)
veil of room light. `min_contrast()` measures any palette the same way, so a table that
configures its own colours can be warned (`riskboard doctor`) when two collapse.
The "black" army is shown as white: an LED cannot shine black.

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

RGB = tuple[int, int, int]
Pattern = Literal["steady", "breath", "double_blink"]
PATTERNS: tuple[str, ...] = ("steady", "breath", "double_blink")

DEFAULT_COLOURS: Mapping[str, RGB] = MappingProxyType(
    {
        "red": (214, 47, 0),
        "blue": (8, 8, 240),
        "green": (0, 214, 140),
        "yellow": (241, 199, 0),
        "black": (255, 255, 255),
        "pink": (201, 14, 190),
    }
)
NEUTRAL_COLOUR: RGB = (150, 110, 60)
"""Colour of an army id the palette does not know (never a seat's colour)."""

THIRD_ARMY_COLOURS: Mapping[str, RGB] = MappingProxyType(
    {
        "neutral": (96, 96, 96),  # grey: the two-player game's neutral army
        "allied": (70, 120, 120),  # muted teal: the Allied Army
    }
)
"""The armies that are no seat. Each stays >= 16 ΔE from every seat colour in every
vision type (`min_contrast`); they never share a board (one per two-player variant)."""


class PaletteError(ValueError):
    """A configured colour or pattern cannot be used; the message names the player and value."""


@dataclass(frozen=True)
class PlayerLook:
    """How one player's territories shine: a colour and a time pattern."""

    rgb: RGB
    pattern: Pattern = "steady"


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
            return PlayerLook(NEUTRAL_COLOUR)
        return self._looks.get(player, PlayerLook(NEUTRAL_COLOUR))

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
        return 0.55 + 0.45 * (0.5 - 0.5 * math.cos(2 * math.pi * t / 3.0))
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
    """CIELAB of an LED colour as seen with `vision` under a `warm` (0..1) room-light veil."""
    m = _CVD_MATRICES[vision]
    lin = [_linear(c) for c in rgb]
    seen = [min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]
    mixed = tuple((1 - warm) * seen[i] + warm * _WARM_LIGHT[i] for i in range(3))
    return _lab(mixed)  # type: ignore[arg-type]


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
    """The worst pair of `colours` over every vision type and warm-light level (CIE76 ΔE)."""
    worst: Contrast | None = None
    levels = tuple(warm_levels)
    for vision in _CVD_MATRICES:
        for warm in levels:
            labs = {k: perceived_lab(v, vision, warm) for k, v in colours.items()}
            for a, b in itertools.combinations(sorted(labs), 2):
                d = math.dist(labs[a], labs[b])
                if worst is None or d < worst.delta_e:
                    worst = Contrast(d, a, b, vision, warm)
    if worst is None:
        raise ValueError("min_contrast needs at least two colours")
    return worst
