"""My view holds its layout (the seat's card, the map, the side cards) back until its first
render has drawn it, so a slow phone lays the map out once, painted (issue 23.12): these tests
prove that every way the page can go shows it, the first render, a phone without a seat, and a
page whose module never came. How fast it is stays bench.page_weight's business."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

import pytest

from pi_app.table.loop import NewGameSpec

EN = json.loads((Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n" / "en.json")
                .read_text("utf-8"))
LAYOUT_SHOWN = "() => document.documentElement.dataset.drawn === '1'"
WAIT = 30_000  # ms: generous; the speed is bench.page_weight's


@contextmanager
def _served_phone(tables, chromium):
    """(table, server url, phone context): a classic table in turn 2's attack, served, and a
    360 px English phone; both stop when the test ends, however it ends."""
    from pi_app.web.serve import start_background

    table = tables(NewGameSpec("classic", ("red", "blue", "green")))
    table.bot_until(lambda s: s.phase == "attack" and s.turn >= 2)
    server = start_background(table.app)
    context = chromium[1].new_context(viewport={"width": 360, "height": 780}, locale="en-GB")
    try:
        context.add_init_script("localStorage.setItem('riskboard.phone', 'layout-phone')")
        yield table, server.url, context
    finally:
        context.close()
        server.stop()


@pytest.mark.browser
def test_the_first_render_shows_the_layout_it_drew(tables, chromium):
    with _served_phone(tables, chromium) as (table, url, context):
        page = context.new_page()
        page.goto(f"{url}/me#t={table.tokens['red']}")
        page.wait_for_selector("#state-sentence[data-ready]", state="attached", timeout=WAIT)
        # shown in the task that wrote the sentence, not by the fallback seconds later
        assert page.evaluate(LAYOUT_SHOWN)
        assert page.locator("#map svg.worldmap").is_visible()
        assert page.locator("#private").is_visible()


@pytest.mark.browser
def test_a_phone_without_a_seat_is_shown_how_to_get_one(tables, chromium):
    with _served_phone(tables, chromium) as (_table, url, context):
        page = context.new_page()
        page.goto(f"{url}/me")
        page.wait_for_function("(words) => document.getElementById('state-sentence')"
                               ".textContent === words", arg=EN["me.no_seat"], timeout=WAIT)
        assert page.evaluate(LAYOUT_SHOWN)
        assert page.locator("#no-seat").is_visible()
        assert page.locator("#join-link").is_visible()


@pytest.mark.browser
def test_the_layout_shows_even_if_the_pages_module_never_comes(tables, chromium):
    with _served_phone(tables, chromium) as (table, url, context):
        context.route("**/static/table.js", lambda route: route.abort())
        page = context.new_page()
        page.goto(f"{url}/me#t={table.tokens['red']}")
        assert not page.evaluate(LAYOUT_SHOWN)  # no render will show it
        page.wait_for_function(LAYOUT_SHOWN, timeout=WAIT)
        assert page.locator("#map svg.worldmap").is_visible()
