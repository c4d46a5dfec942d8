"""State, commands, events and house rules serialise to JSON and back losslessly."""

from __future__ import annotations

import json

import pytest

from pi_app.dice import SeededSource
from pi_app.rules import (
    Attack,
    Blitz,
    ChooseDefence,
    Claim,
    EndAttack,
    EndTurn,
    Fortify,
    GameState,
    HouseRules,
    MoveIn,
    Place,
    RuleError,
    TradeCards,
    apply,
    command_from_dict,
    new_game,
)

from .builders import dice, position

ALL_COMMANDS = [
    Claim("red", "alaska"), Place("red", "alaska", 3), TradeCards("red", ("a", "b", "c")),
    Attack("red", "ukraine", "ural", 3), ChooseDefence("blue", 2),
    Blitz("red", "ukraine", "ural", 2), MoveIn("red", 4), EndAttack("red"),
    Fortify("red", "alaska", "alberta", 2), EndTurn("red"),
]


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=lambda c: c.type)
def test_every_command_round_trips_through_json(command):
    data = json.loads(json.dumps(command.to_dict()))
    assert data["type"] == command.type and data["player"] == command.player
    assert command_from_dict(data) == command


@pytest.mark.parametrize(("data", "fragment"), [
    ({"type": "teleport", "player": "red"}, "unknown command type"),
    ({"player": "red"}, "unknown command type"),
    ({"type": "attack", "player": "red", "source": "a", "target": "b"}, "missing field 'dice'"),
    ({"type": "end_turn", "player": "red", "extra": 1}, "no field 'extra'"),
    ({"type": "place", "player": "red", "territory": "a", "count": "2"}, "bad value"),
    ({"type": "place", "player": "red", "territory": "a", "count": True}, "bad value"),
    ({"type": "trade_cards", "player": "red", "cards": "abc"}, "bad value"),
    ("place", "must be an object"),
])
def test_bad_command_dicts_are_refused_naming_the_problem(data, fragment):
    with pytest.raises(RuleError) as err:
        command_from_dict(data)
    assert err.value.code == "bad_command"
    assert fragment in err.value.message


def test_optional_fields_take_their_defaults():
    assert command_from_dict({"type": "place", "player": "red", "territory": "x"}).count == 1


def test_state_round_trips_through_json_and_copy_is_independent():
    state = position(territories={"ukraine": ["red", 5], "ural": ["blue", 2]},
                     hands={"red": ["peru"]})
    apply(state, Attack("red", "ukraine", "ural", 3), dice())  # now pending defence
    text = json.dumps(state.to_dict())
    again = GameState.from_dict(json.loads(text))
    assert again.to_dict() == state.to_dict()
    assert list(again.to_dict()) == list(state.to_dict())  # stable key order
    twin = state.copy()
    twin.armies["ukraine"] = 99
    twin.hands["red"].append("iceland")
    twin.pending["attack_dice"] = 1
    assert state.armies["ukraine"] == 5 and state.hands["red"] == ["peru"]
    assert state.pending["attack_dice"] == 3


def test_fresh_game_round_trips():
    state = new_game("classic", ["red", "blue", "green", "yellow"], HouseRules(setup="deal"),
                     SeededSource(9)).state
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_events_are_json_ready():
    state = position(territories={"ukraine": ["red", 9], "ural": ["blue", 2]})
    outcome = apply(state, Blitz("red", "ukraine", "ural", 1), dice((6, 6, 6), (1, 1)))
    for event in outcome.events:
        data = event.to_dict()
        assert json.loads(json.dumps(data)) == data


def test_house_rules_defaults_follow_the_rule_book():
    rules = HouseRules()
    assert rules.to_dict() == {
        "physical_dice": False, "defender_chooses_dice": True, "fortify": "connected",
        "territory_bonus_once_per_turn": True, "setup": "default", "mission_deck": "us12",
        "capital_short_game": False, "two_player_placement": [2, 1], "allied_initial": "even",
        "setup_armies_per_turn": 1}
    assert HouseRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


@pytest.mark.parametrize(("data", "fragment"), [
    ({"fortify": "anywhere"}, "house_rules.fortify must be one of connected, adjacent"),
    ({"physical_dice": "yes"}, "house_rules.physical_dice must be true or false"),
    ({"dice_colour": "red"}, "unknown house rule 'dice_colour'"),
    ({"two_player_placement": [0, 1]}, "two_player_placement"),
    ({"setup": "random"}, "house_rules.setup must be one of"),
])
def test_bad_house_rules_are_refused_naming_the_option(data, fragment):
    with pytest.raises(RuleError) as err:
        HouseRules.from_dict(data)
    assert err.value.code == "bad_house_rules"
    assert fragment in err.value.message
