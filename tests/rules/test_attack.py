"""Attack (docs/RULES.md §2.6): limits, defence dice, conquest move-in, blitz, elimination, win."""

from __future__ import annotations

import pytest

from pi_app.rules import (
    Attack,
    Blitz,
    ChooseDefence,
    EndTurn,
    HouseRules,
    MoveIn,
    Place,
    TradeCards,
    apply,
)
from pi_app.rules.state import ATTACK, GAME_OVER

from .builders import BOARD, dice, no_chance, position, refused

FAST = HouseRules(defender_chooses_dice=False)


# red owns ukraine (5); blue owns ural (3); scandinavia red; middle-east blue
def front(**territories):
    cells = {"ukraine": ["red", 5], "ural": ["blue", 3], "scandinavia": ["red", 1],
             "middle-east": ["blue", 2], "afghanistan": ["green", 2]}
    cells.update(territories)
    return cells


@pytest.mark.parametrize(("command", "code"), [
    (Attack("red", "ukraine", "japan", 1), "not_adjacent"),
    (Attack("red", "ukraine", "scandinavia", 1), "own_territory"),
    (Attack("red", "scandinavia", "iceland", 1), "too_few_armies"),
    (Attack("red", "ural", "ukraine", 1), "not_your_territory"),
    (Attack("red", "ukraine", "atlantis", 1), "unknown_territory"),
    (Attack("red", "ukraine", "ural", 4), "bad_dice"),
    (Attack("red", "ukraine", "ural", 0), "bad_dice"),
    (Attack("blue", "ural", "ukraine", 1), "not_your_turn"),
    (Attack("purple", "ural", "ukraine", 1), "unknown_player"),
    (ChooseDefence("red", 1), "nothing_pending"),
    (MoveIn("red", 1), "nothing_pending"),
])
def test_illegal_attacks_are_refused_with_a_stable_code(command, code):
    state = position(territories=front(iceland=["blue", 1]))
    refused(state, command, code)


def test_attack_dice_are_limited_by_armies_minus_one():
    state = position(territories=front(ukraine=["red", 3]), house_rules=FAST)
    refused(state, Attack("red", "ukraine", "ural", 3), "bad_dice")
    apply(state, Attack("red", "ukraine", "ural", 2), dice((6, 6), (1, 1)))
    assert state.armies["ural"] == 1


def test_defender_chooses_dice_when_the_house_rule_is_on():
    state = position(territories=front())
    outcome = apply(state, Attack("red", "ukraine", "ural", 3), no_chance())
    assert state.pending == {"kind": "defend", "player": "blue", "attacker": "red",
                             "from": "ukraine", "to": "ural", "attack_dice": 3, "max_dice": 2}
    assert [e.type for e in outcome.events] == ["attack_declared"]
    refused(state, ChooseDefence("red", 1), "not_your_turn")
    refused(state, EndTurn("red"), "not_your_turn")
    refused(state, ChooseDefence("blue", 3), "bad_dice")
    refused(state, Place("blue", "ural", 1), "awaiting_decision")
    outcome = apply(state, ChooseDefence("blue", 1), dice((4, 3, 6), (5,)))
    battle = outcome.events[0].to_dict()
    assert battle == {"type": "battle", "attacker": "red", "defender": "blue",
                      "from": "ukraine", "to": "ural", "attack_dice": [4, 3, 6],
                      "defence_dice": [5], "attacker_losses": 0, "defender_losses": 1}
    assert state.pending is None and state.armies["ural"] == 2


def test_a_single_defending_army_needs_no_defence_choice():
    state = position(territories=front(ural=["blue", 1], ukraine=["red", 2]))
    apply(state, Attack("red", "ukraine", "ural", 1), dice((2,), (5,)))
    assert state.pending is None and state.armies["ukraine"] == 1


def test_seed_004_roll_through_the_engine_each_side_loses_one():
    state = position(territories=front(), house_rules=FAST)
    apply(state, Attack("red", "ukraine", "ural", 3), dice((4, 3, 6), (5, 4)))
    assert state.armies["ukraine"] == 4 and state.armies["ural"] == 2


