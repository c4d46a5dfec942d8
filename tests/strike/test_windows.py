"""Reaction windows: who is asked, passing, a play reopening the window, the table's timer."""

from __future__ import annotations

import pytest

from pi_app.dice import SeededSource
from pi_app.rules.strike import (
    TABLE,
    CloseWindow,
    DeclareAttack,
    Deploy,
    Draw,
    EndAttack,
    Pass,
    PassTurn,
    PlayBombard,
    PlayCancelOrders,
    PlayExpand,
    PlayRally,
    PlaySabotage,
    Roll,
    apply,
    waiting_for,
)
from pi_app.rules.strike.engine import available_commands
from pi_app.rules.strike.state import CHOOSE, DRAW

from .builders import ScriptedDice, at_battle, kinds, make_state, pass_all, refused

RNG = SeededSource(0)
PLAYERS = ["red", "blue", "green"]


def with_expand_played():
    state = make_state(PLAYERS, hands={"red": ["expand"], "blue": ["cancel-orders"],
                                       "green": ["troops"]},
                       phase=DRAW, tactics_top=["rally"])
    events = apply(state, PlayExpand("red", "tactics"), RNG).events
    return state, events


def test_a_play_opens_a_window_for_everyone_else_with_the_table_timer():
    state, events = with_expand_played()
    assert waiting_for(state) == ["blue", "green"]
    opened = next(e for e in events if e.type == "window_opened")
    assert opened["kind"] == "tactics" and opened["seconds"] == 20


def test_the_window_closes_when_all_have_passed_and_the_card_resolves():
    state, _ = with_expand_played()
    apply(state, Pass("blue"), RNG)
    assert state.window is not None and kinds(state.hands["red"]) == []
    events = apply(state, Pass("green"), RNG).events
    assert state.window is None and kinds(state.hands["red"]) == ["rally"]
    assert [e.type for e in events][:3] == ["passed", "window_closed", "tactic_resolved"]
    assert state.phase == DRAW  # back to the decision the window interrupted


def test_a_play_in_the_window_asks_everyone_else_again():
    state, _ = with_expand_played()
    apply(state, Pass("green"), RNG)
    apply(state, PlayCancelOrders("blue", 1), RNG)
    assert waiting_for(state) == ["green"]  # red's and blue's hands are empty now


def test_the_table_timer_closes_the_window_as_if_all_had_passed():
    state, _ = with_expand_played()
    events = apply(state, CloseWindow(), RNG).events
    assert events[0].to_dict() == {"type": "window_closed", "window": 1, "kind": "tactics",
                                   "by": "timeout"}
    assert kinds(state.hands["red"]) == ["rally"]


def test_a_late_timer_for_a_closed_window_does_not_close_the_next_one():
    state = make_state(PLAYERS, hands={"red": ["expand", "expand"]}, phase=DRAW)
    opened = apply(state, PlayExpand("red", "tactics"), RNG).events
    first = next(e for e in opened if e.type == "window_opened")["window"]
    apply(state, CloseWindow(window=first), RNG)
    apply(state, PlayExpand("red", "tactics"), RNG)
    second = state.window["id"]
    assert second != first
    refused(state, CloseWindow(window=first), "stale_window")
    apply(state, CloseWindow(window=second), RNG)
    assert state.window is None


def test_only_the_table_closes_a_window():
    state, _ = with_expand_played()
    refused(state, CloseWindow("blue"), "table_only")
    assert CloseWindow().player == TABLE


def test_closing_or_passing_without_a_window_is_refused():
    state = make_state(PLAYERS)
    refused(state, CloseWindow(), "no_window")
    refused(state, Pass("blue"), "no_window")


def test_passing_twice_is_refused():
    state, _ = with_expand_played()
    apply(state, Pass("blue"), RNG)
    refused(state, Pass("blue"), "already_passed")


def test_the_current_players_decision_waits_while_a_window_is_open():
    state, _ = with_expand_played()
    refused(state, Draw("red", 1, 1), "window_open")


def test_the_player_who_played_may_still_act_in_the_open_window():
    state = make_state(PLAYERS, hands={"red": ["expand", "expand"], "blue": ["troops"]},
                       phase=DRAW)
    apply(state, PlayExpand("red", "tactics"), RNG)
    apply(state, PlayExpand("red", "tactics"), RNG)
    assert len(state.window["plays"]) == 2


