"""The one list of the games the table plays (`pi_app.rules.GAMES`, issue 35.1) says what
each engine really does: the player counts it accepts, whether it is the card game with its
own engine, whether it has rules beyond Classic's."""

from __future__ import annotations

import pytest

from pi_app.dice import SeededSource
from pi_app.rules import (
    GAMES,
    VARIANT_NAMES,
    RuleError,
    game_info,
    get_variant,
    is_strike,
    new_game,
)
from pi_app.rules.variants import CLASSIC, PLANNED

COLOURS = ["red", "blue", "green", "yellow", "black", "pink"]


def test_the_names_are_the_list_in_its_order():
    assert VARIANT_NAMES == tuple(GAMES) == (
        "classic", "mission", "capital", "two-player", "allied", "strike")
    assert all(game_info(name).name == name for name in VARIANT_NAMES)


def test_an_unknown_name_is_refused_with_the_registrys_code():
    with pytest.raises(RuleError) as err:
        game_info("chess")
    assert err.value.code == "unknown_variant"


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_the_engine_takes_exactly_the_listed_player_counts(name):
    low, high = game_info(name).player_limits
    for count in range(1, 7):
        players = COLOURS[:count]
        if low <= count <= high:
            assert new_game(name, players, None, SeededSource(count)).state.players == players
        else:
            with pytest.raises(RuleError) as err:
                new_game(name, players, None, SeededSource(count))
            assert err.value.code == "bad_players"


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_the_card_game_is_the_one_on_its_own_engine(name):
    game = game_info(name)
    state = new_game(name, COLOURS[:game.player_limits[0]], None, SeededSource(1)).state
    assert is_strike(state) == game.card_game
    assert (name in PLANNED) == game.card_game


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_only_classic_has_no_rules_of_its_own(name):
    plain = not game_info(name).card_game and get_variant(name) is CLASSIC
    assert game_info(name).own_rules != plain


def test_a_bot_game_takes_four_seats_where_it_may():
    assert {n: g.default_players for n, g in GAMES.items()} == {
        "classic": 4, "mission": 4, "capital": 4, "two-player": 2, "allied": 2, "strike": 4}
