"""The practice board in the browser (issue 33): the bring-up page names a silent reader in
the page's language, /virtual says which cable is loose and moves it, a territory held on
/virtual is held on the board until let go, and a marker can be put on any reader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hardware.profiles import load_profile
from pi_app.table.miswired import miswired
from tests.bringup.http_maker import HttpHands, HttpPhone, SeenBoard, served
from tests.bringup.table_maker import TableMaker, wait_for
from tests.web.browsing import PHONE, shot

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SEED = 7
I18N = Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n"


def catalogue(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["ko", "fr"])
def test_a_loose_reader_is_named_on_the_phone_and_moved_on_the_practice_board(
        chromium, tmp_path: Path, lang: str):
    _pw, browser = chromium
    profile = load_profile("classic-42-nfc")
    truth = miswired(profile, SEED)
    [loose] = [t for t, c in truth.channel_of.items() if c >= profile.sensor_count]
    channel = profile.sensors[loose].channel
    words = catalogue(lang)
    with served(tmp_path, "classic-42-nfc", SEED) as http:
        phone = HttpPhone(http)
        context = browser.new_context(viewport=PHONE)
        context.add_init_script(f"sessionStorage.setItem('riskboard.hostPin', '{http.pin}');"
                                f"localStorage.setItem('riskboard.lang', '{lang}')")
        try:
            page = context.new_page()
            page.goto(f"{http.base}/bringup")
            page.wait_for_selector("#bu-idle:not([hidden])")
            page.click("#bu-start")
            page.wait_for_selector("#bu-run:not([hidden])")
            seen = SeenBoard.read(http)
            TableMaker(seen, None, phone, hands=HttpHands(http, seen)).count_and_colours()
            assert phone.state()["step"] == "sensors"
            name = page.evaluate(
                "async (id) => (await import('/static/words.js')).territory(id)", loose)
            [reader] = phone.state()["silent_readers"]
            expected = words["bringup.silent.mux"].format(
                territory=name, channel=channel, mux=reader["mux"], port=reader["port"])
            page.wait_for_selector("#bu-silent span")
            assert page.inner_text("#bu-silent") == expected
            shot(page, f"practice-silent-reader-{lang}-360")

            board = context.new_page()
            board.set_viewport_size({"width": 1024, "height": 800})
            board.goto(f"{http.base}/virtual")
            board.wait_for_selector("#v-ports:not([hidden])")
            sentence = board.inner_text("#v-ports")
            assert name in sentence and str(truth.channel_of[loose]) in sentence, sentence
            options = board.eval_on_selector_all("#token option", "o => o.map(x => x.value)")
            assert "red|marker-1" in options and "red|marker-2" in options, options
            shot(board, f"practice-virtual-loose-{lang}")
            board.select_option("#v-ports select", str(channel))
            board.click("#v-ports button")
            board.wait_for_selector("#v-ports", state="hidden")
            page.wait_for_function("!document.querySelector('#bu-silent span')")
            shot(board, f"practice-virtual-moved-{lang}")

            # a tile held on /virtual stays down on the board until it is let go
            box = board.locator(f"g.tile[data-id='{loose}'] rect.land").bounding_box()
            assert box is not None
            before = phone.state()["revision"]
            board.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            board.mouse.down()

            def held() -> bool:
                seen = {c["channel"]: c for c in phone.state()["channels"]}
                return seen.get(channel, {}).get("state") == "tag"
            wait_for(held, what="the reader to hold the tag while the tile is held")
            assert phone.state()["revision"] > before
            board.mouse.up()
            wait_for(lambda: not held(), what="the tag lifted with the finger")
        finally:
            context.close()
