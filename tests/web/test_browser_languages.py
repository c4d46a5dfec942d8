"""Every page in English, 한국어, 日本語 and Français, for every variant, at phone size: the
phone's language chooses the words, a player can switch and the choice is remembered;
no catalogue key shows raw, nothing scrolls sideways, the map fits, no console error.
A screenshot per page, variant and language lands in test-artifacts/web/ (the table
view's: in every language for classic and Strike, in English for the other variants; its
words are My view's).

axe-core runs in test_browser_matrix.py, on every page in every language and variant."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pi_app.web import create_app
from pi_app.web.pages import LANGUAGES
from pi_app.web.serve import start_background

from .browsing import PIN, page_text, shot
from .conftest import play_until
from .real_table import ServedTable

pytestmark = pytest.mark.browser
PHONE = {"width": 360, "height": 640}
VARIANTS = {
    "classic": (("red", "blue", "green"), lambda s: s.phase == "attack"),
    "mission": (("red", "blue", "green"), lambda s: s.phase == "reinforce"),
    "capital": (("red", "blue", "green"), lambda s: s.phase == "hq_pick"),
    "two-player": (("red", "blue"), lambda s: s.phase == "setup_place"),
    "allied": (("red", "blue"), lambda s: s.phase == "allied"),
    "strike": (("red", "blue"), lambda s: True),
}
WORDS = {lang: json.loads((Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n"
                           / f"{lang}.json").read_text("utf-8")) for lang in LANGUAGES}
KEY = re.compile(r"\b(?:state|banner|log|me|map|odds|dice|strike|slog|players|error|hq|"
                 r"mission|third|phase|colour|territory|continent)\.[a-z_][a-z_0-9.-]*\b")


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """One served table per variant, each at a phase worth showing: {variant: (app, server)}."""
    served = {}
    try:
        for variant, (players, point) in VARIANTS.items():
            table = ServedTable(tmp_path_factory.mktemp(variant), players=players, variant=variant)
            play_until(table, point)
            # one address opens every phone here: the per-address join limit would refuse
            app = create_app(table, host_pin=PIN, data_dir=tmp_path_factory.mktemp("d"),
                             join_rate=(1000.0, 1000))
            app.extensions["riskboard"].seats.issue_all(list(players))
            served[variant] = (table, app, start_background(app))
        yield served
    finally:
        for table, _app, server in served.values():
            server.stop()
            table.close()


def check_page(page, name: str, lang: str, problems: list[str]) -> None:
    """The checks every page passes in every language."""
    assert page.evaluate("document.documentElement.lang") == lang, name
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name
    text = page_text(page)
    raw = [k for k in KEY.findall(text) if k in WORDS["en"]]
    assert raw == [], f"{name}: catalogue keys shown raw: {raw}"
    map_box = page.locator("#map svg").bounding_box() if page.locator("#map svg").count() else None
    if map_box:
        assert map_box["x"] >= 0 and map_box["x"] + map_box["width"] <= PHONE["width"] + 0.5
    assert problems == [], f"{name}: {problems}"


def fill(text: str, **params) -> str:
    """A catalogue sentence with its {placeholders} filled, as RB.t fills them."""
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), text)


def watched(context, url: str, ready: str):
    problems: list[str] = []
    page = context.new_page()
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400
            else None)
    page.goto(url)
    page.wait_for_selector(ready)
    return page, problems


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_table_and_my_view_in_every_language(tables, chromium, variant, lang):
    table, app, server = tables[variant]
    player = table.state.players[0]
    token = app.extensions["riskboard"].seats.tokens()[player]
    ctx = chromium[1].new_context(viewport=PHONE, locale={"en": "en-GB", "ko": "ko-KR",
                                                          "ja": "ja-JP", "fr": "fr-FR"}[lang])
    try:
        me, problems = watched(ctx, f"{server.url}/me#t={token}", "#private:not([hidden])")
        me.wait_for_selector("#conn.ok")
        sentence = me.locator("#state-sentence").inner_text()
        assert sentence and sentence != WORDS[lang]["state.loading"]
        assert me.locator("#seat-name").inner_text() == WORDS[lang]["me.you_are"].replace(
            "{colour}", WORDS[lang][f"colour.{player}"])
        check_page(me, f"me-{variant}-{lang}", lang, problems)
        shot(me, f"lang-me-{variant}-{lang}-360")
        me.close()
        if lang != "en" and variant not in ("classic", "strike"):
            return  # the table view's words are My view's; its layout is checked in English
        view, problems = watched(ctx, f"{server.url}/", "#conn.ok")
        view.wait_for_selector("#players tr[data-player]")
        check_page(view, f"table-{variant}-{lang}", lang, problems)
        shot(view, f"lang-table-{variant}-{lang}-360")
        view.close()
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_host_and_dice_pages_in_every_language(tables, chromium, lang):
    _table, _app, server = tables["classic"]
    ctx = chromium[1].new_context(viewport=PHONE)
    ctx.add_init_script(f"localStorage.setItem('riskboard.lang', '{lang}')")
    try:
        for path, name in (("/host", "host"), ("/dice", "dice")):
            page, problems = watched(ctx, f"{server.url}{path}", "main")
            page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
            assert page.locator("a[href='/dice']").first.inner_text() == WORDS[lang]["nav.dice"]
            if name == "dice":  # the badge says the record is loaded, in the page's words
                page.wait_for_selector("#conn.ok")
                assert page.locator("#conn").inner_text() == WORDS[lang]["conn.loaded"]
            check_page(page, f"{name}-{lang}", lang, problems)
            shot(page, f"lang-{name}-{lang}-360")
            page.close()
    finally:
        ctx.close()


def test_a_player_switches_language_and_the_phone_remembers(tables, chromium):
    _table, _app, server = tables["classic"]
    ctx = chromium[1].new_context(viewport=PHONE, locale="en-US")
    try:
        page, problems = watched(ctx, f"{server.url}/", "#conn.ok")
        page.wait_for_selector("#players tr[data-player]")
        assert page.locator("#log-title").inner_text() == WORDS["en"]["log.title"]
        page.select_option("#lang", "ja")
        page.wait_for_selector(f"#log-title:text-is('{WORDS['ja']['log.title']}')")
        assert WORDS["ja"]["colour.red"] in page.locator("#players").inner_text(), \
            "the live parts are drawn again in the new language"
        page.reload()
        page.wait_for_selector("#players tr[data-player]")
        assert page.evaluate("document.documentElement.lang") == "ja"
        assert page.locator("#lang").input_value() == "ja"
        assert page.locator("#log-title").inner_text() == WORDS["ja"]["log.title"]
        assert problems == []
    finally:
        ctx.close()


@pytest.mark.parametrize("lang", ["ko", "fr"])
def test_the_unlocked_host_console_speaks_the_tables_language(tables, chromium, lang):
    """The host's new-game form, seats and computer section, once unlocked, carry no English
    (the words a host reads while setting up a game at a Korean or French table); the dice's
    full commitment is shown there."""
    table, _app, server = tables["classic"]
    before = table.game_id
    ctx = chromium[1].new_context(viewport=PHONE)
    ctx.add_init_script(f"localStorage.setItem('riskboard.lang', '{lang}')")
    try:
        page, problems = watched(ctx, f"{server.url}/host", "main")
        page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
        page.fill("#pin", "00000000")
        page.click("#login-btn")
        page.wait_for_selector(f"#login-error:text-is('{WORDS[lang]['error.bad_pin']}')")
        page.fill("#pin", PIN)
        page.click("#login-btn")
        page.wait_for_selector("#console:not([hidden]) .played-by")
        assert page.locator("#host-said").is_hidden(), "no empty bar before anything is said"
        text = page.locator("#console").inner_text()
        english = ["Played by", "a phone", "the computer", "Let it play", "Pause the computer",
                   "Goes on after", "without Confirm", "players ·", "chosen", "House rules of",
                   "A seat can be played", "Defender chooses", "Fortify", "connected",
                   "Starting armies"]
        assert [w for w in english if w in text] == []
        assert page.locator("#variant option[value=classic]").inner_text() == \
            WORDS[lang]["variant.classic"]
        assert WORDS[lang]["host.computer_pause"] in text
        assert page.locator("#conn").inner_text() == WORDS[lang]["conn.host"]
        assert page.locator("[data-rule=fortify] option[value=adjacent]").inner_text() == \
            WORDS[lang]["houserule.fortify.adjacent"]
        assert WORDS[lang]["colour.red"] in page.locator("#colours").inner_text()
        # the dice's full commitment sits on the host page (players keep only the badge)
        commitment = page.request.get(f"{server.url}/api/dice").json()["commitment"]
        assert commitment
        page.wait_for_function("c => document.getElementById('host-commitment').textContent === c",
                               arg=commitment)
        # a refused new game is told in the page's language, field by field
        page.select_option("#variant", "two-player")
        page.click("#new-game-btn")
        told = fill(WORDS[lang]["problem.players_exactly"],
                    variant=WORDS[lang]["variant.two-player"], min=2, max=2, chosen=3)
        page.wait_for_selector("#new-game-error:not(:empty)")
        assert page.locator("#new-game-error").inner_text() == told
        page.select_option("#variant", "strike")
        page.fill("[data-rule=reaction_seconds]", "700")
        page.click("#new-game-btn")
        slot = page.locator('[data-error="house_rules.reaction_seconds"]')
        slot.wait_for()
        page.wait_for_function("() => document.querySelector("
                               "'[data-error=\"house_rules.reaction_seconds\"]').textContent")
        assert slot.inner_text().strip() == fill(
            WORDS[lang]["problem.rule_int"], rule=WORDS[lang]["houserule.reaction_seconds"],
            low=0, high=600, given=700)
        assert table.game_id == before, "the refused games started nothing"
        # the refusals asked for above are the only failed requests so far
        asked = (f"403 {server.url}/api/host/check", f"400 {server.url}/api/host/new_game",
                 "Failed to load resource: the server responded with a status of 40")
        assert problems and all(p.startswith(asked) for p in problems), problems
        problems.clear()
        # what an action did is one sentence in the page's language, not the table's JSON
        page.click("#pause-btn")
        page.wait_for_selector(f"#host-out:text-is('{WORDS[lang]['host.done.pause']}')")
        assert page.locator("#host-said").is_visible()
        page.click("#resume-btn")
        page.wait_for_selector(f"#host-out:text-is('{WORDS[lang]['host.done.resume']}')")
        page.select_option("#variant", "classic")
        check_page(page, f"host-console-{lang}", lang, problems)
        shot(page, f"lang-host-console-{lang}-360")
        page.click("#host-out-close")
        assert page.locator("#host-said").is_hidden()
        # switching to English rewords the form and keeps what the host had chosen
        page.select_option("[data-rule=fortify]", "adjacent")
        page.select_option("#lang", "en")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        page.wait_for_selector("#house-rules:has-text('Defender chooses')")
        assert page.locator("[data-rule=fortify]").input_value() == "adjacent"
        assert page.locator("#variant option[value=classic]").inner_text() == \
            WORDS["en"]["variant.classic"]
        page.close()
    finally:
        ctx.close()
