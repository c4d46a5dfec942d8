"""The live event stream (Server-Sent Events) with resume by journal sequence number.

Each message is `event: update`, `id: <seq>.<mark>` and JSON data
`{"seq", "reset", "updates": [{"seq", "events"}...], "state": <redacted view>}`:
the updates the client has not seen, then the full redacted view at `seq`. A fresh
connection (no `Last-Event-ID`) or one from a different history (an undo rolled the journal
back, a new game started, or the view's optional `history` marker changed: a table whose
`seq` only rises bumps it on undo) gets `reset: true` and the recent log. The `mark`
stands for this start of the service, the game and its history marker: a table's `seq` is
rebuilt from the journal at start and may climb back to a number a phone saw before a
restart, so an id whose mark is not the current one (or a bare `<seq>` from a page older
than marks) is answered with a reset too. A comment
heartbeat is sent every `heartbeat_seconds` so proxies and phones keep the stream open;
the generator ends within a second of the server stopping.

Spectators open `/api/events` directly. A player's private stream needs a single-use
ticket (`POST /api/stream-ticket` with the token header) as `?ticket=`; EventSource cannot
send headers, and a ticket in a URL is harmless because it dies on first use. The ticket
stands for the seat token, not the colour: before every message, and every second while
nothing happens, the stream asks whether that token still holds that seat, and ends with
`event: unseated` (data `{"code", "message"}`) once a new game or a reissued code retired
it, so a stream never outlives its phone's seat and a phone whose seat moved is told at
once, not at its next action or heartbeat. The ticket is spent only after every other check passed.

Seats and the host come first (`StreamSlots`): their streams are always admitted, one per
seat token (or host ticket), the newest replacing the oldest (which ends with
`event: replaced`). Spectators share what is left, at most 3 per address: 429
`too_many_streams`, 503 `server_busy` (a sentence says seated phones are not affected).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

from flask import Response, request

from pi_app.table_api import TableService, Update, Viewer
from pi_app.web.api import api
from pi_app.web.context import SEAT_MOVED, client_key, ctx, viewer_for
from pi_app.web.errors import ApiError
from pi_app.web.seats import HOST_TICKET

RECENT_LOG = 200
WAIT_SLICE = 1.0


class EventId(NamedTuple):
    """A client's `Last-Event-ID`: the `seq` it saw and the mark it came with (None: a
    bare seq, from a page older than marks)."""

    seq: int
    mark: str | None = None


_EVENT_ID = re.compile(r"(\d{1,18})(?:\.([0-9a-f]{1,32}))?")
_epochs: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()
_epochs_lock = threading.Lock()


def _epoch(table: TableService) -> str:
    """A random value for this table service's lifetime, i.e. this start of the service:
    the revision numbers it hands out begin again from the journal at every start."""
    with _epochs_lock:
        epoch = _epochs.get(table)
        if epoch is None:
            epoch = _epochs[table] = secrets.token_hex(8)
        return epoch


def _mark(epoch: str, game: tuple[Any, Any]) -> str:
    """The part of the event id that changes with a restart, a new game or an undo."""
    return hashlib.sha256(f"{epoch}:{game[0]}:{game[1]}".encode()).hexdigest()[:12]


def _message(seq: int, mark: str, reset: bool, updates: list[Update],
             state: dict[str, Any]) -> str:
    data = {
        "seq": seq,
        "reset": reset,
        "updates": [{"seq": u.seq, "events": u.events} for u in updates],
        "state": state,
    }
    return (f"id: {seq}.{mark}\nevent: update\n"
            f"data: {json.dumps(data, separators=(',', ':'))}\n\n")


def parse_event_id(raw: str | None) -> EventId | None:
    """A `Last-Event-ID` (`<seq>.<mark>` or a bare `<seq>`) read, or None when absent;
    anything else is refused with `bad_last_event_id`."""
    if raw is None or raw == "":
        return None
    if raw.strip().startswith("-"):
        raise ApiError(400, "bad_last_event_id", "Last-Event-ID must not be negative.")
    found = _EVENT_ID.fullmatch(raw.strip())
    if found is None:
        raise ApiError(400, "bad_last_event_id",
                       "Last-Event-ID must be an event id this server sent.")
    return EventId(int(found[1]), found[2])


def _last_event_id() -> EventId | None:
    return parse_event_id(request.headers.get("Last-Event-ID")
                          or request.args.get("last_event_id"))


UNSEATED = ("This seat's token was replaced or a new game began; scan your seat's QR code "
            "again.")


def _unseated(message: str = UNSEATED) -> str:
    code = "seat_moved" if message == SEAT_MOVED else "unseated"
    data = {"code": code, "message": message}
    return f"event: unseated\ndata: {json.dumps(data)}\n\n"


def _replaced() -> str:
    data = {"code": "replaced", "message": "This seat's live updates moved to a newer page "
            "or tab; this one stopped."}
    return f"event: replaced\ndata: {json.dumps(data)}\n\n"


def event_stream(
    table: TableService, viewer: Viewer, last: EventId | int | None, stopping, heartbeat: float,
    seated: Callable[[], bool] | None = None, gone: Callable[[], bool] | None = None,
    why_unseated: Callable[[], str] = lambda: UNSEATED,
    replaced: Callable[[], bool] | None = None,
) -> Iterator[str]:
    """Yield SSE text for `viewer` from after `last` (None: fresh) until `stopping` is set.

    `last` resumes only when its mark is this start's, game's and history's; a bare seq
    (an int, or an id without a mark) is answered with a reset, like a fresh connection.

    A private stream passes `seated` (is its ticket's token still this player's?): it is
    asked after each message is built and every `WAIT_SLICE` while none is, and once it says no, or
    the game changes under the stream, an `unseated` event ends it. `gone` (waitress's
    client-disconnected check) ends the stream within a second of the client leaving, so
    its server thread is free at once rather than at the next failed write.
    """
    yield "retry: 1000\n\n"
    resume = last if isinstance(last, EventId) else None
    epoch = _epoch(table)
    seen: int | None = None  # the seq of the last message this connection sent
    game = None
    last_write = time.monotonic()
    while not stopping.is_set():
        if gone is not None and gone():
            return
        if replaced is not None and replaced():
            yield _replaced()
            return
        if seen is not None and game is not None:
            latest = table.wait_for_update(seen, WAIT_SLICE)
            if stopping.is_set():
                return
            if latest == seen:
                # asked every slice, not only at a heartbeat: a seat moved to another phone
                # tells this one at once, with nothing else happening at the table
                if seated is not None and not seated():
                    yield _unseated(why_unseated())
                    return
                if time.monotonic() - last_write >= heartbeat:
                    last_write = time.monotonic()
                    yield ": heartbeat\n\n"
                continue
        view = table.view(viewer)
        seq = int(view.get("seq", 0))
        view_game = (view.get("game_id"), view.get("history"))
        mark = _mark(epoch, view_game)
        if game is None:  # this connection's first message: resume only the same history
            if resume is not None and resume.mark == mark and resume.seq <= seq:
                seen = resume.seq
            reset = seen is None
        else:
            reset = seen is None or seq < seen or view_game != game
        since = max(-1, seq - RECENT_LOG) if reset or seen is None else seen
        updates = [u for u in table.updates_since(since, viewer) if u.seq <= seq]
        # checked AFTER the view was read: a seat retired before that read is caught here
        if seated is not None and (not seated() or (game is not None and view_game[0] != game[0])):
            yield _unseated(why_unseated())
            return
        game, seen = view_game, seq
        last_write = time.monotonic()
        yield _message(seq, mark, reset, updates, view)


@api.get("/events")
def get_events():
    """The live stream: public without a ticket, private with `?ticket=` (single use).

    A spectator's stream takes one of the spectators' slots (429 per address, 503 when
    their share is taken; both checked before anything else). A seat's or the host's
    stream (a ticket) is always admitted, one per seat token or host: the newest replaces
    the oldest, which ends with `event: replaced`. Everything that can refuse is checked
    before the ticket is spent."""
    c = ctx()
    ticket = request.args.get("ticket")
    last = _last_event_id()
    key = client_key()
    if ticket is None:
        refusal = c.stream_slots.acquire(key)
        if refusal == "client":
            raise ApiError(429, "too_many_streams", "Too many live pages open from this "
                           "device; close one.")
        if refusal == "server":
            raise ApiError(503, "server_busy", "As many people are watching live as this table "
                           "can serve; close a page or try again in a minute. Seated "
                           "players' phones are not affected.")
        viewer, seated, why, holder = viewer_for(None), None, (lambda: UNSEATED), None
    else:
        viewer, seated, why, holder = _stream_viewer(c, ticket)
    replaced = c.stream_slots.acquire_priority(holder) if holder is not None else None

    def release() -> None:
        if replaced is not None:
            c.stream_slots.release_priority(holder, replaced)
        else:
            c.stream_slots.release(key)

    gone = request.environ.get("waitress.client_disconnected")
    stream = event_stream(c.table, viewer, last, c.stopping, c.heartbeat_seconds,
                          seated=seated, gone=gone, why_unseated=why,
                          replaced=replaced.is_set if replaced is not None else None)
    response = Response(stream, mimetype="text/event-stream")
    # the server closes every response it started, even one whose client left early
    response.call_on_close(release)
    response.headers["Cache-Control"] = "no-cache, no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _stream_viewer(c, ticket: str
                   ) -> tuple[Viewer, Callable[[], bool] | None, Callable[[], str], str]:
    """The viewer of a private stream, its still-seated check, the sentence it ends with
    (the seat moved to another phone, or a new game) and who holds its slot."""
    token = c.tickets.redeem(ticket)
    if token == HOST_TICKET:
        return Viewer("host"), None, lambda: UNSEATED, "host"
    player = c.seats.player_for(token)
    if player is None:
        raise ApiError(403, "bad_ticket", "This stream ticket is used up or expired.")
    holder = "seat:" + hashlib.sha256(token.encode()).hexdigest()
    return (viewer_for(player), lambda: c.seats.player_for(token) == player,
            lambda: SEAT_MOVED if c.seats.moved(token) else UNSEATED, holder)
