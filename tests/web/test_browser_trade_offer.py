"""A set that can be traded is announced (issue 23.4): in the reinforce phase, with a set of
3 or 4 cards (no forced trade), My view says so and offers the set the board would trade in
one button, and the board pages (/virtual and the table view, on the device of the player
on the move: hands are secret) say it with the board's gesture, "hold Confirm", which then
trades that set. The real table behind the real pages, read in headless Chromium at
360×640 in every language; the words are read from the catalogue files."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from types import SimpleNamespace

import pytest

from pi_app.dice import SeededSource
from pi_app.rules import HouseRules, load_cards, load_map, new_game
from pi_app.rules.cards import find_sets
from pi_app.table.gestures import best_set
from pi_app.table.loop import NewGameSpec
from pi_app.web.serve import start_background

from .browsing import shot
from .real_table import PROFILE, reach
from .test_browser_game_night import say, until

LANGS = ("en", "ko", "ja", "fr")
SMALL = {"width": 360, "height": 640}
CLASSIC = NewGameSpec("classic", ("red", "blue", "green"))
SYMBOLS = load_cards().symbols


# ----- the words, from the catalogue files (test_browser_game_night.say) ------------------------
def button_text(lang: str, cards: tuple[str, ...]) -> str:
    """My view's best-set button naming `cards` (a card: its territory and symbol, or wild)."""
    def label(card: str) -> str:
        if SYMBOLS[card] == "wild":
            return say(lang, "card.wild")
        return f"{say(lang, f'territory.{card}')} · {say(lang, f'card.{SYMBOLS[card]}')}"
    return say(lang, "me.trade_best", cards=say(lang, "list.separator").join(map(label, cards)))


# ----- a hand staged on the live table ---------------------------------------------------------
def pick(state, player: str, wanted: list[tuple[str, bool | None]]) -> list[str]:
    """Cards of the given (symbol, owned by `player`) in order: territory cards by symbol and
    whether `player` owns the territory (None for a wild), distinct."""
    taken: list[str] = []
    for symbol, owned in wanted:
        card = next(c for c in sorted(SYMBOLS) if c not in taken and SYMBOLS[c] == symbol
                    and (owned is None or (state.owner.get(c) == player) == owned))
        taken.append(card)
    return taken


def deal(state, player: str, cards: list[str]) -> None:
    """`player`'s hand becomes `cards` (in that order), each taken from wherever it was;
    their old cards go back to the deck, so every card is still in one place."""
    for hand in state.hands.values():
        hand[:] = [c for c in hand if c not in cards]
    state.discard[:] = [c for c in state.discard if c not in cards]
    old = [c for c in state.hands[player] if c not in cards]
    state.deck[:] = [c for c in state.deck if c not in cards] + old
    state.hands[player] = list(cards)


def publish(table, change) -> None:
    """Change the live game state as the rules could leave it, and publish it."""
    def run(core):
        change(core.session.state)
        core.publish([], state_changed=True)
    table.loop.call(run)


def red_to_reinforce(tables):
    """A Classic table at the start of red's reinforce phase (turn 2 or later)."""
    return reach(tables, CLASSIC, lambda s: s.phase == "reinforce" and s.turn >= 2
                 and s.current_player == "red" and s.pending is None)


# A voluntary set: two infantry of other players' territories, a cavalry of red's own and a
# wild. Every set of it needs the wild (infantry, infantry, cavalry is none), so the best one
# is the one showing red's territory: its 2 extra armies (docs/RULES.md §2.5).
VOLUNTARY = [("infantry", False), ("infantry", False), ("cavalry", True), ("wild", None)]
NO_SET = [("infantry", False), ("infantry", True), ("cavalry", False)]


# ----- the pages -------------------------------------------------------------------------------
@contextmanager
def pages(chromium, table, lang: str, player: str, only=("me", "view", "virtual")):
    """`player`'s device in `lang` at 360×640: My view (its seat link), the table view and
    /virtual (its seat link), in that order, all holding that seat's token (no host PIN);
    yields (me, view, virtual), None for a page not in `only`."""
    server = start_background(table.app)
    context = chromium[1].new_context(viewport=SMALL)
    context.add_init_script(f"localStorage.setItem('riskboard.lang', '{lang}');")
    try:
        opened = {}
        token = table.tokens[player]
        urls = {"me": (f"/me#t={token}", "#state-sentence[data-ready]"),
                "view": ("/", "#conn.ok"), "virtual": (f"/virtual#t={token}", "#conn.ok")}
        for name in ("me", "view", "virtual"):
            if name in only:
                url, ready = urls[name]
                opened[name] = context.new_page()
                opened[name].goto(f"{server.url}{url}")
                opened[name].wait_for_selector(ready)
        yield opened.get("me"), opened.get("view"), opened.get("virtual")
    finally:
        context.close()
        server.stop()


