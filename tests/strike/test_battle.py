"""An attack (docs/RULES.md §7): declare, deploy, dice from cards plus troops, losses, repeats."""

from __future__ import annotations

import pytest

from pi_app.dice import SeededSource
from pi_app.rules.strike import (
    DeclareAttack,
    Deploy,
    EndAttack,
    Pass,
    PassTurn,
    Roll,
    apply,
    dice_counts,
    waiting_for,
)
from pi_app.rules.strike.state import DRAW, READY

from .builders import (
    ALL_CARDS,
    ScriptedDice,
    all_cards,
    at_battle,
    kinds,
    make_state,
    pass_all,
    refused,
)

RNG = SeededSource(0)


def roll(state, *faces):
    """The attacker rolls the scripted faces; everyone passes; returns the events."""
    dice = ScriptedDice(*faces)
    events = apply(state, Roll(state.battle["attacker"]), dice).events
    return events + pass_all(state, dice)


def two_players(red_table, blue_table, red_hand=("cancel-orders",),
                blue_hand=("cancel-orders",)):
    """Red attacks blue; by default each holds a card, so deploys and windows ask them."""
    return make_state(["red", "blue"], tables={"red": list(red_table), "blue": list(blue_table)},
                      hands={"red": list(red_hand), "blue": list(blue_hand)})


# --- declare -----------------------------------------------------------------------------
def test_attack_on_the_same_continent_is_allowed():
    state = two_players(["asia"], ["asia"])
    apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG)
    assert state.battle["step"] == "attacker_deploy" and waiting_for(state) == ["red"]


@pytest.mark.parametrize(("a", "d"), [("europe", "africa"), ("asia", "north-america"),
                                      ("south-america", "africa"), ("asia", "australia")])
def test_attack_on_a_connected_continent_is_allowed(a, d):
    state = two_players([a], [d])
    apply(state, DeclareAttack("red", "blue", a, d), RNG)
    assert state.battle["defence_continent"] == d


@pytest.mark.parametrize(("a", "d"), [("australia", "south-america"), ("europe", "australia"),
                                      ("africa", "north-america")])
def test_attack_on_an_unconnected_continent_is_refused(a, d):
    refused(two_players([a], [d]), DeclareAttack("red", "blue", a, d), "not_connected")


def test_attack_needs_a_card_of_each_continent_in_play():
    state = two_players(["asia"], ["europe"])
    refused(state, DeclareAttack("red", "blue", "europe", "europe"), "no_continent_cards")
    refused(state, DeclareAttack("red", "blue", "asia", "asia"), "no_continent_cards")


@pytest.mark.parametrize(("defender", "code"), [("red", "bad_target"), ("pink", "bad_target")])
def test_attack_on_yourself_or_an_absent_player_is_refused(defender, code):
    refused(two_players(["asia"], ["asia"]), DeclareAttack("red", defender, "asia", "asia"), code)


def test_unknown_continent_is_refused():
    refused(two_players(["asia"], ["asia"]), DeclareAttack("red", "blue", "asia", "mars"),
            "unknown_continent")


# --- deploy ------------------------------------------------------------------------------
def test_attacker_deploys_first_then_defender_then_the_others_choose_a_side():
    # since Strike 3 the others add troops in the one window after deployment (RULES §7)
    state = make_state(["red", "blue", "green", "yellow"],
                       tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"red": ["troops"], "blue": ["troops"],
                              "green": ["troops", "troops"], "yellow": ["troops", "troops"]})
    apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG)
    refused(state, Deploy("blue", 1), "not_your_turn")
    apply(state, Deploy("red", 1), RNG)
    refused(state, Deploy("green", 1, "attacker"), "not_your_turn")
    apply(state, Deploy("blue", 1), RNG)
    assert state.window["kind"] == "deployed"
    assert waiting_for(state) == ["green", "yellow"]
    refused(state, Deploy("red", 1, "attacker"), "not_eligible")
    refused(state, Deploy("green", 1), "bad_side")
    apply(state, Deploy("green", 1, "defender"), RNG)
    apply(state, Deploy("yellow", 1, "attacker"), RNG)
    refused(state, Deploy("yellow", 1, "defender"), "switch_sides")
    apply(state, Pass("green"), RNG)  # yellow's troops were yellow's answer
    assert state.window is None and state.battle["step"] == "ready"
    sides = [(t["player"], t["side"]) for t in state.battle["troops"]]
    assert sides == [("red", "attacker"), ("blue", "defender"), ("green", "defender"),
                     ("yellow", "attacker")]