def test_conquest_waits_for_move_in_of_at_least_the_dice_rolled():
    state = position(territories=front(ural=["blue", 1], ukraine=["red", 6]))
    outcome = apply(state, Attack("red", "ukraine", "ural", 2), dice((6, 5), (1,)))
    assert state.owner["ural"] == "red"
    # the minimum (2 dice rolled) is already in, so no territory is ever empty
    assert (state.armies["ukraine"], state.armies["ural"]) == (4, 2)
    assert state.pending["kind"] == "move_in"
    assert (state.pending["min"], state.pending["max"]) == (2, 5)
    assert "conquered" in [e.type for e in outcome.events]
    refused(state, MoveIn("red", 1), "bad_count")
    refused(state, MoveIn("red", 6), "bad_count")
    refused(state, Attack("red", "ukraine", "middle-east", 1), "awaiting_decision")
    apply(state, MoveIn("red", 4), no_chance())
    assert (state.armies["ukraine"], state.armies["ural"]) == (2, 4)
    assert state.pending is None and state.conquered_this_turn


def test_move_in_with_only_one_choice_happens_at_once():
    state = position(territories=front(ural=["blue", 1], ukraine=["red", 4]))
    apply(state, Attack("red", "ukraine", "ural", 3), dice((6, 5, 4), (1,)))
    assert state.pending is None
    assert (state.armies["ukraine"], state.armies["ural"]) == (1, 3)


def test_blitz_rolls_maximum_dice_until_the_territory_falls_recording_each_roll():
    state = position(territories=front(ukraine=["red", 10], ural=["blue", 4]))
    rolls = dice((6, 6, 1), (5, 5), (1, 1, 1), (6, 6), (6, 6, 6), (1, 1))
    outcome = apply(state, Blitz("red", "ukraine", "ural", 1), rolls)
    battles = [e.to_dict() for e in outcome.events if e.type == "battle"]
    assert [b["attack_dice"] for b in battles] == [[6, 6, 1], [1, 1, 1], [6, 6, 6]]
    assert [b["defence_dice"] for b in battles] == [[5, 5], [6, 6], [1, 1]]
    assert state.owner["ural"] == "red"
    assert state.pending["min"] == 3 and state.pending["max"] == 10 - 2 - 1


def test_blitz_stops_at_the_stop_level():
    state = position(territories=front(ukraine=["red", 6], ural=["blue", 9]))
    outcome = apply(state, Blitz("red", "ukraine", "ural", 3),
                    dice((1, 1, 1), (6, 6), (1, 1, 1), (6, 6)))
    assert state.armies["ukraine"] == 2 and state.owner["ural"] == "blue"
    assert outcome.events[-1].type == "blitz_stopped"


def test_blitz_uses_fewer_dice_as_armies_fall():
    state = position(territories=front(ukraine=["red", 3], ural=["blue", 1]))
    apply(state, Blitz("red", "ukraine", "ural", 1), dice((1, 1), (6,), (6,), (1,)))
    assert state.owner["ural"] == "red" and state.armies["ural"] == 1


@pytest.mark.parametrize(("stop_at", "code"), [(0, "bad_stop_at"), (5, "too_few_armies")])
def test_bad_blitz_stop_levels_are_refused(stop_at, code):
    state = position(territories=front())
    refused(state, Blitz("red", "ukraine", "ural", stop_at), code)


def test_blitz_is_refused_when_the_table_types_physical_dice():
    state = position(territories=front(), house_rules=HouseRules(physical_dice=True))
    refused(state, Blitz("red", "ukraine", "ural", 1), "blitz_needs_electronic_dice")


def lone_blue(hand_blue, hand_red=(), **kw):
    """Blue holds only ural (1 army); red attacks it from ukraine."""
    state = position(territories=front(), hands={"blue": list(hand_blue),
                                                                 "red": list(hand_red)}, **kw)
    for t in BOARD.territories:
        if state.owner[t] == "blue" and t != "ural":
            state.owner[t] = "green"
    state.armies["ural"] = 1
    return state


