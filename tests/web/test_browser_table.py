"""Real-browser tests (headless Debian Chromium): the table view updates live through SSE,
the virtual board sends touches, and a second context with another seat token sees only
its own private view. Screenshots are saved under test-artifacts/web/."""

from __future__ import annotations

import pytest

from pi_app.table_api import Viewer
from pi_app.web import create_app
from pi_app.web.serve import start_background

from .browsing import ARGS, HEADLESS_SHELL, PIN, one_phone, open_page, shot
from .conftest import attack_needing_defence, bot_step, give_secrets, play_until
from .real_table import BOARD, ServedTable

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(table, app, server): a game of the real table service served, every seat issued a
    token, so each test can open a phone on its own."""
    table = ServedTable(tmp_path_factory.mktemp("journal"))
    app = create_app(table, host_pin=PIN, data_dir=tmp_path_factory.mktemp("data"))
    app.extensions["riskboard"].seats.issue_all(list(table.state.players))
    server = start_background(app)
    yield table, app, server
    server.stop()
    table.close()


@pytest.fixture(scope="module")
def browser(chromium):
    """(playwright, one desktop-sized context) for this module's pages."""
    pw, launched = chromium
    context = launched.new_context(viewport={"width": 1280, "height": 900})
    yield pw, context
    context.close()


def test_table_view_updates_through_sse_after_a_virtual_touch(served, browser):
    table, _app, server = served
    _pw, context = browser
    board = open_page(context, f"{server.url}/virtual")
    board.wait_for_selector("#pin-ask:not([hidden])")  # no PIN, no seat: it asks once
    board.locator('g.tile[data-id="alaska"]').click()
    board.fill("#v-pin", "00000000")
    board.click("#v-pin-btn")
    board.wait_for_selector('#pin-error:has-text("wrong")')
    assert table.seq == 0, "a touch without the PIN changed nothing"
    board.fill("#v-pin", PIN)
    board.click("#v-pin-btn")
    board.wait_for_selector("#pin-ask", state="hidden")
    viewer = open_page(context, f"{server.url}/")
    first = table.state.current_player
    board.locator('g.tile[data-id="alaska"]').click()
    viewer.wait_for_selector(f'g.tile[data-id="alaska"][data-owner="{first}"]')
    viewer.wait_for_selector(f'#log li:has-text("{first.title()} claimed Alaska")')
    assert viewer.locator('g.tile[data-id="alaska"] .count').text_content() == "1"
    second = table.state.current_player
    assert second != first
    board.locator('g.tile[data-id="peru"]').click()
    viewer.wait_for_selector(f'g.tile[data-id="peru"][data-owner="{second}"]')
    shot(viewer, "table-1280")
    shot(board, "virtual-1280")
    board.close()
    viewer.close()


