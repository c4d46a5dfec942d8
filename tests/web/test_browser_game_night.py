"""A game night without guessing (issue 23): the real table behind the real pages, read in
headless Chromium at phone size (360×640) in every language. Each page — the table view,
My view and /virtual — must say what the engine waits for: a computer's held step (what it
did, what the board must show, what to press), a forced trade, a trade-down and the armies
after it; a set that can be traded is announced; marks of another turn do not stay."""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from pathlib import Path

import pytest

from pi_app.rules import legal_commands
from pi_app.table.gestures import Press, Touch
from pi_app.table.loop import NewGameSpec
from pi_app.web.serve import start_background

from .browsing import ARTIFACTS, shot
from .conftest import PIN
from .real_table import reach

LANGS = ("en", "ko", "ja", "fr")
SMALL = {"width": 360, "height": 640}
I18N = Path(__file__).resolve().parents[2] / "pi_app/web/i18n"
CLASSIC = NewGameSpec("classic", ("red", "blue", "green"))


def catalogue(lang: str) -> dict[str, str]:
    """A language's words as the server serves them (over the English ones)."""
    words = json.loads((I18N / "en.json").read_text("utf-8"))
    words.update(json.loads((I18N / f"{lang}.json").read_text("utf-8")))
    return words


def say(lang: str, key: str, **params) -> str:
    """What RB.t(key, params) shows (`key.one` when n is 1)."""
    words = catalogue(lang)
    if params.get("n") == 1 and f"{key}.one" in words:
        key = f"{key}.one"
    return re.sub(r"\{(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), words[key])


ALL = ("me", "view", "virtual")


@contextmanager
def pages(table, lang: str, phone: str, server=None, only: tuple[str, ...] = ALL):
    """My view of `phone`'s seat, the table view and /virtual (host PIN) in `lang` at
    360×640, on the served real table (`server`, else one of its own); yields (me,
    table_view, virtual). `only`: the pages the test reads (None in the place of the
    others: a page nobody reads would still load and draw every move)."""
    own = server is None
    server = server or start_background(table.app)
    _, browser = pages.chromium
    context = browser.new_context(viewport=SMALL)
    context.add_init_script(f"localStorage.setItem('riskboard.lang', '{lang}');"
                            f"sessionStorage.setItem('riskboard.hostPin', '{PIN}');")
    urls = {"me": (f"/me#t={table.tokens[phone]}", "#state-sentence[data-ready]"),
            "view": ("/", "#conn.ok"), "virtual": ("/virtual", "#conn.ok")}
    try:
        opened = {}
        for name in (n for n in ALL if n in only):
            url, ready = urls[name]
            opened[name] = context.new_page()
            opened[name].goto(f"{server.url}{url}")
            opened[name].wait_for_selector(ready)
        yield tuple(opened.get(name) for name in ALL)
    finally:
        context.close()
        if own:
            server.stop()


@pytest.fixture(autouse=True)
def _browser(chromium):
    pages.chromium = chromium


class Feeding:
    """Stands in for the emulated Pico of a button board: a touch on /virtual reaches the
    table loop as the sensor's touch would (the real_table stand-in only records it)."""

    def __init__(self, table) -> None:
        self.loop = table.loop
        # the channels the Pico scans: the service refuses a touch outside them
        self.sensor_count = len(table.loop.wiring.channel_territory)

    def touch(self, channel: int) -> None:
        territory = self.loop.wiring.channel_territory[channel]
        self.loop.call(lambda core: core.on_input(Touch(territory)))


def feed_touches(table) -> None:
    """Make /virtual's touches reach `table`'s loop."""
    service = table.app.extensions["riskboard"].table
    service.emulator = Feeding(table)


def press(table, button: str, long: bool = False) -> None:
    """A control button pressed on the board."""
    table.loop.call(lambda core: core.on_input(Press(button, long)))


def publish(table, change) -> None:
    """Change the live game state as the rules could leave it, and publish it."""
    def run(core):
        change(core.session.state)
        core.publish([], state_changed=True)
    table.loop.call(run)


def until(page, done, seconds: float = 30.0) -> None:
    """Wait (the page's clock) until `done()` holds on the table."""
    for _ in range(int(seconds * 10)):
        if done():
            return
        page.wait_for_timeout(100)
    raise AssertionError("the table never got there")


def text_of(page, selector: str) -> str:
    return page.inner_text(selector)


def wait_text(page, selector: str, *parts: str, timeout: float = 30000) -> str:
    """Wait until `selector`'s text holds every one of `parts`; answer the text."""
    page.wait_for_function("([s, parts]) => { const n = document.querySelector(s);"
                           " return n && parts.every((p) => n.textContent.includes(p)); }",
                           arg=[selector, list(parts)], timeout=timeout)
    return text_of(page, selector)


# ----- 1. computer moves ----------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_a_computer_move_is_said_on_every_page_with_what_to_move_and_press(tables, lang):
    table = reach(tables, CLASSIC, lambda s: s.phase == "reinforce" and s.current_player == "red"
                  and s.turn >= 2 and len(s.hands["red"]) < 5)
    table.loop.call(lambda core: core.host_action(
        "computer", {"seats": {"blue": "normal", "green": "normal"}}))
    since = table.mark()[1]
    table.bot_until(lambda s: s.current_player != "red")  # red's turn ends; blue plays
    hold = table.loop.call(lambda core: core.computers.public()["holding"])
    assert hold is not None and hold["player"] == "blue"
    state = table.state()
    who = say(lang, "log.computer.who", player=say(lang, f"colour.{hold['player']}"))
    # what the board must show: each held territory's armies and owner, as the engine has them
    board = [say(lang, "computer.board_part", territory=say(lang, f"territory.{t}"),
                 n=state.armies[t], owner=say(lang, f"colour.{state.owner[t]}"))
             for t in hold["territories"]]
    confirm = say(lang, "vboard.button.confirm")
    with pages(table, lang, "red") as (me, view, virtual):
        for page, where in ((me, "#state-sentence"), (view, "#banner"), (virtual, "#v-state")):
            wait_text(page, where, who, *board, confirm)
        shot(me, f"night-computer-me-{lang}")
        shot(view, f"night-computer-table-{lang}")
        # a touch meanwhile is refused naming the computer's seat, with the same sentence
        feed_touches(table)
        places = ("() => [...document.querySelectorAll('#map, .v-controls')]"
                  ".map((n) => n.getBoundingClientRect().top)")
        before = virtual.evaluate(places)
        virtual.click(f"#map g.tile[data-id='{state.territories_of('red')[0]}']")
        wait_text(virtual, "#refusal", who, *board)
        # the refusal covers the hint under the map: nothing moves under the finger
        assert virtual.evaluate(places) == before
        shot(virtual, f"night-computer-virtual-{lang}")
        # the log says each computer step once
        placed = [e for e in _events(table, since) if e.get("type") == "placed"
                  and e.get("player") == "blue"]
        lines = me.eval_on_selector_all("#log li li", "ns => ns.map((n) => n.textContent)")
        assert placed
        blue = say(lang, "colour.blue")
        for event in placed:
            name = say(lang, f"territory.{event['territory']}")
            n = event["count"]
            once = say(lang, "log.placed", player=blue, n=n, territory=name)
            again = say(lang, "log.computer.place", n=n, territory=name,
                        player=say(lang, "log.computer.who", player=blue))
            assert (lines.count(once), lines.count(again)) == (1, 0), (once, lines)
        # Confirm on the board releases the step: the computer plays on
        before = table.mark()
        press(table, "confirm")
        until(me, lambda: table.mark() != before)


def _events(table, since: int) -> list[dict]:
    """The events published after revision `since`."""
    from pi_app.table_api import Viewer
    updates = table.app.extensions["riskboard"].table.updates_since(since, Viewer("public", None))
    return [e for u in updates for e in u.events]


# ----- 2, 3 and 4. card duties: forced trade, trade-down, a set to trade --------------------
def _hand(state, player: str, n: int) -> None:
    """Give `player` n cards from the deck (three infantry-or-so first: a set among them)."""
    cards = [c for c in state.deck if not c.startswith("wild")][:n]
    for c in cards:
        state.deck.remove(c)
    state.hands[player] = cards


@pytest.mark.parametrize("lang", LANGS)
def test_five_cards_ask_for_a_trade_not_placing_on_every_page(tables, lang):
    table = reach(tables, CLASSIC, lambda s: s.phase == "reinforce" and s.turn >= 2
                  and s.current_player == "red")
    publish(table, lambda s: _hand(s, "red", 5))
    state = table.state()
    # the engine's decision: trades only, no placing
    kinds = {c.to_dict()["type"] for c in legal_commands(state, "red")}
    assert kinds == {"trade_cards"}
    with pages(table, lang, "red") as (me, view, virtual):
        wait_text(me, "#state-sentence", say(lang, "state.forced_trade", n=5))
        wait_text(view, "#banner", say(lang, "duty.forced_trade", n=5))
        wait_text(virtual, "#v-state", say(lang, "vboard.forced_trade", n=5))
        for page in (me, view, virtual):
            assert say(lang, "vboard.to_place", n=state.reserves["red"]) not in \
                text_of(page, "#v-state" if page is virtual else "#banner")
        # the phone offers the best set in one button and it trades
        me.wait_for_selector("#best-trade-btn:not([hidden])")
        shot(me, f"night-forced-trade-{lang}")
        me.click("#best-trade-btn")
        until(me, lambda: len(table.state().hands["red"]) == 2)
        left = table.state().reserves["red"]
        wait_text(me, "#state-sentence", say(lang, "state.reinforce", n=left))


@pytest.mark.parametrize("lang", LANGS)
def test_trade_down_then_its_armies_are_said_as_the_engine_waits(tables, lang):
    table = reach(tables, CLASSIC, lambda s: s.phase == "attack" and s.pending is None
                  and s.turn >= 2)
    player = table.state().current_player

    def trade_down(state):
        _hand(state, player, 6)
        state.pending = {"kind": "trade_down", "player": player, "limit": 4}
    publish(table, trade_down)
    with pages(table, lang, player) as (me, view, virtual):
        wait_text(me, "#state-sentence", say(lang, "state.trade_down"))
        wait_text(view, "#banner", say(lang, "duty.trade_down", n=6))
        wait_text(virtual, "#v-state", say(lang, "vboard.trade_down", n=6))
        shot(virtual, f"night-trade-down-virtual-{lang}")
        me.wait_for_selector("#best-trade-btn:not([hidden])")
        me.click("#best-trade-btn")
        # traded to 3: the engine now waits for the armies to be placed; every page says so
        until(me, lambda: len(table.state().hands[player]) == 3)
        state = table.state()
        assert state.pending and state.pending["kind"] == "trade_down"
        kinds = {c.to_dict()["type"] for c in legal_commands(state, player)}
        assert kinds == {"place"}
        n = state.reserves[player]
        wait_text(me, "#state-sentence", say(lang, "state.trade_down_place", n=n))
        wait_text(view, "#banner", say(lang, "duty.trade_down_place", n=n))
        wait_text(virtual, "#v-state", say(lang, "vboard.trade_down_place", n=n))
        assert say(lang, "state.trade_down") not in text_of(me, "#private")
        shot(me, f"night-trade-down-place-{lang}")


# ----- 7. stale marks -------------------------------------------------------------------------
def test_a_tap_out_of_turn_only_shows_odds_and_marks_end_with_the_turn(tables):
    table = reach(tables, CLASSIC, lambda s: s.phase == "attack" and s.pending is None
                  and s.current_player == "red" and s.turn >= 2)
    state = table.state()
    source = next(t for t in state.territories_of("blue")
                  if any(state.owner[n] != "blue" for n in _neighbours(t)))
    target = next(n for n in _neighbours(source) if state.owner[n] != "blue")
    with pages(table, "en", "blue", only=("me",)) as (me, _view, _virtual):
        me.click(f"#map g.tile[data-id='{source}']")
        me.click(f"#map g.tile[data-id='{target}']")
        wait_text(me, "#odds", say("en", "odds.only"))
        assert me.eval_on_selector_all("#map g.tile.picked", "ns => ns.length") == 2
        table.bot_until(lambda s: s.current_player != "red")
        me.wait_for_function("() => !document.querySelector('#map g.tile.picked')"
                             " && !document.getElementById('odds').textContent.includes('→')",
                             timeout=30000)


def _neighbours(territory: str) -> list[str]:
    from pi_app.rules import load_map
    return sorted(load_map().neighbours[territory])


# ----- 5. joining -----------------------------------------------------------------------------
def test_a_seat_link_opened_again_in_a_tab_on_my_view_takes_that_seat(tables):
    table = reach(tables, CLASSIC, lambda s: s.phase == "attack" and s.turn >= 2)
    with pages(table, "en", "red", only=("me",)) as (me, _view, _virtual):
        wait_text(me, "#seat-name", say("en", "colour.red"))
        base = me.url.split("#")[0]
        me.goto(f"{base}#t={table.tokens['blue']}")  # the QR of blue scanned in the same tab
        wait_text(me, "#seat-name", say("en", "colour.blue"))
        me.wait_for_selector("#state-sentence[data-ready]")
        assert "#" not in me.url and table.tokens["blue"] not in me.url


@pytest.mark.parametrize("lang", LANGS)
def test_a_phone_whose_seat_went_to_the_computer_watches_and_is_told_why(tables, lang):
    table = reach(tables, CLASSIC, lambda s: s.phase == "attack" and s.turn >= 2
                  and s.current_player != "green")
    with pages(table, lang, "green", only=("me",)) as (me, _view, _virtual):
        table.loop.call(lambda core: core.host_action("computer", {"seats": {"green": "easy"}}))
        wait_text(me, "#state-sentence", say(lang, "state.computer_seat",
                                             colour=say(lang, "colour.green")))
        # still the live game: the next move shows
        seq = int(me.evaluate("document.body.dataset.seq"))
        table.bot_until(lambda s: s.current_player == "green" or s.winner is not None)
        me.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seq)
        assert me.locator("#best-trade-btn").is_hidden()
        shot(me, f"night-seat-to-computer-{lang}")


