"""The card duties said on every page, in every variant with card sets (issue 23.3): a
forced trade (5 or more cards at the start of a turn), a trade-down after an elimination
(more than 4 cards: trade until 4 or fewer) and then the armies it brought (placed before
the attack goes on).

Each duty is staged as test_browser_game_night.py stages its trade-down: the bots play a
real table to a turn's reinforcement, and the position is then edited as the rules could
leave it (a hand of cards from the deck; a `trade_down` decision after an elimination) and
published. The trades are made with the phone's own best-set button. At each step the
expected duty is read from the engine (its legal commands for the seat and its pending
decision), and its words from the i18n catalogue keys of the duty the table says
(`table.waits`, pi_app/table/awaiting.py `card_duty`), never from a page. Four pages
must say it: My view of the seat with the duty, My view of another seat, the table view
and /virtual (Chromium at 360×640), each page in a language of its own: the variants run
through a Latin square of the four languages (`LANGS`), so every variant is read in all
four, English among them, and every page in all four over Classic, Mission, Capital and
Two-player (the trade-down in three of them on each page); each page is loaded once per
variant. While a trade is owed no page may tell anyone to attack or place armies.

My view of another seat names the duty too: once the trades are done it waits for the
traded armies, not for "trading cards" (also held on its own by
`test_another_phone_waits_for_the_traded_armies_not_the_trade`).

The variants: Classic, Secret Mission and Capital have both duties. Two-player (Neutral) and
Allied Army trade sets, so the forced trade is there; a trade-down is not, because taking
the other seat's last territory wins the game before any card changes hands (the Neutral
and the Allied Army hold no cards: `steps.conquer` discards what such an army would take).
RISK Strike has no sets to trade: its continent cards lie open and its tactics cards are
played one by one (the table's `board_step` is the board game's only), so it has no card
duty."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest

from pi_app.rules import legal_commands
from pi_app.table.loop import NewGameSpec

from .browsing import page_in_language, page_text, shot
from .real_table import reach
from .test_browser_game_night import SMALL, publish, until
from .test_browser_state_sentence import Words, lag, said, serve

pytestmark = pytest.mark.browser

THREE, TWO = ("red", "blue", "green"), ("red", "blue")
# variant: (players, whether a trade-down can happen)
VARIANTS: dict[str, tuple[tuple[str, ...], bool]] = {
    "classic": (THREE, True),
    "mission": (THREE, True),
    "capital": (THREE, True),
    "two-player": (TWO, False),
    "allied": (TWO, False),
}
PAGES = ("me", "other", "table", "virtual")
PLACE = {"me": "#state-sentence", "virtual": "#v-state"}  # where a page says what to place
# the language of each page (in PAGES' order), a row per variant: a Latin square
LANGS: dict[str, tuple[str, str, str, str]] = {
    "classic": ("en", "ko", "ja", "fr"),
    "mission": ("fr", "en", "ko", "ja"),
    "capital": ("ja", "fr", "en", "ko"),
    "two-player": ("ko", "ja", "fr", "en"),
    "allied": ("en", "fr", "ko", "ja"),
}


# ----- the duty the engine puts on a seat -------------------------------------------------
def engine_duty(s, p: str) -> tuple[str, int] | None:
    """(catalogue key, count) of the card duty the engine waits for from `p`, read from its
    pending decision and the commands it accepts from `p`: "forced_trade" (only a trade is
    legal at the start of a turn), "trade_down" (a trade-down, only trades legal),
    "trade_down_place" (a trade-down whose trades are done: only placing is legal)."""
    kinds = {c.to_dict()["type"] for c in legal_commands(s, p)}
    pend = s.pending
    if pend and pend["kind"] == "trade_down" and pend["player"] == p:
        if kinds == {"trade_cards"}:
            return "trade_down", len(s.hands[p])
        assert kinds == {"place"}, kinds
        return "trade_down_place", s.reserves[p]
    if not pend and s.phase == "reinforce" and s.current_player == p and kinds == {"trade_cards"}:
        return "forced_trade", len(s.hands[p])
    return None


def expected(w: Words, s, p: str, duty: tuple[str, int]) -> dict[str, tuple[str, list[list[str]]]]:
    """Per page: (the selector, what its text must hold: every part of one of the lists)
    for `p`'s duty. My view of another seat says whom it waits for and why: the duty."""
    key, n = duty
    turn = w("banner.turn", player=w.who(s.current_player), phase=w.named("phase", s.phase))
    waiting = [[w("state.waiting", player=w.who(p), what=w(f"duty.{key}", n=n))]]
    pages = {
        "me": ("#state-sentence", [[w(f"state.{key}", n=n)]]),
        "other": ("#state-sentence", waiting),
        "table": ("#banner", [[turn, w(f"duty.{key}", n=n)]]),
        "virtual": ("#v-state", [[w.who(p), w.named("phase", s.phase),
                                  w(f"vboard.{key}", n=n)]]),
    }
    return pages


