"""Runs the declarative Strike cases in `conformance/strike.json` (position, commands, result)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_app.rules.strike import RuleError, apply, command_from_dict, waiting_for

from .builders import ScriptedDice, at_battle, kinds, make_state

CASES = json.loads((Path(__file__).parent / "conformance" / "strike.json")
                   .read_text(encoding="utf-8"))["cases"]


def build(given: dict):
    state = make_state(given["players"], tables=given.get("tables"), hands=given.get("hands"),
                       coins=given.get("coins"))
    battle = given.get("battle")
    if battle is not None:
        at_battle(state, battle["defender"], battle["attack"], battle["defence"],
                  battle.get("attacker_troops", 0), battle.get("defender_troops", 0),
                  until=battle.get("until", "ready"))
    return state


def snapshot(state, events) -> dict:
    """The names 'expect' may check."""
    battle = state.battle
    last = (battle or {}).get("last_roll") or next(
        ({"attacker": e["attack_dice"], "defender": e["defence_dice"]}
         for e in events if e.type == "battle"), {})
    return {
        "step": battle["step"] if battle else None, "battle": battle,
        "waiting_for": waiting_for(state), "current_player": state.current_player,
        "phase": state.phase, "winner": state.winner,
        "coins": {c: h for c, h in state.coins.items() if h is not None},
        "tables_kinds": {p: kinds(cards) for p, cards in state.tables.items()},
        "surrendered_kinds": kinds(state.surrendered), "discard_kinds": kinds(state.discard),
        "hand_counts": {p: len(h) for p, h in state.hands.items()},
        "attack_dice": last.get("attacker"), "defence_dice": last.get("defender"),
    }


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_conformance_case(case):
    state = build(case["given"])
    rng = ScriptedDice(*case.get("dice", []))
    commands = [command_from_dict(c) for c in case["commands"]]
    for command in commands[:-1]:
        apply(state, command, rng)
    expect = case["expect"]
    if "error" in expect:
        before = state.to_dict()
        with pytest.raises(RuleError) as err:
            apply(state, commands[-1], rng)
        assert err.value.code == expect["error"], err.value.message
        assert state.to_dict() == before
        return
    events = apply(state, commands[-1], rng).events
    assert rng.rolls == [], "the case scripted more dice than were rolled"
    seen = snapshot(state, events)
    for key, value in expect.items():
        if key == "events":
            types = [e.type for e in events]
            positions = [types.index(t) for t in value]
            assert positions == sorted(positions), types
        elif key == "tables_kinds":
            for player, cards in value.items():
                assert seen[key][player] == cards, (player, seen[key])
        else:
            assert seen[key] == value, (key, seen[key])
