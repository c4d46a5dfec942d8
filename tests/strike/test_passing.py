"""A seat's passing choice (docs/RULES.md §7, "Passing"): said once, public, kept; and the
default a seat that never chose gets: a window asks it only while its hand holds a card that
could change the result."""

from __future__ import annotations

from pi_app.dice import SeededSource
from pi_app.rules.strike import (
    ChoosePassing,
    DeclareAttack,
    Deploy,
    Pass,
    PlayArtillery,
    PlayRally,
    PlaySpy,
    Roll,
    answers,
    apply,
    attack_choices,
    available_commands,
    command_from_dict,
    new_game,
    redact_strike,
    waiting_for,
)
from pi_app.rules.strike.state import StrikeState

from .builders import ScriptedDice, at_battle, make_state, refused

THREE = ["red", "blue", "green"]


def _asked(state: StrikeState) -> list[str]:
    """Whom the open window waits for (nobody once it has closed)."""
    return waiting_for(state) if state.window is not None else []


def _default(**given) -> StrikeState:
    """A state in which nobody has chosen: every seat gets the default."""
    return make_state(THREE, passing=None, **given)


# --- the choice: a journaled, public, standing command ------------------------------------
def test_a_seat_chooses_its_passing_out_of_turn_and_everyone_sees_it():
    state = new_game(THREE, None, SeededSource(1)).state
    other = next(p for p in THREE if p != state.current_player)
    assert state.passing_of(other) == "result"  # nobody chose: the default
    events = apply(state, ChoosePassing(other, "every"), SeededSource(2)).events
    assert [e.to_dict() for e in events] == [
        {"type": "passing_chosen", "player": other, "choice": "every"}]
    assert state.passing_of(other) == "every"
    for viewer in (None, *THREE):  # public: every view carries it
        assert redact_strike(state, viewer)["passing"] == {other: "every"}
    assert StrikeState.from_dict(state.to_dict()).passing == {other: "every"}


def test_a_passing_choice_round_trips_through_its_dict_form():
    command = ChoosePassing("blue", "result")
    assert command.to_dict() == {"type": "strike_choose_passing", "player": "blue",
                                 "choice": "result"}
    assert command_from_dict(command.to_dict()) == command


def test_a_passing_choice_the_table_does_not_offer_is_refused():
    refused(_default(), ChoosePassing("blue", "never"), "bad_passing")
    refused(_default(), ChoosePassing("blue", 3), "bad_passing")


def test_a_passing_choice_is_accepted_while_a_window_is_open():
    state = make_state(THREE, hands={"red": ["spy"], "blue": ["cancel-orders"]})
    apply(state, PlaySpy("red", "blue"), SeededSource(0))
    assert waiting_for(state) == ["blue"]
    apply(state, ChoosePassing("green", "result"), SeededSource(0))
    assert waiting_for(state) == ["blue"] and state.passing["green"] == "result"


def test_a_state_written_before_the_passing_choice_reads_back_with_the_default():
    data = _default().to_dict()
    del data["passing"]
    state = StrikeState.from_dict(data)
    assert state.passing == {} and state.passing_of("red") == "result"


# --- the default: asked only with a card that could change the result ---------------------
def test_the_window_after_deployment_asks_an_onlooker_only_with_troops_or_a_card_for_it():
    state = _default(tables={"red": ["asia"], "blue": ["asia"]},
                     hands={"red": ["spy"], "blue": ["rally"], "green": ["cancel-orders"]})
    apply(state, DeclareAttack("red", "blue", "asia", "asia"), SeededSource(0))
    apply(state, Deploy("red", 0), SeededSource(0))
    events = apply(state, Deploy("blue", 0), SeededSource(0)).events
    assert [e["by"] for e in events if e.type == "window_closed"] == ["nobody"]
    # green's Cancel Orders answers a card: none is played yet; red's Spy waits for red's
    # next decision; blue's Rally answers a roll: nobody is asked, the window is closed
    assert state.window is None and state.battle["step"] == "ready"
    state = _default(tables={"red": ["asia"], "blue": ["asia"]},
                     hands={"red": ["spy"], "blue": ["rally"], "green": ["troops"]})
    at_battle(state, "blue", "asia", "asia", until="deployed")
    assert waiting_for(state) == ["green"]  # green may add troops to a side