def test_eliminating_a_player_takes_their_cards():
    state = lone_blue(["peru", "greenland"], ["iceland"])
    outcome = apply(state, Attack("red", "ukraine", "ural", 3), dice((6, 1, 1), (2,)))
    types = [e.type for e in outcome.events]
    assert "eliminated" in types and "cards_taken" in types
    assert state.eliminated == ["blue"]
    assert sorted(state.hands["red"]) == ["greenland", "iceland", "peru"]
    assert state.hands["blue"] == []
    apply(state, MoveIn("red", 3), no_chance())
    assert state.pending is None and state.phase == ATTACK  # fewer than 6 cards: no trade


def test_six_cards_after_elimination_must_be_traded_down_to_four_then_placed():
    state = lone_blue(["peru", "greenland", "brazil"], ["alberta", "iceland", "wild-1"])
    apply(state, Attack("red", "ukraine", "ural", 3), dice((6, 1, 1), (2,)))
    apply(state, MoveIn("red", 3), no_chance())
    assert state.pending == {"kind": "trade_down", "player": "red", "limit": 4}
    refused(state, Place("red", "ukraine", 1), "must_trade_cards")
    refused(state, Attack("red", "ukraine", "middle-east", 1), "awaiting_decision")
    apply(state, TradeCards("red", ("peru", "greenland", "brazil")), no_chance())
    assert len(state.hands["red"]) == 3
    refused(state, TradeCards("red", ("alberta", "iceland", "wild-1")), "trade_not_needed")
    assert state.reserves["red"] == 4
    apply(state, Place("red", "ural", 4), no_chance())
    assert state.pending is None and state.phase == ATTACK


@pytest.mark.parametrize(("hand_red", "forced"), [
    (["alberta", "iceland"], False),  # 5 cards after the takeover: wait for the next turn
    (["alberta", "iceland", "wild-1"], True),  # 6: trade down at once (docs/RULES.md §2.5)
])
def test_only_six_or_more_cards_after_an_elimination_force_a_trade_down(hand_red, forced):
    state = lone_blue(["peru", "greenland", "brazil"], hand_red)
    apply(state, Attack("red", "ukraine", "ural", 3), dice((6, 1, 1), (2,)))
    apply(state, MoveIn("red", 3), no_chance())
    assert len(state.hands["red"]) == len(hand_red) + 3
    if forced:
        assert state.pending == {"kind": "trade_down", "player": "red", "limit": 4}
    else:
        assert state.pending is None and state.phase == ATTACK
        apply(state, Attack("red", "ukraine", "middle-east", 1), dice((6,), (1,)))


def test_conquering_the_last_opponent_wins_the_game():
    state = position(players=["red", "blue", "green"], territories=front())
    for t in BOARD.territories:
        state.owner[t] = "red"
        state.armies[t] = 1
    state.owner["ural"], state.armies["ural"] = "blue", 1
    state.armies["ukraine"] = 5
    state.eliminated = ["green"]
    outcome = apply(state, Attack("red", "ukraine", "ural", 3), dice((6, 1, 1), (2,)))
    assert state.winner == "red" and state.phase == GAME_OVER
    assert outcome.events[-1].to_dict() == {"type": "game_won", "winner": "red"}
    assert state.armies["ural"] >= 1
    refused(state, EndTurn("red"), "game_over")


def test_blitz_rolls_the_most_defence_dice_even_when_the_defender_may_choose():
    # Decision (engine docstring): a Blitz never asks the defender; it rolls the maximum.
    state = position(territories=front(ural=["blue", 2]),
                     house_rules=HouseRules(defender_chooses_dice=True))
    outcome = apply(state, Blitz("red", "ukraine", "ural", 1), dice((6, 6, 1), (5, 5)))
    battle = next(e.to_dict() for e in outcome.events if e.type == "battle")
    assert battle["defence_dice"] == [5, 5] and state.owner["ural"] == "red"
