"""The board's gentle swells and breaths as curves of time, and when each is next worth a frame.

Every slow movement of the LEDs (the unclaimed territories' and the setup's phase LED's
breath, a player's "breath" pattern, the current player's turn cue) is a raised cosine: its
level, 0..1 of its swing, is ``(1 - cos(2π (t - origin) / period)) / 2``. A frame is drawn
when a swell has moved one *step* since the frame before, or reaches its top or trough
(`Swell.next_step`), not at a fixed rate: the step is what the swell moves in
`SWELL_FRAME_S` where it is steepest, so its largest jump between frames is what 10 frames
a second drew, and near its turns, where it moves less, it is drawn less often. A breath
then costs 16 frames a period instead of 25, the turn cue 10 instead of 15, and swells
moving at once share frames (each frame draws them all, and each is stepped from there).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# At its steepest, a swell moves a step every this long (10 steps a second there).
SWELL_FRAME_S = 0.1
# A frame drawn this close before a swell's top or trough counts as drawn at it (the clock's
# rounding must not make the painter draw the turn twice).
TURN_SLACK_S = 1e-6


@dataclass(frozen=True)
class Swell:
    """A raised cosine of `period` seconds that is at its trough at `origin` (and at every
    period from it): `level(t)`, 0..1 of its swing."""

    period: float
    origin: float = 0.0

    @property
    def step(self) -> float:
        """The level it moves between two frames: what it moves in `SWELL_FRAME_S` where
        it is steepest (its slope there is π / period)."""
        return math.pi * SWELL_FRAME_S / self.period

    def level(self, t: float) -> float:
        """0 at the trough, 1 at the top."""
        return 0.5 - 0.5 * math.cos(2 * math.pi * (t - self.origin) / self.period)

    def next_step(self, t: float) -> float:
        """The first time after `t` its level is a `step` away from its level at `t`, or
        it turns (its top or its trough, drawn as it is reached) if that comes first."""
        turn = 2 * math.pi
        u0 = (t - self.origin) / self.period % 1.0 * turn  # its phase, 0 at the trough
        c0 = math.cos(u0)
        d = 2 * self.step  # a step of the level is twice that of the cosine
        at_turn = turn * TURN_SLACK_S / self.period  # a frame drawn at a turn is past it
        if u0 < math.pi - at_turn:  # rising to its top at π
            u1 = math.acos(c0 - d) if c0 - d > -1.0 else math.pi
        elif u0 < turn - at_turn:  # falling to its trough at 2π
            u1 = turn - math.acos(c0 + d) if c0 + d < 1.0 else turn
        else:  # at the trough: rising again
            u1 = turn + math.acos(max(-1.0, c0 - d))
        return t + max(0.0, u1 - u0) / turn * self.period


# The breath of the unclaimed territories (claim phase) and of the setup's phase LED:
# 0.5 + 0.5 sin(2π t / 2.5), at its middle and rising at t = 0.
CLAIM_BREATH = Swell(2.5, origin=-2.5 / 4)
# A player's "breath" pattern (pi_app.table.palette): from its trough at t = 0, every 3 s.
PATTERN_BREATH = Swell(3.0)