def test_the_window_after_deployment_asks_the_others_and_the_attacker_not_the_defender():
    # Strike 3 (RULES §7): one window after deployment, where the players outside the
    # battle choose a side; the defender's deploy was their pass in it
    state = make_state([*PLAYERS, "yellow"], tables={"red": ["asia"], "blue": ["asia"]},
                       hands={p: ["troops", "sabotage"] for p in [*PLAYERS, "yellow"]})
    at_battle(state, "blue", "asia", "asia", until="deployed")
    assert waiting_for(state) == ["red", "green", "yellow"]
    opened = state.window
    assert opened["kind"] == "deployed" and opened["passed"] == ["blue"]
    refused(state, Pass("blue"), "already_passed")
    refused(state, Deploy("red", 1, "attacker"), "not_eligible")
    apply(state, Deploy("green", 1, "defender"), RNG)  # troops added: blue is asked again
    assert waiting_for(state) == ["red", "blue", "yellow"]


def test_the_deployed_and_rolled_windows_ask_every_player():
    state = make_state(PLAYERS, tables={"red": ["asia"], "blue": ["asia"]}, phase=CHOOSE,
                       hands={p: ["rally"] for p in PLAYERS})
    at_battle(state, "blue", "asia", "asia", until="deployed")
    assert waiting_for(state) == ["red", "green"]  # blue's deploy was blue's pass
    pass_all(state)
    apply(state, Roll("red"), ScriptedDice([1], [6]))
    assert waiting_for(state) == ["red"]  # only red's dice lose a pair: the rest wait
    apply(state, PlayRally("red"), RNG)
    assert waiting_for(state) == ["blue", "green"]


def test_a_window_after_the_turn_passes_belongs_to_the_new_turn():
    state = make_state(PLAYERS, hands={"blue": ["spy"], "green": ["troops"]})
    apply(state, PassTurn("red"), RNG)
    from pi_app.rules.strike import PlaySpy
    apply(state, PlaySpy("blue", "red"), RNG)
    assert waiting_for(state) == ["red", "green"]


def test_available_commands_tell_each_phone_what_it_may_send():
    from pi_app.rules.strike import available_commands
    state = make_state(PLAYERS, tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"red": ["spy"], "green": ["troops", "cancel-orders"]}, phase=DRAW)
    assert available_commands(state, "red") == ["strike_draw", "strike_play_spy"]
    assert available_commands(state, "green") == []
    apply(state, Draw("red", 0, 2), RNG)
    assert available_commands(state, "red")[:2] == ["strike_declare_attack", "strike_pass_turn"]
    at_battle(state, "blue", "asia", "asia", until="deployed")
    assert available_commands(state, "green") == ["strike_deploy", "strike_pass"]
    # red's Roll or stop, the decision that follows the window, is also red's answer
    assert available_commands(state, "red") == ["strike_play_spy", "strike_roll",
                                                 "strike_end_attack", "strike_pass"]
    apply(state, Pass("green"), RNG)
    from pi_app.rules.strike import PlaySpy
    apply(state, PlaySpy("red", "green"), RNG)  # still the window after deployment
    assert available_commands(state, "green") == ["strike_deploy", "strike_play_cancel_orders",
                                                   "strike_pass"]
    assert available_commands(state, "pink") == []


def test_a_late_play_gives_everyone_a_fresh_clock():
    """Issue 23.13: a card played late in a window left the others 1-3 s, because the
    table's clock (timed by window id) ran on. A play renews the window's id."""
    state, _ = with_expand_played()
    first = state.window["id"]
    events = apply(state, PlayCancelOrders("blue", 1), RNG).events
    renewed = next(e for e in events if e.type == "window_renewed")
    assert renewed["previous"] == first and renewed["window"] == state.window["id"] != first
    assert renewed["seconds"] == 20 and renewed["players"] == ["green"]
    refused(state, CloseWindow(window=first), "stale_window")  # the old clock closes nothing
    closed = apply(state, CloseWindow(window=state.window["id"]), RNG).events
    assert closed[0].type == "window_closed" and state.window is None


