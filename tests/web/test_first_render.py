"""My view's first render asks for nothing beyond its own page and files (issue 23.12).

The page carries its language's words (the phone's `riskboard.lang` cookie, else its
Accept-Language) and the map as inert JSON blocks, so a slow phone waits for neither
`/i18n/<lang>.json` nor `/api/map`, and the map comes drawn in the page (map.js colours
it); RISK Strike's page code is fetched only for a Strike
game; the seat check and the live stream start from the head. Those blocks hold public,
static data only: the game itself (and every secret in it) still reaches a phone only by
the seat's own requests, through the one redaction function. How fast it is stays
bench.page_weight's business: nothing here times anything."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pi_app.table.loop import NewGameSpec
from pi_app.web.pages import inline_json

from .browsing import shot
from .conftest import give_secrets, seat

I18N = Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n"
LOCALES = {"en": "en-GB", "ko": "ko-KR", "ja": "ja-JP", "fr": "fr-FR"}
PHONE = {"width": 360, "height": 780}
WAIT = 30_000  # ms: generous; the speed is bench.page_weight's


class Blocks(HTMLParser):
    """The page's `<script type="application/json">` blocks: id -> (attributes, raw text),
    and the `<html>` element's attributes."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.blocks: dict[str, tuple[dict[str, str | None], str]] = {}
        self.root: dict[str, str | None] = {}
        self._open: tuple[str, dict[str, str | None]] | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if tag == "html":
            self.root = found
        if tag == "script" and found.get("type") == "application/json":
            self._open = (str(found.get("id")), found)

    def handle_data(self, data):
        if self._open is not None:
            key, attrs = self._open
            self.blocks[key] = (attrs, self.blocks.get(key, (attrs, ""))[1] + data)

    def handle_endtag(self, tag):
        if tag == "script":
            self._open = None


def blocks_of(response) -> Blocks:
    assert response.status_code == 200
    return Blocks(response.get_data(as_text=True))


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_page_comes_with_the_words_of_the_phones_language(client, lang):
    answer = client.get("/me", headers={"Accept-Language": f"{LOCALES[lang]},{lang};q=0.9,"
                                                            "en;q=0.5"})
    page = blocks_of(answer)
    attrs, text = page.blocks["rb-words"]
    assert attrs["data-lang"] == lang
    assert page.root["lang"] == lang
    # exactly what /i18n/<lang>.json serves (its words over the English ones)
    assert json.loads(text) == client.get(f"/i18n/{lang}.json").get_json()
    # every page, not only My view (the host page, /join, /dice, /virtual use the words too)
    for path in ("/", "/host", "/join", "/dice", "/virtual"):
        other = blocks_of(client.get(path, headers={"Accept-Language": LOCALES[lang]}))
        assert other.blocks["rb-words"][0]["data-lang"] == lang, path


def test_a_picked_language_wins_over_the_phones_and_nonsense_falls_back(client):
    client.set_cookie("riskboard.lang", "ja")
    page = blocks_of(client.get("/me", headers={"Accept-Language": "fr-FR,fr"}))
    assert page.blocks["rb-words"][0]["data-lang"] == "ja"
    client.set_cookie("riskboard.lang", "de")  # not a language of the pages: ignored
    page = blocks_of(client.get("/me", headers={"Accept-Language": "fr-FR,fr"}))
    assert page.blocks["rb-words"][0]["data-lang"] == "fr"
    client.delete_cookie("riskboard.lang")
    page = blocks_of(client.get("/me", headers={"Accept-Language": "de-DE,de;q=0.9"}))
    assert page.blocks["rb-words"][0]["data-lang"] == "en"
    assert blocks_of(client.get("/me")).blocks["rb-words"][0]["data-lang"] == "en"


def test_table_pages_carry_the_public_map_and_nothing_of_the_game(client, table, tokens):
    give_secrets(table)
    for path in ("/", "/me"):
        for headers in ({}, seat(tokens["red"])):  # a token sent anyway changes nothing
            answer = client.get(path, headers=headers)
            html = answer.get_data(as_text=True)
            page = blocks_of(answer)
            assert set(page.blocks) == {"rb-words", "rb-map"}, path
            assert json.loads(page.blocks["rb-map"][1]) == client.get("/api/map").get_json()
            assert "SECRET" not in html
            assert tokens["red"] not in html
    assert page.root["data-stream"] == "private"  # My view starts its seat's stream itself
    assert blocks_of(client.get("/")).root["data-stream"] == "public"
    assert "rb-map" not in blocks_of(client.get("/host")).blocks


