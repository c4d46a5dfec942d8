"""The Strike board's refusals on /virtual, in the page's language (issue 23.13): its own
codes (draw first, ...) have words in every catalogue, and a code it shares with the map
games but means otherwise (continents that do not border each other, not a chain of
territories) reads the Strike words. The real table behind the real page, at 360×640."""

from __future__ import annotations

import pytest

from pi_app.rules.strike import continent_of_territory, load_strike_deck
from pi_app.table.loop import NewGameSpec

from .browsing import shot
from .real_table import reach
from .test_browser_game_night import feed_touches, pages, say, wait_text

SPEC = NewGameSpec("strike", ("red", "blue", "green"), {"reaction_seconds": 600})
DECK = load_strike_deck()


@pytest.fixture(autouse=True)
def _browser(chromium):
    pages.chromium = chromium


@pytest.mark.parametrize("lang", ["ko", "fr"])
def test_the_strike_boards_refusals_read_in_the_pages_language(tables, lang):
    table = reach(tables, SPEC, lambda s: s.phase == "draw" and s.turn >= 2)
    actor = table.state().current_player
    with pages(table, lang, actor, only=("virtual",)) as (_me, _view, virtual):
        feed_touches(table)
        virtual.click("#map g.tile[data-id='brazil']")  # a touch before the draw
        said = wait_text(virtual, "#refusal", say(lang, "error.draw_first"))
        assert said.strip().endswith(say(lang, "error.draw_first"))
        shot(virtual, f"strike-refusal-draw-first-{lang}-360")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_continents_that_do_not_border_read_the_strike_words(tables, lang):
    table = reach(tables, SPEC, lambda s: s.phase == "choose" and s.turn >= 2
                  and any(s.cards_of(s.current_player, c) for c in DECK.continent_names))
    state = table.state()
    actor = state.current_player
    source_continent = next(c for c in sorted(DECK.continent_names) if state.cards_of(actor, c))
    far = next(c for c in sorted(DECK.continent_names)
               if c != source_continent and not DECK.may_attack(source_continent, c))
    with pages(table, lang, actor, only=("virtual",)) as (_me, _view, virtual):
        feed_touches(table)
        ids = virtual.eval_on_selector_all("#map g.tile", "gs => gs.map(g => g.dataset.id)")
        source = next(t for t in ids if continent_of_territory(t) == source_continent)
        target = next(t for t in ids if continent_of_territory(t) == far)
        virtual.click(f"#map g.tile[data-id='{source}']")
        virtual.click(f"#map g.tile[data-id='{target}']")
        said = wait_text(virtual, "#refusal", say(lang, "error.strike.not_connected"))
        # not the map games' words for a fortify without a chain of territories
        assert say(lang, "error.not_connected") not in said
        shot(virtual, f"strike-refusal-not-connected-{lang}-360")
