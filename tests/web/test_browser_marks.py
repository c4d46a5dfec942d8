"""Marks stay where they belong (issue 23.7 and 23.8): a refusal shown on one phone, and that
phone's picks and odds line, end with the turn and never show on another seat's phone; the
last tapped tile loses its outline when the turn moves on (issue 32.4); an ordinary refusal
on /virtual, or its state line growing from one line to six, does not move its map (32.4).
The real table behind the real pages, in headless Chromium at 360×640; expected words come
from the catalogues."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from pi_app.rules import load_cards, load_map

from .browsing import page_text, shot
from .real_table import reach
from .test_browser_game_night import (
    CLASSIC,
    PIN,
    SMALL,
    feed_touches,
    publish,
    say,
    text_of,
    wait_text,
)

DECK = load_cards()
NEIGHBOURS = load_map().neighbours


@pytest.fixture(autouse=True)
def _browser(chromium):
    phone.chromium = chromium


@contextmanager
def phone(server, lang: str, path: str, ready: str):
    """One phone (its own browser context, 360×640, in `lang`, host PIN kept) at `path`."""
    context = phone.chromium[1].new_context(viewport=SMALL)
    context.add_init_script(f"localStorage.setItem('riskboard.lang', '{lang}');"
                            f"sessionStorage.setItem('riskboard.hostPin', '{PIN}');")
    try:
        page = context.new_page()
        page.goto(f"{server.url}{path}")
        page.wait_for_selector(ready)
        yield page
    finally:
        context.close()


def my_view(server, table, lang: str, seat: str):
    """`seat`'s My view, once its sentence is drawn."""
    return phone(server, lang, f"/me#t={table.tokens[seat]}", "#state-sentence[data-ready]")


def not_a_set(state) -> list[str]:
    """Three cards of the deck that make no set: two of one symbol and one of another."""
    by_symbol: dict[str, list[str]] = {}
    for card in state.deck:
        by_symbol.setdefault(DECK.symbols[card], []).append(card)
    first, second = [s for s in sorted(by_symbol) if s != "wild"][:2]
    return by_symbol[first][:2] + by_symbol[second][:1]


def give(state, player: str, cards: list[str]) -> None:
    """`player`'s hand is `cards`, taken from the deck."""
    for card in cards:
        state.deck.remove(card)
    state.hands[player] = list(cards)


def shown_seq(page) -> int:
    return int(page.evaluate("document.body.dataset.seq || '0'"))


MARKS = """() => ({ picked: [...document.querySelectorAll('#map g.tile.picked')]
                        .map((g) => g.dataset.id),
                    error: document.getElementById('me-error').textContent,
                    odds: document.getElementById('odds').textContent })"""


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_phones_refusal_picks_and_odds_stay_on_that_phone_and_end_with_the_turn(
        tables, served, lang):
    table = reach(tables, CLASSIC, lambda s: s.phase == "reinforce" and s.current_player == "red"
                  and s.turn >= 2 and len(s.hands["red"]) < 5 and not s.pending)
    cards = not_a_set(table.state())
    publish(table, lambda s: give(s, "red", cards))
    state = table.state()
    enemy = next(t for t in sorted(state.owner) if state.owner[t] == "blue")
    beside = next(n for n in sorted(NEIGHBOURS[enemy]) if state.owner[n] != "red")
    server = served(table)
    with my_view(server, table, lang, "red") as red, my_view(server, table, lang, "blue") as blue:
        # red's picks and odds: two tiles not red's (a tap there picks, never places)
        red.click(f"#map g.tile[data-id='{enemy}']")
        red.click(f"#map g.tile[data-id='{beside}']")
        red.wait_for_function("() => document.querySelectorAll('#map g.tile.picked')"
                              ".length === 2")
        # then red's own refusal in red's turn (a tap would clear it): cards that are no set
        for card in cards:
            red.check(f"#hand input[value='{card}']")
        red.click("#trade-btn")
        refusal = say(lang, "error.not_a_set")
        wait_text(red, "#me-error", refusal)
        red_marks = red.evaluate(MARKS)
        assert sorted(red_marks["picked"]) == sorted([enemy, beside])
        assert red_marks["odds"] not in ("", say(lang, "odds.hint"))
        assert red_marks["error"] == refusal
        shot(red, f"marks-red-refused-{lang}")
        # the game moves on within red's turn: blue's phone shows the same state, and none
        # of red's marks
        seq = shown_seq(blue)
        assert seq > 0
        table.play("red", {"type": "place", "territory": state.territories_of("red")[0],
                           "count": 1})
        blue.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seq)
        red.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seq)
        assert red.evaluate(MARKS) == red_marks  # still red's turn: red's marks stay
        blue_marks = blue.evaluate(MARKS)
        assert blue_marks == {"picked": [], "error": "", "odds": say(lang, "odds.hint")}
        assert refusal not in page_text(blue)
        assert red_marks["odds"] not in page_text(blue)
        shot(blue, f"marks-blue-clean-{lang}")
        # red's turn ends: the refusal, picks and odds line do not carry into the next one
        table.bot_until(lambda s: s.current_player != "red")
        shown = "s => Number(document.body.dataset.seq) >= s"
        red.wait_for_function(shown, arg=table.mark()[1], timeout=30000)
        blue.wait_for_function(shown, arg=table.mark()[1], timeout=30000)
        after = red.evaluate(MARKS)
        assert after["picked"] == [] and after["error"] == ""
        assert red_marks["odds"] not in after["odds"]
        assert refusal not in page_text(red)
        assert blue.evaluate(MARKS)["error"] == ""
        shot(red, f"marks-red-next-turn-{lang}")


