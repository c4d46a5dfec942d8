"""Legal-action queries for user interfaces and bots."""

from __future__ import annotations

from pi_app.dice import SeededSource
from pi_app.rules import (
    Attack,
    Blitz,
    ChooseDefence,
    EndAttack,
    EndTurn,
    HouseRules,
    apply,
    attack_dice_range,
    card_sets,
    defence_dice_range,
    fortify_destinations,
    legal_attacks_from,
    legal_commands,
    new_game,
    selectable_territories,
    trade_value_next,
    waiting_for,
)
from pi_app.rules.errors import RuleError
from pi_app.rules.state import CLAIM, FORTIFY, GAME_OVER, REINFORCE, SETUP_PLACE

from .builders import position

CELLS = {"alaska": ["red", 4], "alberta": ["red", 1], "ontario": ["red", 2],
         "northwest-territory": ["blue", 1], "kamchatka": ["green", 3],
         "western-united-states": ["blue", 1]}


def test_valid_attack_targets_are_the_enemy_neighbours():
    state = position(territories=CELLS)
    assert legal_attacks_from(state, "alaska") == ["northwest-territory", "kamchatka"]
    assert legal_attacks_from(state, "alberta") == []  # only one army
    assert legal_attacks_from(state, "kamchatka") == []  # not red's


def test_dice_limits():
    state = position(territories=CELLS)
    assert attack_dice_range(state, "alaska") == (1, 3)
    assert attack_dice_range(state, "ontario") == (1, 1)
    assert attack_dice_range(state, "alberta") == (0, 0)
    assert defence_dice_range(state, "kamchatka") == (1, 2)
    assert defence_dice_range(state, "northwest-territory") == (1, 1)


def test_fortify_destinations_follow_the_house_rule():
    state = position(territories=CELLS, phase=FORTIFY)
    reach = fortify_destinations(state, "alaska")
    assert "alberta" in reach and "ontario" in reach and "alaska" not in reach
    adjacent = position(territories=CELLS, phase=FORTIFY,
                        house_rules=HouseRules(fortify="adjacent"))
    assert fortify_destinations(adjacent, "alaska") == ["alberta"]
    assert fortify_destinations(state, "alberta") == []  # nothing to move


def test_selectable_territories_by_phase():
    state = new_game("classic", ["red", "blue", "green"], HouseRules(), SeededSource(1)).state
    assert state.phase == CLAIM
    assert len(selectable_territories(state, state.current_player)) == 42
    other = next(p for p in state.players if p != state.current_player)
    assert selectable_territories(state, other) == []
    attack = position(territories=CELLS)
    assert "alaska" in selectable_territories(attack, "red")
    assert "kamchatka" not in selectable_territories(attack, "red")
    forced = position(phase=REINFORCE, reserves={"red": 3},
                      hands={"red": ["alaska", "venezuela", "peru", "iceland", "egypt"]})
    assert selectable_territories(forced, "red") == []  # must trade first
    assert card_sets(forced, "red")


def test_selectable_territories_while_a_decision_is_pending():
    """RULES §2.5 elimination: a player whose hand went to 6+ trades down to 4 or fewer, then
    places those armies at once: while they hold more than 4 no territory is theirs to
    touch, at 4 or fewer their own are (to place on). §2.6: while the defender chooses dice
    nobody touches a territory, the defender included (the answer is a number of dice)."""
    five = ["alaska", "venezuela", "peru", "iceland", "egypt"]
    trading = position(territories=CELLS, hands={"red": five}, reserves={"red": 4},
                       pending={"kind": "trade_down", "player": "red", "limit": 4})
    assert selectable_territories(trading, "red") == []
    assert selectable_territories(trading, "blue") == []
    placing = position(territories=CELLS, hands={"red": five[:4]}, reserves={"red": 4},
                       pending={"kind": "trade_down", "player": "red", "limit": 4})
    assert selectable_territories(placing, "red") == placing.territories_of("red")
    assert selectable_territories(placing, "blue") == []
    defending = position(territories=CELLS, pending={
        "kind": "defend", "player": "green", "attacker": "red", "from": "alaska",
        "to": "kamchatka", "attack_dice": 3, "max_dice": 2})
    assert selectable_territories(defending, "green") == []
    assert selectable_territories(defending, "red") == []


def test_nothing_is_legal_once_the_game_is_won():
    """RULES §2.8: the game ends with its victory; no command is legal for anyone after it,
    the winner included (engine.apply refuses them all: game_over)."""
    state = position(territories=CELLS, winner="red", phase=GAME_OVER)
    assert [legal_commands(state, p) for p in ("red", "blue", "green")] == [[], [], []]


def test_while_one_player_decides_the_others_have_no_legal_command():
    """RULES §2.6: the defender declares their dice once the attacker has; until they do,
    nobody else may act, the attacker whose turn it is included (engine.apply answers
    not_your_turn)."""
    state = position(territories=CELLS, pending={
        "kind": "defend", "player": "green", "attacker": "red", "from": "alaska",
        "to": "kamchatka", "attack_dice": 3, "max_dice": 2})
    assert legal_commands(state, "red") == legal_commands(state, "blue") == []
    assert legal_commands(state, "green") == [ChooseDefence("green", 1),
                                              ChooseDefence("green", 2)]


def test_every_listed_legal_command_is_accepted():
    state = position(territories=CELLS, hands={"red": ["peru", "greenland", "brazil"]})
    for command in legal_commands(state, "red"):
        trial = state.copy()
        try:
            apply(trial, command, SeededSource(0))
        except RuleError as err:  # pragma: no cover - the assertion explains
            raise AssertionError(f"{command} listed as legal but refused: {err}") from err
    commands = legal_commands(state, "red")
    assert EndAttack("red") in commands and EndTurn("red") in commands
    assert legal_commands(state, "blue") == []


def test_waiting_for_and_next_trade_value():
    state = position(territories=CELLS, trade_count=5)
    assert waiting_for(state) == "red"
    assert trade_value_next(state) == 15


def test_in_setup_placement_exactly_your_own_territories_are_selectable():
    state = position(territories=CELLS, phase=SETUP_PLACE, reserves={"red": 3, "blue": 3})
    assert selectable_territories(state, "red") == state.territories_of("red")
    assert "alaska" in state.territories_of("red")
    assert selectable_territories(state, "blue") == []  # not blue's placement


def test_in_the_fortify_phase_only_sources_with_somewhere_to_go_are_selectable():
    # red's territories hold 1 army each except alaska (4) and ontario (2), and both
    # touch alberta (red): only they can move armies
    state = position(territories=CELLS, phase=FORTIFY)
    assert sorted(selectable_territories(state, "red")) == ["alaska", "ontario"]
    assert selectable_territories(state, "blue") == []
    state.armies["ontario"] = 1
    assert selectable_territories(state, "red") == ["alaska"]


def test_legal_attacks_run_from_one_die_up_to_the_most_dice_the_source_allows():
    state = position(territories=CELLS)
    attacks = [c for c in legal_commands(state, "red") if isinstance(c, Attack)]
    from_alaska = sorted(c.dice for c in attacks
                         if c.source == "alaska" and c.target == "kamchatka")
    assert from_alaska == [1, 2, 3]  # 4 armies: up to 3 dice
    from_ontario = sorted(c.dice for c in attacks if c.source == "ontario"
                          and c.target == "northwest-territory")
    assert from_ontario == [1]  # 2 armies: one die
    assert Blitz("red", "alaska", "kamchatka", 1) in legal_commands(state, "red")