def never_while_owed(w: Words, s, p: str) -> list[str]:
    """Words no page may show while `p` owes a trade: an order to attack, fortify or end
    the turn, or to place the armies `p` has (the catalogue's sentences and buttons)."""
    left = s.reserves[p]
    return [w("state.attack"), w("state.fortify"), w("me.end_attack"), w("me.end_turn"),
            w("state.can_trade"), w("state.reinforce", n=left), w("banner.to_place", n=left),
            w("vboard.to_place", n=left)]


# ----- the pages ----------------------------------------------------------------------------
def open_pages(stack: ExitStack, browser, server, tokens, langs: dict[str, str], seat: str,
               other: str) -> dict[str, Any]:
    """My view of `seat` ("me") and of `other`, the table view and /virtual at 360×640,
    each in a browser context of its own, in its language (`langs`: page -> language)."""
    def page(where: str, url: str, ready: str):
        return page_in_language(stack, browser, f"{server.url}{url}", ready, langs[where], SMALL)

    return {"me": page("me", f"/me#t={tokens[seat]}", "#state-sentence[data-ready]"),
            "other": page("other", f"/me#t={tokens[other]}", "#state-sentence[data-ready]"),
            "table": page("table", "/", "#conn.ok"),
            "virtual": page("virtual", "/virtual", "#conn.ok")}


class Case:
    """A variant's served table, its seat with the duty, and the four pages, each with the
    words of its language."""

    def __init__(self, table, seat: str, pages: dict[str, Any], langs: dict[str, str],
                 variant: str) -> None:
        self.table, self.seat, self.pages, self.variant = table, seat, pages, variant
        self.words = {where: Words(lang) for where, lang in langs.items()}

    def name(self, step: str, where: str) -> str:
        """How a failure names the step, the page and its language."""
        return f"{self.variant} {step}: {where} in {self.words[where].lang}"

    def says(self, step: str, must: str) -> tuple[str, int]:
        """Every page says the duty the engine waits for from the seat (and it is `must`);
        while a trade is owed, no page orders an attack or placing."""
        s = self.table.state()
        duty = engine_duty(s, self.seat)
        assert duty is not None and duty[0] == must, (step, duty)
        for where, page in self.pages.items():
            w = self.words[where]
            said_here = expected(w, s, self.seat, duty).get(where)
            if said_here is not None:
                self.wait(page, said_here[0], said_here[1], self.name(step, where))
            if duty[0] != "trade_down_place":
                shown = page_text(page)
                wrong = [x for x in never_while_owed(w, s, self.seat) if x in shown]
                assert wrong == [], (f"{self.name(step, where)} says {wrong} while "
                                     f"{self.seat} owes a trade")
        return duty

    def wait(self, page, selector: str, either: list[list[str]], name: str) -> None:
        """Wait until `selector` holds every part of one of the lists `either` (else say
        what it holds)."""
        try:
            page.wait_for_function(
                "([s, either]) => { const n = document.querySelector(s);"
                " return n && either.some((parts) =>"
                " parts.every((p) => n.textContent.includes(p))); }",
                arg=[selector, either], timeout=30000)
        except Exception as e:
            raise AssertionError(f"{name} does not say {either!r}: {said(page, selector)!r} "
                                 f"{lag(page, self.table)}") from e

    def trade(self, cards_after: int) -> None:
        """The seat trades its best set with My view's button."""
        me = self.pages["me"]
        me.wait_for_selector("#best-trade-btn:not([hidden])")
        me.click("#best-trade-btn")
        until(me, lambda: len(self.table.state().hands[self.seat]) == cards_after)


def deal(state, player: str, n: int) -> None:
    """Give `player` a hand of n cards from the deck (no wild: the best set is a plain one)."""
    cards = [c for c in state.deck if not c.startswith("wild")][:n]
    for c in cards:
        state.deck.remove(c)
    state.hands[player] = cards


