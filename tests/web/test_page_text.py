"""`browsing.page_text` reads what a page shows, cards laid out late included: Chromium
leaves a `content-visibility: auto` card out of innerText while it is off screen, so a test
that checks some words are *not* on My view would pass on nothing."""

from __future__ import annotations

import pytest

from .browsing import LAID_OUT_LATE, page_text

pytestmark = pytest.mark.browser

PAGE = """<html><body><div style="height: 3000px">top</div>
<aside class="side"><section class="card"><ol id="log"><li>one</li><li>two</li></ol></section>
<section class="card" hidden><p>never shown</p></section></aside>
<style>""" + LAID_OUT_LATE + """ { content-visibility: auto; contain-intrinsic-size: auto 320px; }
</style></body></html>"""


def test_a_card_off_screen_is_read_and_left_as_it_was(chromium):
    page = chromium[1].new_page(viewport={"width": 360, "height": 640})
    try:
        page.set_content(PAGE)
        assert page.inner_text("#log") == ""  # why page_text exists: Chromium skips it
        assert page_text(page, "#log").split() == ["one", "two"]
        text = page_text(page)
        assert "two" in text and "never shown" not in text
        # the card is laid out late again once read
        assert page.evaluate("() => getComputedStyle(document.querySelector('.card'))"
                             ".contentVisibility") == "auto"
    finally:
        page.close()