def wait_text(page, selector: str, *parts: str, timeout: float = 30000) -> str:
    """Wait until `selector`'s text holds every one of `parts`; answer the text."""
    page.wait_for_function("([s, parts]) => { const n = document.querySelector(s);"
                           " return n && parts.every((p) => n.textContent.includes(p)); }",
                           arg=[selector, list(parts)], timeout=timeout)
    return page.inner_text(selector)


def wait_without(page, selector: str, part: str, timeout: float = 30000) -> None:
    """Wait until `selector` is there and its text no longer holds `part`."""
    page.wait_for_function("([s, p]) => { const n = document.querySelector(s);"
                           " return n && !n.textContent.includes(p); }",
                           arg=[selector, part], timeout=timeout)


# ----- (a) the set is announced on all three pages ---------------------------------------------
@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_a_set_to_trade_is_announced_on_every_page_with_the_board_gesture(tables, chromium,
                                                                          lang):
    table = red_to_reinforce(tables)
    hand = pick(table.state(), "red", VOLUNTARY)
    publish(table, lambda s: deal(s, "red", hand))
    state = table.state()
    assert state.phase == "reinforce" and len(state.hands["red"]) == 4
    # the set red's territory shows, whichever wild: the board's choice is the same
    best = best_set(state, "red")
    assert best == (hand[0], hand[2], hand[3])
    with pages(chromium, table, lang, "red") as (me, view, virtual):
        wait_text(me, "#state-sentence", say(lang, "state.can_trade"))
        me.wait_for_selector("#best-trade-btn:not([hidden])")
        assert me.inner_text("#best-trade-btn") == button_text(lang, best)
        offer = say(lang, "vboard.can_trade")
        wait_text(view, "#banner", offer)
        wait_text(virtual, "#v-state", offer)
        shot(me, f"trade-offer-me-{lang}-360")
        shot(view, f"trade-offer-table-{lang}-360")
        shot(virtual, f"trade-offer-virtual-{lang}-360")


# ----- (b) three cards that make no set: nothing said, no button -------------------------------
@pytest.mark.browser
def test_cards_that_make_no_set_are_not_announced_anywhere(tables, chromium):
    table = red_to_reinforce(tables)
    publish(table, lambda s: deal(s, "red", pick(s, "red", VOLUNTARY)))
    offer = say("en", "vboard.can_trade")
    with pages(chromium, table, "en", "red") as (me, view, virtual):
        wait_text(view, "#banner", offer)
        wait_text(virtual, "#v-state", offer)
        wait_text(me, "#state-sentence", say("en", "state.can_trade"))
        me.wait_for_selector("#best-trade-btn:not([hidden])")
        # the hand becomes three cards that make no set (infantry, infantry, cavalry)
        publish(table, lambda s: deal(s, "red", pick(s, "red", NO_SET)))
        state = table.state()
        assert len(state.hands["red"]) == 3 and find_sets(state.hands["red"], load_cards()) == []
        wait_without(me, "#state-sentence", say("en", "state.can_trade"))
        wait_without(view, "#banner", offer)
        wait_without(virtual, "#v-state", offer)
        me.wait_for_selector("#best-trade-btn", state="hidden")
        # still red's reinforce phase: the pages say the armies to place, only not a set
        left = state.reserves["red"]
        wait_text(virtual, "#v-state", say("en", "vboard.to_place", n=left))
        shot(virtual, "trade-offer-no-set-virtual-en-360")


# ----- (c) holding Confirm on /virtual, as it says, trades the set -----------------------------
@pytest.mark.browser
def test_holding_confirm_on_the_virtual_board_trades_the_set_it_announced(tables, chromium):
    table = red_to_reinforce(tables)
    publish(table, lambda s: deal(s, "red", pick(s, "red", VOLUNTARY)))
    before = table.state()
    best = best_set(before, "red")
    value = load_cards().trade_value(before.trade_count)
    # the simulated rig's control buttons as the service names them (the real_table stand-in
    # has none): a seat's press then reaches the table as on the virtual board of `make run`
    service = table.app.extensions["riskboard"].table
    service.controls = SimpleNamespace(pins=dict(PROFILE.controls))
    with pages(chromium, table, "en", "red", only=("virtual",)) as (_me, _view, virtual):
        wait_text(virtual, "#v-state", say("en", "vboard.can_trade"))
        # the page's own key for Confirm, held past the board's hold time (1 s)
        virtual.keyboard.down("c")
        virtual.wait_for_timeout(1500)
        virtual.keyboard.up("c")
        until(virtual, lambda: len(table.state().hands["red"]) == 1)
        after = table.state()
        assert after.hands["red"] == [c for c in before.hands["red"] if c not in best]
        assert after.reserves["red"] == before.reserves["red"] + value
        assert after.trade_count == before.trade_count + 1
        wait_without(virtual, "#v-state", say("en", "vboard.can_trade"))


