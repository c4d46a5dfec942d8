"""The end of a game at the table (issue 32.3): a game won, or ended by the host ("End game
& reveal seed"), is said on every page — My view, the table view, /virtual and the host
console — with the winner or "ended by the host", the revealed dice seed and a link to
/dice, also after a reload; and no page offers a move. Found when every phone and /virtual
kept saying "your turn: draw 2 cards" after the host ended a Strike game.

The real table behind the real pages (Chromium at 360×640); the expected words are the
table's own sentences (`table.waits`) worded from the catalogues (`saying.py`), and the
parts that matter (the seed, the winner's name, "ended by the host") are also checked
against the journal and the catalogue directly."""

from __future__ import annotations

import pytest

from pi_app.table.loop import NewGameSpec
from pi_app.table_api import Viewer
from pi_app.web.serve import start_background

from .browsing import shot
from .conftest import PIN
from .saying import words_of
from .test_browser_game_night import CLASSIC, pages, say, wait_text

pytestmark = pytest.mark.browser

STRIKE = NewGameSpec("strike", ("red", "blue"), {"reaction_seconds": 600})
PLACES = {"me": "#state-sentence", "view": "#banner", "virtual": "#v-state"}
# what a page must not offer once the game is over: every control of a move
MOVES = ("#decision button", "#end-attack-btn:not([hidden])", "#end-turn-btn:not([hidden])",
         "#best-trade-btn:not([hidden])", "#trade-btn:not([hidden])",
         "#attack-panel:not([hidden])", "#strike-actions:not([hidden]) button",
         "#strike-passing select")


@pytest.fixture(autouse=True)
def _browser(chromium):
    pages.chromium = chromium


def waits(table, viewer: Viewer) -> dict:
    return table.app.extensions["riskboard"].table.view(viewer)["table"]["waits"]


def expected(table, lang: str, name: str, phone: str) -> list[str]:
    """What page `name` must say: the table's sentences for it, in `lang`."""
    if name == "me":
        return [words_of(lang, s) for s in waits(table, Viewer("player", phone))["says"]["seat"]]
    said = waits(table, Viewer("spectator"))["says"]
    return [words_of(lang, s) for s in said["banner" if name == "view" else "line"]]


def says_the_end(page, name: str, table, lang: str, phone: str, *must: str) -> None:
    """`page` says the table's end of the game (and each of `must`), links to /dice and
    offers no move."""
    wait_text(page, PLACES[name], *expected(table, lang, name, phone), *must)
    link = page.locator(f"{PLACES[name]} a[data-dice-link]")
    assert link.get_attribute("href") == "/dice"
    assert link.inner_text() == say(lang, "over.check_dice")
    offered = [m for m in MOVES if page.locator(m).count()]
    assert offered == [], (name, offered)


def end_by_host(table) -> str:
    return table.loop.call(lambda core: core.host_action("end_game", {}))["seed"]


@pytest.mark.parametrize("spec,lang", [(CLASSIC, "en"), (CLASSIC, "fr"), (STRIKE, "ko"),
                                       (STRIKE, "en")], ids=["classic-en", "classic-fr",
                                                             "strike-ko", "strike-en"])
def test_a_game_the_host_ends_is_over_on_every_page_also_after_a_reload(tables, spec, lang):
    table = tables(spec)
    with pages(table, lang, "red") as (me, view, virtual):
        # the pages first say the game in play (the check below waits for a change)
        wait_text(view, "#banner", *expected(table, lang, "view", "red"))
        seed = end_by_host(table)
        assert len(seed) == 64
        ended = say(lang, "over.ended_by_host")
        for name, page in (("me", me), ("view", view), ("virtual", virtual)):
            says_the_end(page, name, table, lang, "red", ended, seed)
        before = table.mark()
        # a tap on the map is no move either: nothing reaches the table
        me.locator("#map g.tile").first.click()
        me.wait_for_timeout(500)
        assert table.mark()[0] == before[0]
        for name, page in (("me", me), ("view", view)):
            page.reload()
            page.wait_for_selector("#conn.ok")
            says_the_end(page, name, table, lang, "red", ended, seed)
        shot(me, f"game-over-host-me-{spec.variant}-{lang}")
        shot(virtual, f"game-over-host-virtual-{spec.variant}-{lang}")


def test_a_won_game_names_its_winner_and_the_seed_on_every_page(tables):
    table = tables(CLASSIC, seed=b"\x05")
    table.bot_until(lambda s: s.phase == "attack" and s.turn >= 3)
    with pages(table, "ja", "red") as (me, view, virtual):
        try:
            table.bot_until(lambda s: s.winner is not None, limit=20000)
        except AssertionError as e:  # GameOver: the game was won, as wanted
            assert "won" in str(e)
        state = table.state()
        winner = state.winner
        seed = table.loop.call(lambda core: core.dice_record())["seed"]
        assert winner is not None and seed
        name = say("ja", f"colour.{winner}")
        mine = say("ja", "state.won") if winner == "red" else \
            say("ja", "state.other_won", player=name)
        says_the_end(me, "me", table, "ja", "red", mine, seed)
        says_the_end(view, "view", table, "ja", "red", say("ja", "banner.won", player=name), seed)
        says_the_end(virtual, "virtual", table, "ja", "red",
                     say("ja", "vboard.won", player=name), seed)
        me.reload()
        me.wait_for_selector("#state-sentence[data-ready]")
        says_the_end(me, "me", table, "ja", "red", mine, seed)


def test_the_host_console_says_the_game_ended_with_its_seed(tables, chromium):
    table = tables(STRIKE)
    server = start_background(table.app)
    context = chromium[1].new_context(viewport={"width": 360, "height": 640})
    try:
        context.add_init_script("localStorage.setItem('riskboard.lang', 'en');")
        host = context.new_page()
        host.goto(f"{server.url}/host")
        host.fill("#pin", PIN)
        host.click("#login-btn")
        host.wait_for_selector("#game-now:not([hidden])")
        host.once("dialog", lambda dialog: dialog.accept())
        host.click("#end-btn")
        # the seed is read once the page says the game ended: the end is asked over HTTP
        wait_text(host, "#game-now", say("en", "over.ended_by_host"))
        seed = table.loop.call(lambda core: core.dice_record())["seed"]
        assert seed
        wait_text(host, "#game-now", say("en", "over.ended_by_host"), seed,
                  say("en", "host.game_over", variant=say("en", "variant.strike")))
        assert host.locator("#game-now a[data-dice-link]").get_attribute("href") == "/dice"
    finally:
        context.close()
        server.stop()