@contextmanager
def host_console(tables):
    """The host page at 360 px, signed in, over a Classic game in its claims."""
    table = reach(tables, CLASSIC, lambda s: s.phase == "claim")
    server = start_background(table.app)
    context = pages.chromium[1].new_context(viewport=SMALL)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/host")
        page.fill("#pin", PIN)
        page.click("#login-btn")
        yield page
    finally:
        context.close()
        server.stop()


def test_the_host_shows_each_seat_code_with_its_link_and_no_notice_covers_it(tables):
    with host_console(tables) as page:
        page.wait_for_selector("#console:not([hidden]) .show-code")
        page.click("#new-game-btn")  # the "game started" notice
        page.wait_for_selector("#host-said:not([hidden])")
        page.click(".show-code")
        page.wait_for_selector("#seat-code:not([hidden]) .qr")
        link = page.locator("#seat-code .seat-link a")
        assert "/me#t=" in link.get_attribute("href") and link.inner_text().endswith(
            link.get_attribute("href").split("#t=")[1])
        page.locator("#seat-code .qr").scroll_into_view_if_needed()
        qr = page.locator("#seat-code .qr").bounding_box()
        said = page.locator("#host-said").bounding_box()
        overlap = not (said["y"] >= qr["y"] + qr["height"] or said["y"] + said["height"] <= qr["y"])
        assert not overlap, (qr, said)
        shot(page, "night-host-seat-code")


