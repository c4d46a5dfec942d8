"""The fixture node's tests render (tests/js/awaited.json, issue 32.7) is what
`pi_app.table.awaiting` says now: a change to the table's sentences that was not carried into
it fails here, with the command that makes it again."""

from __future__ import annotations

import json

from .awaited_cases import FIXTURE, fixture_text


def test_the_awaited_fixture_is_what_the_table_says_now():
    made = fixture_text()
    assert FIXTURE.read_text("utf-8") == made, (
        "tests/js/awaited.json is stale: `.venv/bin/python -m tests.table.awaited_cases`")


def test_the_fixture_holds_every_variants_decisions_and_the_tables_own_states():
    cases = json.loads(FIXTURE.read_text("utf-8"))
    names = [c["case"] for c in cases]
    for variant in ("classic", "mission", "capital", "two-player", "allied", "strike"):
        assert sum(n.startswith(f"{variant} ") for n in names) >= 5, variant
        assert f"{variant} won" in names
    steps = {view["step"] for c in cases for view in c["views"].values()}
    assert {"claim", "setup_place", "reinforce", "attack", "fortify", "defend", "move_in",
            "hq_pick", "place_third", "allied_place", "allied_attack", "computer_step",
            "trade_down", "ended", "draw", "ready"} <= steps
    decided = [v for c in cases for v in c["views"].values() if v.get("decide")]
    assert {v["decide"]["ask"]["key"] for v in decided} >= {"ask.defend", "ask.move_in"}