# the outline a tile is drawn with (its land's stroke), whatever draws it: a pick, a focus
OUTLINE = ("id => { const s = getComputedStyle(document.querySelector("
           "`#map g.tile[data-id='${id}'] .land`)); return [s.stroke, s.strokeWidth]; }")


def test_the_last_tapped_tile_loses_its_outline_when_the_turn_moves_on(tables, served):
    table = reach(tables, CLASSIC, lambda s: s.phase == "attack" and s.pending is None
                  and s.current_player == "red" and s.turn >= 2)
    mine = table.state().territories_of("red")[0]
    server = served(table)
    with my_view(server, table, "en", "red") as red:
        plain = red.evaluate(OUTLINE, mine)
        red.click(f"#map g.tile[data-id='{mine}']")  # a real tap: the tile is also focused
        red.wait_for_selector(f"#map g.tile.picked[data-id='{mine}']")
        assert red.evaluate(OUTLINE, mine) != plain, "a tapped tile is outlined"
        table.bot_until(lambda s: s.current_player != "red")
        red.wait_for_function("s => Number(document.body.dataset.seq) >= s",
                              arg=table.mark()[1], timeout=30000)
        assert red.evaluate(OUTLINE, mine) == plain, "the outline stayed into the next turn"
        shot(red, "marks-tapped-tile-next-turn")
        # the keyboard's focus still shows where it is
        red.keyboard.press("Tab")
        focused = red.evaluate("() => document.activeElement.dataset.id")
        assert focused and red.evaluate(OUTLINE, focused)[1] == "3px"


BOXES = ("() => [...document.querySelectorAll('#map, .v-controls')].map((n) => {"
         " const r = n.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_ordinary_refusal_on_virtual_does_not_move_the_map(tables, served, lang):
    table = reach(tables, CLASSIC, lambda s: s.phase == "attack" and s.pending is None
                  and s.turn >= 2)
    state = table.state()
    actor = state.current_player
    enemy = next(t for t in sorted(state.owner) if state.owner[t] != actor)
    server = served(table)
    with phone(server, lang, "/virtual", "#conn.ok") as virtual:
        feed_touches(table)
        virtual.wait_for_selector(f"#map g.tile[data-id='{enemy}']")
        before = virtual.evaluate(BOXES)
        assert len(before) == 2 and text_of(virtual, "#refusal") == ""
        # a territory the player to move does not own, touched as the source
        virtual.click(f"#map g.tile[data-id='{enemy}']")
        said = wait_text(virtual, "#refusal", say(lang, "error.choose_source_first"))
        assert virtual.evaluate(BOXES) == before, (before, virtual.evaluate(BOXES))
        shot(virtual, f"marks-virtual-refused-{lang}")
        assert said.strip()


MAP_BOX = ("() => { const r = document.getElementById('map').getBoundingClientRect();"
           " return [r.x, r.y, r.width, r.height]; }")
# the state line's whole sentence shows: nothing of it is cut off
STATE_WHOLE = ("() => { const b = document.getElementById('v-state');"
               " return b.scrollHeight <= b.clientHeight + 1; }")


@pytest.mark.parametrize("lang", ["fr", "ja"])
def test_the_virtual_state_line_never_moves_the_map(tables, served, lang):
    # ja: one short line while placing; fr: six lines for a computer's step to copy
    table = reach(tables, CLASSIC, lambda s: s.phase == "reinforce" and s.current_player == "red"
                  and s.turn >= 2 and len(s.hands["red"]) < 5)
    state = table.state()
    server = served(table)
    with phone(server, lang, "/virtual", "#conn.ok") as virtual:
        feed_touches(table)
        wait_text(virtual, "#v-state", say(lang, "colour.red"))
        before = virtual.evaluate(MAP_BOX)
        lines = [virtual.inner_text("#v-state")]
        # a placement (the count changes), then a refusal (another's territory touched)
        seq = shown_seq(virtual)
        virtual.click(f"#map g.tile[data-id='{state.territories_of('red')[0]}']")
        virtual.wait_for_function("s => Number(document.body.dataset.seq) > s", arg=seq)
        virtual.click(f"#map g.tile[data-id='{state.territories_of('blue')[0]}']")
        virtual.wait_for_function("() => document.getElementById('refusal').textContent")
        assert virtual.evaluate(MAP_BOX) == before
        # the computer seats' step to copy: the longest sentence the line says
        table.loop.call(lambda core: core.host_action(
            "computer", {"seats": {"blue": "normal", "green": "normal"}}))
        table.bot_until(lambda s: s.current_player != "red")
        wait_text(virtual, "#v-state", say(lang, "vboard.button.confirm"))
        lines.append(virtual.inner_text("#v-state"))
        assert virtual.evaluate(MAP_BOX) == before, lines
        assert virtual.evaluate(STATE_WHOLE), "the sentence is cut off"
        shot(virtual, f"marks-virtual-long-state-{lang}")


@pytest.fixture
def served(request):
    """Serves a real table's app for the test (`served(table)`: the server)."""
    from pi_app.web.serve import start_background

    servers = []

    def serve(table):
        servers.append(start_background(table.app))
        return servers[-1]

    yield serve
    for server in servers:
        server.stop()