def test_the_host_shows_a_new_game_at_once_and_its_notice_covers_no_computer_control(tables):
    """Issue 32.6: the host page showed the previous game for seconds after Start (until its
    next read of /api/state: here never, every read fails), and the "Game N started" notice
    covered the computer controls below it at 360 px."""
    with host_console(tables) as page:
        page.wait_for_selector("#game-now:has-text('Green')")
        assert "Yellow" not in page.locator("#game-now").inner_text()
        page.route("**/api/state*", lambda route: route.abort())
        page.check("#colours input[value=yellow]")
        page.click("#new-game-btn")
        page.wait_for_selector("#host-said:not([hidden])")
        page.wait_for_selector("#game-now:has-text('Yellow')")
        for control in ("#seats .played-by >> nth=-1", "#computer-pause-btn", "#computer-trust",
                        "#computer-wait-btn"):
            box = page.locator(control)
            box.evaluate("e => e.scrollIntoView({block: 'nearest'})")
            here, said = box.bounding_box(), page.locator("#host-said").bounding_box()
            assert here is not None and said is not None
            assert said["y"] >= here["y"] + here["height"] or said["y"] + said["height"] <= \
                here["y"], (control, here, said)
        shot(page, "night-host-new-game")


COMPUTER_CONTROLS = ("#seats .played-by", "#computer-pause-btn", "#computer-go-btn",
                     "#computer-wait", "#computer-wait-btn", "#computer-trust")
