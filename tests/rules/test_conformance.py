"""Runs the declarative rule cases in `conformance/<variant>.json` (a position, a command, the
expected result). `given.variant_data` is merged into the variant's own setup data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_app.rules import HouseRules, RuleError, apply, command_from_dict

from .builders import dice, position

CASE_DIR = Path(__file__).parent / "conformance"
CASES = [(path.stem, case) for path in sorted(CASE_DIR.glob("*.json"))
         for case in json.loads(path.read_text(encoding="utf-8"))["cases"]]


@pytest.mark.parametrize(("variant", "case"), CASES,
                         ids=[f"{v}: {c['name']}" for v, c in CASES])
def test_conformance_case(variant, case):
    given = dict(case["given"])
    rules = HouseRules.from_dict(given.pop("house_rules", None))
    variant_data = given.pop("variant_data", {})
    state = position(house_rules=rules, variant=variant, **given)
    state.variant_data.update(variant_data)
    assert state.variant == variant
    command = command_from_dict(case["command"])
    rng = dice(*case.get("dice", []))
    expect = case["expect"]
    if "error" in expect:
        before = state.to_dict()
        with pytest.raises(RuleError) as err:
            apply(state, command, rng)
        assert err.value.code == expect["error"]
        assert state.to_dict() == before
        return
    outcome = apply(state, command, rng)
    assert rng.exhausted, "the case scripted more dice than the command rolled"
    snapshot = outcome.state.to_dict()
    for key, value in expect.items():
        if key == "events":
            assert [e.type for e in outcome.events] == value
        elif isinstance(value, dict) and key in ("armies", "owner", "reserves", "hands"):
            assert {k: snapshot[key][k] for k in value} == value, key
        else:
            assert snapshot[key] == value, key
