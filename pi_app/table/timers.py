"""The table's timed parts behind one interface: `deadline(now)` and `tick(now)`.

Each part says when it has something to do next (`deadline`, None: nothing planned) and
does it when its time has come (`tick`, called on every tick of the loop, due or not).
`Timers` holds them in the order the table runs them — board markers settling, the
refusal clearing, a RISK Strike reaction window closing, the computer's pace
(`pi_app.table.computer_play`) — and answers the loop's `next_deadline` and `tick`.

A refusal clears at the next accepted action or `REFUSAL_S` after it was made. A reaction
window: on each newly open window the table starts a timer of
`house_rules.reaction_seconds` (0: no timer) and, when it runs out, submits
`CloseWindow(window=id)` itself (journaled like any command; phones may never send it).
A pause holds the timer; resume restarts it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Protocol

from pi_app.rules import GameState, RuleError
from pi_app.rules.strike import CloseWindow
from pi_app.session import GameSession
from pi_app.table.board_inputs import BoardReader
from pi_app.table.gestures import Selection
from pi_app.table.kinds import GameKind

log = logging.getLogger("riskboard.table")

REFUSAL_S = 6.0  # a refusal shown this long clears by itself (the next accepted action sooner)


class Timed(Protocol):
    """A part of the table that acts at a time of its own."""

    def deadline(self, now: float) -> float | None:
        """When it acts next (None: nothing planned)."""

    def tick(self, now: float) -> None:
        """Act if its time has come (called on every tick)."""


class Timers:
    """The timed parts in the order they run."""

    def __init__(self, parts: Sequence[Timed]) -> None:
        self.parts = tuple(parts)

    def next_deadline(self, now: float) -> float | None:
        """The earliest deadline of any part, or None."""
        times = [t for t in (p.deadline(now) for p in self.parts) if t is not None]
        return min(times) if times else None

    def tick(self, clock: Any) -> None:
        """Let every part act whose time has come (each reads the clock afresh: an earlier
        part may have taken a while)."""
        for part in self.parts:
            part.tick(clock())


class RefusingTable(Protocol):
    """What the refusal timer uses of the table (`TableCore`): clearing the refusal and
    publishing that."""

    def clear_refusal(self) -> None: ...

    def publish(self, events: list[dict[str, Any]], *, state_changed: bool) -> int: ...


class RefusalTimer:
    """Clears the refusal shown `REFUSAL_S` after it was made."""

    def __init__(self, core: RefusingTable) -> None:
        self.core = core
        self.until: float | None = None

    def start(self, now: float) -> None:
        """A refusal was just shown."""
        self.until = now + REFUSAL_S

    def stop(self) -> None:
        """The refusal was cleared."""
        self.until = None

    def deadline(self, now: float) -> float | None:
        """When the refusal shown clears."""
        return self.until

    def tick(self, now: float) -> None:
        """Clear it (and publish) once its time is up."""
        if self.until is not None and now >= self.until:
            self.core.clear_refusal()
            self.core.publish([], state_changed=False)


class TrackingTable(Protocol):
    """What marker settling uses of the table (`TableCore`): its board reader."""

    board: BoardReader


class MarkerSettling:
    """Board tracking: marker readings settle after a while; judge them again."""

    def __init__(self, core: TrackingTable) -> None:
        self.core = core

    def deadline(self, now: float) -> float | None:
        """When the next pending reading settles."""
        tracker = self.core.board.tracker
        return tracker.next_settle(now) if tracker is not None else None

    def tick(self, now: float) -> None:
        """Judge the readings again (nothing is published unless the list changed)."""
        self.core.board.recheck()


class WindowTable(Protocol):
    """What the reaction window timer uses of the table (`TableCore`): the game, its kind
    and session, the clock, the pause, and the selection it settles before publishing."""

    session: GameSession | None
    paused: bool
    selection: Selection

    @property
    def state(self) -> GameState | None: ...

    @property
    def kind(self) -> GameKind: ...

    def clock(self) -> float: ...

    def settled(self, selection: Selection) -> Selection: ...

    def publish(self, events: list[dict[str, Any]], *, state_changed: bool) -> int: ...


class ReactionWindowTimer:
    """RISK Strike's reaction window timer: (window id, deadline) while one runs."""

    def __init__(self, core: WindowTable) -> None:
        self.core = core
        self.timer: tuple[int, float] | None = None

    def sync(self, events: list[dict[str, Any]]) -> None:
        """Start the timer for a newly open window; drop it once none is open."""
        core = self.core
        state = core.state
        window = core.kind.window(state) if state is not None else None
        if window is None:
            self.timer = None
            return
        window_id, seconds = window
        opened = any(e.get("type") == "window_opened" and e.get("window") == window_id
                     for e in events)
        if seconds <= 0:
            self.timer = None
        elif opened or self.timer is None or self.timer[0] != window_id:
            self.timer = (window_id, core.clock() + seconds)

    def restart(self) -> None:
        """Pause or resume: a resumed window gets its whole time again."""
        if self.timer is not None:
            self.timer = None
            self.sync([])

    def deadline(self, now: float) -> float | None:
        """The window's deadline (none while the game is paused)."""
        return None if self.timer is None or self.core.paused else self.timer[1]

    def tick(self, now: float) -> None:
        """Close the window whose time ran out."""
        timer = self.timer
        if timer is not None and not self.core.paused and now >= timer[1]:
            self.close(timer[0])

    def close(self, window: int) -> None:
        """The table itself submits `CloseWindow(window)`."""
        self.timer = None
        core = self.core
        if core.session is None:
            return
        try:
            _seq, events = core.session.submit(CloseWindow(window=window))
        except RuleError as exc:  # closed meanwhile (everyone passed, an undo): nothing to do
            log.info("event=table.window_timer_stale window=%d code=%s", window, exc.code)
            return
        log.info("event=table.window_closed window=%d by=timer", window)
        core.selection = core.settled(core.selection)
        core.publish([e.to_dict() for e in events], state_changed=True)
