"""The phone page as a player meets it, at 360×640, 390×844 and 1366×768: the whole map in
the window and no sideways scroll, territories big enough to touch once zoomed, no console
error or failed request, and one sentence saying what this player does now in each phase
(defence, move-in, trade-down, eliminated, won), with only the decisions they may take.
One served table for the module; every phase is reached by bot play on it."""

from __future__ import annotations

import pytest

from pi_app.table_api import Viewer
from pi_app.web import create_app
from pi_app.web.serve import start_background

from .browsing import PIN, page_text, serving, shot
from .conftest import attack_needing_defence, play_until
from .real_table import BOARD, ServedTable

pytestmark = pytest.mark.browser
SIZES = {"360": {"width": 360, "height": 640}, "390": {"width": 390, "height": 844},
         "1366": {"width": 1366, "height": 768}}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A classic game in its attack phase behind one server: (table, app, server)."""
    with ServedTable(tmp_path_factory.mktemp("journal")) as table, \
            serving(table, tmp_path_factory.mktemp("data")) as (app, server):
        play_until(table, lambda s: s.phase == "attack" and s.turn >= 2)
        app.extensions["riskboard"].seats.issue_all(list(table.state.players))
        yield table, app, server


class Watched:
    """A page whose console errors and failed requests are collected."""

    def __init__(self, context, url: str, ready: str = "#conn.ok") -> None:
        self.problems: list[str] = []
        self.page = context.new_page()
        self.page.on("console", lambda m: self.problems.append(m.text)
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.problems.append(str(e)))
        self.page.on("response", lambda r: self.problems.append(f"{r.status} {r.url}")
                     if r.status >= 400 else None)
        self.page.goto(url)
        self.page.wait_for_selector(ready)

    def check(self) -> None:
        """Fail on any console error or failed request seen so far."""
        assert not self.problems, self.problems


def phone(chromium, size: str = "360"):
    """A new browser context (its own storage: one phone) of the given window size."""
    return chromium[1].new_context(viewport=SIZES[size])


def token(app, player: str) -> str:
    return app.extensions["riskboard"].seats.tokens()[player]


def assert_fits(page, name: str) -> None:
    """No sideways scroll, and the whole map inside the window's width and height."""
    width = page.evaluate("document.documentElement.scrollWidth")
    window = page.evaluate("[innerWidth, innerHeight]")
    assert width <= window[0], f"{name}: the page scrolls sideways ({width} > {window[0]})"
    box = page.locator("#map svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= window[0] + 0.5, f"{name}: map {box}"
    assert box["height"] <= window[1], f"{name}: the map is taller than the window: {box}"
    tiles = page.evaluate("""() => [...document.querySelectorAll('g.tile')].map((g) => {
        const r = g.getBoundingClientRect(); return [r.left, r.right]; })""")
    assert len(tiles) == 42
    left = page.locator("#map svg").bounding_box()["x"]
    assert all(a >= left - 0.5 and b <= left + box["width"] + 0.5 for a, b in tiles), \
        f"{name}: a territory lies outside the map box"


@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_fits_the_window_without_errors(served, chromium, size):
    table, app, server = served
    ctx = phone(chromium, size)
    player = table.state.current_player
    for path, name in (("/", "table"), (f"/me#t={token(app, player)}", "me")):
        watched = Watched(ctx, f"{server.url}{path}")
        watched.page.wait_for_selector("g.tile[data-owner]:not([data-owner=''])")
        assert_fits(watched.page, f"{name}-{size}")
        shot(watched.page, f"fit-{name}-{size}")
        watched.check()
        watched.page.close()
    ctx.close()


def test_zoomed_in_every_territory_is_a_44px_touch_target(served, chromium):
    _table, _app, server = served
    ctx = phone(chromium, "360")
    page = Watched(ctx, f"{server.url}/").page
    zoom_in = page.locator("button[data-zoom=in]")
    while zoom_in.is_enabled():
        zoom_in.click()
    # every tile is measured where it is drawn, in view or not: one scale for the whole map
    sizes = page.evaluate("""() => [...document.querySelectorAll('g.tile rect.land')].map((r) => {
        const b = r.getBoundingClientRect(); return [b.width, b.height]; })""")
    assert min(w for w, _ in sizes) >= 44 and min(h for _, h in sizes) >= 44, sizes[:3]
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "zoomed-360")
    page.locator("button[data-zoom=reset]").click()
    small = page.locator('g.tile[data-id="alaska"] rect.land').bounding_box()
    assert small["width"] < 44, "the whole map again"
    ctx.close()


