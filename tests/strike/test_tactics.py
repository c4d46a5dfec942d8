"""The eight tactics cards (docs/RULES.md §7): each card's effect and when it may be played."""

from __future__ import annotations

import pytest

from pi_app.dice import SeededSource
from pi_app.rules.strike import (
    DeclareAttack,
    Deploy,
    Draw,
    PlayArtillery,
    PlayBombard,
    PlayCancelOrders,
    PlayExpand,
    PlayRally,
    PlaySabotage,
    PlaySpy,
    Roll,
    apply,
    playable_tactics,
    redact_strike,
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


def duel(red_table=("asia", "asia"), blue_table=("asia", "asia"), red_hand=(), blue_hand=(),
         **kw):
    return make_state(["red", "blue"], tables={"red": list(red_table), "blue": list(blue_table)},
                      hands={"red": list(red_hand), "blue": list(blue_hand)}, **kw)


def rolled(state, attack, defence):
    """The attacker rolls these faces; the rolled window is left open."""
    apply(state, Roll(state.battle["attacker"]), ScriptedDice(attack, defence))
    assert state.window["kind"] == "rolled"


def last_battle(events):
    return next(e for e in events if e.type == "battle")


# --- Troops ------------------------------------------------------------------------------
def test_troops_are_deployed_not_played_so_they_can_never_be_cancelled():
    state = duel(red_hand=["troops", "rally"], blue_hand=["cancel-orders"])
    at_battle(state, "blue", "asia", "asia", 1, 0, until="deployed")
    assert state.window["plays"] == []  # the troop card is in the battle, not a play
    refused(state, PlayCancelOrders("blue", 1), "no_such_play")
    assert [t["player"] for t in state.battle["troops"]] == ["red"]


# --- Spy ---------------------------------------------------------------------------------
def test_spy_shows_one_hand_to_the_spy_only_and_draws_a_tactics_card():
    state = make_state(["red", "blue", "green"], hands={"red": ["spy"],
                                                        "blue": ["rally", "troops"]},
                       tactics_top=["bombard"])
    apply(state, PlaySpy("red", "blue"), RNG)
    pass_all(state)
    assert kinds(state.hands["red"]) == ["bombard"]
    mine = redact_strike(state, "red")
    assert kinds(mine["spied_hand"]["cards"]) == ["rally", "troops"]
    assert mine["spied_hand"]["player"] == "blue" and mine["spied_hand"]["as_of_turn"] == 1
    for viewer in ("blue", "green", None):
        assert "spied_hand" not in redact_strike(state, viewer)


def test_the_spied_hand_is_as_of_that_moment_and_forgotten_at_the_spys_next_turn():
    state = make_state(["red", "blue"], hands={"red": ["spy"], "blue": ["rally"]},
                       phase=DRAW)
    apply(state, PlaySpy("red", "blue"), RNG)
    pass_all(state)
    state.hands["blue"].append(state.tactics_deck.pop())  # blue's hand changes later
    assert kinds(redact_strike(state, "red")["spied_hand"]["cards"]) == ["rally"]
    apply(state, Draw("red", 1, 1), RNG)
    from pi_app.rules.strike import PassTurn
    apply(state, PassTurn("red"), RNG)
    apply(state, Draw("blue", 1, 1), RNG)
    apply(state, PassTurn("blue"), RNG)
    assert "spied_hand" not in redact_strike(state, "red")


def test_spy_is_only_for_your_own_turn():
    state = duel(blue_hand=["spy"])
    refused(state, PlaySpy("blue", "red"), "not_your_turn")
    state = duel(red_hand=["expand"], blue_hand=["spy"])
    apply(state, PlayExpand("red", "tactics"), RNG)  # a window opens: blue may react
    refused(state, PlaySpy("blue", "red"), "not_your_turn")


def test_spy_on_yourself_is_refused():
    refused(duel(red_hand=["spy"]), PlaySpy("red", "red"), "bad_target")


# --- Expand ------------------------------------------------------------------------------
@pytest.mark.parametrize(("take", "tables", "hand"), [
    ("continents", ["asia", "asia", "europe", "europe"], []),
    ("tactics", ["asia", "asia"], ["troops"]),
])
def test_expand_draws_two_continent_cards_or_one_tactics_card(take, tables, hand):
    state = duel(red_hand=["expand"], continent_top=["europe", "europe"],
                 tactics_top=["troops"])
    apply(state, PlayExpand("red", take), RNG)
    pass_all(state)
    assert kinds(state.tables["red"]) == tables
    assert kinds(state.hands["red"]) == hand
    assert kinds(state.discard) == ["expand"]


def test_expand_is_only_for_your_own_turn():
    state = duel(red_hand=["spy"], blue_hand=["expand"])
    refused(state, PlayExpand("blue", "tactics"), "not_your_turn")
    apply(state, PlaySpy("red", "blue"), RNG)  # a window opens: blue may react, not expand
    refused(state, PlayExpand("blue", "tactics"), "not_your_turn")


def test_expand_with_another_choice_is_refused():
    refused(duel(red_hand=["expand"]), PlayExpand("red", "coins"), "bad_choice")


def test_expand_can_bring_a_coin_and_the_win():
    state = duel(red_table=["australia", "australia", "africa", "africa", "africa", "africa"],
                 red_hand=["expand"], continent_top=["australia", "europe"],
                 coins={"africa": "red"})
    events = apply(state, PlayExpand("red", "continents"), RNG).events  # nobody can answer
    events += pass_all(state)
    assert state.winner == "red" and state.coins["australia"] == "red"
    assert events[-1].to_dict() == {"type": "game_won", "winner": "red",
                                    "coins": ["africa", "australia"]}
    assert all_cards(state) == ALL_CARDS


# --- Cancel Orders -----------------------------------------------------------------------
def test_cancel_orders_cancels_an_opponents_card_and_both_are_discarded():
    state = duel(red_hand=["expand"], blue_hand=["cancel-orders"], tactics_top=["troops"])
    apply(state, PlayExpand("red", "tactics"), RNG)
    events = apply(state, PlayCancelOrders("blue", 1), RNG).events  # both hands now empty
    events += pass_all(state)
    assert state.hands["red"] == []
    assert kinds(state.discard) == ["cancel-orders", "expand"]
    assert [e.type for e in events].count("tactic_cancelled") == 1


def test_cancel_orders_on_your_own_card_is_refused():
    state = duel(red_hand=["expand", "cancel-orders"], blue_hand=["troops"])
    apply(state, PlayExpand("red", "tactics"), RNG)
    refused(state, PlayCancelOrders("red", 1), "own_card")


def test_cancel_orders_needs_a_card_waiting_to_resolve():
    state = duel(red_hand=["expand"], blue_hand=["cancel-orders"])
    apply(state, PlayExpand("red", "tactics"), RNG)
    refused(state, PlayCancelOrders("blue", 7), "no_such_play")


def test_a_cancel_orders_can_itself_be_cancelled_so_the_first_card_resolves():
    state = duel(red_hand=["expand", "cancel-orders"], blue_hand=["cancel-orders"],
                 tactics_top=["troops"])
    apply(state, PlayExpand("red", "tactics"), RNG)
    apply(state, PlayCancelOrders("blue", 1), RNG)
    apply(state, PlayCancelOrders("red", 2), RNG)
    pass_all(state)
    assert kinds(state.hands["red"]) == ["troops"]


# --- Rally -------------------------------------------------------------------------------
def test_rally_adds_two_to_each_of_your_dice_after_the_roll():
    state = duel(red_hand=["rally"])
    at_battle(state, "blue", "asia", "asia")
    rolled(state, [4, 3], [5, 4])
    events = apply(state, PlayRally("red"), RNG).events  # nobody holds a card any more
    events += pass_all(state)
    assert last_battle(events)["attack_dice"] == [6, 5]
    assert last_battle(events)["losers"] == ["defender", "defender"]


def test_rally_before_the_roll_is_refused():
    state = duel(red_hand=["rally"])
    at_battle(state, "blue", "asia", "asia", until="deployed")
    refused(state, PlayRally("red"), "wrong_time")


def test_rally_by_a_player_who_rolls_no_dice_is_refused():
    # a troop card is active, so green (Artillery, had it one) is asked after the roll
    state = make_state(["red", "blue", "green"], tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"red": ["troops"], "green": ["rally"]})
    at_battle(state, "blue", "asia", "asia", 1, 0)
    rolled(state, [4, 1], [5])
    refused(state, PlayRally("green"), "not_in_battle")