def test_private_view_shows_only_the_owners_secrets_and_phones_act(served, browser):
    table, app, server = served
    pw, context = browser
    give_secrets(table)
    seats = app.extensions["riskboard"].seats.issue_all(list(table.state.players))
    red = context.new_page()
    red.set_viewport_size({"width": 360, "height": 780})
    red.goto(f"{server.url}/me#t={seats['red']}")
    red.wait_for_selector("#hand label")
    assert "#t=" not in red.url, "the token must leave the address bar"
    red_text = red.locator("#private").inner_text()
    assert "Wild card" in red_text and "SECRET-MISSION-red" in red_text
    assert "SECRET-MISSION-blue" not in red.content()
    # a second, separate browser is another phone with another token
    other = pw.chromium.launch(executable_path=HEADLESS_SHELL, args=ARGS, headless=True)
    other.new_context = one_phone(other.new_context)  # the same test phone key as every context
    try:
        blue_ctx = other.new_context(viewport={"width": 360, "height": 780})
        blue_ctx.add_init_script(
            "window.__buzz = [];"
            "navigator.vibrate = (p) => { window.__buzz.push(p); return true; };")
        blue = blue_ctx.new_page()
        now = table.state.current_player
        order = list(table.state.players)
        who = order[(order.index(now) + 1) % len(order)]  # the next player's phone
        blue.goto(f"{server.url}/me#t={seats[who]}")
        blue.wait_for_selector("#private:not([hidden])")
        assert f"SECRET-MISSION-{who}" in blue.locator("#private").inner_text()
        assert "SECRET-MISSION-red" not in blue.content() or who == "red"
        blue.wait_for_selector(f'#state-sentence:has-text("Waiting for {now.title()}")')
        blue.click("#state-sentence")  # a phone buzzes only once its page was touched
        assert blue.evaluate("window.__buzz.length") == 0
        bot_step(table)  # the current player claims: the decision becomes this phone's
        blue.wait_for_selector('#state-sentence:has-text("Your turn: claim")')
        assert blue.evaluate("window.__buzz.length") == 1, "the phone buzzes: it is your turn"
        assert blue.locator("#seat-name").inner_text() == f"You are {who.title()}"
        free = next(t for t, o in table.state.owner.items() if o is None)
        name = BOARD.names[free]
        blue.locator(f'g.tile[data-id="{free}"]').click()  # claim by tapping on the phone
        # one live stream per seat: if this phone is red's too, it took over red's stream
        watcher = blue if who == "red" else red
        watcher.wait_for_selector(f'#log li:has-text("{who.title()} claimed {name}")')
        blue.wait_for_selector(f'g.tile[data-id="{free}"][data-owner="{who}"]')
        assert blue.evaluate("window.__buzz.length") == 1, "no buzz when the turn passes on"
        shot(red, "me-red-360")
        shot(blue, f"me-{who}-360")
    finally:
        other.close()
    red.close()




def test_the_defender_answers_with_a_big_button_and_sees_the_battle(served, browser):
    table, app, server = served
    _pw, context = browser
    play_until(table, lambda s: attack_needing_defence(s) is not None)
    source, target = attack_needing_defence(table.state)
    attacker, defender = table.state.current_player, table.state.owner[target]
    tokens = app.extensions["riskboard"].seats.tokens()
    phone = context.new_page()
    phone.set_viewport_size({"width": 360, "height": 780})
    phone.goto(f"{server.url}/me#t={tokens[defender]}")
    phone.wait_for_selector("#private:not([hidden])")
    table.submit({"type": "attack", "player": attacker, "source": source, "target": target,
                  "dice": 1}, Viewer("player", attacker))
    button = phone.locator("#decision button", has_text="2 dice")
    button.wait_for()
    shot(phone, "defend-360")
    button.click()
    phone.wait_for_selector(
        f'#log li:has-text("{attacker.title()} attacked {BOARD.names[target]}")')
    assert table.state.pending is None or table.state.pending["kind"] != "defend"
    phone.close()


def seat_taps_two(context, server, app, seat: str, first: str, second: str):
    """A 360 px phone on `seat`'s My view that has tapped `first`, then `second`."""
    phone = context.new_page()
    phone.set_viewport_size({"width": 360, "height": 780})
    phone.goto(f"{server.url}/me#t={app.extensions['riskboard'].seats.tokens()[seat]}")
    phone.wait_for_selector("#conn.ok")
    phone.locator(f'g.tile[data-id="{first}"]').click()
    phone.locator(f'g.tile[data-id="{second}"]').click()
    return phone


def test_the_attacker_sees_the_odds_and_blitzes_from_the_phone(served, browser):
    table, app, server = served
    _pw, context = browser
    play_until(table, lambda s: attack_needing_defence(s) is not None)
    source, target = attack_needing_defence(table.state)
    attacker = table.state.current_player
    phone = seat_taps_two(context, server, app, attacker, source, target)
    phone.wait_for_selector("#odds:has-text('% to conquer')")
    phone.wait_for_selector("#attack-panel:not([hidden])")
    shot(phone, "attack-360")
    phone.fill("#stop-at", "1")
    phone.click("#blitz-btn")
    phone.wait_for_selector(
        f'#log li:has-text("{attacker.title()} attacked {BOARD.names[target]}")')
    assert phone.locator("#me-error").inner_text() == ""
    phone.close()