# --- waiting is the exception (issue 23.13: passing was 51 % of all taps) ---------------------
def test_a_window_asks_only_the_players_holding_a_tactics_card():
    state = make_state(PLAYERS, tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"red": ["rally"], "blue": ["troops"], "green": []})
    at_battle(state, "blue", "asia", "asia", until="deployed")
    assert waiting_for(state) == ["red"]  # green's empty hand is public; blue deployed
    refused(state, Pass("green"), "not_eligible")


def test_a_window_nobody_can_answer_closes_as_it_opens():
    from pi_app.rules.strike import Roll

    from .builders import ScriptedDice
    state = make_state(PLAYERS, tables={"red": ["asia", "asia"], "blue": ["asia"]},
                       hands={p: [] for p in PLAYERS})
    at_battle(state, "blue", "asia", "asia")
    events = apply(state, Roll("red"), ScriptedDice([6, 6], [1])).events
    types = [e.type for e in events]
    assert types[:3] == ["dice_rolled", "window_opened", "window_closed"]
    assert next(e for e in events if e.type == "window_closed")["by"] == "nobody"
    assert "battle" in types and state.window is None


def test_a_deploy_with_an_empty_hand_deploys_nothing_by_itself():
    state = make_state(PLAYERS, tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"red": [], "blue": ["spy"], "green": []})
    events = apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG).events
    auto = next(e for e in events if e.type == "troops_deployed")
    assert auto.to_dict() == {"type": "troops_deployed", "player": "red", "side": "attacker",
                              "count": 0, "auto": True}
    assert state.battle["step"] == "defender_deploy" and waiting_for(state) == ["blue"]
    apply(state, Deploy("blue", 0), RNG)  # a hand without troops is still asked (secret)
    # green and red hold nothing and blue's deploy was its pass: nobody is left to ask
    assert state.window is None and state.battle["step"] == "ready"


def test_a_player_whose_hand_empties_in_a_window_counts_as_passed():
    state = make_state(PLAYERS, hands={"red": ["expand"], "blue": ["cancel-orders"],
                                       "green": ["troops"]}, phase=DRAW)
    apply(state, PlayExpand("red", "tactics"), RNG)
    apply(state, Pass("green"), RNG)
    events = apply(state, PlayCancelOrders("blue", 1), RNG).events
    assert waiting_for(state) == ["green"]  # red and blue hold nothing any more
    assert next(e for e in events if e.type == "window_renewed")["players"] == ["green"]


def test_after_a_play_the_window_waits_for_the_player_when_nobody_else_can_answer():
    from pi_app.rules.strike import PlaySpy
    state = make_state(PLAYERS, hands={"red": ["spy", "expand"], "blue": [], "green": []},
                       phase=DRAW)
    apply(state, PlaySpy("red", "blue"), RNG)
    assert waiting_for(state) == ["red"]  # red may add the Expand
    apply(state, PlayExpand("red", "tactics"), RNG)
    assert state.window is None  # red's hand is empty: nobody is left to ask
    assert kinds(state.discard) == ["expand", "spy"]


# --- making waiting the exception (issue 23.13, RULES §7) ---------------------------------
def three_way_battle(red=("troops",), blue=("rally",), green=("cancel-orders",), troops=0):
    """Red attacks blue's Asia; green looks on. Stops when the rolls may begin."""
    state = make_state(PLAYERS, tables={"red": ["asia", "asia"], "blue": ["asia", "asia"]},
                       hands={"red": list(red), "blue": list(blue), "green": list(green)})
    return at_battle(state, "blue", "asia", "asia", troops, 0, until="deployed")


def test_a_pass_for_the_rest_of_the_battle_is_not_asked_again_until_the_next_battle():
    state = three_way_battle(red=("troops", "rally"))
    events = apply(state, Pass("green", until="battle"), RNG).events
    assert [e["until"] for e in events if e.type == "passed"] == ["battle"]
    assert waiting_for(state) == ["red"]
    apply(state, Pass("red"), RNG)
    apply(state, Roll("red"), ScriptedDice([3, 3], [4, 4]))
    assert state.window["kind"] == "rolled"
    apply(state, PlayRally("red"), RNG)  # a play asks everyone again, but not green
    assert "green" not in waiting_for(state)
    refused(state, PlayCancelOrders("green", 1), "not_eligible")
    assert state.battle["waived"] == ["green"]


