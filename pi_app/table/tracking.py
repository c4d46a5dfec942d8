"""Reconciling the pieces on the real board with the game: which marker stands where.

On boards whose territories have NFC readers every army colour has tagged marker pieces.
`MarkerTracker` keeps each territory's latest reading (a marker tag, an unknown tag or
nothing) and compares it with the game's owner of that territory:

- `wrong_colour`: a marker of another colour stands there;
- `missing`: no marker at all on an owned territory;
- `unknown_tag`: a tag that belongs to no colour.

A flickering read is not a mismatch: a reading that disagrees with the game is reported only
once it has stayed unchanged for `settle_s` seconds (several scans of the Pico), whereas a
reading that agrees clears the mismatch at once, so a fix shows the moment it is made.
A change of the game itself (a conquest, a claim, a resume) is judged against readings that
have long settled, so every territory to fix lights at once. Territories never read yet
(before the Pico's first state dump) and unowned territories are never reported.
Mismatches never block play: the rules do not depend on the pieces.

Pure: the caller passes the time; nothing here reads a clock or does I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from pi_app.table.lights import Mismatch

DEFAULT_SETTLE_S = 0.6


@dataclass
class _Reading:
    uid: str | None
    since: float


class MarkerTracker:
    """Latest marker readings per territory, judged against the owners with hysteresis."""

    def __init__(self, marker_colours: Mapping[str, str], settle_s: float = DEFAULT_SETTLE_S
                 ) -> None:
        """`marker_colours` maps a marker tag's UID (lower-case hex) to its army colour."""
        self._colours = {uid.lower(): colour for uid, colour in marker_colours.items()}
        self.settle_s = settle_s
        self._readings: dict[str, _Reading] = {}
        self._reported: dict[str, Mismatch] = {}

    def is_marker(self, uid: str) -> bool:
        """True if `uid` is one of the registered marker tags."""
        return uid.lower() in self._colours

    def read(self, territory: str, uid: str | None, now: float) -> None:
        """Record what the reader of `territory` sees now: a tag UID (hex) or None (no tag)."""
        uid = uid.lower() if uid else None
        old = self._readings.get(territory)
        if old is None or old.uid != uid:
            self._readings[territory] = _Reading(uid, now)

    def load_dump(self, readings: Mapping[str, str | None], now: float,
                  settled: bool = True) -> None:
        """Take a full state dump (after connecting or resuming) as the current readings.

        A dump describes pieces that have been standing for a while, so by default its
        readings count as settled at once; unchanged readings keep their age.
        """
        since = -math.inf if settled else now
        for territory, uid in readings.items():
            uid = uid.lower() if uid else None
            old = self._readings.get(territory)
            if old is None or old.uid != uid:
                self._readings[territory] = _Reading(uid, since)

    def _judge(self, uid: str | None, expected: str) -> Mismatch | None:
        if uid is None:
            return Mismatch("missing", expected)
        seen = self._colours.get(uid)
        if seen is None:
            return Mismatch("unknown_tag", expected)
        if seen != expected:
            return Mismatch("wrong_colour", expected, seen)
        return None

    def mismatches(self, owners: Mapping[str, str | None], now: float) -> dict[str, Mismatch]:
        """Every territory to fix now (see the module docstring for the hysteresis)."""
        reported: dict[str, Mismatch] = {}
        for territory, reading in self._readings.items():
            expected = owners.get(territory)
            if expected is None:
                continue
            verdict = self._judge(reading.uid, expected)
            if verdict is None:
                continue
            if now - reading.since >= self.settle_s:
                reported[territory] = verdict
                continue
            previous = self._reported.get(territory)
            if previous is not None and previous.expected == expected:
                reported[territory] = previous
        self._reported = reported
        return dict(reported)

    def next_settle(self, now: float) -> float | None:
        """The earliest time a pending reading settles (so the loop re-checks then), or None."""
        pending = [r.since + self.settle_s for r in self._readings.values()
                   if r.since + self.settle_s > now]
        return min(pending) if pending else None
