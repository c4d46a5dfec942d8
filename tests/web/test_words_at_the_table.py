"""Words at the table (issue 23.9): a player refused on his own move is named once and never
told "It is <his colour>'s turn."; the French My view says "Ma place : Vert" for green.
The real table behind the real pages, in headless Chromium at 360×640."""

from __future__ import annotations

import pytest

from .browsing import shot
from .real_table import reach
from .test_browser_game_night import CLASSIC, catalogue, feed_touches, pages, say, wait_text


@pytest.fixture(autouse=True)
def _browser(chromium):
    pages.chromium = chromium


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_player_refused_on_his_own_move_is_not_told_whose_turn_it_is(tables, lang):
    table = reach(tables, CLASSIC, lambda s: s.phase == "attack" and s.pending is None
                  and s.turn >= 2)
    state = table.state()
    actor = state.current_player
    enemy = next(t for t in sorted(state.owner) if state.owner[t] != actor)
    colour = say(lang, f"colour.{actor}")
    turn_words = {say(code, "vboard.turn", player=say(code, f"colour.{actor}"))
                  for code in ("en", lang)} | {f"It is {actor}'s turn."}
    with pages(table, lang, actor, only=("virtual",)) as (_me, _view, virtual):
        feed_touches(table)
        virtual.click(f"#map g.tile[data-id='{enemy}']")  # no source yet: refused
        said = wait_text(virtual, "#refusal", say(lang, "error.choose_source_first"))
        # named once, as the table names the player to move, in the language's own way of
        # addressing a player; never "It is red's turn."
        assert said.strip() == say(lang, "vboard.refusal_to", player=colour,
                                   words=say(lang, "error.choose_source_first"))
        assert said.count(colour) == 1
        assert not [words for words in turn_words if words in said], said
        shot(virtual, f"words-own-refusal-virtual-{lang}")


def test_the_french_my_view_says_ma_place_vert_for_green(tables):
    words = catalogue("fr")
    # the very words, not whatever the catalogue holds: a changed French string fails here
    assert words["me.you_are"] == "Ma place : {colour}"
    assert words["colour.green"] == "Vert"
    table = reach(tables, CLASSIC, lambda s: s.phase == "attack" and s.turn >= 2)
    with pages(table, "fr", "green", only=("me",)) as (me, _view, _virtual):
        seat = wait_text(me, "#seat-name", "Ma place : Vert")
        assert seat.strip() == "Ma place : Vert"
        shot(me, "words-ma-place-vert-fr")
