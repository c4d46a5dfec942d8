"""/virtual in Chromium follows the LED strip without asking at frame rate: on a still table
it asks for nothing and draws nothing, and a change (a new game) and the animation that
follows (the free territories breathing) still reach its LEDs. Counted from outside: the
page's requests (Playwright's request events) and the writes to its LEDs (a
MutationObserver)."""

from __future__ import annotations

import pytest

from pi_app.web import create_app
from pi_app.web.serve import start_background

from .browsing import DESKTOP, open_page
from .conftest import PIN
from .test_virtual_frames import IdleTable

pytestmark = pytest.mark.browser

DOTS = "g.tile circle.led"
COUNT_WRITES = """() => {
  window.ledWrites = 0;
  new MutationObserver((records) => { window.ledWrites += records.length; }).observe(
    document.body, { subtree: true, attributes: true,
                     attributeFilter: ["fill", "stroke", "stroke-width", "style"] });
}"""
LOOKS_OF = """(sel) => {
  const dot = document.querySelector(sel);
  window.looks = new Set([dot.getAttribute("fill")]);
  new MutationObserver(() => window.looks.add(dot.getAttribute("fill")))
    .observe(dot, { attributes: true, attributeFilter: ["fill"] });
}"""


def test_a_still_board_is_not_asked_for_and_a_new_game_lights_it(tmp_path, chromium):
    table = IdleTable(tmp_path)
    app = create_app(table.service, host_pin=PIN, data_dir=tmp_path / "data")
    server = start_background(app)
    context = chromium[1].new_context(viewport=DESKTOP)
    try:
        page = open_page(context, f"{server.url}/virtual")
        page.wait_for_selector(DOTS)  # the first frame is drawn: every LED dark, no game
        asks: list[str] = []
        page.on("request", lambda r: asks.append(r.url) if "/api/virtual/" in r.url else None)
        page.evaluate(COUNT_WRITES)
        page.wait_for_timeout(3000)  # the table stands still meanwhile
        assert len(asks) <= 2, f"a still board is asked for {len(asks)} times in 3 s"
        assert page.evaluate("window.ledWrites") == 0, "a frame that did not change is drawn"

        table.new_game()
        page.wait_for_function(f"() => [...document.querySelectorAll('{DOTS}')]"
                               ".some((dot) => dot.getAttribute('fill') !== 'rgb(0,0,0)')")
        # ... and the breath of the free territories is drawn as the strip shows it
        owners = table.loop.call(lambda core: dict(core.state.owner))
        free = next(t for t, o in owners.items() if o is None)
        page.evaluate(LOOKS_OF, f'g.tile[data-id="{free}"] circle.led')
        page.wait_for_function("() => window.looks.size >= 4")
    finally:
        context.close()
        server.stop()
        table.close()