def test_two_fingers_zoom_the_map(served, chromium):
    _table, _app, server = served
    ctx = chromium[1].new_context(viewport=SIZES["360"], has_touch=True)
    page = Watched(ctx, f"{server.url}/").page
    box = page.locator("#map svg").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate("""([cx, cy]) => {
        const svg = document.querySelector('#map svg');
        const fire = (type, id, x) => svg.dispatchEvent(new PointerEvent(type, {
            pointerId: id, clientX: x, clientY: cy, bubbles: true, pointerType: 'touch' }));
        fire('pointerdown', 1, cx - 20); fire('pointerdown', 2, cx + 20);
        for (let k = 1; k <= 10; k++) {
            fire('pointermove', 1, cx - 20 - 6 * k); fire('pointermove', 2, cx + 20 + 6 * k);
        }
        fire('pointerup', 1, cx - 80); fire('pointerup', 2, cx + 80);
    }""", [cx, cy])
    scale = float(page.locator("#map .map-frame").get_attribute("data-scale"))
    assert scale > 2.5, f"two fingers spread 40 → 160 px: about 4× ({scale})"
    ctx.close()


def test_the_host_shows_one_seat_code_full_screen_with_its_colour_named(served, chromium):
    table, _app, server = served
    ctx = phone(chromium, "390")
    host = Watched(ctx, f"{server.url}/host", "#login").page
    host.fill("#pin", PIN)
    host.click("#login-btn")
    host.wait_for_selector("#console:not([hidden])")
    host.wait_for_selector("figure.seat")
    host.on("dialog", lambda dialog: dialog.accept())  # a seat held by a phone moves
    seat = table.state.players[-1]
    figure = host.locator("figure.seat", has_text=seat.title())
    if figure.locator("button.show-code").count():
        figure.locator("button.show-code").click()
    else:
        figure.locator("button.new-code").click()
    host.wait_for_selector("#seat-code svg.qr")
    assert f"{seat.title()}: scan with {seat.title()}'s phone only" in \
        host.locator("#seat-code figcaption").inner_text()
    assert host.locator("#seat-code svg.qr").count() == 1, "one seat at a time"
    host.click("#seat-code button[data-full]")
    qr = host.locator("#seat-code svg.qr").bounding_box()
    assert qr["width"] >= 0.85 * 390 and qr["x"] >= 0 and qr["x"] + qr["width"] <= 390
    shot(host, "host-seat-code-full-390")
    assert host.locator("#seat-code button[data-full]").inner_text() == "Close"
    host.keyboard.press("Escape")
    assert host.locator("#seat-code svg.qr").bounding_box()["width"] <= 320
    assert host.locator("#health").inner_text(), "board health lives on the host page"
    ctx.close()




def sentence(page) -> str:
    return page.locator("#state-sentence").inner_text()


def open_me(chromium, server, app, player, size="360"):
    ctx = phone(chromium, size)
    watched = Watched(ctx, f"{server.url}/me#t={token(app, player)}", "#state-sentence[data-ready]")
    return ctx, watched


def test_the_defender_is_asked_to_roll_and_the_attacker_waits(served, chromium):
    table, app, server = served
    play_until(table, lambda s: attack_needing_defence(s) is not None)
    source, target = attack_needing_defence(table.state)
    attacker, defender = table.state.current_player, table.state.owner[target]
    table.submit({"type": "attack", "player": attacker, "source": source, "target": target,
                  "dice": 1}, Viewer("player", attacker))
    dctx, d = open_me(chromium, server, app, defender)
    actx, a = open_me(chromium, server, app, attacker)
    d.page.wait_for_selector("#state-sentence:has-text('Roll your defence')")
    assert d.page.locator("#decision button").count() == 2, "1 die and 2 dice"
    assert d.page.locator("#end-turn-btn").is_hidden() and d.page.locator("#trade-btn").is_hidden()
    assert sentence(a.page) == f"Waiting for {defender.title()} (defence dice)."
    assert a.page.locator("#private button:visible").count() == 0, "nothing to press while waiting"
    shot(d.page, "state-defend-360")
    d.page.click("#decision button:has-text('2 dice')")
    a.page.wait_for_function("() => !document.querySelector('#state-sentence')"
                             ".textContent.startsWith('Waiting')")
    d.check()
    a.check()
    dctx.close()
    actx.close()


def test_after_a_conquest_the_attacker_moves_in(served, chromium):
    table, app, server = served
    play_until(table, lambda s: bool(s.pending) and s.pending["kind"] == "move_in")
    player = table.state.pending["player"]
    ctx, w = open_me(chromium, server, app, player)
    w.page.wait_for_selector("#state-sentence:has-text('move armies in')")
    assert w.page.locator("#decision button").count() >= 2
    assert w.page.locator("#end-attack-btn").is_hidden()
    shot(w.page, "state-move-in-360")
    w.check()
    ctx.close()


