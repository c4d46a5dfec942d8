"""Strike commands: dict round trip, malformed dicts refused, every error code listed."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from pi_app.rules.commands import Command
from pi_app.rules.strike import (
    COMMAND_TYPES,
    STRIKE_ERROR_CODES,
    CloseWindow,
    DeclareAttack,
    Deploy,
    Draw,
    PlayBombard,
    PlayCancelOrders,
    PlaySpy,
    RuleError,
    command_from_dict,
)
from pi_app.rules.strike import commands as strike_commands

from .builders import make_state, refused

EXAMPLES = [
    Draw("red", 1, 1), DeclareAttack("red", "blue", "asia", "europe"), Deploy("red", 2),
    Deploy("green", 1, "defender"), CloseWindow(), CloseWindow(window=3), PlaySpy("red", "blue"),
    PlayCancelOrders("blue", 3), PlayBombard("red", 0), PlayBombard("red"),
]


@pytest.mark.parametrize("command", EXAMPLES, ids=lambda c: c.type)
def test_commands_round_trip_through_their_dict_form(command):
    assert command_from_dict(command.to_dict()) == command


def test_every_command_type_is_prefixed_and_a_board_command_subclass():
    for name, cls in COMMAND_TYPES.items():
        assert name.startswith("strike_") and issubclass(cls, Command)


def test_the_table_closes_windows_under_its_own_name():
    assert command_from_dict({"type": "strike_close_window"}) == CloseWindow("table")


@pytest.mark.parametrize(("data", "fragment"), [
    ([], "must be an object"),
    ({"type": "attack", "player": "red"}, "unknown command type"),
    ({"type": "strike_draw", "player": "red", "continents": 2}, "missing field 'tactics'"),
    ({"type": "strike_roll", "player": "red", "dice": 3}, "no field 'dice'"),
    ({"type": "strike_deploy", "player": "red", "count": "2"}, "bad value"),
    ({"type": "strike_deploy", "player": "red", "count": True}, "bad value"),
    ({"type": "strike_deploy", "player": "red", "count": 1, "side": 3}, "bad value"),
    ({"type": "strike_pass", "player": None}, "bad value"),
    ({"type": "strike_close_window", "window": "1"}, "bad value"),
])
def test_malformed_command_dicts_are_refused_with_a_reason(data, fragment):
    with pytest.raises(RuleError) as err:
        command_from_dict(data)
    assert err.value.code == "bad_command" and fragment in err.value.message


def test_a_board_game_command_is_not_a_strike_command():
    from pi_app.rules import EndTurn
    refused(make_state(["red", "blue"]), EndTurn("red"), "bad_command")


def test_an_unknown_player_is_refused():
    refused(make_state(["red", "blue"]), Draw("pink", 1, 1), "unknown_player")


def test_every_error_code_the_engine_raises_is_documented_and_tested():
    package = Path(strike_commands.__file__).parent
    source = "\n".join(p.read_text("utf-8") for p in package.glob("*.py"))
    raised = set(re.findall(r'RuleError\(\s*"([a-z_]+)"', source))
    assert raised == set(STRIKE_ERROR_CODES)
    tests = "\n".join(p.read_text("utf-8") for p in Path(__file__).parent.glob("test_*.py"))
    untested = [code for code in STRIKE_ERROR_CODES if f'"{code}"' not in tests]
    assert untested == []


def test_strike_doctests_pass():
    import importlib
    import pkgutil

    import pi_app.rules.strike as strike
    failures = doctest.testmod(strike).failed
    for info in pkgutil.iter_modules(strike.__path__, "pi_app.rules.strike."):
        failures += doctest.testmod(importlib.import_module(info.name)).failed
    assert failures == 0
