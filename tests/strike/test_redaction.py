"""What each phone may see of a Strike game: own hand only, deck counts, private events."""

from __future__ import annotations

import json

from pi_app.dice import SeededSource
from pi_app.rules.strike import (
    PlaySpy,
    apply,
    new_game,
    redact_strike,
    redact_strike_event,
)

from .builders import make_state


def strings_in(value) -> set[str]:
    """Every string in a JSON-ready value (keys and leaves), for exact id comparison:
    a substring test would find "asia.1" inside "asia.12"."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value) | {s for v in value.values() for s in strings_in(v)}
    if isinstance(value, list | tuple):
        return {s for v in value for s in strings_in(v)}
    return set()


def test_a_player_sees_their_own_hand_and_only_counts_of_the_others():
    state = new_game(["red", "blue", "green"], None, SeededSource(2)).state
    view = redact_strike(state, "blue")
    assert view["my_hand"] == state.hands["blue"]
    assert view["hand_counts"] == {p: len(h) for p, h in state.hands.items()}
    seen = strings_in(json.loads(json.dumps(view)))
    hidden = {c for other in ("red", "green") for c in state.hands[other]}
    assert hidden and not hidden & seen


def test_the_spectator_sees_no_hand_and_no_deck_order():
    state = new_game(["red", "blue"], None, SeededSource(2)).state
    view = redact_strike(state, None)
    assert "my_hand" not in view and "hands" not in view
    assert view["continent_deck_count"] == len(state.continent_deck)
    assert view["tactics_deck_count"] == len(state.tactics_deck)
    seen = strings_in(json.loads(json.dumps(view)))
    assert not set(state.tactics_deck + state.continent_deck) & seen


def test_the_table_is_public_and_the_lights_follow_the_coins():
    state = make_state(["red", "blue"], tables={"red": ["asia"]}, coins={"asia": "blue"})
    view = redact_strike(state, None)
    assert view["tables"]["red"] == state.tables["red"]
    assert view["continent_colours"]["asia"] == "blue"
    assert view["waiting_for"] == ["red"]


def test_drawn_tactics_and_spied_hands_are_hidden_from_everyone_but_their_owner():
    state = make_state(["red", "blue"], hands={"red": ["spy"], "blue": ["rally"]})
    events = apply(state, PlaySpy("red", "blue"), SeededSource(0)).events
    from .builders import pass_all
    events += pass_all(state)
    spied = next(e.to_dict() for e in events if e.type == "spied")
    drawn = next(e.to_dict() for e in events if e.type == "tactics_drawn")
    assert redact_strike_event(spied, "red") == spied
    assert redact_strike_event(spied, "blue") == {"type": "spied", "player": "red",
                                                  "target": "blue", "count": 1}
    assert "cards" not in redact_strike_event(drawn, None)
    assert redact_strike_event(drawn, "red")["cards"] == drawn["cards"]