# --- Bombard -----------------------------------------------------------------------------
def test_bombard_turns_one_of_your_dice_into_a_six_then_the_dice_are_re_paired():
    state = duel(blue_hand=["bombard"])
    at_battle(state, "blue", "asia", "asia")
    rolled(state, [5, 4], [3, 2])
    events = apply(state, PlayBombard("blue", 1), RNG).events  # the 2 becomes 6: defence 6,3
    events += pass_all(state)
    assert last_battle(events)["defence_dice"] == [6, 3]
    assert last_battle(events)["losers"] == ["attacker", "defender"]


def test_bombard_on_a_die_you_did_not_roll_is_refused():
    state = duel(blue_hand=["bombard"])
    at_battle(state, "blue", "asia", "asia")
    rolled(state, [5, 4], [3, 2])
    refused(state, PlayBombard("blue", 2), "bad_die")


def test_cards_resolve_in_the_order_played():
    # Rally then Bombard: the lowest die ends as 6; Bombard then Rally: it ends as 8
    for order, expected in ((("rally", "bombard"), [6, 6]), (("bombard", "rally"), [8, 6])):
        state = duel(red_hand=["rally", "bombard"])
        at_battle(state, "blue", "asia", "asia")
        rolled(state, [4, 1], [6, 6])
        events = []
        for card in order:  # red alone holds cards: the window waits for red's second card
            events += apply(state, PlayRally("red") if card == "rally"
                            else PlayBombard("red", 1), RNG).events
        events += pass_all(state)
        assert sorted(last_battle(events)["attack_dice"], reverse=True) == expected


