"""Six players (docs/RULES.md §2.1, §3, §4): Classic, Capital and Secret Mission, a sixth colour."""

from __future__ import annotations

import pytest

from pi_app.dice import SeededSource
from pi_app.rules import HouseRules, RuleError, new_game

from .playing import COLOURS, bot_game


@pytest.mark.parametrize("variant", ["classic", "capital", "mission"])
def test_six_players_start_with_20_armies_each(variant):
    state = new_game(variant, COLOURS, HouseRules(setup="claim"), SeededSource(6)).state
    assert state.reserves == dict.fromkeys(COLOURS, 20)
    assert "pink" in state.players


def test_six_player_missions_come_from_all_twelve_cards():
    dealt = set()
    for seed in range(40):
        state = new_game("mission", COLOURS, HouseRules(), SeededSource(seed)).state
        dealt |= {m["card"] for m in state.missions.values()}
    assert "destroy-pink" in dealt and len(dealt) == 12


@pytest.mark.parametrize("variant", ["classic", "capital", "mission"])
def test_six_player_games_are_played_to_the_end(variant):
    state, _ = bot_game(variant, 6, f"six-{variant}")
    assert state.winner in COLOURS


def test_a_seventh_player_is_refused():
    with pytest.raises(RuleError) as err:
        new_game("capital", [*COLOURS, "purple"], HouseRules(), SeededSource(0))
    assert err.value.code == "bad_players"