def test_sabotage_is_a_reason_to_ask_in_the_window_after_deployment():
    state = _default(tables={"red": ["asia"], "blue": ["asia"]},
                     hands={"red": ["troops"], "green": ["sabotage"]})
    at_battle(state, "blue", "asia", "asia", attacker_troops=1, until="deployed")
    assert waiting_for(state) == ["green"] and answers(state, "green") == ["sabotage"]


def test_after_a_roll_a_losing_side_holding_rally_is_asked_and_a_winning_one_is_not():
    state = _default(tables={"red": ["asia", "asia"], "blue": ["asia"]},
                     hands={"red": ["rally"], "blue": ["bombard"]})
    at_battle(state, "blue", "asia", "asia")
    apply(state, Roll("red"), ScriptedDice([3, 2], [5]))  # red loses the pair
    assert waiting_for(state) == ["red"]
    state = _default(tables={"red": ["asia", "asia"], "blue": ["asia"]},
                     hands={"red": ["rally"], "blue": ["cancel-orders"]})
    at_battle(state, "blue", "asia", "asia")
    events = apply(state, Roll("red"), ScriptedDice([6, 2], [5])).events
    # red wins the pair, blue holds nothing for its dice: nobody is asked, the dice compare
    assert state.window is None and "battle" in [e.type for e in events]


def test_a_card_played_asks_those_whose_hand_now_answers_it():
    state = _default(tables={"red": ["asia", "asia"], "blue": ["asia"]},
                     hands={"red": ["rally"], "blue": ["bombard", "cancel-orders"],
                            "green": ["cancel-orders"]})
    at_battle(state, "blue", "asia", "asia")
    apply(state, Roll("red"), ScriptedDice([4, 2], [5]))  # red loses 4:5; blue wins it
    assert waiting_for(state) == ["red"]
    apply(state, PlayRally("red"), SeededSource(0))
    # the Rally makes it 6:5: blue's dice now lose, so its Bombard may answer; both may
    # cancel the Rally
    assert waiting_for(state) == ["blue", "green"]
    assert answers(state, "blue") == ["bombard", "cancel-orders"]


def test_a_spy_asks_only_those_holding_cancel_orders():
    state = _default(hands={"red": ["spy", "spy"], "blue": ["troops", "rally"],
                            "green": ["cancel-orders"]})
    apply(state, PlaySpy("red", "blue"), SeededSource(0))
    assert waiting_for(state) == ["green"]


def test_artillery_is_asked_for_while_another_players_troops_are_active():
    state = _default(tables={"red": ["asia"], "blue": ["asia"]},
                     hands={"red": ["troops", "troops"], "green": ["artillery"]})
    at_battle(state, "blue", "asia", "asia", attacker_troops=2, until="deployed")
    assert waiting_for(state) == ["green"]
    apply(state, PlayArtillery("green", "red"), SeededSource(0))
    assert state.window is None or "green" not in waiting_for(state)


def test_a_seat_not_asked_holds_no_card_it_could_play_in_the_window():
    """What the default skips is no reaction lost: a seat it leaves out may not play its
    card, and holds none whose play could change anything (its hand is Spy and Expand,
    which wait for a decision, and a Rally its winning dice do not need)."""
    state = _default(tables={"red": ["asia", "asia"], "blue": ["asia"]},
                     hands={"red": ["spy", "expand"], "blue": ["rally"]})
    at_battle(state, "blue", "asia", "asia")
    apply(state, Roll("red"), ScriptedDice([4, 2], [5]))
    # red loses 4:5 but holds nothing for its dice; blue's winning dice need no Rally
    assert state.window is None
    state = _default(tables={"red": ["asia", "asia"], "blue": ["asia"]},
                     hands={"red": ["rally"], "blue": ["rally"]})
    at_battle(state, "blue", "asia", "asia")
    apply(state, Roll("red"), ScriptedDice([4, 2], [5]))
    assert waiting_for(state) == ["red"] and answers(state, "blue") == []
    refused(state, PlayRally("blue"), "not_eligible")


