"""A burst of stream messages is drawn once a frame, not once a message.

When the server sends many updates at once (computer seats moving fast, a phone waking up,
bots playing thousands of moves), the table view and the virtual board keep each message's
state and log lines but draw the page once per animation frame; `body[data-seq]` is written
only by the render that shows that message. Here the live stream is the test's: one first
message, then (once the page shows it) a burst of BURST messages in one response, each
raising one territory's armies and adding one log line. The renders are counted from the
outside, as the writes of that territory's army count each render makes (a MutationObserver),
so the count does not rely on the page's own word. (The status line is no measure any more:
a render whose sentence did not change leaves it alone.)"""

from __future__ import annotations

import copy
import json

import pytest

from pi_app.table.loop import NewGameSpec
from pi_app.table_api import Viewer

WAIT = 60_000  # ms: generous; nothing here is timed
BURST = 150
# the renders of a burst delivered in one response: a handful of frames at most, however
# slow the machine (a render per message would be BURST)
MOST_RENDERS = BURST // 5
COUNT_WRITES = """
window.tileWrites = {};  // territory id -> how often its army count was written
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver((records) => {
    for (const r of records) {
      const node = r.target.nodeType === 1 ? r.target : r.target.parentNode;
      const tile = node && node.closest && node.closest("g.tile");
      if (tile && node.closest("tspan.count")) {
        window.tileWrites[tile.dataset.id] = (window.tileWrites[tile.dataset.id] || 0) + 1;
      }
    }
  }).observe(document.querySelector("#map"),
             { childList: true, characterData: true, subtree: true });
});
"""


def _message(seq: int, state: dict, reset: bool, events: list[dict]) -> str:
    data = {"seq": seq, "reset": reset, "updates": [{"seq": seq, "events": events}] if events
            else [], "state": dict(state, seq=seq)}
    return f"id: {seq}\nevent: update\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@pytest.mark.browser
@pytest.mark.parametrize("path, log_line", [("/", "#log li li"), ("/virtual", "#log li")])
def test_a_burst_of_messages_is_drawn_once_a_frame_and_ends_on_the_last(
        tables, chromium, tmp_path, path, log_line):
    from pi_app.web.serve import start_background

    table = tables(NewGameSpec("classic", ("red", "blue", "green")))
    table.bot_until(lambda s: s.phase == "attack" and s.turn >= 2)
    view = table.app.extensions["riskboard"].table.view(Viewer("spectator"))
    land = next(tid for tid, who in view["owner"].items() if who == "red")
    first = int(view["seq"]) + 1
    burst = []
    for k in range(1, BURST + 1):
        state = copy.deepcopy(view)
        state["armies"][land] = 100 + k
        burst.append(_message(first + k, state, False,
                              [{"type": "placed", "player": "red", "territory": land, "count": 1}]))
    held = []

    def stream(route):
        if not held:  # the first connection: one message, and a quick reconnect after it
            held.append(None)
            route.fulfill(status=200, headers={"Content-Type": "text/event-stream"},
                          body="retry: 100\n\n" + _message(first, view, True, []))
        else:
            held.append(route)  # answered by the test, once the page shows the first

    server = start_background(table.app)
    try:
        context = chromium[1].new_context(viewport={"width": 1280, "height": 900})
        context.add_init_script(COUNT_WRITES)
        context.route("**/api/events*", stream)
        page = context.new_page()
        page.goto(server.url + path)
        page.wait_for_function(f"() => document.body.dataset.seq === '{first}'", timeout=WAIT)
        while len(held) < 2:  # the stream's reconnection, held open
            page.wait_for_timeout(50)
        writes = f"window.tileWrites['{land}'] || 0"
        before = page.evaluate(writes)
        held[1].fulfill(status=200, headers={"Content-Type": "text/event-stream"},
                        body="retry: 600000\n\n" + "".join(burst))
        last = first + BURST
        page.wait_for_function(f"() => document.body.dataset.seq === '{last}'", timeout=WAIT)
        renders = page.evaluate(writes) - before  # each render writes the count it shows
        assert 1 <= renders <= MOST_RENDERS, renders
        # what shows is the last message's state, with every message's log line kept
        count = page.locator(f'#map g.tile[data-id="{land}"] tspan.count')
        assert count.text_content() == str(100 + BURST)
        assert page.locator(log_line).count() >= BURST
        context.close()
    finally:
        server.stop()
