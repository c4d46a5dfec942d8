"""What readers see of the table: the immutable `Snapshot` and the `Publisher` they wait on.

The core publishes a new snapshot plus the update's events after every change
(`TableCore.publish`); readers on other threads (the web service) only ever see these.
`recent_log` and `opening_events` give the events a reset of the log starts with.
"""

from __future__ import annotations

import bisect
import sys
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

from pi_app.computer.seats import ComputerSeats
from pi_app.rules import GameState
from pi_app.session import GameSession, replay_steps
from pi_app.table.awaiting import Awaiting
from pi_app.table.board_inputs import BoardReader
from pi_app.table.game_facts import GameFacts
from pi_app.table.gestures import EMPTY, Selection
from pi_app.table.kinds import BOARD_KIND, GameKind
from pi_app.table.lights import Mismatch

UPDATE_LOG = 300  # updates kept in memory (the web's reset sends the last 200)
UPDATE_LOG_EVENTS = 3000  # ... and at most this many events in them (a long blitz has 40)
# journal entries whose events an undo's or a restart's update carries: a phone's reset asks
# for the last 200 updates (pi_app.web.stream.RECENT_LOG), which hold at most as many entries
RECENT_ENTRIES = 200


@dataclass(frozen=True)
class Snapshot:
    """What readers (the web) see of the table, published whole after every update.

    `state` is a private copy nobody mutates; `revision` is the web's `seq`.
    """

    revision: int = 0
    game_id: int | None = None
    state: GameState | None = None
    status: str | None = None
    commitment: str | None = None
    selection: Selection = EMPTY
    mismatches: Mapping[str, Mismatch] = field(default_factory=lambda: MappingProxyType({}))
    refusal: Mapping[str, Any] | None = None
    paused: bool = False
    history: int = 0  # raised by every undo: updates published before it are no longer true
    computers: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    kind: GameKind = BOARD_KIND  # the game's kind (pi_app.table.kinds)
    # what the table waits for (pi_app.table.awaiting): `awaiting.view(viewer)` per viewer
    awaiting: Awaiting = field(default_factory=lambda: Awaiting("none"))

    def table_dict(self) -> dict[str, Any]:
        """The table's own part of a view: selection, the count being set (`count`: what
        Roll / Confirm would use now, see `gestures.Count`), mismatches, the refusal of the
        moment (None once the next action was accepted or it is a few seconds old), pause, and
        the game's `kind` ("board" or "strike", `pi_app.table.kinds`)."""
        count = (self.kind.count(self.state, self.selection)
                 if self.state is not None else None)
        return {
            "kind": self.kind.name,
            "selection": public_selection(self.state, self.selection).to_dict(),
            "count": count.to_dict() if count else None,
            "mismatches": [{"territory": t, **m.to_dict()}
                           for t, m in sorted(self.mismatches.items())],
            "refusal": dict(self.refusal) if self.refusal else None,
            "paused": self.paused,
            "computers": dict(self.computers) or None,
        }


def public_selection(state: Any, selection: Selection) -> Selection:
    """The selection as everyone may see it: none during Capital's secret HQ pick."""
    if state is not None and getattr(state, "phase", None) == "hq_pick":
        return EMPTY
    return selection


def recent_log(session: GameSession) -> tuple[int, list[dict[str, Any]]]:
    """The game's recent log: the first journal seq it covers and the events of its last
    `RECENT_ENTRIES` active entries, oldest first."""
    entries = session.recent_events(RECENT_ENTRIES)
    first = entries[0][0] if entries else 0
    return first, [e.to_dict() for _seq, events in entries for e in events]


def opening_events(session: GameSession) -> list[dict[str, Any]]:
    """The events of a game's entry 0 (its start), rebuilt by replaying that entry."""
    record = session.journal.load(session.game_id)
    for _entry, _state, events in replay_steps(record, until_seq=0):
        return [e.to_dict() for e in events]
    return []