def test_a_supporters_troops_count_for_the_side_they_announce():
    state = make_state(["red", "blue", "green"], tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"green": ["troops", "troops"]})
    at_battle(state, "blue", "asia", "asia", until="deployed")
    apply(state, Deploy("green", 2, "attacker"), RNG)
    pass_all(state)
    assert dice_counts(state) == (3, 1)


def test_deploying_more_troops_than_held_is_refused():
    state = two_players(["asia"], ["asia"], red_hand=["troops"])
    apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG)
    refused(state, Deploy("red", 2), "bad_count")
    refused(state, Deploy("red", -1), "bad_count")


def test_a_two_player_battle_skips_the_support_window():
    state = two_players(["asia"], ["asia"])
    at_battle(state, "blue", "asia", "asia", until="deployed")
    assert state.window["kind"] == "deployed"


# --- dice --------------------------------------------------------------------------------
@pytest.mark.parametrize(("red_cards", "red_troops", "blue_cards", "blue_troops", "dice"), [
    (1, 0, 1, 0, (1, 1)),
    (2, 0, 3, 0, (2, 2)),
    (1, 1, 1, 0, (2, 1)),
    (2, 3, 1, 3, (3, 2)),
    (5, 0, 4, 0, (3, 2)),
])
def test_dice_are_continent_cards_plus_troops_capped_at_three_and_two(
        red_cards, red_troops, blue_cards, blue_troops, dice):
    state = two_players(["asia"] * red_cards, ["europe"] * blue_cards,
                        ["troops"] * red_troops, ["troops"] * blue_troops)
    at_battle(state, "blue", "asia", "europe", red_troops, blue_troops)
    assert dice_counts(state) == dice
    events = roll(state, [6] * dice[0], [1] * dice[1])
    rolled = next(e for e in events if e.type == "battle")
    assert (len(rolled["attack_dice"]), len(rolled["defence_dice"])) == dice


def test_only_cards_of_the_continents_in_play_give_dice():
    state = two_players(["asia", "europe", "europe"], ["asia", "africa", "africa"])
    assert dice_counts(state) == (0, 0)  # RULES §7: no attack declared, no dice for anyone
    at_battle(state, "blue", "asia", "asia")
    assert dice_counts(state) == (1, 1)


# --- losses ------------------------------------------------------------------------------
def test_attacker_wins_a_pair_the_defender_discards_an_active_troop_card_first():
    state = two_players(["asia", "asia"], ["asia"], blue_hand=["troops"])
    at_battle(state, "blue", "asia", "asia", 0, 1)
    roll(state, [6, 1], [5, 2])  # 6>5 defender loses; 1<=2 attacker loses
    assert state.battle["troops"] == []
    assert kinds(state.discard) == ["troops"]
    assert kinds(state.tables["blue"]) == ["asia"]
    assert kinds(state.tables["red"]) == ["asia"] and kinds(state.surrendered) == ["asia"]


def test_defender_without_troops_gives_the_attacked_continent_card_to_the_attacker():
    state = two_players(["asia", "asia"], ["europe", "europe"])
    at_battle(state, "blue", "asia", "europe")
    events = roll(state, [4, 3], [2, 1])
    assert kinds(state.tables["red"]) == ["asia", "asia", "europe", "europe"]
    assert state.tables["blue"] == []
    assert [e.type for e in events].count("continent_captured") == 2


