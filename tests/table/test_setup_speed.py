"""Setup at table speed: the house rule of several starting armies per setup turn (off by
default: one at a time, docs/RULES.md 2.2), and what Confirm does in setup."""

from __future__ import annotations

import pytest

from pi_app.rules import HouseRules, Place, RuleError
from pi_app.table.gestures import Press, Touch

from .boardplay import BoardPlay
from .positions import dealt_game


def test_by_default_each_touch_places_one_and_the_turn_passes_and_confirm_says_why_not():
    play = BoardPlay(dealt_game())
    first = play.state.current_player
    mine = play.state.territories_of(first)[0]
    assert play.do(Touch(mine)).command == Place(first, mine, 1)
    assert play.state.current_player != first
    refusal = play.do(Press("confirm")).refusal
    assert refusal.code == "touch_to_place" and "house rule" in refusal.message


def test_with_the_house_rule_the_turn_passes_after_that_many_armies():
    play = BoardPlay(dealt_game(setup_armies_per_turn=3))
    first = play.state.current_player
    mine = play.state.territories_of(first)[0]
    for placed in range(1, 4):
        play.do(Touch(mine))
        assert play.state.current_player == (first if placed < 3 else play.state.current_player)
    assert play.state.current_player != first
    assert play.state.armies[mine] == 4


def test_with_the_house_rule_confirm_puts_the_rest_of_the_turn_on_the_last_touched():
    play = BoardPlay(dealt_game(setup_armies_per_turn=5))
    first = play.state.current_player
    reserve = play.state.reserves[first]
    mine = play.state.territories_of(first)[0]
    play.do(Touch(mine))  # 1 of 5
    assert play.do(Press("confirm")).command == Place(first, mine, 4)
    assert play.state.armies[mine] == 6 and play.state.reserves[first] == reserve - 5
    assert play.state.current_player != first


def test_a_setup_place_over_the_turns_allowance_is_refused():
    from pi_app.dice import SeededSource
    from pi_app.rules import apply

    state = dealt_game(setup_armies_per_turn=2)
    player = state.current_player
    mine = state.territories_of(player)[0]
    with pytest.raises(RuleError) as refused:
        apply(state, Place(player, mine, 3), SeededSource(1))
    assert refused.value.code == "bad_count"


def test_the_house_rule_is_checked():
    with pytest.raises(RuleError):
        HouseRules(setup_armies_per_turn=0)
    assert HouseRules().setup_armies_per_turn == 1
