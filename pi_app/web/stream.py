"""The live event stream (Server-Sent Events) with resume by journal sequence number.

Each message is `event: update`, `id: <seq>` and JSON data
`{"seq", "reset", "updates": [{"seq", "events"}...], "state": <redacted view>}`:
the updates the client has not seen, then the full redacted view at `seq`. A fresh
connection (no `Last-Event-ID`) or one from a different history (an undo rolled the journal
back, a new game started, or the view's optional `history` marker changed: a table whose
`seq` only rises bumps it on undo) gets `reset: true` and the recent log. A comment
heartbeat is sent every `heartbeat_seconds` so proxies and phones keep the stream open;
the generator ends within a second of the server stopping.

Spectators open `/api/events` directly. A player's private stream needs a single-use
ticket (`POST /api/stream-ticket` with the token header) as `?ticket=`; EventSource cannot
send headers, and a ticket in a URL is harmless because it dies on first use.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Response, request

from pi_app.table_api import TableService, Update, Viewer
from pi_app.web.api import api
from pi_app.web.context import client_key, ctx, viewer_for
from pi_app.web.errors import ApiError

RECENT_LOG = 200
WAIT_SLICE = 1.0


def _message(seq: int, reset: bool, updates: list[Update], state: dict[str, Any]) -> str:
    data = {
        "seq": seq,
        "reset": reset,
        "updates": [{"seq": u.seq, "events": u.events} for u in updates],
        "state": state,
    }
    return f"id: {seq}\nevent: update\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    if raw is None or raw == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(
            400, "bad_last_event_id", "Last-Event-ID must be a sequence number."
        ) from None
    if value < 0:
        raise ApiError(400, "bad_last_event_id", "Last-Event-ID must not be negative.")
    return value


def event_stream(
    table: TableService, viewer: Viewer, last: int | None, stopping, heartbeat: float
) -> Iterator[str]:
    """Yield SSE text for `viewer` from after `last` (None: fresh) until `stopping` is set."""
    yield "retry: 1000\n\n"
    game = None
    last_write = time.monotonic()
    while not stopping.is_set():
        if last is not None and game is not None:
            latest = table.wait_for_update(last, WAIT_SLICE)
            if stopping.is_set():
                return
            if latest == last:
                if time.monotonic() - last_write >= heartbeat:
                    last_write = time.monotonic()
                    yield ": heartbeat\n\n"
                continue
        view = table.view(viewer)
        seq = int(view.get("seq", 0))
        view_game = (view.get("game_id"), view.get("history"))
        reset = last is None or seq < last or (game is not None and view_game != game)
        since = max(-1, seq - RECENT_LOG) if reset else last
        updates = [u for u in table.updates_since(since, viewer) if u.seq <= seq]
        game, last = view_game, seq
        last_write = time.monotonic()
        yield _message(seq, reset, updates, view)


@api.get("/events")
def get_events():
    """The live stream: public without a ticket, private with `?ticket=` (single use)."""
    c = ctx()
    ticket = request.args.get("ticket")
    player = None
    if ticket is not None:
        player = c.tickets.redeem(ticket)
        if player is None:
            raise ApiError(403, "bad_ticket", "This stream ticket is used up or expired.")
    last = _last_event_id()
    key = client_key()
    if not c.stream_slots.acquire(key):
        raise ApiError(429, "too_many_streams", "Too many live pages open from this device.")

    stream = event_stream(c.table, viewer_for(player), last, c.stopping, c.heartbeat_seconds)
    response = Response(stream, mimetype="text/event-stream")
    # the server closes every response it started, even one whose client left early
    response.call_on_close(lambda: c.stream_slots.release(key))
    response.headers["Cache-Control"] = "no-cache, no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response