class Drawing(HTMLParser):
    """The map drawn in a page: each tile's id and short label, each continent label's text."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.svgs = 0
        self.tiles: dict[str, str] = {}
        self.continents: dict[str, str] = {}
        self._tile: str | None = None
        self._into: tuple[dict, str] | None = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if tag == "svg" and "worldmap" in classes:
            self.svgs += 1
        if tag == "g" and "tile" in classes:
            self._tile = str(found["data-id"])
        if tag == "tspan" and "abbr" in classes and self._tile:
            self._into = (self.tiles, self._tile)
        if tag == "text" and "continent-label" in classes:
            self._into = (self.continents, str(found["data-id"]))

    def handle_data(self, data):
        if self._into is not None:
            where, key = self._into
            where[key] = where.get(key, "") + data

    def handle_endtag(self, tag):
        if tag in ("tspan", "text"):
            self._into = None
        if tag == "g":
            self._tile = None


@pytest.mark.parametrize("lang", list(LOCALES))
def test_table_pages_come_with_the_map_drawn_in_their_language(client, lang):
    """The map is drawn in the page (its first paint holds the board; map.js only colours
    it): every territory of /api/map once, with its short label and the continents' names
    and bonuses in the page's words, on the table view, My view and the virtual board."""
    words = json.loads((I18N / f"{lang}.json").read_text("utf-8"))
    english = json.loads((I18N / "en.json").read_text("utf-8"))
    board = client.get("/api/map").get_json()
    for path in ("/", "/me", "/virtual"):
        page = Drawing(client.get(path, headers={"Accept-Language": LOCALES[lang]})
                       .get_data(as_text=True))
        assert page.svgs == 1, path
        assert set(page.tiles) == {t["id"] for t in board["territories"]}, path
        for tid, label in page.tiles.items():
            assert label == words.get(f"abbr.{tid}", english[f"abbr.{tid}"]), (path, tid)
        for c in board["continents"]:
            name = words.get(f"continent.{c['id']}", english[f"continent.{c['id']}"])
            assert page.continents[c["id"]] == f"{name} +{c['bonus']}", (path, c["id"])


def test_inline_json_cannot_end_its_block_or_open_a_comment():
    nasty = json.dumps({"a": "</script><script>alert(1)</script>", "b": "<!-- & -->"})
    made = inline_json(nasty)
    assert not re.search(r"[<>&]", made)
    assert json.loads(made) == json.loads(nasty)


# ----- in the browser ------------------------------------------------------------------------
FIRST_RENDER = ("/me", "/static/style.css", *(f"/static/{m}.js" for m in (
    "common", "words", "saying", "seat", "language", "live", "dom", "table", "map", "kinds",
    "board-kind", "board-view", "variants", "log-lines", "dice-view", "aim", "aims", "my-view")),
    "/api/state", "/api/stream-ticket", "/api/events")


def _phone(chromium, lang: str, key: str = "first-render-phone", pick: bool = True):
    context = chromium[1].new_context(viewport=PHONE, locale=LOCALES[lang])
    script = f"localStorage.setItem('riskboard.phone', '{key}');"
    if pick:
        script += f"localStorage.setItem('riskboard.lang', '{lang}')"
    context.add_init_script(script)
    return context


