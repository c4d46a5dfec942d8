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

from .browsing import serious_accessibility_problems, shot
from .conftest import PIN

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


def test_the_host_page_shows_that_a_seats_link_reached_two_phones(tables, chromium):
    """Issue 34.5: one seat's link opened on two phones (two browser contexts: two keys)
    shows on the host's seat list at 360 px as two phones, in the host page's language;
    the other seats show no count. Board health names the riskboard version."""
    import tomllib

    words = json.loads((I18N / "fr.json").read_text("utf-8"))
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    version = tomllib.loads(pyproject.read_text("utf-8"))["project"]["version"]
    table = tables(CLASSIC)
    server = start_background(table.app)
    phones = [chromium[1].new_context(viewport=PHONE) for _ in range(2)]
    # two phones: two browsers, each with a key of its own (browsing.one_phone)
    for n, phone in enumerate(phones):
        phone.add_init_script(f"localStorage.setItem('riskboard.phone', 'phone-{n}')")
    host = chromium[1].new_context(viewport=PHONE)
    host.add_init_script("localStorage.setItem('riskboard.lang', 'fr');"
                         f"sessionStorage.setItem('riskboard.hostPin', '{PIN}');")
    link = f"{server.url}/me#t={table.tokens['green']}"
    try:
        held = phones[0].new_page()
        held.goto(link)
        held.wait_for_selector("#private:not([hidden])")
        other = phones[1].new_page()
        other.goto(link)
        other.wait_for_function(
            "(want) => document.getElementById('state-sentence').textContent === want",
            arg=json.loads((I18N / "en.json").read_text("utf-8"))["error.seat_held"])
        page = host.new_page()
        page.goto(f"{server.url}/host")
        page.wait_for_selector("#console:not([hidden]) .seat")
        want = words["host.seat_phones"].replace("{n}", "2")
        page.wait_for_function(  # the seat list is asked again every 5 s
            "(want) => [...document.querySelectorAll('.seat-phones')]"
            ".map((n) => n.textContent).join('|') === want", arg=want, timeout=60_000)
        green = page.locator(".seat", has=page.locator(".seat-phones"))
        assert green.locator("figcaption").inner_text().startswith(words["colour.green"])
        assert page.locator(".seat-phones").count() == 1  # red and blue: no count shown
        page.wait_for_function(
            "(want) => document.getElementById('host-version').textContent === want",
            arg=words["host.version"].replace("{version}", version), timeout=60_000)
        assert serious_accessibility_problems(page, ["color-contrast"]) == []
        green.scroll_into_view_if_needed()
        shot(page, "host-seat-two-phones-fr-360")
    finally:
        for context in (*phones, host):
            context.close()
        server.stop()