def test_ties_go_to_the_defender_and_the_attacker_surrenders_to_the_central_pile():
    state = two_players(["asia", "asia"], ["asia", "asia"])
    at_battle(state, "blue", "asia", "asia")
    roll(state, [5, 3], [5, 3])
    assert kinds(state.surrendered) == ["asia", "asia"]
    assert state.tables["red"] == [] and len(state.tables["blue"]) == 2


def test_attacker_troops_absorb_losses_before_continent_cards():
    state = two_players(["asia"], ["asia", "asia"], red_hand=["troops", "troops"])
    at_battle(state, "blue", "asia", "asia", 2, 0)
    roll(state, [3, 2, 1], [6, 6])
    assert state.battle is not None and state.battle["troops"] == []
    assert kinds(state.tables["red"]) == ["asia"] and state.surrendered == []


def test_losses_take_the_last_deployed_troop_card_first():
    state = make_state(["red", "blue", "green"], tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"blue": ["troops"], "green": ["troops"]})
    at_battle(state, "blue", "asia", "asia", 0, 1, until="deployed")
    apply(state, Deploy("green", 1, "defender"), RNG)  # green was the only one to ask
    pass_all(state)
    roll(state, [6], [1, 1])
    assert [t["player"] for t in state.battle["troops"]] == ["blue"]


# --- repeat and end ----------------------------------------------------------------------
def test_attacker_may_roll_again_while_both_keep_cards_of_the_continents_in_play():
    state = two_players(["asia", "asia"], ["asia", "asia"])
    at_battle(state, "blue", "asia", "asia")
    roll(state, [6, 1], [5, 2])
    assert state.battle["step"] == READY and waiting_for(state) == ["red"]
    roll(state, [2, 1], [6])  # red had 2 Asia cards, blue 1: red loses one
    assert state.battle["rolls"] == 2 and state.battle["step"] == READY


def test_the_attack_ends_when_a_side_runs_out_of_cards_and_troops_are_discarded():
    state = two_players(["asia"], ["asia"], red_hand=["troops", "troops"])
    at_battle(state, "blue", "asia", "asia", 2, 0)
    events = roll(state, [6, 5, 4], [2])
    assert state.battle is None
    assert state.current_player == "blue" and state.phase == DRAW
    assert kinds(state.discard) == ["troops", "troops"]
    ended = next(e for e in events if e.type == "attack_ended")
    assert ended["reason"] == "no_cards" and ended["troops_discarded"] == 2


def test_attacker_may_stop_and_active_troops_are_discarded():
    state = two_players(["asia", "asia"], ["asia", "asia"], red_hand=["troops"],
                        blue_hand=["troops"])
    at_battle(state, "blue", "asia", "asia", 1, 1)
    apply(state, EndAttack("red"), RNG)
    assert kinds(state.discard) == ["troops", "troops"]
    assert state.current_player == "blue" and all_cards(state) == ALL_CARDS


def test_attacking_ends_the_turn_so_there_is_one_attack_per_turn():
    state = two_players(["asia", "asia"], ["asia", "asia"])
    at_battle(state, "blue", "asia", "asia")
    apply(state, EndAttack("red"), RNG)
    refused(state, DeclareAttack("red", "blue", "asia", "asia"), "not_your_turn")
    refused(state, PassTurn("red"), "not_your_turn")


def test_only_the_defender_may_stop_nothing_and_the_attacker_rolls():
    state = two_players(["asia", "asia"], ["asia", "asia"])
    at_battle(state, "blue", "asia", "asia")
    refused(state, Roll("blue"), "not_your_turn")
    refused(state, EndAttack("blue"), "not_your_turn")


def test_the_roll_is_announced_sorted_highest_first_for_the_page():
    state = two_players(["asia", "asia", "asia"], ["asia", "asia"])
    at_battle(state, "blue", "asia", "asia")
    events = apply(state, Roll("red"), ScriptedDice([2, 6, 4], [3, 5])).events
    rolled = [e.to_dict() for e in events if e.type == "dice_rolled"]
    assert rolled == [{"type": "dice_rolled", "attacker": "red", "defender": "blue",
                       "attack_dice": [6, 4, 2], "defence_dice": [5, 3]}]
