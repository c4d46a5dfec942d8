"""Serving with waitress: SSE flushes at once, streams end cleanly on shutdown."""

from __future__ import annotations

import http.client
import json
import socket
import time

from pi_app.table_api import Viewer
from pi_app.web import create_app
from pi_app.web.seats import new_host_pin
from pi_app.web.serve import DEFAULT_THREADS, start_background

from .conftest import BOT


def test_a_stream_gets_each_update_without_waiting_for_more_and_ends_on_stop(table, tmp_path):
    # No heartbeat for an hour: only a flushed write can bring the update (a write held in
    # a server buffer would wait for more bytes and the read would time out).
    app = create_app(table, host_pin="12345678", data_dir=tmp_path, heartbeat_seconds=3600)
    server = start_background(app)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        conn.request("GET", "/api/events")
        resp = conn.getresponse()
        assert resp.status == 200
        assert resp.getheader("Content-Security-Policy")

        def next_message() -> dict:
            while True:
                line = resp.readline()
                if line.startswith(b"data: "):
                    return json.loads(line[6:])

        start = next_message()
        assert start["reset"] is True
        player = table.state.current_player
        table.submit(BOT.choose(table.state, player).to_dict(), Viewer("player", player))
        msg = next_message()
        assert [u["seq"] for u in msg["updates"]] == [start["seq"] + 1]
    finally:
        server.stop()
    rest = resp.read()  # the stream ends: the server closed it (not the 60 s read timeout)
    conn.close()
    assert b"data: " not in rest
    server.thread.join(60)
    assert not server.thread.is_alive()


def test_thread_pool_fits_thirty_phones_and_the_host():
    assert DEFAULT_THREADS >= 32


def test_host_pins_are_random_digits():
    pins = {new_host_pin() for _ in range(20)}
    assert len(pins) == 20 and all(p.isdigit() and len(p) == 8 for p in pins)


def test_serving_an_app_in_debug_mode_is_refused(table, tmp_path):
    import pytest

    app = create_app(table, host_pin="12345678", data_dir=tmp_path)
    app.debug = True  # someone flipped it after create_app
    with pytest.raises(RuntimeError, match="debug"):
        start_background(app)


def test_silent_connections_time_out_but_streams_outlive_the_timeout(table, tmp_path):
    from pi_app.web.serve import CHANNEL_TIMEOUT, CONNECTION_LIMIT, LOOP_SLEEP_S

    app = create_app(table, host_pin="12345678", data_dir=tmp_path)
    server = start_background(app)
    try:
        adj = server.server.adj
        assert adj.channel_timeout == CHANNEL_TIMEOUT <= 30
        assert adj.connection_limit == CONNECTION_LIMIT >= 500
        # an idle server's loop sleeps 10 s (waitress's default: 1), within the sweep's 30 s
        assert adj.asyncore_loop_timeout == LOOP_SLEEP_S >= 10
        assert adj.cleanup_interval > LOOP_SLEEP_S
        # a heartbeat (or a message) reaches every stream well within the timeout
        assert app.extensions["riskboard"].heartbeat_seconds < CHANNEL_TIMEOUT / 1.5
    finally:
        server.stop()


def test_a_stream_whose_client_left_frees_its_slot_before_any_heartbeat(table, tmp_path):
    # No heartbeat for an hour: only noticing the closed connection frees the slot.
    app = create_app(table, host_pin="12345678", data_dir=tmp_path, heartbeat_seconds=3600)
    slots = app.extensions["riskboard"].stream_slots
    server = start_background(app)
    try:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=60)
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        received = b""
        while b"data: " not in received:
            received += sock.recv(65536)
        assert slots.open_count() == 1
        sock.close()
        deadline = time.monotonic() + 60
        while slots.open_count() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert slots.open_count() == 0
    finally:
        server.stop()