def test_two_own_territories_tapped_out_of_turn_say_it_is_not_that_phones_turn(served, browser):
    """Issue 32.6: not "Alaska cannot attack Kamchatka" but the table's reason
    (`waits.no_attack`): it is not this seat's turn."""
    table, app, server = served
    _pw, context = browser
    play_until(table, lambda s: s.phase == "attack" and s.pending is None and any(
        s.owner[a] == s.owner[b] != s.current_player for a in BOARD.adjacency
        for b in BOARD.adjacency[a]))
    s = table.state
    a, b = next((a, b) for a in BOARD.adjacency for b in BOARD.adjacency[a]
                if s.owner[a] == s.owner[b] != s.current_player)
    seat = s.owner[a]
    phone = seat_taps_two(context, server, app, seat, a, b)
    phone.wait_for_selector('#odds[data-code="not_your_turn"]')
    assert phone.locator("#odds").inner_text().startswith(
        f"Not your turn: the table waits for {s.current_player.title()}.")
    phone.close()


def test_a_phone_whose_code_was_reissued_is_told_to_scan_again(served, browser):
    table, app, server = served
    _pw, context = browser
    seats = app.extensions["riskboard"].seats
    phone = context.new_page()
    phone.set_viewport_size({"width": 360, "height": 780})
    phone.goto(f"{server.url}/me#t={seats.tokens()['blue']}")
    phone.wait_for_selector("#private:not([hidden])")
    seats.reissue("blue")
    bot_step(table)  # the next update: the stream re-checks its seat before sending it
    phone.wait_for_selector("#no-seat:not([hidden])")
    assert "moved to another phone" in phone.locator("#no-seat").inner_text()
    assert phone.locator("#private").is_hidden()
    phone.close()


def test_host_qr_codes_and_the_dice_page_verifies_every_roll(served, browser):
    table, _app, server = served
    _pw, context = browser
    host = context.new_page()
    host.set_viewport_size({"width": 360, "height": 780})
    host.goto(f"{server.url}/host")
    host.fill("#pin", PIN)
    host.click("#login-btn")
    host.wait_for_selector("#console:not([hidden])")
    host.click("#new-game-btn")
    # the old game's seats are on the page until the new game's answer replaces them (and
    # hides any code shown): a code asked for before that answer is the old game's
    host.wait_for_selector('#host-out:has-text("started")')
    host.wait_for_selector("figure.seat >> nth=2")
    host.click("figure.seat >> nth=1 >> button.show-code")  # one code at a time, on request
    host.wait_for_selector("#seat-code svg")
    assert host.locator("#seat-code svg").count() == 1
    shot(host, "host-360")
    play_until(table, lambda s: sum(
        e["type"] == "battle" for entry in table.entries for e in entry["events"]) >= 5)
    viewer = context.new_page()
    viewer.goto(f"{server.url}/")
    viewer.wait_for_selector("#dice .die")
    shot(viewer, "table-midgame-1280")
    viewer.set_viewport_size({"width": 360, "height": 780})
    shot(viewer, "table-midgame-360")
    host.on("dialog", lambda dialog: dialog.accept())
    host.click("#end-btn")
    host.wait_for_selector('#host-out:has-text("seed")')
    dice = context.new_page()
    dice.goto(f"{server.url}/dice")
    dice.wait_for_selector("#verify-btn:not([disabled])")
    dice.click("#verify-btn")
    dice.wait_for_selector("#verify-out.ok")
    assert "match the seed" in dice.locator("#verify-out").inner_text()
    shot(dice, "dice-1280")
    host.close()
    dice.close()
    viewer.close()
