"""Reinforcement (docs/RULES.md §2.4) and card sets (§2.5): counts, trades, bonus, forced trade."""

from __future__ import annotations

import pytest

from pi_app.rules import (
    Attack,
    EndTurn,
    HouseRules,
    Place,
    RuleError,
    TradeCards,
    apply,
    reinforcements_for,
)
from pi_app.rules.state import ATTACK, REINFORCE

from .builders import BOARD, no_chance, position

# One territory of every continent stays with blue, so red can own up to 36 without a bonus.
KEEP_OUT = ["alaska", "venezuela", "iceland", "egypt", "japan", "new-guinea"]


def red_owns(count: int):
    state = position()
    candidates = [t for t in BOARD.territories if t not in KEEP_OUT]
    for t in BOARD.territories:
        state.owner[t] = "blue"
    for t in candidates[:count]:
        state.owner[t] = "red"
    return state


@pytest.mark.parametrize(("owned", "armies"), [
    (1, 3), (9, 3), (11, 3), (12, 4), (14, 4), (15, 5), (17, 5), (18, 6), (20, 6), (21, 7),
    (26, 8), (29, 9), (30, 10), (33, 11), (36, 12)])
def test_reinforcement_is_territories_divided_by_three_at_least_three(owned, armies):
    # the table of 004_… (11 -> 3, 12-14 -> 4, ...) and 003_… (at least 3)
    assert reinforcements_for(red_owns(owned), "red") == armies


def test_continent_bonuses_are_added_for_every_whole_continent():
    state = position()
    for t in BOARD.territories:
        state.owner[t] = "red"
    for t in ("alaska", "venezuela", "iceland"):
        state.owner[t] = "blue"
    # 39 territories -> 13 (004_… table: 39-41 -> 13) + Africa 3 + Asia 7 + Australia 2
    assert reinforcements_for(state, "red") == 13 + 3 + 7 + 2


def test_whole_australia_adds_two():
    state = red_owns(3)
    for t in BOARD.members["australia"]:
        state.owner[t] = "red"
    assert reinforcements_for(state, "red") == 3 + 2


def test_the_next_player_receives_reinforcements_when_their_turn_starts():
    state = position(phase=ATTACK)
    expected = reinforcements_for(state, "blue")
    outcome = apply(state, EndTurn("red"), no_chance())
    assert state.current_player == "blue" and state.phase == REINFORCE
    assert state.reserves["blue"] == expected
    started = [e.to_dict() for e in outcome.events if e.type == "turn_started"]
    assert started == [{"type": "turn_started", "player": "blue", "turn": 2,
                        "reinforcements": expected, "must_trade": False}]


def reinforcing(hand, reserves=4, **kw):
    return position(phase=REINFORCE, hands={"red": hand}, reserves={"red": reserves}, **kw)


# symbols (cards.json): alaska, venezuela, peru, iceland infantry; greenland, alberta cavalry;
# northwest-territory, brazil artillery. Red owns alaska and venezuela in `position()`.
def test_three_of_a_kind_trades_for_four_and_the_owned_pictured_territory_gets_two():
    state = reinforcing(["alaska", "venezuela", "peru"])
    before = state.armies["alaska"]
    outcome = apply(state, TradeCards("red", ("alaska", "venezuela", "peru")), no_chance())
    assert state.reserves["red"] == 4 + 4
    assert state.trade_count == 1
    assert state.hands["red"] == []
    assert state.discard[-3:] == ["alaska", "venezuela", "peru"]
    assert state.armies["alaska"] == before + 2  # first owned pictured territory only
    assert state.armies["venezuela"] == 1
    assert [e.type for e in outcome.events] == ["cards_traded", "territory_bonus"]


def test_one_of_each_symbol_is_a_set():
    state = reinforcing(["peru", "greenland", "brazil"])
    apply(state, TradeCards("red", ("peru", "greenland", "brazil")), no_chance())
    assert state.reserves["red"] == 8


def test_any_two_cards_with_a_wild_is_a_set():
    state = reinforcing(["wild-2", "peru", "greenland"])
    apply(state, TradeCards("red", ("wild-2", "peru", "greenland")), no_chance())
    assert state.reserves["red"] == 8


