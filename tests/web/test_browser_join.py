"""Joining without a camera, and a moved seat told at once (issue 23.5), in a real browser
against the real table service.

The host page shows a seat's short code beside its QR code; a laptop or a phone types it
on /join, in its own language, and lands on My view holding that seat, exactly as the QR
link would give it (the token out of the address bar). A phone whose seat the host moves to
another phone, or gives to the computer, is told at once over the stream it holds: the
heartbeat is set to 10 minutes here, so nothing but that push can tell it in time."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_app.table.loop import NewGameSpec
from pi_app.web import create_app
from pi_app.web.serve import start_background

from .browsing import shot
from .conftest import PIN, host

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 780}
LAPTOP = {"width": 1280, "height": 800}
FOUR = NewGameSpec("classic", ("red", "blue", "green", "yellow"), {"setup": "deal"})
I18N = Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n"
WORDS = {lang: json.loads((I18N / f"{lang}.json").read_text("utf-8"))
         for lang in ("en", "ko", "ja", "fr")}


def _served(table, tmp_path):
    """The real table's service in an app of its own (a 10-minute heartbeat), served. Every
    browser here comes from one address: the general join limit (seat checks, tickets) is
    opened wide; the seat codes' own limit stays as it is (4 wrong codes fit in it)."""
    app = create_app(table.app.extensions["riskboard"].table, host_pin=PIN,
                     data_dir=tmp_path / "web", heartbeat_seconds=600.0,
                     join_rate=(1000.0, 1000))
    return app, start_background(app)


def _context(chromium, lang: str, viewport: dict, phone: str):
    context = chromium[1].new_context(viewport=viewport)
    context.add_init_script(f"localStorage.setItem('riskboard.phone', '{phone}');"
                            f"localStorage.setItem('riskboard.lang', '{lang}')")
    return context


def _text_is(page, selector: str, want: str) -> None:
    page.wait_for_function(
        "([sel, want]) => { const n = document.querySelector(sel); return !!n && "
        "n.textContent.trim() === want; }", arg=[selector, want])


def test_a_device_that_cannot_scan_types_its_seat_code_in_each_language(tables, chromium,
                                                                         tmp_path):
    table = tables(FOUR)
    app, server = _served(table, tmp_path)
    client = app.test_client()
    contexts = []
    try:
        # the host shows blue's QR code: its short code and the join page stand beside it
        hosting = _context(chromium, "en", PHONE, "host-phone")
        contexts.append(hosting)
        page = hosting.new_page()
        page.goto(f"{server.url}/host")
        page.fill("#pin", PIN)
        page.click("#login-btn")
        page.wait_for_selector("#console:not([hidden])")
        page.wait_for_selector("figure.seat >> nth=3")
        page.click("figure.seat >> nth=1 >> button.show-code")
        page.wait_for_selector("#seat-code svg")
        shown = page.locator("#seat-code .seat-typed-code").inner_text()
        assert page.locator("#seat-code .seat-typed").inner_text().startswith(
            WORDS["en"]["host.type_code"].format(url=f"{server.url}/join"))
        page.locator("#seat-code").scroll_into_view_if_needed()
        shot(page, "join-host-code-360")
        codes = {"blue": shown}
        for colour in ("red", "green", "yellow"):
            codes[colour] = client.get(f"/api/host/seats/{colour}/code",
                                       headers=host()).get_json()["seat"]["code"]
        seats = {"en": "red", "ko": "blue", "ja": "green", "fr": "yellow"}
        for lang, colour in seats.items():
            words = WORDS[lang]
            device = _context(chromium, lang, LAPTOP if lang == "en" else PHONE,
                              f"device-{lang}")
            contexts.append(device)
            me = device.new_page()
            me.goto(f"{server.url}/me")  # no seat yet: My view points to the join page
            me.wait_for_selector("#no-seat:not([hidden])")
            _text_is(me, "#join-link", words["me.join_link"])
            me.click("#join-link")
            me.wait_for_url("**/join")
            _text_is(me, "#join h2", words["join.title"])
            me.fill("#join-code", "K7M")  # too short: refused by its form
            me.click("#join-btn")
            _text_is(me, "#join-error", words["error.bad_code_format"])
            wrong = codes[colour][:-1] + ("2" if codes[colour][-1] != "2" else "3")
            me.fill("#join-code", wrong)  # well formed, no seat's: a wrong guess
            me.click("#join-btn")
            _text_is(me, "#join-error", words["error.bad_seat_code"])
            shot(me, f"join-refused-{lang}")
            me.fill("#join-code", codes[colour].lower().replace("-", " "))
            me.click("#join-btn")
            me.wait_for_url("**/me")
            me.wait_for_selector("#private:not([hidden])")
            _text_is(me, "#seat-name", words["me.you_are"].format(
                colour=words[f"colour.{colour}"]))
            assert "#t=" not in me.url, "the token must leave the address bar, as a QR's"
            shot(me, f"join-seated-{lang}")
            me.reload()  # the seat stays this device's, as after a QR link
            me.wait_for_selector("#private:not([hidden])")
        # every seat is held now, and no code of theirs works any more
        held = client.get("/api/host/seats", headers=host()).get_json()["seats"]
        assert all(s["claimed"] for s in held)
        again = client.post("/api/join", json={"code": codes["blue"]},
                            headers={"X-Seat-Phone": "another"})
        assert again.get_json()["error"]["code"] == "bad_seat_code"
    finally:
        for context in contexts:
            context.close()
        server.stop()