def place_all(table, player: str) -> None:
    """`player` places all their reserve on their strongest territory (a territory that
    already holds 2+ armies: no mission counting such territories moves)."""
    s = table.state()
    strongest = max(s.territories_of(player), key=lambda t: s.armies[t])
    table.play(player, {"type": "place", "territory": strongest, "count": s.reserves[player]})
    assert table.state().reserves[player] == 0


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_page_says_the_card_duty_the_engine_waits_for(tables, chromium, tmp_path, variant):
    players, trades_down = VARIANTS[variant]
    table = reach(tables, NewGameSpec(variant, players),
                  lambda s: s.phase == "reinforce" and s.pending is None and s.turn >= 2)
    seat = table.state().current_player
    other = next(p for p in players if p != seat)
    langs = dict(zip(PAGES, LANGS[variant], strict=True))
    with ExitStack() as stack:
        # one app for the four pages (each seat has one stream; the app lets them all in)
        server, tokens = serve(table, tmp_path / "data")
        stack.callback(server.stop)
        pages = open_pages(stack, chromium[1], server, tokens, langs, seat, other)
        case = Case(table, seat, pages, langs, variant)

        # 1. five cards at the start of the turn: a trade, not placing
        publish(table, lambda s: deal(s, seat, 5))
        case.says("5 cards at the start of the turn", "forced_trade")
        shot(pages["me"], f"duty-{variant}-forced-trade-{langs['me']}")
        case.trade(2)
        left = table.state().reserves[seat]
        assert engine_duty(table.state(), seat) is None
        for where, key in (("me", "state.reinforce"), ("virtual", "vboard.to_place")):
            case.wait(pages[where], PLACE[where], [[case.words[where](key, n=left)]],
                      case.name("after the forced trade", where))
        if not trades_down:
            return

        # 2. an elimination left 8 cards: trade down (twice), then place the armies
        place_all(table, seat)
        assert table.state().phase == "attack" and table.state().pending is None

        def eliminated_with_eight(s):
            deal(s, seat, 8)
            s.pending = {"kind": "trade_down", "player": seat, "limit": 4}
        publish(table, eliminated_with_eight)
        assert case.says("8 cards after an elimination", "trade_down") == ("trade_down", 8)
        shot(pages["virtual"], f"duty-{variant}-trade-down-virtual-{langs['virtual']}")
        case.trade(5)
        assert case.says("5 cards after one trade", "trade_down") == ("trade_down", 5)
        case.trade(2)
        case.says("the trades done", "trade_down_place")
        for where, page in pages.items():
            w = case.words[where]
            stale = [x for x in (w("state.trade_down"), w("ask.trade_down"))
                     if x in page_text(page)]
            assert stale == [], f"{case.name('the trades done', where)} still says {stale}"
        shot(pages["me"], f"duty-{variant}-trade-down-place-{langs['me']}")

        # 3. the armies placed: the attack goes on, and the seat's phone says so
        place_all(table, seat)
        assert table.state().pending is None and table.state().phase == "attack"
        case.wait(pages["me"], "#state-sentence", [[case.words["me"]("state.attack")]],
                  case.name("after the trade-down", "me"))


def test_another_phone_waits_for_the_traded_armies_not_the_trade(tables, chromium, tmp_path):
    table = reach(tables, NewGameSpec("classic", THREE),
                  lambda s: s.phase == "attack" and s.pending is None and s.turn >= 2)
    seat = table.state().current_player
    other = next(p for p in THREE if p != seat)
    w = Words("en")

    def eliminated_with_six(s):
        deal(s, seat, 6)
        s.pending = {"kind": "trade_down", "player": seat, "limit": 4}
    publish(table, eliminated_with_six)
    trade = next(c.to_dict() for c in legal_commands(table.state(), seat)
                 if c.to_dict()["type"] == "trade_cards")
    table.play(seat, trade)
    key, n = engine_duty(table.state(), seat) or ("none", 0)
    assert key == "trade_down_place"
    with ExitStack() as stack:
        server, tokens = serve(table, tmp_path / "en")
        stack.callback(server.stop)
        context = chromium[1].new_context(viewport=SMALL)
        stack.callback(context.close)
        page = context.new_page()
        page.goto(f"{server.url}/me#t={tokens[other]}")
        page.wait_for_selector("#state-sentence[data-ready]")
        revision = table.loop.publisher.snapshot.revision
        page.wait_for_function("r => Number(document.body.dataset.seq) >= r", arg=revision)
        assert said(page, "#state-sentence") == w(
            "state.waiting", player=w.who(seat), what=w("duty.trade_down_place", n=n))
