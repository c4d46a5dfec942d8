"""A table page opens one live stream, whichever of its modules runs first (pi_app/web/static
/live.js `prestart`). common.js, an async module, starts the seat check and the stream from
the head; the page's own module (table.js) takes them over. Under load the page's module
can run before common.js: it then opened a stream of its own, and common.js a second one,
which, for a seat, replaced the first, the one the page listened to. The phone stood still
for the rest of the evening (a browser test under load saw My view stay a move behind).

Here common.js is held back until the page's module has run, as a loaded phone does."""

from __future__ import annotations

import time

import pytest

from pi_app.table.loop import NewGameSpec
from pi_app.web.serve import start_background

CLASSIC = NewGameSpec("classic", ("red", "blue", "green"))
SEQ_AT_LEAST = "(rev) => Number(document.body.dataset.seq) >= rev"


def held_common_js(route) -> None:
    """common.js arrives late: the page's own module (not held) runs first."""
    time.sleep(1.5)
    route.continue_()


@pytest.mark.browser
@pytest.mark.parametrize("page_path", ["/me", "/"])
def test_a_page_whose_own_module_runs_first_opens_one_stream_and_follows_the_table(
        tables, chromium, page_path):
    table = tables(CLASSIC)
    server = start_background(table.app)
    context = chromium[1].new_context(viewport={"width": 360, "height": 640})
    try:
        page = context.new_page()
        streams: list[str] = []
        page.on("request", lambda r: streams.append(r.url) if "/api/events" in r.url else None)
        page.route("**/static/common.js*", held_common_js)
        url = f"{server.url}{page_path}"
        if page_path == "/me":
            url += f"#t={table.tokens['red']}"
        page.goto(url)
        page.wait_for_selector("#conn.ok")
        # the table moves on: the page shows it (a replaced stream would leave it behind)
        state = table.state()
        player = state.current_player
        free = next(t for t in sorted(state.owner) if state.owner[t] is None)
        table.play(player, {"type": "claim", "territory": free})
        revision = table.mark()[1]
        page.wait_for_function(SEQ_AT_LEAST, arg=revision, timeout=30_000)
        assert len(streams) == 1, streams
        assert "replaced" not in page.inner_text("#conn"), page.inner_text("#conn")
    finally:
        context.close()
        server.stop()
