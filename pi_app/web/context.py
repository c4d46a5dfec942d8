"""What every web request needs: the table, seat tokens, tickets, limits, the host PIN."""

from __future__ import annotations

import hmac
import threading
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, request

from pi_app.table_api import TableService, Viewer
from pi_app.web.errors import ApiError
from pi_app.web.limits import CodeGuard, PinGuard, RateLimiter, StreamSlots
from pi_app.web.seats import SeatHeld, SeatTokens, StreamTickets

TOKEN_HEADER = "X-Seat-Token"
PHONE_HEADER = "X-Seat-Phone"  # the page's own random key: one phone per seat (SeatTokens)
PIN_HEADER = "X-Host-Pin"
HOST_DEVICE_HEADER = "X-Host-Device"  # a device signed in as host (`HostDevices`)
SEAT_MOVED = ("Your seat was moved to another phone. If that was not meant, ask the host for "
              "a new code.")


@dataclass
class WebContext:
    """The web's shared objects, stored in `app.extensions["riskboard"]`."""

    table: TableService
    seats: SeatTokens
    tickets: StreamTickets
    host_pin: str
    command_limit: RateLimiter
    join_limit: RateLimiter
    pin_limit: RateLimiter
    pin_guard: PinGuard = None  # type: ignore[assignment]  # __post_init__ makes one when None
    read_limit: RateLimiter = field(default_factory=lambda: RateLimiter(5.0, 20))
    seat_state_limit: RateLimiter = field(default_factory=lambda: RateLimiter(5.0, 20))
    stream_slots: StreamSlots = field(default_factory=lambda: StreamSlots(3, 48))
    heartbeat_seconds: float = 15.0
    stopping: threading.Event = field(default_factory=threading.Event)
    public_url: str | None = None
    bind_host: str | None = None
    dice_cache: tuple[Any, dict[str, Any]] | None = None  # (table state key, /api/dice answer)
    pin_total: RateLimiter = field(default_factory=lambda: RateLimiter(30 / 60, 30))
    board_watched: bool = False  # the table shows this web the board's presses
    code_guard: CodeGuard = None  # type: ignore[assignment]  # __post_init__ makes one
    _watch_lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        if self.pin_guard is None:
            self.pin_guard = PinGuard(self.pin_limit, self.pin_total)
        if self.code_guard is None:
            self.code_guard = CodeGuard(RateLimiter(5 / 60, 5), RateLimiter(30 / 60, 30))


def ctx() -> WebContext:
    """The WebContext of the running app."""
    return current_app.extensions["riskboard"]


def client_key() -> str:
    """The address a rate limit counts against."""
    return request.remote_addr or "unknown"


def limit(limiter: RateLimiter) -> None:
    """Refuse the request with 429 when this client's bucket is empty, saying how many
    seconds to wait (`params.wait`)."""
    key = client_key()
    if not limiter.allow(key):
        wait = max(1, limiter.wait_seconds(key))
        raise ApiError(429, "rate_limited", f"Too many requests; wait {wait} s and try again.",
                       params={"wait": wait})


def seat_player(required: bool) -> str | None:
    """The colour of the seat token in the request header, or None for a spectator.

    With `required`, a missing or unknown token is a 401/403 with a sentence. A seat held
    by another phone (`X-Seat-Phone`, `SeatTokens.seat_for`) is 409 `seat_held`.
    """
    token = request.headers.get(TOKEN_HEADER)
    if not token:
        if required:
            raise ApiError(401, "token_required", "This needs your seat token; scan your QR code.")
        return None
    seats = ctx().seats
    try:
        player = seats.seat_for(token, request.headers.get(PHONE_HEADER) or None)
    except SeatHeld:
        raise ApiError(409, "seat_held", "Another phone already holds this seat. If it is "
                       "yours, ask the host to move it to this phone.") from None
    if player is None:
        if seats.moved(token):
            raise ApiError(403, "seat_moved", SEAT_MOVED)
        raise ApiError(403, "bad_token", "This seat token is not valid for the current game.")
    return player


def viewer_for(player: str | None) -> Viewer:
    """A player's viewer, or a spectator's when `player` is None."""
    return Viewer("player", player) if player else Viewer("spectator")


def require_host() -> Viewer:
    """Check the host PIN header (rate limited on failure) and return the host viewer.

    A device signed in as host before sends its id (`X-Host-Device`, from
    `/api/host/check`): while a crowd guesses the PIN, such a device is not held and a new
    one needs a long Confirm on the board (`PinGuard`)."""
    c = ctx()
    watch_board(c)
    given = request.headers.get(PIN_HEADER, "")
    if not given:
        raise ApiError(401, "pin_required", "Host actions need the host PIN from the Pi's console.")
    right = hmac.compare_digest(given.encode("utf-8", "replace"), c.host_pin.encode())
    verdict = c.pin_guard.check(client_key(), right, host_device())  # only wrong PINs count
    if not verdict.ok:
        raise ApiError(verdict.status, verdict.code, verdict.message,
                       params=verdict.params or None)
    return Viewer("host")


def host_device() -> str | None:
    """The host-device id the request names, if any."""
    return request.headers.get(HOST_DEVICE_HEADER) or None


def watch_board(c: WebContext) -> None:
    """Once the table is up, ask it to show the PIN guard the board's button presses (a long
    Confirm is the host's sign-in confirmation while a crowd guesses the PIN)."""
    if c.board_watched or not getattr(c.table, "ready", True):
        return
    watch = getattr(c.table, "watch_presses", None)
    with c._watch_lock:
        if c.board_watched:
            return
        c.board_watched = True
        if watch is not None:
            watch(c.pin_guard.board_press)


def json_object(allowed: set[str], required: set[str] | frozenset[str] = frozenset()
                ) -> dict[str, Any]:
    """The request body as a JSON object with only `allowed` keys and all `required` ones."""
    if not request.is_json:
        raise ApiError(415, "not_json", "Send the body as JSON (Content-Type: application/json).")
    try:
        body = request.get_json(silent=True)
    except RecursionError:
        raise ApiError(400, "bad_json", "The body is nested too deeply.") from None
    if body is None:
        raise ApiError(400, "bad_json", "The body is not valid JSON.")
    if not isinstance(body, dict):
        raise ApiError(400, "bad_json", "The body must be a JSON object.")
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise ApiError(400, "unknown_field", f"Unknown field(s): {', '.join(unknown)}.")
    missing = sorted(required - set(body))
    if missing:
        raise ApiError(400, "missing_field", f"Missing field(s): {', '.join(missing)}.")
    return body
