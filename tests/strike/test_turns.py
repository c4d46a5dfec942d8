"""A turn (docs/RULES.md §7): draw 2 in any mix, then attack or pass; empty decks reshuffle."""

from __future__ import annotations

import pytest

from pi_app.dice import SeededSource
from pi_app.rules.strike import (
    DeclareAttack,
    Draw,
    PassTurn,
    PlayExpand,
    Roll,
    apply,
)
from pi_app.rules.strike.state import CHOOSE, DRAW

from .builders import ALL_CARDS, all_cards, kinds, make_state, refused

RNG = SeededSource(0)


@pytest.mark.parametrize(("c", "t"), [(2, 0), (1, 1), (0, 2)])
def test_draw_two_cards_in_any_mix(c, t):
    state = make_state(["red", "blue"], phase=DRAW, continent_top=["asia", "europe"],
                       tactics_top=["spy", "rally"])
    apply(state, Draw("red", c, t), RNG)
    assert kinds(state.tables["red"]) == sorted(["asia", "europe"][:c])
    assert kinds(state.hands["red"]) == sorted(["spy", "rally"][:t])
    assert state.phase == CHOOSE


@pytest.mark.parametrize(("c", "t"), [(1, 0), (2, 1), (3, -1), (0, 3)])
def test_drawing_other_than_two_cards_is_refused(c, t):
    refused(make_state(["red", "blue"], phase=DRAW), Draw("red", c, t), "bad_count")


def test_drawing_twice_in_a_turn_is_refused():
    state = make_state(["red", "blue"], phase=DRAW)
    apply(state, Draw("red", 1, 1), RNG)
    refused(state, Draw("red", 1, 1), "wrong_phase")


def test_only_the_current_player_draws():
    refused(make_state(["red", "blue"], phase=DRAW), Draw("blue", 1, 1), "not_your_turn")


def test_attack_or_pass_comes_only_after_drawing():
    state = make_state(["red", "blue"], tables={"red": ["asia"], "blue": ["asia"]}, phase=DRAW)
    refused(state, PassTurn("red"), "wrong_phase")
    refused(state, DeclareAttack("red", "blue", "asia", "asia"), "wrong_phase")


def test_passing_draws_one_tactics_card_and_hands_the_turn_to_the_left():
    state = make_state(["red", "blue", "green"], tactics_top=["bombard"])
    events = apply(state, PassTurn("red"), RNG).events
    assert kinds(state.hands["red"]) == ["bombard"]
    assert state.current_player == "blue" and state.phase == DRAW and state.turn == 2
    assert [e.type for e in events][-2:] == ["turn_ended", "turn_started"]


def test_the_last_seat_passes_the_turn_back_to_the_first():
    state = make_state(["red", "blue", "green"], current="green")
    apply(state, PassTurn("green"), RNG)
    assert state.current_player == "red"


def test_an_empty_tactics_deck_is_refilled_by_shuffling_the_discard_pile():
    state = make_state(["red", "blue"], phase=DRAW)
    state.discard, state.tactics_deck = state.tactics_deck[:5], state.tactics_deck[5:]
    state.hands["blue"] += state.tactics_deck
    state.tactics_deck = []
    events = apply(state, Draw("red", 0, 2), RNG).events
    assert {"type": "deck_reshuffled", "deck": "tactics", "cards": 5} in [
        e.to_dict() for e in events]
    assert len(state.hands["red"]) == 2 and len(state.tactics_deck) == 3
    assert state.discard == [] and all_cards(state) == ALL_CARDS


def test_an_empty_continent_deck_is_refilled_from_the_surrendered_pile():
    state = make_state(["red", "blue"], phase=DRAW)
    state.surrendered = state.continent_deck[:4]
    state.tables["blue"] += state.continent_deck[4:]
    state.continent_deck = []
    events = apply(state, Draw("red", 2, 0), RNG).events
    assert any(e.type == "deck_reshuffled" and e["deck"] == "continent" for e in events)
    assert len(state.tables["red"]) == 2 and state.surrendered == []
    assert all_cards(state) == ALL_CARDS


def test_when_a_kind_of_card_has_run_out_entirely_the_draw_takes_the_other_kind():
    state = make_state(["red", "blue"], phase=DRAW)
    state.tables["blue"] += state.continent_deck
    state.continent_deck = []
    refused(state, Draw("red", 1, 1), "deck_empty")
    apply(state, Draw("red", 0, 2), RNG)
    assert len(state.hands["red"]) == 2


def test_when_fewer_than_two_cards_are_left_in_all_the_draw_takes_what_is_left():
    state = make_state(["red", "blue"], phase=DRAW)
    state.tables["blue"] += state.continent_deck
    state.hands["blue"] += state.tactics_deck[1:]
    state.continent_deck, state.tactics_deck = [], state.tactics_deck[:1]
    refused(state, Draw("red", 0, 2), "bad_count")
    apply(state, Draw("red", 0, 1), RNG)
    assert state.phase == CHOOSE


def test_expand_and_spy_can_be_played_before_drawing():
    state = make_state(["red", "blue"], hands={"red": ["expand"], "blue": ["troops"]},
                       phase=DRAW)
    apply(state, PlayExpand("red", "tactics"), RNG)
    assert state.window is not None and state.window["kind"] == "tactics"


def test_a_roll_outside_a_battle_is_refused():
    refused(make_state(["red", "blue"]), Roll("red"), "wrong_phase")