def test_every_keeps_the_strike_3_asking_from_public_facts():
    state = make_state(THREE, passing=None, tables={"red": ["asia"], "blue": ["asia"]},
                       hands={"red": ["spy"], "blue": ["rally"], "green": ["spy"]})
    state.passing["green"] = "every"
    at_battle(state, "blue", "asia", "asia", until="deployed")
    # green's hand of one Spy is asked like any hand: its pace tells nothing
    assert waiting_for(state) == ["green"]
    apply(state, Pass("green"), SeededSource(0))
    assert state.window is None


def test_choosing_every_later_makes_the_next_window_ask():
    state = _default(tables={"red": ["asia"], "blue": ["asia"]},
                     hands={"red": ["spy"], "green": ["spy"]})
    apply(state, ChoosePassing("green", "every"), SeededSource(0))
    at_battle(state, "blue", "asia", "asia", until="deployed")
    assert waiting_for(state) == ["green"]


# --- the attack form: only opponents that can be attacked ---------------------------------
def test_attack_choices_name_only_opponents_holding_a_card_in_reach():
    state = _default(tables={"red": ["south-america"], "blue": ["asia"],
                             "green": ["africa", "asia"]})
    # South America reaches itself, North America and Africa: blue's Asia is out of reach
    assert attack_choices(state, "red") == {"green": {"south-america": ["africa"]}}
    apply(state, DeclareAttack("red", "green", "south-america", "africa"), SeededSource(0))


def test_declare_attack_is_not_offered_when_no_opponent_can_be_attacked():
    state = _default(tables={"red": ["australia"], "blue": ["europe"], "green": ["europe"]})
    assert attack_choices(state, "red") == {}
    assert "strike_declare_attack" not in available_commands(state, "red")
    assert "strike_pass_turn" in available_commands(state, "red")



# --- what "could change the result" means, card by card ------------------------------------
def test_a_rally_that_cannot_turn_a_pair_is_no_reason_but_rally_with_bombard_is():
    # red's 1 against blue's 6: Rally makes 3, Bombard a 6 (a tie goes to the defender);
    # only both (Bombard, then Rally: 8) win the pair
    for hand, asked in ((["rally"], []), (["bombard"], []), (["rally", "bombard"], ["red"])):
        state = _default(tables={"red": ["asia"], "blue": ["asia"]}, hands={"red": hand})
        at_battle(state, "blue", "asia", "asia")
        apply(state, Roll("red"), ScriptedDice([1], [6]))
        assert _asked(state) == asked, hand


def test_artillery_waits_for_troops_that_take_no_loss_and_add_no_die():
    """Red rolls 3 dice from its 3 Asia cards alone, so its troop adds no die; while red
    wins the roll the troop takes no loss either: green's Artillery can hit it later, when
    it would. Once red loses a pair, hitting the troop now puts the loss on a card."""
    for red_dice, asked in (([6, 6, 6], []), ([6, 1, 1], ["green"])):
        state = _default(tables={"red": ["asia"] * 3, "blue": ["asia"] * 2},
                         hands={"red": ["troops"], "green": ["artillery"]})
        # before the first roll too: the troop adds no die, the window closed at once
        at_battle(state, "blue", "asia", "asia", attacker_troops=1, until="ready")
        apply(state, Roll("red"), ScriptedDice(red_dice, [5, 5]))
        assert _asked(state) == asked, red_dice


def test_artillery_is_no_reason_after_the_roll_that_ends_the_battle():
    """Red's two troops add a die (2 Asia cards + 2 troops: 3 dice, 2 after a hit), and
    red wins both pairs: with 2 Asia cards blue loses its last and no roll comes after
    this one, so green is not asked; with 3 blue keeps one, and green is."""
    for blue_cards, asked in ((2, []), (3, ["green"])):
        state = _default(tables={"red": ["asia"] * 2, "blue": ["asia"] * blue_cards},
                         hands={"red": ["troops", "troops"], "green": ["artillery"]})
        at_battle(state, "blue", "asia", "asia", attacker_troops=2, until="deployed")
        apply(state, Pass("green"), SeededSource(0))
        apply(state, Roll("red"), ScriptedDice([6, 6, 6], [2, 1]))
        assert _asked(state) == asked, blue_cards
