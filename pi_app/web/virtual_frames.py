"""The virtual board's LED frames for a page that follows them: a stream, or a long-poll.

`GET /api/virtual/frames` is an event stream of the frames as the strip moves on: `event:
frame` with the board (`virtual_board()`: the frame's `version` and LEDs, and the LED map
when it is new to the stream), at most one a frame period (`FRAME_S`, the rate /virtual
always drew at), nothing but a heartbeat while the LEDs stand still.
`GET /api/virtual/board?after=<version>` answers at once when the frame shown is another
than `version`, else waits up to `WAIT_S` for one (and then answers with the frame as it
is, the same version when nothing changed): the page's way when it has no stream.

Each stream and each waiting request holds a waitress thread, one of those kept for pages
and commands (`serve.RESERVED_THREADS`): not an event stream's slot (`limits.StreamSlots`),
which the page's own live stream takes, and which a spectator's table view must still find.
So `FrameWaits` lets only `TOTAL` of them be open at once, `PER_CLIENT` per address (a
browser has six connections to a server for all its tabs: the table's own streams come
first). Past that a stream is answered with `event: busy` alone (its page
takes the long-poll for a while, and tries the stream again) and a long-poll at once, as if
its frame had moved on, so its page asks again a frame period later (as every page did
before there were waits). Only a simulated table has a virtual board: on real
hardware nothing here ever waits. Both look every `SLICE_S` whether their client left
(waitress's `client_disconnected`) or the server is stopping, and end then: no page closed
mid-wait holds a thread for long, and a stop never waits on one.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Response, current_app, request

from pi_app.web.context import WebContext, client_key

FRAME_S = 0.1
WAIT_S = 20.0
SLICE_S = 1.0
TOTAL = 4
PER_CLIENT = 2  # a page, and the one it is being reloaded from for a moment
_EXTENSION = "riskboard.frame_waits"


class FrameWaits:
    """How many frame waits are under way, in all and per address (see the module)."""

    def __init__(self, total: int = TOTAL, per_client: int = PER_CLIENT) -> None:
        self.total = total
        self.per_client = per_client
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}

    def acquire(self, key: str) -> bool:
        """Take a wait for address `key`; False when its share or the total is taken."""
        with self._lock:
            n = self._open.get(key, 0)
            if n >= self.per_client or sum(self._open.values()) >= self.total:
                return False
            self._open[key] = n + 1
            return True

    def release(self, key: str) -> None:
        """Give back a wait `acquire` granted."""
        with self._lock:
            n = self._open.get(key, 0)
            if n <= 1:
                self._open.pop(key, None)
            else:
                self._open[key] = n - 1

    def waiting(self) -> int:
        """How many waits are under way now."""
        with self._lock:
            return sum(self._open.values())


def frame_waits() -> FrameWaits:
    """The app's `FrameWaits` (made at its first use)."""
    return current_app.extensions.setdefault(_EXTENSION, FrameWaits())


def frame_after(c: WebContext, board: dict[str, Any], after: str | None) -> dict[str, Any]:
    """`board` (the virtual board now) when its frame is another than `after` (or `after`
    is None), else the board once its frame moved on, after at most `WAIT_S`, or sooner
    when the client left or the server is stopping (see the module)."""
    if after is None or board.get("version") != after:
        return board
    waits, key = frame_waits(), client_key()
    if not waits.acquire(key):
        return board
    gone = request.environ.get("waitress.client_disconnected")
    deadline = time.monotonic() + WAIT_S
    try:
        while board.get("version") == after:
            left = deadline - time.monotonic()
            if left <= 0 or c.stopping.is_set() or (gone is not None and gone()):
                break
            c.table.wait_for_frame(after, min(SLICE_S, left))
            board = c.table.virtual_board() or board
    finally:
        waits.release(key)
    return board


def frame_stream(c: WebContext) -> Response:
    """The event stream of the virtual board's frames (see the module), or `event: busy`
    alone when no thread may be spared for it. The caller has checked there is a virtual
    board."""
    waits, key = frame_waits(), client_key()
    if not waits.acquire(key):
        response = Response("retry: 10000\n\nevent: busy\ndata: {}\n\n",
                            mimetype="text/event-stream")
    else:
        gone = request.environ.get("waitress.client_disconnected")
        response = Response(_frames(c, gone), mimetype="text/event-stream")
        # the server closes every response it started, even one whose client left early
        response.call_on_close(lambda: waits.release(key))
    response.headers["Cache-Control"] = "no-cache, no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _frames(c: WebContext, gone: Any) -> Iterator[str]:
    yield "retry: 1000\n\n"
    sent: str | None = None
    layout: dict[str, Any] | None = None
    last_write = time.monotonic()
    while not c.stopping.is_set() and not (gone is not None and gone()):
        board = c.table.virtual_board()
        if board is None:
            return
        if board["version"] == sent:
            if time.monotonic() - last_write >= c.heartbeat_seconds:
                last_write = time.monotonic()
                yield ": heartbeat\n\n"
            c.table.wait_for_frame(board["version"], SLICE_S)  # the version sent
            continue
        sent = board["version"]
        rest = {k: v for k, v in board.items() if k not in ("version", "leds")}
        if rest == layout:  # the map is the page's already: the frame alone
            board = {"version": sent, "leds": board["leds"]}
        layout = rest
        last_write = time.monotonic()
        yield f"event: frame\ndata: {json.dumps(board, separators=(',', ':'))}\n\n"
        c.stopping.wait(FRAME_S)
