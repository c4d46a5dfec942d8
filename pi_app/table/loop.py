"""The table loop: the one thread that owns the game.

Sensor events from the bridge, control buttons from GPIO and commands from the web all
reach it through one queue, as callables run on the loop thread with the `TableCore`
(`pi_app.table.core`: single-threaded, testable without threads). Between inputs the
loop sleeps until the core's `next_deadline` and then calls its `tick`. No other thread
touches the game state: readers only see the published snapshots (`publishing`).

`TableLoop` also opens the SQLite journal on that thread (a sqlite3 connection belongs to
the thread that made it), resumes the last running game at start (relighting the board
exactly as the state says), or starts the given demo.

The table's names that other modules and tests import from here are re-exported below.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from firmware_bridge.thread_names import name_os_thread
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.table.core import TableCore
from pi_app.table.host_actions import seat_tokens_of as _seat_tokens
from pi_app.table.kinds import awaited
from pi_app.table.lights import Scene
from pi_app.table.publishing import (
    RECENT_ENTRIES,
    UPDATE_LOG,
    UPDATE_LOG_EVENTS,
    Publisher,
    Snapshot,
    opening_events,
    public_selection,
    recent_log,
)
from pi_app.table.timers import REFUSAL_S
from pi_app.table.tracking import DEFAULT_SETTLE_S
from pi_app.table.wiring import NewGameSpec, Wiring, normalise_uid

__all__ = [
    "RECENT_ENTRIES", "REFUSAL_S", "UPDATE_LOG", "UPDATE_LOG_EVENTS", "NewGameSpec",
    "Publisher", "Snapshot", "TableCore", "TableLoop", "Wiring", "_seat_tokens", "awaited",
    "normalise_uid", "opening_events", "public_selection", "recent_log",
]

log = logging.getLogger("riskboard.table")

HEARTBEAT_S = 0.5  # the longest sleep of a loop that pings a watchdog, unless told its own
T = TypeVar("T")
Work = Callable[[TableCore], Any]  # what the queue carries: run on the loop thread


class _Stop(Exception):
    """Raised by the work item that ends the loop."""


def _stop(core: TableCore) -> None:
    raise _Stop


class TableLoop:
    """Runs a `TableCore` on one thread; every other thread talks to it through a queue."""

    def __init__(self, journal_path: str | Path, wiring: Wiring, *,
                 show: Callable[[Scene], None] = lambda scene: None,
                 demo: NewGameSpec | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 settle_s: float = DEFAULT_SETTLE_S,
                 heartbeat: Callable[[], object] | None = None,
                 heartbeat_s: float = HEARTBEAT_S,
                 dice: Callable[[], FairDice] | None = None) -> None:
        """`heartbeat` is called from the loop thread at least every `heartbeat_s` (the
        systemd watchdog: it stops when the loop hangs; `Heartbeat.longest_sleep` says how
        long its loop may sleep). Without one the loop sleeps until an input comes or the
        core's next deadline, however far."""
        self.journal_path = Path(journal_path)
        self.heartbeat = heartbeat
        self.heartbeat_s = heartbeat_s
        self._dice = dice
        self.wiring = wiring
        self.publisher = Publisher()
        self._show = show
        self._demo = demo
        self._clock = clock
        self._settle_s = settle_s
        self._queue: queue.Queue[Work] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None
        self.core: TableCore | None = None
        # while a bring-up runs (pi_app.table.bringup_mode), the board's sensors and buttons
        # are its, not the game's: read on the loop thread, so no input goes to both
        self.mode: Any = None
        self.inputs_handled = 0
        self.errors = 0

    # --- lifecycle -------------------------------------------------------------------------
    def start(self, timeout: float = 30.0) -> None:
        """Open the journal, resume or start a game, and run; raise if that fails."""
        self._thread = threading.Thread(target=self._run, name="table-loop", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the table loop did not start in time")
        if self._startup_error is not None:
            raise self._startup_error

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the work queued so far, close the journal and end the thread."""
        if self._thread is None:
            return
        self._queue.put(_stop)
        self._thread.join(timeout)
        self._thread = None

    @property
    def running(self) -> bool:
        """True while the loop thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    # --- inputs from other threads ---------------------------------------------------------
    def post_sensor(self, event: Any) -> None:
        """A `firmware_bridge.link.SensorEvent` (called on the link thread)."""
        self._queue.put(partial(self._route, "on_sensor", channel=event.channel,
                                kind=event.kind, uid=event.uid))

    def post_dump(self, dump: Any) -> None:
        """A `firmware_bridge.link.StateDump` (called on the link thread)."""
        self._queue.put(partial(self._route, "on_dump", channels=dict(dump.channels)))

    def post_control(self, event: Any) -> None:
        """A `hardware.controls.ControlEvent` (called on a GPIO thread)."""
        self._queue.put(partial(self._route, "on_control", name=event.name, kind=event.kind))

    def _route(self, method: str, core: TableCore, **args: Any) -> None:
        """On the loop thread: the bring-up's input while one runs, else the game's."""
        target = self.mode if self.mode is not None else core
        getattr(target, method)(**args)

    def call(self, fn: Callable[[TableCore], T], timeout: float = 30.0) -> T:
        """Run `fn(core)` on the loop thread and return its result (or raise its error)."""
        future: Future[T] = Future()

        def work(core: TableCore) -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(core))
            except BaseException as exc:
                future.set_exception(exc)

        self._queue.put(work)
        return future.result(timeout)

    # --- the thread ------------------------------------------------------------------------
    def _run(self) -> None:
        name_os_thread()
        try:
            journal = Journal(self.journal_path)
            core = TableCore(journal, self.wiring, show=self._show, publisher=self.publisher,
                             clock=self._clock, settle_s=self._settle_s, dice=self._dice)
            core.start(self._demo)
            self.core = core
        except BaseException as exc:
            self._startup_error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            self._serve(core)
        finally:
            journal.close()

    def _serve(self, core: TableCore) -> None:
        while True:
            if self.heartbeat is not None:
                self.heartbeat()
            deadline = core.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - self._clock()) + 0.001
            if self.heartbeat is not None:
                timeout = self.heartbeat_s if timeout is None else min(timeout, self.heartbeat_s)
            try:
                item = self._queue.get(timeout=timeout)
            except queue.Empty:
                core.tick()
                continue
            try:
                item(core)
            except _Stop:
                return
            except Exception:
                self.errors += 1
                log.exception("event=table.input_failed item=%r", item)
            self.inputs_handled += 1
            if deadline is not None and self._clock() >= deadline:
                core.tick()