def test_a_pass_for_the_battle_with_no_battle_is_refused_and_so_is_an_unknown_until():
    state, _events = with_expand_played()
    refused(state, Pass("blue", until="battle"), "no_battle")
    refused(state, Pass("blue", until="game"), "bad_choice")
    assert Pass("blue").to_dict() == {"type": "strike_pass", "player": "blue"}
    assert Pass("blue", until="battle").to_dict()["until"] == "battle"


def test_after_a_roll_those_who_can_answer_nothing_are_asked_once_a_card_is_played():
    state = three_way_battle(red=("rally",), blue=("bombard",), green=("cancel-orders",))
    pass_all(state)  # the window after deployment (red, green)
    assert state.battle["step"] == "ready"
    apply(state, Roll("red"), ScriptedDice([3, 3], [4, 4]))
    # no troop card is active (nothing for Artillery) and blue's dice lose no pair: only
    # the attacker, whose dice lose, can change the roll; green and blue wait for a card
    assert waiting_for(state) == ["red"]
    assert state.window["later"] == ["blue", "green"]
    apply(state, PlayRally("red"), RNG)
    assert waiting_for(state) == ["blue", "green"]  # now there is a card to cancel
    assert "later" not in state.window


def test_with_troops_active_everyone_holding_a_card_is_asked_after_a_roll():
    state = three_way_battle(red=("troops", "rally"), troops=1)
    pass_all(state)
    apply(state, Roll("red"), ScriptedDice([3, 3, 3], [4, 4]))
    assert waiting_for(state) == ["red", "blue", "green"]  # Artillery has a target
    state = three_way_battle(red=("troops", "rally"), troops=1)
    pass_all(state)
    apply(state, Roll("red"), ScriptedDice([6, 6, 3], [4, 4]))
    # red's dice lose no pair and red's own troops are no target for red: not asked
    assert waiting_for(state) == ["blue", "green"]


def test_the_attackers_roll_during_a_window_is_their_pass_and_rolls_when_it_closes():
    state = three_way_battle(red=("rally",), blue=("bombard",), green=("cancel-orders",))
    assert state.window["kind"] == "deployed"
    assert "strike_roll" in available_commands(state, "red")
    events = apply(state, Roll("red"), RNG).events
    assert [e.type for e in events] == ["roll_next"]
    assert "strike_roll" not in available_commands(state, "red")
    refused(state, Roll("red"), "already_passed")
    assert waiting_for(state) == ["green"]
    events = apply(state, Pass("green"), ScriptedDice([5, 5], [4, 4])).events
    # the window closed and the dice rolled at once, with no tap from red
    assert [e.type for e in events][-3:] == ["window_closed", "dice_rolled", "window_opened"]
    assert state.window["kind"] == "rolled" and state.battle["rolls"] == 1


def test_a_card_played_after_the_attackers_roll_asks_the_attacker_again():
    state = three_way_battle(red=("rally",), blue=("bombard",), green=("cancel-orders",))
    pass_all(state)
    apply(state, Roll("red"), ScriptedDice([5, 1], [4, 4]))  # one pair each
    apply(state, Roll("red"), RNG)  # red rolls again once this window closes
    events = apply(state, PlayBombard("blue"), RNG).events
    assert "roll_next_undone" in [e.type for e in events]
    assert "red" in waiting_for(state) and "roll_next" not in state.battle
    closing = pass_all(state)
    assert "dice_rolled" not in [e.type for e in closing]  # red decides again, by a tap


# --- Strike 3: waiting is the exception (issue 23.13, RULES §7) ---------------------------
def test_the_attackers_stop_during_a_window_is_their_pass_and_stops_when_it_closes():
    state = three_way_battle(red=("rally",), blue=("bombard",), green=("cancel-orders",))
    apply(state, Roll("red"), RNG)  # red first says Roll, then changes its mind
    events = apply(state, EndAttack("red"), RNG).events
    assert [e.type for e in events] == ["stop_next"]
    assert "roll_next" not in state.battle and state.battle["stop_next"] is True
    assert "strike_end_attack" not in available_commands(state, "red")
    assert "strike_roll" in available_commands(state, "red")  # red may still change again
    refused(state, EndAttack("red"), "already_passed")
    events = apply(state, Pass("green"), RNG).events
    # the window closed and the attack ended at once, with no tap from red
    assert [e.type for e in events][-3:] == ["attack_ended", "turn_ended", "turn_started"]
    assert next(e for e in events if e.type == "attack_ended")["reason"] == "stopped"
    assert state.battle is None and state.current_player == "blue"