def _open_my_view(context, url: str, painted: bool = True) -> tuple[object, list[str]]:
    """My view at `url`, once its first render is done (its sentence, and with `painted` a
    tile with an owner); with the paths it asked for until then."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#state-sentence[data-ready]", timeout=WAIT)
    if painted:
        page.wait_for_selector('g.tile[data-owner]:not([data-owner=""])', state="attached",
                               timeout=WAIT)
    # the page's own record: each request and when it started, against the mark My view
    # sets as it writes this seat's sentence (the board's health check comes after it)
    asked = page.evaluate("""() => {
      const ready = performance.getEntriesByName('riskboard:first-render')[0].startTime;
      return ['/me', ...performance.getEntriesByType('resource')
        .filter((r) => r.startTime <= ready).map((r) => new URL(r.name).pathname)]; }""")
    return page, asked


@pytest.mark.browser
def test_my_view_renders_first_from_its_page_files_and_seat_in_each_language(
        tables, chromium, tmp_path):
    from pi_app.web.serve import start_background

    table = tables(NewGameSpec("classic", ("red", "blue", "green")))
    table.bot_until(lambda s: s.phase == "attack" and s.turn >= 2)
    words = {lang: json.loads((I18N / f"{lang}.json").read_text("utf-8")) for lang in LOCALES}
    server = start_background(table.app)
    try:
        for lang in LOCALES:
            context = _phone(chromium, lang)
            page, asked = _open_my_view(context, f"{server.url}/me#t={table.tokens['red']}")
            assert set(asked) <= set(FIRST_RENDER), (lang, asked)
            assert not [p for p in asked if p.startswith("/i18n/") or p == "/api/map"]
            assert "/static/strike.js" not in asked  # a classic game never needs it
            # the page speaks the language: its words came with it
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.locator("nav a[href='/dice']").inner_text() == words[lang]["nav.dice"]
            assert page.locator("#seat-name").inner_text() == words[lang][
                "me.you_are"].replace("{colour}", words[lang]["colour.red"])
            # and all of My view is there after it: the log, the dice, the cards, the live badge
            page.wait_for_selector("#conn.ok", timeout=WAIT)
            page.wait_for_selector("#log li", timeout=WAIT)
            page.wait_for_selector("#dice .dice-row, #dice p", timeout=WAIT)
            assert "token" not in page.url and "#t=" not in page.url
            shot(page, f"first-render-{lang}")
            context.close()
    finally:
        server.stop()


@pytest.mark.browser
def test_a_language_picked_on_the_page_comes_with_the_next_page(tables, chromium, tmp_path):
    from pi_app.web.serve import start_background

    table = tables(NewGameSpec("classic", ("red", "blue", "green")))
    table.bot_until(lambda s: s.phase == "attack" and s.turn >= 2)
    ja = json.loads((I18N / "ja.json").read_text("utf-8"))
    server = start_background(table.app)
    try:
        context = _phone(chromium, "en", pick=False)
        page, asked = _open_my_view(context, f"{server.url}/me#t={table.tokens['red']}")
        page.select_option("#lang", "ja")
        page.wait_for_function("() => document.documentElement.lang === 'ja'", timeout=WAIT)
        asked.clear()
        page.reload()
        page.wait_for_selector("#state-sentence[data-ready]", timeout=WAIT)
        assert not [p for p in asked if p.startswith("/i18n/")], asked
        assert page.locator("nav a[href='/dice']").inner_text() == ja["nav.dice"]
        context.close()
    finally:
        server.stop()


@pytest.mark.browser
def test_a_strike_game_brings_its_page_code_when_it_plays(tables, chromium, tmp_path):
    from pi_app.web.serve import start_background

    table = tables(NewGameSpec("strike", ("red", "blue"), {"reaction_seconds": 600}))
    server = start_background(table.app)
    try:
        context = _phone(chromium, "ko")
        page, asked = _open_my_view(context, f"{server.url}/me#t={table.tokens['red']}",
                                    painted=False)  # nobody holds a continent yet
        assert "/static/strike.js" in asked
        page.wait_for_selector("#strike-board:not([hidden])", timeout=WAIT)
        assert page.locator("#state-sentence").inner_text().strip()
        shot(page, "first-render-strike-ko")
        context.close()
    finally:
        server.stop()


@pytest.mark.browser
def test_the_first_render_is_the_seats_own_snapshot_without_the_stream(tables, chromium, tmp_path):
    """With the live stream held back, My view still draws its first render, from the seat's
    snapshot (`/api/state` with its token: the server's one redaction for that seat): the
    sentence, the painted map and this seat's own cards; the log waits for the stream rather
    than saying nothing happened."""
    from pi_app.table_api import Viewer
    from pi_app.web.serve import start_background

    table = tables(NewGameSpec("classic", ("red", "blue", "green")))
    table.bot_until(lambda s: s.phase == "attack" and s.turn >= 2
                    and len(s.hands["red"]) not in (0, len(s.hands["blue"])))
    service = table.app.extensions["riskboard"].table
    mine = service.view(Viewer("player", "red"))["my_hand"]
    en = json.loads((I18N / "en.json").read_text("utf-8"))
    server = start_background(table.app)
    try:
        context = _phone(chromium, "en")
        context.route("**/api/events*", lambda route: None)  # never answered
        page, asked = _open_my_view(context, f"{server.url}/me#t={table.tokens['red']}")
        assert "/api/state" in asked
        assert page.locator("#hand .cardchip").count() == len(mine)
        assert page.locator("#seat-name").inner_text() == en["me.you_are"].replace(
            "{colour}", en["colour.red"])
        page.wait_for_timeout(500)  # time for a wrong "nothing happened" to show, if it would
        assert page.locator("#log li").count() == 0
        assert page.locator("#conn").get_attribute("class") == "conn"  # not live: no stream
        context.close()
    finally:
        server.stop()
