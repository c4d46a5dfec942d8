"""The phone's live stream in a browser: when its private stream drops, the page re-tickets
and resumes with the whole event id it was last sent (`<seq>.<mark>`), so a server that
restarted since (another mark) answers with a reset instead of skipping log lines."""

from __future__ import annotations

import threading
import urllib.parse

import pytest

from pi_app.table_api import Viewer
from pi_app.web.stream import event_stream

from .browsing import serving
from .conftest import bot_step

pytestmark = pytest.mark.browser


def test_a_dropped_private_stream_resumes_with_the_whole_event_id(chromium, tmp_path, served_table):
    table = served_table()
    for _ in range(3):
        bot_step(table)
    player = table.state.players[0]
    first = next(m for m in event_stream(table, Viewer("player", player), None,
                                         threading.Event(), 15.0) if m.startswith("id: "))
    sent_id = first.split("\n", 1)[0].removeprefix("id: ")
    assert "." in sent_id, "the server marks its event ids"
    with serving(table, tmp_path / "data") as (app, server):
        token = app.extensions["riskboard"].seats.issue_all(list(table.state.players))[player]
        asked: list[str] = []
        lock = threading.Lock()

        def events(route) -> None:
            """The first stream is one message that then ends (a dropped connection);
            later ones reach the server."""
            with lock:
                asked.append(route.request.url)
                dropped = len(asked) == 1
            if dropped:
                route.fulfill(status=200, body=first,
                              headers={"Content-Type": "text/event-stream"})
            else:
                route.continue_()

        ctx = chromium[1].new_context(viewport={"width": 360, "height": 780})
        page = ctx.new_page()
        page.route("**/api/events?*", events)
        page.goto(f"{server.url}/me#t={token}")
        for _ in range(150):  # the page re-tickets within a second or two of the drop
            with lock:
                if len(asked) >= 2:
                    break
            page.wait_for_timeout(200)
        with lock:
            assert len(asked) >= 2, "the page never reconnected its private stream"
            query = urllib.parse.parse_qs(urllib.parse.urlparse(asked[1]).query)
        assert query["last_event_id"] == [sent_id]
        page.wait_for_selector("#conn.ok")
        ctx.close()
