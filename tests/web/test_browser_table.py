"""Real-browser tests (headless Debian Chromium): the table view updates live through SSE,
the virtual board sends touches, and a second context with another seat token sees only
its own private view. Screenshots are saved under test-artifacts/web/."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from pi_app.web import create_app
from pi_app.web.serve import start_background

from .fake_table import FakeTable

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
PIN = "24681357"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    table = FakeTable(tmp_path_factory.mktemp("journal"))
    app = create_app(table, host_pin=PIN, data_dir=tmp_path_factory.mktemp("data"))
    server = start_background(app)
    yield table, app, server
    server.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chrome-profile")), executable_path=CHROMIUM,
            args=ARGS, headless=True, viewport={"width": 1280, "height": 900},
        )
        yield pw, context
        context.close()


def _count(page, territory: str) -> str:
    return page.locator(f'g.tile[data-id="{territory}"] text.count').inner_text()


def test_table_view_updates_through_sse_after_a_virtual_touch(served, browser):
    table, _app, server = served
    _pw, context = browser
    page = context.new_page()
    page.goto(f"{server.url}/virtual")
    page.wait_for_selector('g.tile[data-id="alaska"] text.count:text("3")')
    expect_owner = table.owner["alaska"]
    assert page.locator('g.tile[data-id="alaska"]').get_attribute("data-owner") == expect_owner
    viewer = context.new_page()
    viewer.goto(f"{server.url}/")
    viewer.wait_for_selector("#conn.ok")
    started = time.monotonic()
    page.locator('g.tile[data-id="alaska"]').click()
    viewer.wait_for_selector('g.tile[data-id="alaska"] text.count:text("4")', timeout=1000)
    viewer.wait_for_selector('#log li:has-text("placed 1 on alaska")', timeout=1000)
    assert time.monotonic() - started < 1.5
    viewer.screenshot(path=str(ARTIFACTS / "table-1280.png"), full_page=True)
    page.screenshot(path=str(ARTIFACTS / "virtual-1280.png"), full_page=True)
    page.close()
    viewer.close()


def test_private_view_shows_only_the_owners_hand_and_mission(served, browser):
    table, app, server = served
    pw, context = browser
    seats = app.extensions["riskboard"].seats.issue_all(list(table.players))
    red = context.new_page()
    red.set_viewport_size({"width": 360, "height": 780})
    red.goto(f"{server.url}/me#t={seats['red']}")
    red.wait_for_selector("#private:not([hidden])")
    red.wait_for_selector("#hand label")
    assert "#t=" not in red.url, "the token must leave the address bar"
    red_text = red.locator("#private").inner_text()
    assert "red-card-0" in red_text and "secret mission of red" in red_text
    assert "blue-card" not in red.content() and "secret mission of blue" not in red.content()
    # a second, separate browser context is another phone with another token
    other = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
    try:
        blue_ctx = other.new_context(viewport={"width": 360, "height": 780})
        blue = blue_ctx.new_page()
        blue.goto(f"{server.url}/me#t={seats['blue']}")
        blue.wait_for_selector("#hand label")
        assert "blue-card-0" in blue.locator("#hand").inner_text()
        assert "red-card" not in blue.content() and "secret mission of red" not in blue.content()
        # red ends the turn from the phone; blue's page sees it live
        red.locator("#end-turn-btn").click()
        blue.wait_for_selector('#banner:has-text("blue\'s turn")', timeout=1000)
        blue.wait_for_selector('#log li:has-text("red drew a card")', timeout=1000)
        assert "deck-card-0" not in blue.content(), "blue must not see red's drawn card"
        red.wait_for_selector('#log li:has-text("red drew deck-card-0")', timeout=1000)
        red.screenshot(path=str(ARTIFACTS / "me-red-360.png"), full_page=True)
        blue.screenshot(path=str(ARTIFACTS / "me-blue-360.png"), full_page=True)
    finally:
        other.close()
    red.close()


def test_host_page_shows_a_qr_code_per_seat_and_the_dice_page_verifies(served, browser):
    table, _app, server = served
    _pw, context = browser
    host = context.new_page()
    host.set_viewport_size({"width": 360, "height": 780})
    host.goto(f"{server.url}/host")
    host.fill("#pin", PIN)
    host.click("#login-btn")
    host.wait_for_selector("#console:not([hidden])")
    host.click("#new-game-btn")
    host.wait_for_selector("figure.seat >> nth=2")
    assert host.locator("figure.seat svg").count() == 3
    host.screenshot(path=str(ARTIFACTS / "host-360.png"), full_page=True)
    # play one battle, end the game, verify every roll in the browser
    source = next(t for t, o in table.owner.items() if o == "red"
                  and any(table.owner[n] != "red" for n in table.adjacent[t]))
    target = next(n for n in table.adjacent[source] if table.owner[n] != "red")
    from pi_app.table_api import Viewer

    table.submit({"type": "attack", "player": "red", "source": source, "target": target},
                 Viewer("player", "red"))
    host.on("dialog", lambda dialog: dialog.accept())
    host.click("#end-btn")
    host.wait_for_selector('#host-out:has-text("seed")')
    dice = context.new_page()
    dice.goto(f"{server.url}/dice")
    dice.wait_for_selector("#verify-btn:not([disabled])")
    dice.click("#verify-btn")
    dice.wait_for_selector("#verify-out.ok", timeout=5000)
    assert "match the seed" in dice.locator("#verify-out").inner_text()
    dice.screenshot(path=str(ARTIFACTS / "dice-1280.png"), full_page=True)
    host.close()
    dice.close()