@pytest.mark.parametrize("lang", ["ko", "fr"])
def test_a_phone_whose_seat_moved_is_told_at_once(tables, chromium, tmp_path, lang):
    table = tables(FOUR)
    app, server = _served(table, tmp_path)
    client = app.test_client()
    tokens = app.extensions["riskboard"].seats.tokens()
    phone = _context(chromium, lang, PHONE, "the-first-phone")
    try:
        page = phone.new_page()
        page.goto(f"{server.url}/me#t={tokens['green']}")
        page.wait_for_selector("#private:not([hidden])")
        page.wait_for_selector("#conn.ok")
        mark = table.mark()
        moved = client.post("/api/host/seats/green/reissue", headers=host())
        assert moved.status_code == 200
        # nothing else happens at the table, and the heartbeat is 10 minutes away: only the
        # stream's own check can tell the phone
        _text_is(page, "#no-seat > p", WORDS[lang]["error.seat_moved"])
        assert page.locator("#private").is_hidden()
        assert page.locator("#seat-line").is_hidden(), "it is no longer this phone's colour"
        assert table.mark() == mark, "the table moved: the test would not show the push"
        shot(page, f"seat-moved-at-once-{lang}")
    finally:
        phone.close()
        server.stop()


def test_a_phone_whose_seat_went_to_the_computer_is_told_at_once(tables, chromium, tmp_path):
    table = tables(FOUR)
    app, server = _served(table, tmp_path)
    client = app.test_client()
    tokens = app.extensions["riskboard"].seats.tokens()
    phone = _context(chromium, "ja", PHONE, "the-ja-phone")
    try:
        page = phone.new_page()
        page.goto(f"{server.url}/me#t={tokens['yellow']}")
        page.wait_for_selector("#private:not([hidden])")
        page.wait_for_selector("#conn.ok")
        res = client.post("/api/host/computer", headers=host(),
                          json={"seats": {"yellow": "normal"}, "paused": True})
        assert res.status_code == 200, res.get_json()
        words = WORDS["ja"]
        _text_is(page, "#state-sentence", words["state.computer_seat"].format(
            colour=words["colour.yellow"]))
        shot(page, "seat-to-computer-at-once-ja")
    finally:
        phone.close()
        server.stop()