# each control matching a selector: whether a tap at its centre reaches it (not the notice)
REACHED = """(sel) => [...document.querySelectorAll(sel)].map((n) => {
    const r = n.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return [sel, r.bottom <= innerHeight + 1 && r.top >= -1, hit === n || n.contains(hit),
            hit ? hit.id || hit.className : null]; })"""


def controls_reached(page) -> None:
    """Each computer control, where it is and scrolled up just into sight (as a finger
    leaves it), is what a tap at its centre reaches."""
    seen = [row for sel in COMPUTER_CONTROLS for row in page.evaluate(REACHED, sel)]
    assert [row for row in seen if row[1] and not row[2]] == [], "covered where they are"
    for sel in COMPUTER_CONTROLS:
        for n in range(page.locator(sel).count()):
            control = page.locator(sel).nth(n)
            # a finger's scroll: the control's foot comes to the foot of the screen
            control.evaluate("n => scrollBy(0, n.getBoundingClientRect().bottom - innerHeight)")
            reached = page.evaluate(REACHED, sel)[n]
            assert reached[1] and reached[2], reached


def test_the_new_game_notice_leaves_every_computer_control_in_sight_and_clickable(tables):
    """Issue 32.6: after Start, the "Game N started" notice floated at the foot of the screen
    over the seats' and the computer's controls a finger scrolled to; so did the notice of
    a seat given to the computer."""
    with host_console(tables) as page:
        page.wait_for_selector("#console:not([hidden]) .played-by")
        page.click("#new-game-btn")
        wait_text(page, "#host-out", say("en", "host.done.new_game", game=2).split(" 2 ")[0])
        shot(page, "night-host-new-game-notice")
        controls_reached(page)
        page.select_option("#seats .played-by >> nth=1", "normal")
        wait_text(page, "#host-out", say("en", "host.done.computer"))
        page.wait_for_selector("#seats figure:nth-child(2) .show-code", state="detached")
        controls_reached(page)
        shot(page, "night-host-computer-notice")


