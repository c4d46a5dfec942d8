"""Issue 13's gestures: the aim that stays, the harmless leftover source, counts and their
limits, the defence prompt answered only by Roll and the attacked territory, and refusals
addressed to whoever touched."""

from __future__ import annotations

from pi_app.rules import Attack, ChooseDefence, Fortify, MoveIn, load_map
from pi_app.table.gestures import (
    EMPTY,
    Press,
    Refusal,
    Selection,
    Touch,
    addressed,
    current_count,
    interpret,
)

from .boardplay import BoardPlay
from .positions import attack_position, border_pair, dealt_game

BOARD = load_map()
ROLL, CONFIRM = Press("roll"), Press("confirm")


def aimed(seed: int = 3) -> tuple[BoardPlay, str, str]:
    """red's attack phase (5 armies each, enemies 2): the attack aimed in two touches."""
    play = BoardPlay(attack_position(dealt_game(seed)))
    source, target = border_pair(play.state)
    play.do(Touch(source))
    play.do(Touch(target))
    return play, source, target


def test_the_aim_stays_across_a_defended_roll_so_the_next_roll_is_one_press():
    play, source, target = aimed()
    assert isinstance(play.do(ROLL).command, Attack)
    assert play.state.pending["kind"] == "defend", "the defender is asked (the default)"
    assert isinstance(play.do(ROLL).command, ChooseDefence)
    assert play.state.pending is None and play.state.owner[target] != "red"
    assert (play.selection.source, play.selection.target) == (source, target)
    again = play.do(ROLL)
    most = min(3, play.state.armies[source] - 1)
    assert again.command == Attack("red", source, target, most), "a later roll is one press"


def test_touching_the_target_again_rolls_after_a_defended_roll_too():
    play, _source, target = aimed()
    play.do(ROLL)
    play.do(ROLL)
    assert isinstance(play.do(Touch(target)).command, Attack)


def test_the_aim_ends_when_the_territory_falls_and_after_the_move_in():
    play, source, target = aimed()
    play.state.armies[source] = 30
    for _ in range(40):
        if play.state.owner[target] == "red" or play.state.armies[source] < 2:
            break
        play.do(ROLL)  # attacker
        if play.state.pending and play.state.pending["kind"] == "defend":
            play.do(ROLL)  # defender
    assert play.state.owner[target] == "red", "30 against 2 falls"
    assert play.state.pending["kind"] == "move_in"
    assert play.selection.source is None and play.selection.target is None
    assert isinstance(play.do(CONFIRM).command, MoveIn)
    assert play.selection == EMPTY


def test_the_aim_ends_when_the_source_is_down_to_one():
    play, source, target = aimed()
    play.state.armies[source] = 2
    play.state.armies[target] = 30
    for _ in range(10):
        if play.state.armies[source] < 2:
            break
        play.do(ROLL)
        if play.state.pending and play.state.pending["kind"] == "defend":
            play.do(ROLL)
    assert play.state.armies[source] == 1
    assert play.selection == EMPTY


def test_aiming_elsewhere_replaces_the_aim():
    play, source, _target = aimed()
    play.do(ROLL)
    play.do(ROLL)
    other = next(t for t in play.state.territories_of("red")
                 if t != source and any(play.state.owner[n] != "red"
                                        for n in BOARD.neighbours[t]))
    play.do(Touch(other))
    assert play.selection == Selection(source=other)


def test_the_leftover_source_after_placing_is_harmless():
    state = attack_position(dealt_game())
    state.phase = "reinforce"
    state.reserves["red"] = 3
    play = BoardPlay(state)
    source, target = border_pair(state)
    play.do(Touch(source))
    play.do(CONFIRM)  # the rest on the last territory touched: the attack phase starts
    assert play.state.phase == "attack"
    assert play.selection.source == source, "shown as the source"
    # README: touch your territory, then an enemy neighbour
    assert play.do(Touch(source)).refusal is None
    assert play.selection.source == source, "touching the lit source again keeps it"
    assert play.do(Touch(target)).refusal is None
    assert play.selection.target == target
    assert isinstance(play.do(ROLL).command, Attack)