def test_territory_bonus_only_once_per_turn_by_default():
    hand = ["alaska", "venezuela", "peru", "iceland", "alberta", "wild-1"]
    state = reinforcing(hand)
    apply(state, TradeCards("red", ("alaska", "peru", "iceland")), no_chance())
    outcome = apply(state, TradeCards("red", ("venezuela", "alberta", "wild-1")), no_chance())
    assert "territory_bonus" not in [e.type for e in outcome.events]
    assert state.armies["venezuela"] == 1


def test_territory_bonus_every_set_when_the_house_rule_is_off():
    hand = ["alaska", "venezuela", "peru", "iceland", "alberta", "wild-1"]
    state = reinforcing(hand, house_rules=HouseRules(territory_bonus_once_per_turn=False))
    apply(state, TradeCards("red", ("alaska", "peru", "iceland")), no_chance())
    apply(state, TradeCards("red", ("venezuela", "alberta", "wild-1")), no_chance())
    assert state.armies["venezuela"] == 3


@pytest.mark.parametrize(("count", "value"), [(0, 4), (1, 6), (2, 8), (3, 10), (4, 12),
                                               (5, 15), (6, 20), (7, 25), (10, 40)])
def test_trade_value_follows_the_table_wide_counter(count, value):
    state = reinforcing(["peru", "greenland", "brazil"], trade_count=count)
    apply(state, TradeCards("red", ("peru", "greenland", "brazil")), no_chance())
    assert state.reserves["red"] == 4 + value
    assert state.trade_count == count + 1


@pytest.mark.parametrize(("cards", "code"), [
    (("peru", "greenland", "iceland"), "not_a_set"),
    (("peru", "greenland"), "not_a_set"),
    (("peru", "peru", "greenland"), "duplicate_cards"),
    (("peru", "greenland", "japan"), "card_not_in_hand"),
])
def test_bad_trades_are_refused_and_change_nothing(cards, code):
    state = reinforcing(["peru", "greenland", "iceland", "wild-1"])
    before = state.to_dict()
    with pytest.raises(RuleError) as err:
        apply(state, TradeCards("red", cards), no_chance())
    assert err.value.code == code
    assert state.to_dict() == before


def test_five_cards_at_turn_start_must_be_traded_before_placing():
    state = reinforcing(["alaska", "venezuela", "peru", "greenland", "brazil"])
    with pytest.raises(RuleError) as err:
        apply(state, Place("red", "alaska", 1), no_chance())
    assert err.value.code == "must_trade_cards"
    apply(state, TradeCards("red", ("peru", "greenland", "brazil")), no_chance())
    apply(state, Place("red", "alaska", 1), no_chance())
    assert state.reserves["red"] == 4 + 4 - 1


def test_cards_cannot_be_traded_while_attacking():
    state = position(phase=ATTACK, hands={"red": ["peru", "greenland", "brazil"]})
    with pytest.raises(RuleError) as err:
        apply(state, TradeCards("red", ("peru", "greenland", "brazil")), no_chance())
    assert err.value.code == "wrong_phase"


def test_placing_the_last_reinforcement_starts_the_attack_phase():
    state = reinforcing([], reserves=5)
    apply(state, Place("red", "alaska", 2), no_chance())
    assert state.phase == REINFORCE and state.reserves["red"] == 3
    apply(state, Place("red", "alberta", 3), no_chance())
    assert state.phase == ATTACK
    assert state.armies["alaska"] == 3 and state.armies["alberta"] == 4


@pytest.mark.parametrize("count", [0, -1, 6])
def test_placing_a_bad_number_of_armies_is_refused(count):
    state = reinforcing([], reserves=5)
    with pytest.raises(RuleError) as err:
        apply(state, Place("red", "alaska", count), no_chance())
    assert err.value.code == "bad_count"


def test_attacking_before_placing_reinforcements_is_refused():
    state = reinforcing([], reserves=5, territories={"alaska": ["red", 5]})
    with pytest.raises(RuleError) as err:
        apply(state, Attack("red", "alaska", "kamchatka", 3), no_chance())
    assert err.value.code == "armies_to_place"