# ----- 6. the map on a 360 px phone ----------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_a_phone_opens_the_map_on_its_players_area_readable_and_big_enough_to_touch(
        tables, lang):
    table = reach(tables, CLASSIC, lambda s: s.phase == "attack" and s.turn >= 2
                  and s.current_player != "blue")
    server = start_background(table.app)
    context = pages.chromium[1].new_context(viewport=SMALL, is_mobile=True, has_touch=True)
    context.add_init_script(f"localStorage.setItem('riskboard.lang', '{lang}')")
    try:
        me = context.new_page()
        me.goto(f"{server.url}/me#t={table.tokens['blue']}")
        me.wait_for_selector("#state-sentence[data-ready]")
        me.wait_for_selector("#map .map-frame.zoomed")
        # every tile in sight: at least 24 px each way, its name at least 10 px tall
        seen = me.evaluate("""() => {
            const box = document.querySelector('#map svg').getBoundingClientRect();
            return [...document.querySelectorAll('#map g.tile')].map((g) => {
                const r = g.querySelector('rect.land').getBoundingClientRect();
                const a = g.querySelector('.abbr').getBoundingClientRect();
                const inside = r.left >= box.left && r.right <= box.right
                    && r.top >= box.top && r.bottom <= box.bottom;
                return inside ? [g.dataset.id, g.dataset.owner, r.width, r.height, a.height] : null;
            }).filter(Boolean); }""")
        assert len(seen) >= 4
        assert all(w >= 24 and h >= 24 and text >= 10 for _, _, w, h, text in seen), seen
        assert sum(owner == "blue" for _, owner, *_ in seen) >= 2  # the player's own area
        wait_text(me, "#map .zoom-note", say(lang, "map.zoomed_note"))
        assert me.locator("#map .zoom-note").is_visible()
        shot(me, f"night-map-phone-{lang}")
        me.locator("#map .zoom-controls").scroll_into_view_if_needed()
        me.screenshot(path=str(ARTIFACTS / f"night-map-phone-view-{lang}.png"))  # the window
        # a tap on a tile in sight picks it; the whole map is one tap away
        me.locator(f"#map g.tile[data-id='{seen[0][0]}']").tap()
        me.wait_for_selector(f"#map g.tile.picked[data-id='{seen[0][0]}']")
        me.locator("#map .zoom-reset").tap()
        me.wait_for_selector("#map .map-frame:not(.zoomed)")
        wait_text(me, "#map .zoom-note", say(lang, "map.zoom_note"))
    finally:
        context.close()
        server.stop()