def test_only_roll_and_the_attacked_territory_answer_a_defence_prompt():
    play, source, target = aimed()
    play.do(ROLL)
    assert play.do(CONFIRM).refusal.code == "awaiting_defence"
    assert play.do(Press("end_phase")).refusal.code == "awaiting_defence"
    assert play.do(Touch(source)).refusal.code == "awaiting_defence"
    assert current_count(play.state, play.selection).value == 2
    assert play.do(Touch(target)).refusal is None  # one die fewer
    assert current_count(play.state, play.selection).value == 1
    defender = play.state.pending["player"]
    assert play.do(ROLL).command == ChooseDefence(defender, 1)


def move_in_position() -> tuple[BoardPlay, str, str]:
    play, source, target = aimed()
    play.state.armies[source] = 20
    play.state.armies[target] = 1  # no defence prompt for one army
    while play.state.owner[target] != "red":
        play.do(ROLL)
    assert play.state.pending["kind"] == "move_in"
    return play, source, target


def test_move_in_count_is_visible_and_plus_one_at_its_limit_blinks():
    play, source, target = move_in_position()
    pending = play.state.pending
    count = current_count(play.state, play.selection)
    assert (count.what, count.value, count.high, count.on) == (
        "move_in", pending["max"], pending["max"], target)  # Confirm would move them all
    assert play.do(Touch(target)).limit == target, "already the most: +1 blinks"
    assert play.do(Touch(source)).limit is None
    assert current_count(play.state, play.selection).value == pending["max"] - 1
    for _ in range(pending["max"] - pending["min"] - 1):
        play.do(Touch(source))
    assert current_count(play.state, play.selection).value == pending["min"]
    assert play.do(Touch(source)).limit == source, "already the least: -1 blinks"
    assert play.do(CONFIRM).command == MoveIn("red", pending["min"])


def test_fortify_count_is_visible_and_its_limits_blink():
    state = attack_position(dealt_game())
    state.phase = "fortify"
    play = BoardPlay(state)
    source = next(t for t in state.territories_of("red")
                  if any(state.owner[n] == "red" for n in BOARD.neighbours[t]))
    dest = next(n for n in BOARD.neighbours[source] if state.owner[n] == "red")
    play.do(Touch(source))
    play.do(Touch(dest))
    assert current_count(play.state, play.selection).to_dict() == {
        "what": "fortify", "value": 1, "low": 1, "high": 4, "on": dest}
    assert play.do(Touch(source)).limit == source
    for _ in range(3):
        assert play.do(Touch(dest)).limit is None
    assert play.do(Touch(dest)).limit == dest
    assert play.do(CONFIRM).command == Fortify("red", source, dest, 4)


def test_attack_dice_count_follows_the_source_touches():
    play, source, _target = aimed()
    assert current_count(play.state, play.selection).value == 3
    play.do(Touch(source))
    assert current_count(play.state, play.selection).to_dict() == {
        "what": "attack_dice", "value": 2, "low": 1, "high": 3, "on": source}


def test_refusals_name_the_toucher_on_nfc_boards_and_no_one_on_button_boards():
    state = attack_position(dealt_game())
    blue_land = next(t for t in state.territories_of("blue"))
    by_token = interpret(state, EMPTY, Touch(blue_land, player="blue")).refusal
    assert by_token.toucher == "blue"
    assert addressed(by_token, "red", state).startswith("blue: ")
    plain = Refusal("not_your_territory", "Brazil is not yours.")
    said = addressed(plain, "red", state)
    assert "yours" not in said and "you" not in said.lower().split()
    assert said == "Brazil is not red's. It is red's turn."
    assert addressed(Refusal("x", "You hold no set of cards to trade."), "red") == \
        "red holds no set of cards to trade. It is red's turn."
