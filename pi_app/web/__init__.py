"""The status pages and JSON API of the table (Flask), served by waitress (`serve.py`).

`create_app(table, host_pin=..., data_dir=...)` builds the app around a `TableService`
(`pi_app.table_api`), the only door to the game. See `openapi.yaml` for the API.
"""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask
from flask.json.provider import DefaultJSONProvider

import pi_app.web.seat_codes  # (registers /api/join on the api blueprint)
import pi_app.web.stream  # noqa: F401  (registers /api/events on the api blueprint)
from pi_app.table_api import TableService
from pi_app.web.api import api
from pi_app.web.bringup import bringup_api, bringup_pages
from pi_app.web.context import WebContext
from pi_app.web.errors import install_error_handlers
from pi_app.web.host import host
from pi_app.web.limits import CodeGuard, HostDevices, PinGuard, RateLimiter, StreamSlots
from pi_app.web.pages import pages
from pi_app.web.seats import SeatTokens, StreamTickets
from pi_app.web.security import install_security_headers
from pi_app.web.serve import DEFAULT_THREADS, RESERVED_THREADS

MAX_BODY_BYTES = 16 * 1024
SEAT_STREAMS = 7  # a stream per seat (6 colours at most) and the host's


def create_app(
    table: TableService,
    *,
    host_pin: str,
    data_dir: Path,
    public_url: str | None = None,
    command_rate: tuple[float, int] = (10.0, 30),
    join_rate: tuple[float, int] = (1.0, 10),
    pin_rate: tuple[float, int] = (5 / 60, 5),
    pin_total_rate: tuple[float, int] = (30 / 60, 30),
    heartbeat_seconds: float = 15.0,
    streams_per_client: int = 3,
    streams_total: int = DEFAULT_THREADS - RESERVED_THREADS,
    seat_streams: int = SEAT_STREAMS,
    read_rate: tuple[float, int] = (5.0, 20),
    seat_state_rate: tuple[float, int] = (5.0, 20),
    code_rate: tuple[float, int] = (5 / 60, 5),
    code_total_rate: tuple[float, int] = (30 / 60, 30),
) -> Flask:
    """The web app for one table.

    `host_pin` guards host actions; `data_dir` keeps seat tokens across restarts;
    `public_url` is the address phones use (seat QR codes); without it the address the host
    page was opened with, if it names this machine. The rates are (requests per second,
    burst) per client address (`read_rate`: odds and dice; `seat_state_rate`: /api/state
    with a seat token); wrong host PINs are also limited at the whole table
    (`pin_total_rate`), and so are wrong seat codes typed on /join (`code_rate` per
    address, `code_total_rate` at the table). Event streams are capped per address and in
    all (`streams_total`: the waitress threads minus those kept for pages
    and commands); `seat_streams` of them are kept for the seats' and the host's streams,
    which are always admitted (one per seat token).
    Debug mode is forced off whatever the environment says.
    """
    if len(host_pin) < 6:
        raise ValueError("host_pin must have at least 6 characters")
    app = Flask(__name__)
    app.debug = False
    app.config.update(
        DEBUG=False,
        TESTING=False,
        PROPAGATE_EXCEPTIONS=False,
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        MAX_FORM_MEMORY_SIZE=MAX_BODY_BYTES,
        JSON_SORT_KEYS=False,
        SEND_FILE_MAX_AGE_DEFAULT=300,
    )
    assert isinstance(app.json, DefaultJSONProvider)  # Flask's own, which has sort_keys
    app.json.sort_keys = False
    tickets = StreamTickets()
    # a table with a journal keeps the seat tokens there (see SeatTokens)
    journaled = getattr(table, "seat_tokens", None)
    store = getattr(table, "store_seat_tokens", None)
    pin_limit, pin_total = RateLimiter(*pin_rate), RateLimiter(*pin_total_rate)
    app.extensions["riskboard"] = WebContext(
        table=table,
        seats=SeatTokens(Path(data_dir), on_change=tickets.clear,
                         journaled=journaled() if journaled else None, store=store),
        tickets=tickets,
        host_pin=host_pin,
        command_limit=RateLimiter(*command_rate),
        join_limit=RateLimiter(*join_rate),
        pin_limit=pin_limit,
        pin_total=pin_total,
        pin_guard=PinGuard(pin_limit, pin_total,
                           devices=HostDevices(Path(data_dir) / HostDevices.FILE_NAME)),
        heartbeat_seconds=heartbeat_seconds,
        read_limit=RateLimiter(*read_rate),
        seat_state_limit=RateLimiter(*seat_state_rate),
        stream_slots=StreamSlots(streams_per_client, streams_total, seat_streams),
        public_url=public_url,
        code_guard=CodeGuard(RateLimiter(*code_rate), RateLimiter(*code_total_rate)),
    )
    app.register_blueprint(api)
    app.register_blueprint(host)
    app.register_blueprint(pages)
    app.register_blueprint(bringup_api)
    app.register_blueprint(bringup_pages)
    install_error_handlers(app)
    install_security_headers(app)
    os.environ.pop("WERKZEUG_DEBUG_PIN", None)
    return app


__all__ = ["create_app"]