def test_a_card_played_after_the_attackers_stop_asks_the_attacker_again():
    state = three_way_battle(red=("rally",), blue=("bombard",), green=("cancel-orders",))
    pass_all(state)
    apply(state, Roll("red"), ScriptedDice([5, 1], [4, 4]))  # one pair each
    apply(state, EndAttack("red"), RNG)
    events = apply(state, PlayBombard("blue"), RNG).events
    assert "stop_next_undone" in [e.type for e in events]
    assert "red" in waiting_for(state) and "stop_next" not in state.battle
    apply(state, PlayCancelOrders("green", state.window["plays"][0]["id"]), RNG)
    closing = pass_all(state)
    assert "attack_ended" not in [e.type for e in closing]  # red decides again, by a tap
    assert state.battle["step"] == "ready" and waiting_for(state) == ["red"]


def test_a_pass_until_a_card_is_played_asks_again_only_to_answer_a_card():
    state = three_way_battle(red=("troops", "rally", "bombard"), blue=("bombard", "rally"),
                             green=("cancel-orders",), troops=1)
    events = apply(state, Pass("green", until="card"), RNG).events
    assert [e["until"] for e in events if e.type == "passed"] == ["card"]
    assert state.battle["quiet"] == ["green"]
    pass_all(state)
    apply(state, Roll("red"), ScriptedDice([1, 1, 1], [6, 6]))
    # red's troop card is an Artillery target for green, but green asked to wait for a card
    assert waiting_for(state) == ["red", "blue"] and state.window["later"] == ["green"]
    refused(state, PlayCancelOrders("green", 1), "not_eligible")
    apply(state, Pass("blue", until="card"), RNG)
    apply(state, PlayRally("red"), RNG)
    assert waiting_for(state) == ["blue", "green"]  # a card to answer: both are asked now
    apply(state, PlayCancelOrders("green", state.window["plays"][0]["id"]), RNG)
    assert "green" not in waiting_for(state)


def test_a_pass_for_longer_needs_a_battle_and_a_known_length():
    state, _events = with_expand_played()
    refused(state, Pass("blue", until="card"), "no_battle")
    refused(state, Pass("blue", until="game"), "bad_choice")
    assert Pass("blue", until="card").to_dict()["until"] == "card"


def test_the_defenders_deploy_says_how_long_it_is_their_pass():
    # one tap instead of two: the deploy is also a pass for the battle, or until a card
    for until, later, waived in (("card", ["blue"], []), ("battle", [], ["blue"])):
        state = make_state(PLAYERS, tables={"red": ["asia", "asia"], "blue": ["asia"]},
                           hands={"red": ["troops", "rally"], "blue": ["troops", "bombard"],
                                  "green": ["troops", "cancel-orders"]})
        apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG)
        apply(state, Deploy("red", 1), RNG)
        events = apply(state, Deploy("blue", 0, until=until), RNG).events
        assert next(e for e in events if e.type == "troops_deployed")["until"] == until
        assert state.battle.get("quiet", []) == later and state.battle.get("waived", []) == waived
        pass_all(state)
        apply(state, Roll("red"), ScriptedDice([1, 1, 1], [6]))
        # red's troops would be an Artillery target for blue: blue's deploy said to wait
        assert "blue" not in waiting_for(state)
        apply(state, PlayRally("red"), RNG)
        assert ("blue" in waiting_for(state)) == (until == "card")
    state = make_state(PLAYERS, tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"red": ["troops"]})
    apply(state, DeclareAttack("red", "blue", "asia", "asia"), RNG)
    refused(state, Deploy("red", 0, until="round"), "bad_choice")
    assert Deploy("blue", 1).to_dict() == {"type": "strike_deploy", "player": "blue",
                                           "count": 1, "side": None}


def test_a_supporters_troops_may_say_how_long_they_are_their_pass():
    state = three_way_battle(red=("troops", "rally"),
                             green=("troops", "troops", "cancel-orders"))
    apply(state, Deploy("green", 1, "defender", until="battle"), RNG)
    assert state.battle["waived"] == ["green"] and "green" not in waiting_for(state)
    refused(state, Deploy("green", 1, "defender", until="game"), "bad_choice")