# --- Artillery ---------------------------------------------------------------------------
def test_artillery_makes_the_chosen_player_discard_up_to_two_active_troops():
    state = duel(red_table=["asia"], red_hand=["troops"] * 3 + ["rally"],
                 blue_hand=["artillery"])
    at_battle(state, "blue", "asia", "asia", 3, 0, until="deployed")
    apply(state, PlayArtillery("blue", "red"), RNG)
    events = pass_all(state)
    assert [t["player"] for t in state.battle["troops"]] == ["red"]
    assert kinds(state.discard) == ["artillery", "troops", "troops"]
    # the log says whose troops the Artillery hit and how many (RULES §7: played in public)
    hit = [e.to_dict() for e in events if e.type == "troops_discarded"]
    assert [(e["player"], e["card"], e["count"]) for e in hit] == [("red", "artillery", 2)]


def test_artillery_after_the_roll_leaves_fewer_troops_to_absorb_losses():
    state = duel(red_table=["asia"], red_hand=["troops"] * 2, blue_hand=["artillery"])
    at_battle(state, "blue", "asia", "asia", 2, 0)
    rolled(state, [1, 1, 1], [6, 6])
    apply(state, PlayArtillery("blue", "red"), RNG)
    pass_all(state)
    # both troops were hit, so the two lost pairs cost red its only Asia card
    assert state.tables["red"] == [] and kinds(state.surrendered) == ["asia"]


def test_artillery_before_troops_are_deployed_is_refused():
    state = duel(red_hand=["troops", "artillery"], blue_hand=["troops"])
    apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG)
    refused(state, PlayArtillery("red", "blue"), "wrong_time")  # red has not deployed yet
    state = duel(red_hand=["artillery"])
    refused(state, PlayArtillery("red", "blue"), "wrong_time")