# ----- (d) the best set: the board's choice, and the phone names the same ----------------------
# Each hand as (symbol, owned by red) and the set expected, as positions in the hand, reasoned
# from docs/RULES.md §2.5: every set is worth the same (the table's counter), and a card
# showing a territory red owns adds 2 armies (once per set), so a set showing one comes first;
# among equals the fewest wilds (pi_app/table/GESTURES.md: "one showing a territory you own
# first"; a wild kept makes the next set with any two cards); then the hand's order.
HANDS = {
    # the set without a wild shows no owned territory; every set with red's cavalry needs
    # the wild: the 2 armies win (a forced trade of 5)
    "owned-before-no-wild": ([("infantry", False), ("infantry", False), ("infantry", False),
                              ("cavalry", True), ("wild", None)], (0, 3, 4)),
    # one of each shows red's territory without a wild: the wild stays in the hand
    "owned-and-no-wild": ([("infantry", True), ("cavalry", False), ("artillery", False),
                           ("wild", None)], (0, 1, 2)),
    # nothing owned: three alike rather than spend the wild
    "no-owned-keeps-the-wild": ([("wild", None), ("infantry", False), ("infantry", False),
                                 ("infantry", False)], (1, 2, 3)),
    # two wilds, nothing owned: one wild, not both
    "two-wilds": ([("wild", None), ("wild", None), ("infantry", False), ("cavalry", False)],
                  (0, 2, 3)),
    # every set shows an owned territory and none has a wild: all worth the same, the first
    "equal-sets-hand-order": ([("infantry", False), ("infantry", True), ("infantry", True),
                               ("infantry", True)], (0, 1, 2)),
}
# The same hands once this turn's territory bonus was given (a second trade in one turn: a
# forced trade or a trade-down) under the default house rule, once per turn (docs/RULES.md §2.5):
# no set can show the +2 any more, so the fewest wilds decide, then the hand's order.
BONUS_GIVEN = {
    # three infantry and no wild now beat red's cavalry with the wild
    "owned-before-no-wild": (0, 1, 2),
    "owned-and-no-wild": (0, 1, 2),
    "no-owned-keeps-the-wild": (1, 2, 3),
    "two-wilds": (0, 2, 3),
    "equal-sets-hand-order": (0, 1, 2),
}


def classic_reinforce():
    """A Classic game at red's reinforce phase, the territories dealt round-robin in map
    order (no table, no browser)."""
    state = new_game("classic", ["red", "blue", "green"], HouseRules(), SeededSource(0)).state
    for i, tid in enumerate(load_map().territories):
        state.owner[tid] = ("red", "blue", "green")[i % 3]
    state.phase, state.current_player, state.pending = "reinforce", "red", None
    return state


@pytest.mark.parametrize("name", HANDS)
def test_the_board_trades_the_best_set_the_rules_give(name):
    wanted, expected = HANDS[name]
    state = classic_reinforce()
    hand = pick(state, "red", wanted)
    deal(state, "red", hand)
    assert best_set(state, "red") == tuple(hand[i] for i in expected)


@pytest.mark.parametrize("name", BONUS_GIVEN)
def test_once_the_turns_territory_bonus_is_given_the_fewest_wilds_come_first(name):
    wanted, _ = HANDS[name]
    state = classic_reinforce()
    assert state.house_rules.territory_bonus_once_per_turn  # the default
    state.territory_bonus_used = True
    hand = pick(state, "red", wanted)
    deal(state, "red", hand)
    assert best_set(state, "red") == tuple(hand[i] for i in BONUS_GIVEN[name])


def test_with_a_bonus_on_every_set_owned_territories_still_come_first():
    wanted, expected = HANDS["owned-before-no-wild"]
    state = classic_reinforce()
    state.house_rules = replace(state.house_rules, territory_bonus_once_per_turn=False)
    state.territory_bonus_used = True
    hand = pick(state, "red", wanted)
    deal(state, "red", hand)
    assert best_set(state, "red") == tuple(hand[i] for i in expected)


@pytest.mark.browser
def test_my_views_button_names_the_set_the_board_trades(tables, chromium):
    table = red_to_reinforce(tables)
    with pages(chromium, table, "en", "red", only=("me",)) as (me, _view, _virtual):
        for name, (wanted, expected) in HANDS.items():
            hand = pick(table.state(), "red", wanted)
            publish(table, lambda s, h=hand: deal(s, "red", h))
            board = best_set(table.state(), "red")
            assert board == tuple(hand[i] for i in expected), name
            me.wait_for_selector("#best-trade-btn:not([hidden])")
            wait_text(me, "#best-trade-btn", button_text("en", board))
        # a second trade in the turn: the territory bonus was given, once per turn
        for name, expected in BONUS_GIVEN.items():
            hand = pick(table.state(), "red", HANDS[name][0])

            def bonus_given(s, h=hand):
                deal(s, "red", h)
                s.territory_bonus_used = True
            publish(table, bonus_given)
            board = best_set(table.state(), "red")
            assert board == tuple(hand[i] for i in expected), name
            me.wait_for_selector("#best-trade-btn:not([hidden])")
            wait_text(me, "#best-trade-btn", button_text("en", board))