def test_too_many_cards_after_an_elimination_asks_to_trade_down(served, chromium):
    table, app, server = served
    play_until(table, lambda s: s.phase == "attack" and not s.pending)
    player = table.state.current_player
    # the state an elimination leaves: six cards and a trade-down decision
    table.state.hands[player] = ["alaska", "peru", "china", "japan", "egypt", "wild-1"]
    table.state.pending = {"kind": "trade_down", "player": player}
    try:
        ctx, w = open_me(chromium, server, app, player)
        w.page.wait_for_selector("#state-sentence:has-text('Trade cards')")
        boxes = w.page.locator("#hand input[type=checkbox]")
        assert boxes.count() == 6
        assert w.page.locator("#trade-btn").is_hidden(), "no set ticked yet"
        for k in range(3):
            boxes.nth(k).check()
        w.page.wait_for_selector("#trade-btn:not([hidden])")
        shot(w.page, "state-trade-down-360")
        w.check()
        ctx.close()
    finally:
        table.state.pending = None


def test_the_odds_are_asked_once_per_attack_and_armies(served, chromium):
    table, _app, server = served
    play_until(table, lambda s: attack_needing_defence(s) is not None)
    source, target = attack_needing_defence(table.state)
    ctx = phone(chromium, "360")
    view = Watched(ctx, f"{server.url}/")
    asked: list[str] = []
    view.page.on("request", lambda r: asked.append(r.url) if "/api/odds" in r.url else None)
    far = next(t for t in table.state.owner if t != source and t != target
               and t not in BOARD.neighbours[source])
    view.page.locator(f'g.tile[data-id="{source}"]').click()
    view.page.locator(f'g.tile[data-id="{far}"]').click()
    view.page.wait_for_selector("#odds:has-text('cannot attack')")
    assert asked == [], "no question the server would refuse (territories not bordering)"
    view.page.locator(f'g.tile[data-id="{source}"]').click()
    view.page.locator(f'g.tile[data-id="{target}"]').click()
    view.page.wait_for_selector("#odds:has-text('% to conquer')")
    for _ in range(2):  # the same attack again: the answer is remembered
        view.page.locator(f'g.tile[data-id="{source}"]').click()
        view.page.locator(f'g.tile[data-id="{target}"]').click()
        view.page.wait_for_selector("#odds:has-text('% to conquer')")
    view.page.wait_for_timeout(300)
    assert len(asked) == 1, asked
    assert "Too many" not in page_text(view.page)
    view.check()
    ctx.close()


def test_the_eliminated_and_the_winner_read_it_in_one_sentence(served, chromium):
    table, app, server = served
    play_until(table, lambda s: s.winner is not None, limit=6000)
    winner = table.state.winner
    out = [p for p in table.state.players if p != winner]
    wctx, w = open_me(chromium, server, app, winner)
    w.page.wait_for_selector("#state-sentence:has-text('You won')")
    assert w.page.locator("#private button:visible").count() == 0
    lctx, loser = open_me(chromium, server, app, out[0])
    loser.page.wait_for_selector(f"#state-sentence:has-text('{winner.title()} won the game')")
    shot(w.page, "state-won-360")
    w.check()
    loser.check()
    wctx.close()
    lctx.close()


def test_an_eliminated_player_is_told_by_whom(served, chromium, tmp_path, served_table):
    table = served_table()
    play_until(table, lambda s: bool(s.eliminated), limit=6000)
    gone = table.state.eliminated[0]
    with serving(table, tmp_path / "data") as (app, server):
        app.extensions["riskboard"].seats.issue_all(list(table.state.players))
        ctx, w = open_me(chromium, server, app, gone)
        w.page.wait_for_selector("#state-sentence:has-text('You were eliminated')")
        text = sentence(w.page)
        assert "keep watching" in text
        by = next(e["by"] for entry in table.entries for e in entry["events"]
                  if e["type"] == "eliminated" and e["player"] == gone)
        assert f"by {by.title()}" in text
        assert w.page.locator("#private button:visible").count() == 0
        assert w.page.locator("#private").is_hidden(), "no empty box: nothing left to decide"
        shot(w.page, "state-eliminated-360")
        w.check()
        ctx.close()


def test_taps_faster_than_the_table_allows_wait_quietly(chromium, tmp_path, served_table):
    table = served_table()
    play_until(table, lambda s: s.phase == "reinforce" and s.reserves[s.current_player] >= 3)
    player = table.state.current_player
    mine = table.state.territories_of(player)[0]
    before = table.state.armies[mine]
    app = create_app(table, host_pin=PIN, data_dir=tmp_path / "d", command_rate=(1.0, 1))
    server = start_background(app)
    try:
        token = app.extensions["riskboard"].seats.issue_all(list(table.state.players))[player]
        ctx = phone(chromium, "360")
        page = Watched(ctx, f"{server.url}/me#t={token}", "#private:not([hidden])").page
        tile = page.locator(f'g.tile[data-id="{mine}"]')
        for _ in range(3):  # a bucket of one command: the 2nd and 3rd are refused at first
            tile.click()
        page.wait_for_selector(f'g.tile[data-id="{mine}"] .count:text-is("{before + 3}")')
        assert page.locator("#me-error").inner_text() == ""
        assert "moment" not in page_text(page)
        ctx.close()
    finally:
        server.stop()
