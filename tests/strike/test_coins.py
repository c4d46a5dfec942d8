"""Domination coins (docs/RULES.md §7): taken on reaching the number, kept, taken over; 2 win."""

from __future__ import annotations

from pi_app.dice import SeededSource
from pi_app.rules.strike import (
    Draw,
    Pass,
    PassTurn,
    Roll,
    apply,
    available_commands,
    continent_colours,
    load_strike_deck,
)
from pi_app.rules.strike.state import DRAW, GAME_OVER

from .builders import ALL_CARDS, ScriptedDice, all_cards, at_battle, make_state, pass_all, refused

RNG = SeededSource(0)
DECK = load_strike_deck()


def test_domination_numbers_come_from_the_deck_data():
    assert DECK.domination["south-america"] == 3 and DECK.domination["asia"] == 8
    assert len(DECK.all_cards) == 82 and DECK.coins_to_win == 2


def test_reaching_the_domination_number_takes_the_coin_from_the_pile():
    state = make_state(["red", "blue"], tables={"red": ["australia", "australia"]},
                       phase=DRAW, continent_top=["australia", "asia"])
    events = apply(state, Draw("red", 1, 1), RNG).events
    assert state.coins["australia"] == "red"
    taken = next(e for e in events if e.type == "coin_taken")
    assert taken.to_dict() == {"type": "coin_taken", "player": "red", "continent": "australia",
                               "source": None}
    assert continent_colours(state)["australia"] == "red"
    assert continent_colours(state)["asia"] is None


def test_a_coin_is_kept_when_the_holders_cards_fall_below_the_number():
    state = make_state(["red", "blue"], tables={"red": ["asia"], "blue": ["australia"] * 3},
                       coins={"australia": "blue"})
    at_battle(state, "blue", "asia", "australia")
    apply(state, Roll("red"), ScriptedDice([6], [1, 1]))
    pass_all(state)
    assert state.cards_of("blue", "australia") == 2
    assert state.coins["australia"] == "blue"


def test_another_player_reaching_the_number_takes_the_coin_from_its_holder():
    state = make_state(["red", "blue"],
                       tables={"red": ["australia", "australia"], "blue": ["australia"] * 2},
                       coins={"australia": "blue"})
    at_battle(state, "blue", "australia", "australia")
    events = apply(state, Roll("red"), ScriptedDice([6, 6], [1, 1])).events
    events += pass_all(state)  # nobody holding a card, the window closes as it opens
    assert state.coins["australia"] == "red"
    taken = next(e for e in events if e.type == "coin_taken")
    assert taken["source"] == "blue"


def test_two_coins_win_at_once_and_the_game_takes_no_more_commands():
    state = make_state(["red", "blue"], tables={"red": ["australia", "australia", "asia"],
                                                "blue": ["australia"]},
                       hands={"red": ["troops"]}, coins={"south-america": "red"})
    at_battle(state, "blue", "australia", "australia", 1, 0)
    events = apply(state, Roll("red"), ScriptedDice([6, 6, 6], [1])).events
    events += pass_all(state)  # nobody holding a card, the window closes as it opens
    assert state.winner == "red" and state.phase == GAME_OVER
    assert events[-1].to_dict() == {"type": "game_won", "winner": "red",
                                    "coins": ["south-america", "australia"]}
    assert state.battle is None and state.window is None
    assert all_cards(state) == ALL_CARDS
    refused(state, PassTurn("red"), "game_over")
    refused(state, Pass("blue"), "game_over")
    assert available_commands(state, "red") == available_commands(state, "blue") == []


def test_each_coin_has_at_most_one_holder():
    state = make_state(["red", "blue"], tables={"red": ["africa"] * 3, "blue": ["africa"] * 2},
                       coins={"africa": "blue"}, phase=DRAW,
                       continent_top=["africa", "europe"])
    apply(state, Draw("red", 1, 1), RNG)
    assert state.coins["africa"] == "red"
    assert state.coins_of("blue") == [] and state.coins_of("red") == ["africa"]
    assert set(state.coins) == set(DECK.continents)


def test_every_territory_of_a_continent_is_lit_in_the_coin_holders_colour():
    from pi_app.rules.board import load_map
    from pi_app.rules.strike import continent_of_territory, territory_colours
    state = make_state(["red", "blue"], coins={"australia": "blue"})
    colours = territory_colours(state)
    board = load_map()
    assert len(colours) == 42
    for territory, colour in colours.items():
        expected = "blue" if board.continent_of[territory] == "australia" else None
        assert colour == expected
    assert continent_of_territory("siam") == "asia"
