"""One phone per seat, as phones meet it (issue 21.4): the page keeps a random phone key of
its own and sends it with the seat token, so the first phone that opens a seat's link holds
the seat and a second phone opening the same link is told, in its own language, that the
seat is taken — while the first phone plays on. (The server side, with truly concurrent
claims, is tests/web/test_seat_claims.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_app.table.loop import NewGameSpec
from pi_app.web.serve import start_background

from .browsing import shot

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 640}
CLASSIC = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})
I18N = Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n"


@pytest.mark.parametrize("lang", ["ko", "fr"])
def test_a_second_phone_opening_a_held_seat_is_told_in_its_language(tables, chromium, lang):
    words = json.loads((I18N / f"{lang}.json").read_text("utf-8"))
    table = tables(CLASSIC)
    server = start_background(table.app)
    first = chromium[1].new_context(viewport=PHONE)
    second = chromium[1].new_context(viewport=PHONE)
    # the second phone is another browser: its own key and its own language
    second.add_init_script(
        "localStorage.setItem('riskboard.phone', 'another-phone');"
        f"localStorage.setItem('riskboard.lang', '{lang}')")
    link = f"{server.url}/me#t={table.tokens['blue']}"
    try:
        mine = first.new_page()
        mine.goto(link)
        mine.wait_for_selector("#private:not([hidden])")
        other = second.new_page()
        other.goto(link)
        other.wait_for_function(
            "(want) => document.getElementById('state-sentence').textContent === want",
            arg=words["error.seat_held"])
        # no retrying stream under a refused seat: the badge says this phone has no seat
        other.wait_for_function(
            "(want) => document.getElementById('conn').textContent === want",
            arg=words["conn.no_seat"])
        assert other.locator("#private").is_hidden()
        assert "#t=" not in other.url, "a refused token must leave the address bar too"
        shot(other, f"seat-held-{lang}-360")
        mine.reload()  # the phone that holds the seat keeps it
        mine.wait_for_selector("#private:not([hidden])")
        assert mine.locator("#no-seat").is_hidden()
    finally:
        first.close()
        second.close()
        server.stop()