class Publisher:
    """The one place readers wait on: latest snapshot plus a short log of updates.

    The log keeps the last `UPDATE_LOG` updates holding at most `UPDATE_LOG_EVENTS`
    events, so a long game's memory stays flat. Older updates are gone from memory but
    not from the journal: `journal_span(revision)` says which journal entries a reader
    that saw `revision` is missing (the service rebuilds their events by replay)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._snapshot = Snapshot()
        self._log: deque[tuple[int, list[dict[str, Any]]]] = deque()
        self._logged_events = 0
        self._dropped: tuple[int, int] | None = None  # newest dropped (revision, journal seq)
        self._journal_at: list[tuple[int, int]] = []  # (revision, journal seq) when it moved
        self._journal_from = 0  # the first journal seq the log covers since its last reset

    @property
    def snapshot(self) -> Snapshot:
        """The latest snapshot (an immutable object: safe to read from any thread)."""
        return self._snapshot

    def publish(self, snapshot: Snapshot, events: list[dict[str, Any]] | None,
                reset: bool = False, journal_seq: int | None = None,
                journal_from: int = 0) -> None:
        """Make `snapshot` current; log `events` under its revision; wake every waiter.
        `journal_seq` is the game's last journal entry after this update; a `reset`'s
        events are those of the journal entries from `journal_from` on (the log starts
        over with them: nothing before them is rebuilt for a reader)."""
        with self._cond:
            if reset:
                self._log.clear()
                self._logged_events = 0
                self._dropped = None
                self._journal_at = []
                self._journal_from = journal_from
            self._snapshot = snapshot
            if journal_seq is not None and (not self._journal_at
                                            or self._journal_at[-1][1] != journal_seq):
                self._journal_at.append((snapshot.revision, journal_seq))
            if events is not None:
                self._log.append((snapshot.revision, events))
                self._logged_events += len(events)
                while len(self._log) > 1 and (len(self._log) > UPDATE_LOG
                                              or self._logged_events > UPDATE_LOG_EVENTS):
                    revision, dropped = self._log.popleft()
                    self._logged_events -= len(dropped)
                    self._dropped = (revision, self._journal_seq_at(revision))
            self._cond.notify_all()

    def _journal_seq_at(self, revision: int) -> int:
        """The journal seq current at `revision` (-1 before the game's first entry)."""
        index = bisect.bisect_right(self._journal_at, (revision, sys.maxsize)) - 1
        return self._journal_at[index][1] if index >= 0 else -1

    def journal_span(self, revision: int) -> tuple[int, int, int] | None:
        """For a reader that saw `revision` (-1: nothing yet), the updates it misses that the
        log no longer holds: (the newest dropped revision, first journal seq missing, last
        journal seq missing); None when the log still holds all it misses."""
        with self._cond:
            if self._dropped is None or revision >= self._dropped[0]:
                return None
            first = max(self._journal_from,
                        self._journal_seq_at(revision) + 1 if revision >= 0 else 0)
            dropped_revision, last = self._dropped
            return (dropped_revision, first, last) if first <= last else None

    def updates_since(self, revision: int) -> list[tuple[int, list[dict[str, Any]]]]:
        """Logged updates after `revision`, oldest first."""
        with self._cond:
            return [(r, e) for r, e in self._log if r > revision]

    def wait_for(self, after: int, timeout: float) -> int:
        """Block until the revision differs from `after` or `timeout` passes; return it."""
        with self._cond:
            self._cond.wait_for(lambda: self._snapshot.revision != after, timeout)
            return self._snapshot.revision


class PublishedTable(Protocol):
    """What a snapshot is taken of (`TableCore`): the fields a reader may see."""

    revision: int
    session: GameSession | None
    selection: Selection
    board: BoardReader
    refusal: dict[str, Any] | None
    paused: bool
    history: int
    computers: ComputerSeats
    facts: GameFacts

    @property
    def kind(self) -> GameKind: ...


def snapshot_of(core: PublishedTable, state: GameState | None) -> Snapshot:
    """The core's next snapshot (its revision already raised), with `state`, the copy of
    the game state the core took at its last change: a copy of everything a reader may
    see, nothing of it shared with the live game."""
    session = core.session
    return Snapshot(
        revision=core.revision,
        game_id=session.game_id if session else None,
        state=state,
        status=session.status if session else None,
        commitment=session.commitment if session else None,
        selection=core.selection,
        mismatches=MappingProxyType(dict(core.board.mismatches)),
        refusal=MappingProxyType(core.refusal) if core.refusal else None,
        paused=core.paused,
        history=core.history,
        computers=MappingProxyType(core.computers.public()) if core.computers.levels
        else MappingProxyType({}),
        kind=core.kind,
        awaiting=core.facts.awaiting(state),
    )
