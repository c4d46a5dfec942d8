"""The gesture language: each touch or press becomes the right command or selection."""

from __future__ import annotations

from pi_app.rules import (
    Attack,
    Blitz,
    ChooseDefence,
    Claim,
    EndAttack,
    Fortify,
    MoveIn,
    Place,
    TradeCards,
    load_map,
)
from pi_app.table.gestures import (
    EMPTY,
    UNKNOWN_TOKEN,
    Press,
    Selection,
    Touch,
    interpret,
    settle,
)

from .positions import attack_position, border_pair, dealt_game

BOARD = load_map()


def test_touching_an_empty_territory_claims_it(claim_state):
    decision = interpret(claim_state, EMPTY, Touch("alaska"))
    assert decision.command == Claim(claim_state.current_player, "alaska")


def test_a_touch_by_someone_whose_turn_it_is_not_is_refused_on_that_territory(claim_state):
    other = next(p for p in claim_state.players if p != claim_state.current_player)
    decision = interpret(claim_state, EMPTY, Touch("alaska", player=other))
    assert decision.command is None
    assert decision.refusal.code == "not_your_turn"
    assert decision.refusal.territory == "alaska"


def test_an_unknown_tag_is_refused(claim_state):
    decision = interpret(claim_state, EMPTY, Touch("alaska", player=UNKNOWN_TOKEN))
    assert decision.refusal.code == "unknown_token"


def test_setup_touch_places_one_army_and_confirm_needs_no_selection_then():
    state = dealt_game()
    mine = state.territories_of(state.current_player)[0]
    decision = interpret(state, EMPTY, Touch(mine))
    assert decision.command == Place(state.current_player, mine, 1)


def test_confirm_in_reinforce_places_every_remaining_army_on_the_last_touched():
    state = dealt_game()
    state.phase = "reinforce"
    state.reserves[state.current_player] = 7
    mine = state.territories_of(state.current_player)[0]
    decision = interpret(state, Selection(source=mine), Press("confirm"))
    assert decision.command == Place(state.current_player, mine, 7)


def test_holding_confirm_trades_a_set_showing_an_owned_territory_first():
    state = dealt_game()
    state.phase = "reinforce"
    player = state.current_player
    owned = state.territories_of(player)[0]
    state.hands[player] = ["wild-1", "wild-2", owned]
    decision = interpret(state, EMPTY, Press("confirm", long=True))
    assert isinstance(decision.command, TradeCards)
    assert owned in decision.command.cards


def test_source_then_target_then_roll_attacks_with_the_most_dice():
    state = attack_position(dealt_game())
    source, target = border_pair(state)
    sel = interpret(state, EMPTY, Touch(source)).selection
    sel = interpret(state, sel, Touch(target)).selection
    assert (sel.source, sel.target) == (source, target)
    decision = interpret(state, sel, Press("roll"))
    assert decision.command == Attack("red", source, target, 3)


def test_touching_the_source_again_rolls_one_die_fewer():
    state = attack_position(dealt_game())
    source, target = border_pair(state)
    sel = Selection(source=source, target=target)
    sel = interpret(state, sel, Touch(source)).selection
    assert interpret(state, sel, Press("roll")).command == Attack("red", source, target, 2)


def test_holding_roll_blitzes():
    state = attack_position(dealt_game())
    source, target = border_pair(state)
    decision = interpret(state, Selection(source=source, target=target), Press("roll", True))
    assert decision.command == Blitz("red", source, target, 1)


def test_a_non_adjacent_target_is_refused_where_it_was_touched():
    state = attack_position(dealt_game())
    source, _ = border_pair(state)
    far = next(t for t, o in state.owner.items()
               if o != "red" and t not in BOARD.adjacency[source])
    decision = interpret(state, Selection(source=source), Touch(far))
    assert decision.refusal.code == "not_adjacent" and decision.refusal.territory == far


def test_the_defender_rolls_the_most_dice_or_one_fewer_after_touching_their_territory():
    state = attack_position(dealt_game())
    source, target = border_pair(state)
    defender = state.owner[target]
    state.pending = {"kind": "defend", "player": defender, "attacker": "red", "from": source,
                     "to": target, "attack_dice": 3, "max_dice": 2}
    assert interpret(state, EMPTY, Press("roll")).command == ChooseDefence(defender, 2)
    sel = interpret(state, EMPTY, Touch(target, player=defender)).selection
    assert interpret(state, sel, Press("roll")).command == ChooseDefence(defender, 1)
    assert interpret(state, EMPTY, Touch(target, player="red")).refusal.code == "not_your_turn"


def test_move_in_defaults_to_everything_and_touches_adjust_it():
    state = attack_position(dealt_game())
    source, target = border_pair(state)
    state.pending = {"kind": "move_in", "player": "red", "from": source, "to": target,
                     "min": 3, "max": 4, "eliminated": False}
    assert interpret(state, EMPTY, Press("confirm")).command == MoveIn("red", 4)
    sel = interpret(state, EMPTY, Touch(source)).selection
    assert interpret(state, sel, Press("confirm")).command == MoveIn("red", 3)
    assert interpret(state, EMPTY, Press("confirm", True)).command == MoveIn("red", 3)


def test_end_phase_ends_the_attack():
    state = attack_position(dealt_game())
    assert interpret(state, EMPTY, Press("end_phase")).command == EndAttack("red")


def test_fortify_from_then_to_then_confirm_moves_the_chosen_count():
    state = attack_position(dealt_game())
    state.phase = "fortify"
    src, dst = next((s, d) for s in state.territories_of("red") for d in _reach(state, s))
    sel = interpret(state, EMPTY, Touch(src)).selection
    sel = interpret(state, sel, Touch(dst)).selection
    sel = interpret(state, sel, Touch(dst)).selection
    assert interpret(state, sel, Press("confirm")).command == Fortify("red", src, dst, 2)
    assert interpret(state, sel, Press("confirm", True)).command == Fortify("red", src, dst, 4)


def _reach(state, src):
    from pi_app.rules import fortify_destinations

    return set(fortify_destinations(state, src))


def test_undo_first_drops_the_selection_then_asks_for_an_undo():
    state = attack_position(dealt_game())
    source, target = border_pair(state)
    first = interpret(state, Selection(source=source, target=target), Press("undo"))
    assert first.selection == EMPTY and not first.undo
    assert interpret(state, EMPTY, Press("undo")).undo


def test_settle_drops_a_target_that_was_conquered():
    state = attack_position(dealt_game())
    source, target = border_pair(state)
    state.owner[target] = "red"
    assert settle(state, Selection(source=source, target=target)).target is None
