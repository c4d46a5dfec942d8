"""The board's sensors as the table reads them: touches, token taps and marker tracking.

`BoardReader` turns the bridge's sensor events into the core's inputs (a press or a
token's tap is a `Touch`, a tap of an unknown tag is refused) and, on NFC boards with
markers, keeps the marker readings (`MarkerTracker`) and the mismatches between the
pieces on the map and the game's owners. A token lifted after its touch leaves the marker
underneath unchanged. The Pico's full state dump after a (re)connect reloads the readings.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Protocol

from pi_app.rules import GameState
from pi_app.table.gestures import UNKNOWN_TOKEN, InputEvent, Touch
from pi_app.table.kinds import GameKind
from pi_app.table.lights import Mismatch
from pi_app.table.tracking import MarkerTracker
from pi_app.table.wiring import Wiring, normalise_uid

log = logging.getLogger("riskboard.table")


class SensedTable(Protocol):
    """What the board's reader uses of the table (`TableCore`): the game and its kind, the
    clock, where its touches go and where a change of the mismatches is told."""

    @property
    def state(self) -> GameState | None: ...

    @property
    def kind(self) -> GameKind: ...

    def clock(self) -> float: ...

    def on_input(self, event: InputEvent, seat: str | None = None) -> None: ...

    def publish(self, events: list[dict[str, Any]], *, state_changed: bool) -> int: ...


class BoardReader:
    """Sensor events in, touches and marker mismatches out (for one core)."""

    def __init__(self, core: SensedTable, wiring: Wiring, settle_s: float) -> None:
        self.core = core
        self.wiring = wiring
        self.tracker = (MarkerTracker(wiring.marker_colours, settle_s)
                        if wiring.nfc and wiring.marker_colours else None)
        self.mismatches: dict[str, Mismatch] = {}
        self._channel_uid: dict[int, str | None] = {}

    def on_sensor(self, channel: int, kind: str, uid: bytes | str | None) -> None:
        """One sensor event from the bridge (press/release/tag_present/tag_removed)."""
        core = self.core
        territory = self.wiring.channel_territory.get(channel)
        if territory is None:
            log.warning("event=table.unknown_channel channel=%d kind=%s", channel, kind)
            return
        if kind == "press":
            core.on_input(Touch(territory))
        elif kind == "tag_present":
            hexuid = normalise_uid(uid)
            self._channel_uid[channel] = hexuid
            colour = self.wiring.token_colours.get(hexuid or "")
            if colour is not None:
                core.on_input(Touch(territory, colour))
                return
            if self.tracker is not None:
                self.tracker.read(territory, hexuid, core.clock())
                self.recheck()
            if hexuid not in self.wiring.marker_colours:
                core.on_input(Touch(territory, UNKNOWN_TOKEN))
        elif kind == "tag_removed":
            previous = self._channel_uid.pop(channel, None)
            if previous in self.wiring.token_colours:
                return  # a token lifted after a touch: the marker underneath is unchanged
            if self.tracker is not None:
                self.tracker.read(territory, None, core.clock())
                self.recheck()

    def on_dump(self, channels: Mapping[int, tuple[str, bytes | None]]) -> None:
        """The Pico's full sensor state after (re)connecting: reload the marker readings."""
        if self.tracker is None:
            return
        readings: dict[str, str | None] = {}
        for channel, (state, uid) in channels.items():
            territory = self.wiring.channel_territory.get(channel)
            hexuid = normalise_uid(uid) if state == "tag_present" else None
            if territory is None or hexuid in self.wiring.token_colours:
                continue
            self._channel_uid[channel] = hexuid
            readings[territory] = hexuid
        self.tracker.load_dump(readings, self.core.clock())
        self.recheck(force=True)

    def tracking(self) -> bool:
        """True when markers are tracked for the game running now."""
        state = self.core.state
        return self.tracker is not None and state is not None and self.core.kind.tracks_markers

    def refresh(self, now: float) -> None:
        """The game changed: judge the readings against its owners (no publishing)."""
        if self.tracking():
            assert self.tracker is not None and self.core.state is not None
            self.mismatches = self.tracker.mismatches(self.core.state.owner, now)

    def recheck(self, force: bool = False) -> None:
        """Judge the marker readings again; update lights and phones if the list changed."""
        if not self.tracking():
            return
        assert self.tracker is not None and self.core.state is not None
        found = self.tracker.mismatches(self.core.state.owner, self.core.clock())
        if found != self.mismatches or force:
            changed = found != self.mismatches
            self.mismatches = found
            if changed:
                self.core.publish([{"type": "board_mismatches", "count": len(found)}],
                                  state_changed=False)