def test_an_onlooker_may_sit_out_until_their_next_turn_unless_attacked():
    state = make_state(PLAYERS, tables={"red": ["asia", "asia"], "blue": ["asia", "asia"],
                                        "green": ["asia"]},
                       hands={"red": ["expand", "troops", "rally"], "blue": ["troops", "bombard"],
                              "green": ["troops", "sabotage"]}, phase=DRAW)
    apply(state, PlayExpand("red", "tactics"), RNG)  # no battle yet: still allowed
    events = apply(state, Pass("green", until="turn"), RNG).events
    assert [e["until"] for e in events if e.type == "passed"] == ["turn"]
    assert state.sitting_out == ["green"] and state.to_dict()["sitting_out"] == ["green"]
    pass_all(state)
    apply(state, Draw("red", 1, 1), RNG)
    at_battle(state, "blue", "asia", "asia", 1, 0, until="deployed")
    # green would be asked to add troops or Sabotage after deployment: it sat out
    assert "green" not in waiting_for(state) and "green" not in state.window["eligible"]
    refused(state, PlaySabotage("green"), "not_eligible")
    refused(state, Deploy("green", 1, "attacker"), "not_eligible")
    apply(state, EndAttack("red"), RNG)
    pass_all(state)
    assert state.current_player == "blue" and state.sitting_out == ["green"]
    apply(state, Draw("blue", 2, 0), RNG)
    apply(state, DeclareAttack("blue", "green", "asia", "asia"), RNG)
    assert state.sitting_out == []  # attacked: green answers again
    # and a sitter whose own turn starts is asked again too
    state.sitting_out = ["red"]
    apply(state, Deploy("blue", 0), RNG)
    apply(state, Deploy("green", 0), RNG)
    pass_all(state)
    apply(state, EndAttack("blue"), RNG)
    assert state.current_player == "green" and state.sitting_out == ["red"]
    apply(state, Draw("green", 2, 0), RNG)
    apply(state, PassTurn("green"), RNG)
    assert state.current_player == "red" and state.sitting_out == []


def refusal_of(state, command):
    from pi_app.rules.strike import RuleError

    with pytest.raises(RuleError) as err:
        apply(state, command, RNG)
    return err.value


def test_a_card_refused_to_a_player_who_passed_for_longer_says_which_pass_it_was():
    """RULES §7 passing for longer: a player who passed until their next turn, or for the
    rest of the battle, is asked by no window and cannot play a card in one (`not_eligible`);
    the refusal's sentence names the pass they made (§8: a rejection reason a player can
    act on), not the one they did not."""
    state = make_state(PLAYERS, tables={"red": ["asia", "asia"], "blue": ["asia", "asia"],
                                        "green": ["asia"]},
                       hands={"red": ["expand", "troops", "rally"], "blue": ["troops"],
                              "green": ["troops", "sabotage"]}, phase=DRAW)
    apply(state, PlayExpand("red", "tactics"), RNG)
    apply(state, Pass("green", until="turn"), RNG)
    pass_all(state)
    apply(state, Draw("red", 1, 1), RNG)
    at_battle(state, "blue", "asia", "asia", 1, 0, until="deployed")
    sat_out = refusal_of(state, PlaySabotage("green"))
    assert sat_out.code == "not_eligible" and "next turn" in sat_out.message

    state = three_way_battle(red=("troops", "rally"), green=("cancel-orders", "sabotage"))
    apply(state, Pass("green", until="battle"), RNG)
    apply(state, Pass("red"), RNG)
    apply(state, Roll("red"), ScriptedDice([3, 3], [4, 4]))
    apply(state, PlayRally("red"), RNG)
    waived = refusal_of(state, PlayCancelOrders("green", 1))
    assert waived.code == "not_eligible" and "rest of this battle" in waived.message
    assert "next turn" not in waived.message


def test_a_state_written_before_sitting_out_reads_back():
    from pi_app.rules.strike import StrikeState
    state = make_state(PLAYERS)
    data = state.to_dict()
    del data["sitting_out"]
    assert StrikeState.from_dict(data).sitting_out == []
