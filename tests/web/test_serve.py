"""Serving with waitress: SSE flushes at once, streams end cleanly on shutdown."""

from __future__ import annotations

import http.client
import json
import time

from pi_app.table_api import Viewer
from pi_app.web import create_app
from pi_app.web.seats import new_host_pin
from pi_app.web.serve import DEFAULT_THREADS, start_background

from .conftest import BOT


def test_a_stream_gets_each_update_promptly_and_ends_on_stop(table, tmp_path):
    app = create_app(table, host_pin="12345678", data_dir=tmp_path)
    server = start_background(app)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        conn.request("GET", "/api/events")
        resp = conn.getresponse()
        assert resp.status == 200
        assert resp.getheader("Content-Security-Policy")

        def next_message() -> dict:
            while True:
                line = resp.readline()
                if line.startswith(b"data: "):
                    return json.loads(line[6:])

        assert next_message()["reset"] is True
        player = table.state.current_player
        sent = time.perf_counter()
        table.submit(BOT.choose(table.state, player).to_dict(), Viewer("player", player))
        msg = next_message()
        assert time.perf_counter() - sent < 0.5  # not held in a server buffer
        assert [u["seq"] for u in msg["updates"]] == [1]
    finally:
        began = time.perf_counter()
        server.stop()
        assert time.perf_counter() - began < 4
        conn.close()
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