def test_the_defender_may_fire_artillery_at_their_deploy_step():
    # Strike 3 (RULES §7): the attacker's troops are down, and the defender's deploy is
    # their pass in the window after deployment, so this is where they answer them
    state = duel(red_hand=["troops", "troops"], blue_hand=["artillery", "troops"])
    apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG)
    apply(state, Deploy("red", 2), RNG)
    apply(state, PlayArtillery("blue", "red"), RNG)
    assert state.window["kind"] == "tactics"
    pass_all(state)
    assert state.battle["troops"] == [] and waiting_for(state) == ["blue"]
    apply(state, Deploy("blue", 1), RNG)


def test_artillery_on_a_player_without_troops_is_refused():
    state = duel(red_hand=["troops"], blue_hand=["artillery", "troops"])
    apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG)
    apply(state, Deploy("red", 0), RNG)
    refused(state, PlayArtillery("blue", "red"), "no_troops")


def test_artillery_hits_another_player_never_your_own_troops():
    # Strike 3 (RULES §7): "one chosen player" is an opponent; with only your own troops
    # active you have nothing to fire at, and a window does not wait for it
    state = duel(red_table=["asia"], red_hand=["troops", "artillery", "rally"])
    at_battle(state, "blue", "asia", "asia", 1, 0, until="deployed")
    refused(state, PlayArtillery("red", "red"), "no_troops")
    assert "artillery" not in playable_tactics(state, "red")


def test_the_attacker_may_fire_artillery_between_rolls():
    state = duel(red_hand=["artillery"], blue_hand=["troops", "cancel-orders"])
    at_battle(state, "blue", "asia", "asia", 0, 1)
    apply(state, PlayArtillery("red", "blue"), RNG)
    assert state.window["kind"] == "tactics"
    pass_all(state)
    assert state.battle["troops"] == [] and state.battle["step"] == READY


# --- Sabotage ----------------------------------------------------------------------------
def test_sabotage_returns_all_troops_to_their_owners_and_ends_the_turn():
    state = make_state(["red", "blue", "green"], tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"red": ["troops"] * 2, "blue": ["sabotage"],
                              "green": ["troops"]})
    at_battle(state, "blue", "asia", "asia", 2, 0, until="deployed")
    apply(state, Deploy("green", 1, "attacker"), RNG)
    assert "blue" in waiting_for(state)  # troops were added: the defender is asked again
    apply(state, PlaySabotage("blue"), RNG)
    events = pass_all(state)
    assert kinds(state.hands["red"]) == ["troops", "troops"]
    assert kinds(state.hands["green"]) == ["troops"]
    assert state.battle is None and state.current_player == "blue" and state.phase == DRAW
    assert not any(e.type == "battle" for e in events)


def test_sabotage_after_the_dice_are_rolled_is_refused():
    state = duel(blue_hand=["sabotage"])
    at_battle(state, "blue", "asia", "asia")
    rolled(state, [5, 5], [4, 4])  # blue loses both pairs: blue is asked
    refused(state, PlaySabotage("blue"), "wrong_time")


def test_sabotage_can_be_cancelled():
    state = duel(red_hand=["troops", "cancel-orders"], blue_hand=["sabotage"])
    at_battle(state, "blue", "asia", "asia", 1, 0, until="deployed")
    apply(state, PlaySabotage("blue"), RNG)
    apply(state, PlayCancelOrders("red", 1), RNG)
    pass_all(state)
    assert state.battle["step"] == READY and len(state.battle["troops"]) == 1


def test_artillery_played_after_a_sabotage_fizzles():
    # at the defender's deploy step (Strike 3, RULES §7): the attacker's troops are down
    state = duel(red_hand=["troops"], blue_hand=["sabotage", "artillery"])
    apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG)
    apply(state, Deploy("red", 1), RNG)
    apply(state, PlaySabotage("blue"), RNG)  # red holds nothing: the window waits for blue
    events = apply(state, PlayArtillery("blue", "red"), RNG).events
    events += pass_all(state)
    assert kinds(state.hands["red"]) == ["troops"]
    assert any(e.type == "tactic_fizzled" and e["card"] == "artillery" for e in events)
    assert state.battle is None and state.current_player == "blue"  # the turn ended


