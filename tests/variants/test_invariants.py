"""Per-variant invariants that hold after every command of any game (hypothesis picks the
dice seed and the random legal moves): the neutral army never grows after setup, the Allied
Army gets exactly half the turn's reinforcements, HQ holders are the HQ territories' owners,
and a secret mission changes only through the destroyed-by-another-player fallback."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_app.dice import SeededSource
from pi_app.rules import HouseRules, apply, legal_commands, new_game, waiting_for
from pi_app.rules.variants.capital import hq_holders

from .playing import COLOURS

COMMANDS = 400
RUNS = settings(max_examples=8, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def play(variant: str, players: int, seed: int, rules: HouseRules | None = None,
         snapshot: bool = False):
    """Yield (state before: its dict if `snapshot`, else its turn; state after, events)
    for random legal commands."""
    rng, chooser = SeededSource(seed), random.Random(seed)
    outcome = new_game(variant, COLOURS[:players], rules or HouseRules(), rng)
    state = outcome.state
    yield None, state, outcome.events
    for _ in range(COMMANDS):
        if state.winner is not None:
            return
        player = waiting_for(state)
        options = legal_commands(state, player)
        before = state.to_dict() if snapshot else state.turn
        outcome = apply(state, chooser.choice(options), rng)
        state = outcome.state
        yield before, state, outcome.events


def army_total(state: Any, army: str) -> int:
    return sum(a for t, a in state.armies.items() if state.owner[t] == army)


@pytest.mark.slow
@RUNS
@given(seed=st.integers(0, 10**6))
def test_neutral_armies_never_grow_after_setup(seed):
    previous = None
    for turn_before, state, _events in play("two-player", 2, seed):
        total = army_total(state, "neutral")
        if previous is not None and turn_before >= 1:  # the command began after setup
            assert total <= previous, f"neutral grew from {previous} to {total}"
        previous = total


@RUNS
@given(seed=st.integers(0, 10**6))
def test_the_allied_army_gets_half_the_turn_reinforcements_rounded_down(seed):
    checked = 0
    for _before, _state, events in play("allied", 2, seed):
        started = [e.data for e in events if e.type == "turn_started"]
        reinforced = [e.data for e in events if e.type == "allied_reinforced"]
        for turn, gained in zip(started, reinforced, strict=False):
            assert gained["armies"] == turn["reinforcements"] // 2
            assert gained["turn_of"] == turn["player"]
            checked += 1
    assert checked > 0


@pytest.mark.slow
@RUNS
@given(seed=st.integers(0, 10**6))
def test_hq_holders_are_always_the_owners_of_the_hq_territories(seed):
    for _before, state, _events in play("capital", 3, seed):
        if state.hq_revealed:
            assert state.variant_data["hq_holders"] == hq_holders(state)


@pytest.mark.slow
@RUNS
@given(seed=st.integers(0, 10**6), deck=st.sampled_from(["us12", "euro14"]))
def test_a_mission_objective_changes_only_by_the_destroyed_by_other_fallback(seed, deck):
    rules = HouseRules(mission_deck=deck)
    for before, state, events in play("mission", 4, seed, rules, snapshot=True):
        if before is None:
            continue
        changed = {e.data["player"] for e in events if e.type == "mission_changed"}
        for player, mission in state.missions.items():
            old = before["missions"][player]
            if mission["objective"] != old["objective"]:
                assert deck == "euro14" and player in changed
                assert mission["fallback"] == "destroyed_by_other"
                assert old["objective"]["kind"] == "destroy"
                assert mission["objective"] == {"kind": "occupy", "territories": 24,
                                                "min_armies": 1}