# ----- 9. small words ------------------------------------------------------------------------
PLURAL = re.compile(r"\{n\} (armies|régiments|cards|cartes|dice|dés)\b")
# counts that are never one: a forced trade or a trade-down is about 5+ cards, a set trades
# for 4+ armies, a game starts with 20+ armies each
NEVER_ONE = ("duty.forced_trade", "state.forced_trade", "vboard.forced_trade", "vboard.trade_down",
             "log.cards_traded_for", "log.setup_started")


def test_a_count_of_one_reads_in_the_singular_in_english_and_french():
    for lang in ("en", "fr"):
        words = catalogue(lang)
        missing = [k for k, v in words.items() if PLURAL.search(v) and not k.endswith(".one")
                   and f"{k}.one" not in words and k not in NEVER_ONE]
        assert missing == [], (lang, missing)


def test_words_a_native_player_reads_on_the_phone(tables):
    table = reach(tables, CLASSIC, lambda s: s.phase == "attack" and s.pending is None
                  and s.turn >= 2)
    table.attack_until("defend")  # a real defence decision: the defender's phone reads it
    defender = table.state().pending["player"]
    server = start_background(table.app)  # one server: its streams end with each language's pages
    try:
        for lang in LANGS:
            read_words(table, server, lang, defender)
    finally:
        server.stop()


def read_words(table, server, lang: str, defender: str) -> None:
    """The defender's phone and the table view in `lang` (see the test above)."""
    with pages(table, lang, defender, server, only=("me", "view")) as (me, view, _virtual):
        colour = say(lang, f"colour.{defender}")
        wait_text(me, "#seat-name", say(lang, "me.you_are", colour=colour))
        wait_text(me, "#state-sentence", say(lang, "state.defend",
                                             n=table.state().pending["max_dice"]))
        waiting = say(lang, "banner.waiting_for", player=colour,
                      what=say(lang, "pending.defend"))
        assert waiting not in text_of(me, "#banner")  # never waiting for oneself
        wait_text(view, "#banner", waiting)  # the others read it
        labels = dict(me.eval_on_selector_all(
            "#map g.tile", "gs => gs.map((g) => [g.dataset.id, g.querySelector('.abbr')"
            ".textContent.replace('★ ', '')])"))
        words = catalogue(lang)
        if lang == "ko":  # the map says the names the cards say
            assert all(labels[t] == words[f"territory.{t}"] for t in labels), labels
        if lang == "ja":  # not cut into another word (グリーン is the colour green)
            for t in ("greenland", "scandinavia"):
                assert labels[t] == words[f"territory.{t}"]
        if lang == "fr":  # words a French player reads, not initials (ADN, MOR)
            assert not [a for a in labels.values() if re.fullmatch(r"[A-ZÉ]{3}", a)], labels
        shot(me, f"night-words-{lang}")