def test_a_card_you_do_not_hold_is_refused():
    refused(duel(), PlayExpand("red", "tactics"), "no_card")


def test_in_the_window_after_deployment_a_player_may_add_troops_and_play_cards():
    # Strike 3 (RULES §7): one window where the others choose sides and anyone answers
    state = make_state(["red", "blue", "green"], tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"red": ["troops"], "green": ["troops", "artillery"]})
    at_battle(state, "blue", "asia", "asia", 1, 0, until="deployed")
    assert waiting_for(state) == ["green"]
    apply(state, Deploy("green", 1, "defender"), RNG)
    apply(state, PlayArtillery("green", "red"), RNG)
    pass_all(state)
    assert [(t["player"], t["side"]) for t in state.battle["troops"]] == [("green", "defender")]


# --- what a phone may offer --------------------------------------------------------------
def test_playable_tactics_follow_each_cards_timing():
    state = make_state(["red", "blue", "green"], tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"red": ["spy", "rally", "sabotage"],
                              "blue": ["bombard", "artillery", "expand"],
                              "green": ["rally", "cancel-orders", "artillery"]})
    assert playable_tactics(state, "red") == ["spy"]
    assert playable_tactics(state, "blue") == []
    at_battle(state, "blue", "asia", "asia", until="deployed")
    assert playable_tactics(state, "green") == []  # no troops for Artillery, no play to cancel
    assert playable_tactics(state, "red") == ["spy", "sabotage"]
    assert playable_tactics(state, "blue") == []  # no troops for Artillery; not blue's turn
    pass_all(state)
    rolled(state, [3], [4])
    assert playable_tactics(state, "red") == ["spy", "rally"]
    # blue's die wins already and no troop card is active: nothing blue could play changes
    # the roll, so blue is asked only once a card is played (RULES §7)
    assert playable_tactics(state, "blue") == []
    assert playable_tactics(state, "green") == []
    apply(state, PlayRally("red"), RNG)
    assert playable_tactics(state, "blue") == ["bombard"]
    assert playable_tactics(state, "green") == ["cancel-orders"]
    assert playable_tactics(state, "red") == ["spy"]  # red's only Rally is now in play


@pytest.mark.parametrize("card,play", [("spy", PlaySpy("red", "blue")),
                                       ("expand", PlayExpand("red", "tactics"))])
def test_spy_and_expand_are_playable_on_your_turn_while_the_defender_deploys(card, play):
    # RULES §7: "any time on your turn", so also while blue decides its deployment.
    from pi_app.rules.strike import DeclareAttack, Deploy, available_commands, waiting_for
    state = duel(red_hand=[card], blue_hand=["troops"], tactics_top=["troops"])
    apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG)
    apply(state, Deploy("red", 0), RNG)
    assert waiting_for(state) == ["blue"]  # the defender deploys now
    assert f"strike_play_{card}" in available_commands(state, "red")
    apply(state, play, RNG)
    assert state.window is not None and state.window["plays"][0]["kind"] == card
    pass_all(state)
    assert kinds(state.discard) == [card]
    assert waiting_for(state) == ["blue"]  # back to the defender's deployment
    apply(state, Deploy("blue", 0), RNG)


def test_another_card_while_the_defender_deploys_says_why_it_waits():
    from pi_app.rules.strike import DeclareAttack, Deploy
    state = duel(red_hand=["sabotage"], blue_hand=["spy"])
    apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG)
    apply(state, Deploy("red", 0), RNG)
    refused(state, PlaySabotage("red"), "wrong_time")
    refused(state, PlaySpy("blue", "red"), "not_your_turn")
