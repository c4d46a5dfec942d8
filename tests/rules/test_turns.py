"""Turn flow (docs/RULES.md §2.3, §2.5, §2.7): card draw, reshuffle, fortify, passing the turn."""

from __future__ import annotations

import pytest

from pi_app.dice import ReplaySource
from pi_app.rules import (
    Attack,
    EndAttack,
    EndTurn,
    Fortify,
    HouseRules,
    MoveIn,
    Place,
    apply,
)
from pi_app.rules.state import ATTACK, FORTIFY, REINFORCE

from .builders import dice, no_chance, position, refused


def conquer_one(state):
    """Red takes ural (1 army) from ukraine (5) and moves in 3."""
    state.owner["ukraine"], state.armies["ukraine"] = "red", 5
    state.owner["ural"], state.armies["ural"] = "blue", 1
    apply(state, Attack("red", "ukraine", "ural", 3), dice((6, 1, 1), (2,)))
    apply(state, MoveIn("red", 3), no_chance())


def test_one_card_is_drawn_at_the_end_of_a_turn_with_a_conquest():
    state = position()
    conquer_one(state)
    state.owner["siberia"], state.armies["siberia"] = "blue", 1
    apply(state, Attack("red", "ural", "siberia", 2), dice((6, 6), (1,)))
    assert state.owner["siberia"] == "red"
    top = state.deck[-1]
    outcome = apply(state, EndTurn("red"), no_chance())
    assert state.hands["red"] == [top]  # one card, even after two conquests
    drawn = [e.to_dict() for e in outcome.events if e.type == "card_drawn"]
    assert drawn == [{"type": "card_drawn", "player": "red", "card": top}]


def test_no_card_without_a_conquest():
    state = position()
    apply(state, EndTurn("red"), no_chance())
    assert state.hands["red"] == []


def test_an_empty_deck_is_refilled_by_shuffling_the_discard_pile():
    state = position()
    conquer_one(state)
    state.discard = state.deck[:5]
    state.deck = []
    rng = ReplaySource([["u", 5, 0], ["u", 4, 0], ["u", 3, 0], ["u", 2, 0]])
    discard = list(state.discard)
    outcome = apply(state, EndTurn("red"), rng)
    assert rng.exhausted
    assert "deck_reshuffled" in [e.type for e in outcome.events]
    assert state.discard == []
    assert sorted(state.deck + state.hands["red"]) == sorted(discard)


def test_turn_passes_to_the_left_skipping_eliminated_players():
    state = position(players=["red", "blue", "green"])
    state.eliminated = ["blue"]
    for t, o in state.owner.items():
        if o == "blue":
            state.owner[t] = "green"
    apply(state, EndTurn("red"), no_chance())
    assert state.current_player == "green" and state.phase == REINFORCE and state.turn == 2


def test_end_attack_then_fortify_ends_the_turn():
    state = position(territories={"alaska": ["red", 5], "alberta": ["red", 1]})
    apply(state, EndAttack("red"), no_chance())
    assert state.phase == FORTIFY
    refused(state, Attack("red", "alaska", "kamchatka", 1), "wrong_phase")
    outcome = apply(state, Fortify("red", "alaska", "alberta", 4), no_chance())
    assert (state.armies["alaska"], state.armies["alberta"]) == (1, 5)
    assert state.current_player == "blue"
    assert [e.type for e in outcome.events][:2] == ["fortified", "turn_ended"]


# chain alaska - alberta - ontario, all red; western-united-states red but not adjacent to alaska
CHAIN = {"alaska": ["red", 6], "alberta": ["red", 1], "ontario": ["red", 1],
         "northwest-territory": ["blue", 1], "kamchatka": ["blue", 1]}


def test_fortify_through_a_chain_of_own_territories_by_default():
    state = position(territories=CHAIN)
    apply(state, Fortify("red", "alaska", "ontario", 2), no_chance())
    assert state.armies["ontario"] == 3


def test_fortify_adjacent_only_house_rule():
    state = position(territories=CHAIN, house_rules=HouseRules(fortify="adjacent"))
    refused(state, Fortify("red", "alaska", "ontario", 2), "not_adjacent")
    apply(state, Fortify("red", "alaska", "alberta", 2), no_chance())
    assert state.armies["alberta"] == 3


@pytest.mark.parametrize(("command", "code"), [
    (Fortify("red", "alaska", "alaska", 1), "same_territory"),
    (Fortify("red", "alaska", "kamchatka", 1), "not_your_territory"),
    (Fortify("red", "alaska", "alberta", 6), "bad_count"),
    (Fortify("red", "alaska", "alberta", 0), "bad_count"),
    (Fortify("red", "alaska", "eastern-australia", 1), "not_connected"),
])
def test_illegal_fortify_moves_are_refused(command, code):
    territories = dict(CHAIN, **{"eastern-australia": ["red", 1]})
    refused(position(territories=territories), command, code)


def test_armies_that_conquered_this_turn_may_fortify():
    state = position()
    conquer_one(state)
    apply(state, Fortify("red", "ural", "ukraine", 2), no_chance())
    assert state.armies["ural"] == 1 and state.armies["ukraine"] == 4


def test_ending_the_turn_in_reinforce_with_armies_left_is_refused():
    state = position(phase=REINFORCE, reserves={"red": 3})
    refused(state, EndTurn("red"), "armies_to_place")
    refused(state, EndAttack("red"), "armies_to_place")


def test_end_attack_outside_the_attack_phase_is_refused():
    state = position(phase=FORTIFY)
    refused(state, EndAttack("red"), "wrong_phase")
    assert position(phase=ATTACK).phase == ATTACK


def test_a_fifth_card_drawn_waits_until_the_next_turn_then_must_be_traded():
    state = position(hands={"red": ["alaska", "peru", "greenland", "brazil"]})
    conquer_one(state)
    apply(state, EndTurn("red"), no_chance())
    assert len(state.hands["red"]) == 5 and state.current_player == "blue"
    for player in ("blue", "green"):
        apply(state, Place(player, state.territories_of(player)[0],
                           state.reserves[player]), no_chance())
        outcome = apply(state, EndTurn(player), no_chance())
    started = [e.to_dict() for e in outcome.events if e.type == "turn_started"]
    assert started[0]["player"] == "red" and started[0]["must_trade"] is True
    refused(state, Place("red", "ukraine", 1), "must_trade_cards")
