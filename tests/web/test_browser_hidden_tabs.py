"""Table pages in the background let their public live streams go, and take them up again
when shown; My view keeps its seat's stream, so its tab still says when the turn comes.

A browser keeps at most 6 connections to one server. Every table page holds one or two of
them open for its live updates (/virtual: the game and its LED frames), so a laptop with
the table view, /virtual and three seats open, plus one more tab, had no connection left:
the next page of the table never loaded (seen: the seventh tab's navigation timed out).
These tests hide the tabs as a browser does (`document.hidden`, `visibilitychange`) and
check what a player meets: the next page loads and goes live, a table view shown again
shows the moves made while it was away, and a seat's tab in the background turns its title
when the turn becomes that seat's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pi_app.table.loop import NewGameSpec

pytestmark = pytest.mark.browser

EN = json.loads((Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n" / "en.json")
                .read_text("utf-8"))
WAIT = 30_000  # ms: generous, for a shared machine
# what a browser does when its tab goes to the background or comes back
SHOW = """(hidden) => {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(document, 'visibilityState', { configurable: true,
                                                        get: () => hidden ? 'hidden' : 'visible' });
  document.dispatchEvent(new Event('visibilitychange'));
}"""
# every EventSource a page opens, to see that a hidden tab's are closed
STREAMS = """(() => {
  const Real = window.EventSource;
  window.openedStreams = [];
  window.EventSource = function (url, init) {
    const es = new Real(url, init);
    window.openedStreams.push(es);
    return es;
  };
  window.EventSource.prototype = Real.prototype;
  Object.assign(window.EventSource, { CONNECTING: 0, OPEN: 1, CLOSED: 2 });
})()"""
ALL_CLOSED = ("() => window.openedStreams.length > 0"
              " && window.openedStreams.every((es) => es.readyState === 2)")
# how long a hidden tab keeps a public stream (live.js)
RELEASE_MS = int(re.search(r"HIDDEN_RELEASE_MS = (\d+);", (
    Path(__file__).resolve().parents[2] / "pi_app/web/static/live.js").read_text("utf-8"))[1])
ANY_OPEN = "() => window.openedStreams.some((es) => es.readyState === 1)"
PATHS = ("/virtual", "/", "/me?red", "/me?blue", "/me?green", "/virtual", "/")
LIVE = ("(words) => document.getElementById('conn')"
        " && document.getElementById('conn').textContent === words")


def _laptop(chromium):
    context = chromium[1].new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    context.add_init_script("localStorage.setItem('riskboard.phone', 'hidden-tabs-laptop')")
    context.add_init_script(STREAMS)
    return context


def test_tabs_in_the_background_leave_room_for_the_next_page(tables, chromium):
    from pi_app.web.serve import start_background

    table = tables(NewGameSpec("classic", ("red", "blue", "green")))
    table.bot_until(lambda s: s.phase == "attack" and s.turn >= 2)
    server = start_background(table.app)
    context = _laptop(chromium)
    try:
        tabs = []
        for path in PATHS:
            if path.startswith("/me"):
                path += "#t=" + table.tokens[path.removeprefix("/me?")]
            tab = context.new_page()
            tab.goto(server.url + path, wait_until="commit", timeout=WAIT)
            tab.wait_for_function("() => window.openedStreams.length > 0", timeout=WAIT)
            tab.evaluate(SHOW, True)  # the player turns to the next tab
            tabs.append(tab)
        for tab, path in zip(tabs, PATHS, strict=True):
            if not path.startswith("/me"):
                tab.wait_for_function(ALL_CLOSED, timeout=WAIT)
        # the seats' streams stay open in the background: one per seat
        for tab, path in zip(tabs, PATHS, strict=True):
            if path.startswith("/me"):
                tab.wait_for_function(ANY_OPEN, timeout=WAIT)
        # with all seven holding their streams, this navigation never got a connection
        front = context.new_page()
        front.goto(server.url + "/", wait_until="commit", timeout=WAIT)
        front.wait_for_function(LIVE, arg=EN["conn.live"], timeout=WAIT)
    finally:
        context.close()
        server.stop()


def test_a_table_view_shown_again_goes_live_and_shows_what_happened_meanwhile(tables,
                                                                               chromium):
    from pi_app.web.serve import start_background

    table = tables(NewGameSpec("classic", ("red", "blue", "green")))
    table.bot_until(lambda s: s.phase == "attack" and s.turn >= 2)
    server = start_background(table.app)
    context = _laptop(chromium)
    try:
        for path in ("/", "/virtual"):
            tab = context.new_page()
            tab.goto(server.url + path, timeout=WAIT)
            tab.wait_for_function(LIVE, arg=EN["conn.live"], timeout=WAIT)
            tab.wait_for_function("() => document.body.dataset.seq !== undefined", timeout=WAIT)
            seen = tab.evaluate("() => window.openedStreams.length")
            tab.evaluate(SHOW, True)
            tab.wait_for_function(ALL_CLOSED, timeout=WAIT)
            hidden_at = table.mark()[1]  # the revision: the seq of the stream's messages
            turn = table.state().turn
            table.bot_until(lambda s, turn=turn: s.turn > turn)  # moves made while away
            assert table.mark()[1] > hidden_at
            assert int(tab.evaluate("document.body.dataset.seq")) <= hidden_at
            tab.evaluate(SHOW, False)
            tab.wait_for_function("(n) => window.openedStreams.length > n", arg=seen,
                                  timeout=WAIT)
            tab.wait_for_function(LIVE, arg=EN["conn.live"], timeout=WAIT)
            # the page shows the table as it is now, moves made while hidden included
            tab.wait_for_function("(seq) => Number(document.body.dataset.seq) === seq",
                                  arg=table.mark()[1], timeout=WAIT)
    finally:
        context.close()
        server.stop()


def test_my_view_in_the_background_turns_its_title_when_the_turn_comes(tables, chromium):
    from pi_app.web.serve import start_background

    table = tables(NewGameSpec("classic", ("red", "blue", "green")))
    table.bot_until(lambda s: s.phase == "attack" and s.turn >= 2)
    seat = next(p for p in ("red", "blue", "green") if p != table.state().current_player)
    server = start_background(table.app)
    context = _laptop(chromium)
    try:
        tab = context.new_page()
        tab.goto(f"{server.url}/me#t={table.tokens[seat]}", timeout=WAIT)
        tab.wait_for_function(LIVE, arg=EN["conn.live"], timeout=WAIT)
        assert tab.title() != EN["title.your_turn"]
        tab.evaluate(SHOW, True)
        # past the moment a public stream lets go: a seat's stays
        tab.wait_for_timeout(RELEASE_MS + 2000)
        assert tab.evaluate(ANY_OPEN)
        table.bot_until(lambda s: s.current_player == seat and s.pending is None)
        # still in the background: its stream stayed, the page drew the turn, the title says it
        tab.wait_for_function("(words) => document.title === words",
                              arg=EN["title.your_turn"], timeout=WAIT)
        assert tab.evaluate("() => document.hidden")
        assert tab.evaluate(ANY_OPEN)
    finally:
        context.close()
        server.stop()