# ----- 8. a refused source ------------------------------------------------------------------
def _refused_source_position(s) -> bool:
    """Attack phase, the player to move holds a lit-able source S (2+ armies, an enemy
    neighbour Y) and a territory X with 1 army that borders Y too."""
    return s.phase == "attack" and s.pending is None and s.turn >= 2 and _pair(s) is not None


def _pair(s):
    me = s.current_player
    for y in (t for t in s.owner if s.owner[t] != me):
        near = [n for n in _neighbours(y) if s.owner[n] == me]
        strong = [n for n in near if s.armies[n] >= 2]
        weak = [n for n in near if s.armies[n] == 1]
        if strong and weak:
            return strong[0], weak[0], y
    return None


def test_a_refused_source_is_not_replaced_by_the_lit_one_on_the_next_touch(tables):
    table = reach(tables, CLASSIC, _refused_source_position)
    source, weak, enemy = _pair(table.state())
    with pages(table, "en", table.state().current_player, only=("virtual",)) as (
            _me, _view, virtual):
        feed_touches(table)
        virtual.click(f"#map g.tile[data-id='{source}']")  # the source, lit
        until(virtual, lambda: table.loop.call(lambda c: c.selection.source) == source)
        virtual.click(f"#map g.tile[data-id='{weak}']")  # refused: 1 army
        wait_text(virtual, "#refusal", say("en", "error.too_few_armies"))
        virtual.click(f"#map g.tile[data-id='{enemy}']")
        # not an attack aimed from the old lit source: the board asks for a source first
        until(virtual, lambda: (table.loop.call(lambda c: c.refusal) or {}).get("code")
              == "choose_source_first")
        assert table.loop.call(lambda c: (c.selection.source, c.selection.target)) == (None, None)
        wait_text(virtual, "#refusal", "First touch one of")
        shot(virtual, "night-refused-source")


# ----- 10. the demo and the host agree --------------------------------------------------------
def test_the_demo_starts_in_claiming_mode_as_the_first_gesture_row_says(tables):
    from pi_app.cli.serve import demo_spec

    spec = demo_spec(None, None, "claim")
    table = tables(spec)
    assert table.state().phase == "claim"
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    assert "make run\nSETUP=claim" in readme or "make run SETUP=claim" in readme
    assert "| Claiming | touch an empty territory |" in readme
    with pages(table, "en", table.state().current_player, only=("me", "virtual")) as (
            me, _view, virtual):
        wait_text(virtual, "#v-state", say("en", "vboard.claim"))
        wait_text(me, "#state-sentence", say("en", "state.claim"))
    assert demo_spec(None, None, None) is None  # plain `make run`: the dealt demo


def test_the_host_forms_defaults_are_what_readme_calls_them(tables):
    """README calls only what is off by default a house rule; the host form starts with the
    rule book's choices (the defender chooses dice, one starting army at a time)."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    table = tables(CLASSIC)
    server = start_background(table.app)
    context = pages.chromium[1].new_context(viewport=SMALL)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/host")
        page.fill("#pin", PIN)
        page.click("#login-btn")
        page.wait_for_selector("#console:not([hidden]) [data-rule=defender_chooses_dice]")
        defender = page.locator("[data-rule=defender_chooses_dice]").is_checked()
        per_turn = page.locator("[data-rule=setup_armies_per_turn]").input_value()
    finally:
        context.close()
        server.stop()
    said_house_rule = re.search(r'house rule\s+"defender\s+chooses\s+dice"', readme) is not None
    assert said_house_rule is not defender  # a house rule is off until the host ticks it
    assert defender  # the rule book's way
    assert "`setup_armies_per_turn` (off by default: one army at a time" in \
        " ".join(readme.split()) and per_turn == "1"
