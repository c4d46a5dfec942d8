"""Two-player RISK with the Allied Army (docs/RULES.md §6, seed 003): claims, the allied phase
between attack and fortify, Allied defence, the end of the Allied Army."""

from __future__ import annotations

import pytest
from rules.builders import dice, no_chance, position, refused

from pi_app.dice import SeededSource
from pi_app.rules import (
    Attack,
    Blitz,
    ChooseDefence,
    Claim,
    EndAttack,
    EndTurn,
    Fortify,
    HouseRules,
    MoveIn,
    Place,
    PlaceNeutral,
    RuleError,
    apply,
    legal_attacks_from,
    legal_commands,
    new_game,
    selectable_territories,
)
from pi_app.rules.board import load_map
from pi_app.rules.state import ALLIED, CLAIM, FORTIFY, REINFORCE, SETUP_PLACE

from .playing import bot_game, events_of

BOARD = load_map()
ALLY = "allied"


def claimed(initial: str = "even"):
    """An Allied game right after both seats have claimed 14 territories each."""
    state = new_game("allied", ["red", "blue"], HouseRules(allied_initial=initial),
                     SeededSource(2)).state
    free = iter(BOARD.territories)
    events = []
    while state.phase == CLAIM:
        events += apply(state, Claim(state.current_player, next(free)), no_chance()).events
    return state, events


def test_claims_stop_at_14_each_and_the_allied_army_takes_the_rest_two_apiece():
    state, events = claimed()
    assert state.territory_count("red") == state.territory_count("blue") == 14
    rest = state.territories_of(ALLY)
    assert len(rest) == 14 and all(state.armies[t] == 2 for t in rest)
    assert state.reserves == {"red": 26, "blue": 26}
    assert state.variant_data["reserve"] == 0
    assert state.phase == SETUP_PLACE
    assert events[-1].to_dict() == {"type": "allied_deployed", "army": ALLY,
                                    "territories": rest, "armies_each": 2, "reserve": 0}


def test_free_allied_setup_puts_one_each_and_the_players_place_the_other_14():
    state, _ = claimed("free")
    assert all(state.armies[t] == 1 for t in state.territories_of(ALLY))
    assert state.variant_data["reserve"] == 14
    rng = SeededSource(0)
    while state.phase == SETUP_PLACE:
        apply(state, legal_commands(state, state.current_player)[0], rng)
    assert sum(state.armies[t] for t in state.territories_of(ALLY)) == 28
    # the reserve now holds only the first turn's Allied reinforcement
    assert state.variant_data["reserve"] == state.reserves[state.current_player] // 2


def test_free_allied_setup_turns_are_one_own_army_then_one_allied_army():
    """RULES §6 with `house_rules.allied_initial = "free"` (allied.py): the Allied Army
    starts with 1 army on each of its 14 territories and the players place its other 14,
    so every setup placing turn is exactly 1 own army and 1 Allied army, then the other
    player places."""
    state, _ = claimed("free")
    first = state.current_player
    other = "blue" if first == "red" else "red"
    mine, ally = state.territories_of(first)[0], state.territories_of(ALLY)[0]
    refused(state, Place(first, mine, 2), "bad_count")
    refused(state, PlaceNeutral(first, ally, 2), "bad_count")
    apply(state, Place(first, mine, 1), no_chance())
    assert state.current_player == first
    refused(state, Place(first, mine, 1), "place_neutral_now")
    apply(state, PlaceNeutral(first, ally, 1), no_chance())
    assert state.current_player == other
    assert state.armies[ally] == 2 and state.variant_data["reserve"] == 13


def test_even_setup_places_own_armies_one_at_a_time_alternately():
    state, _ = claimed()
    first = state.current_player
    refused(state, Place(first, state.territories_of(first)[0], 2), "bad_count")
    refused(state, PlaceNeutral(first, state.territories_of(ALLY)[0], 1), "bad_count")
    apply(state, Place(first, state.territories_of(first)[0], 1), no_chance())
    assert state.current_player != first
    rng = SeededSource(0)
    while state.phase == SETUP_PLACE:
        apply(state, legal_commands(state, state.current_player)[0], rng)
    assert state.phase == REINFORCE
    assert sum(state.armies[t] for t in state.territories_of("red")) == 40


def allied_game(**kw):
    """Red's attack phase; the Allied Army holds egypt and east-africa with 3 armies."""
    territories = {"egypt": [ALLY, 3], "east-africa": [ALLY, 3]}
    territories.update(kw.pop("territories", {}))
    state = position(["red", "blue"], territories, variant="allied", **kw)
    state.variant_data.update(placing=None, allied_turn=None, reserve=0)
    return state


def test_the_allied_army_gets_half_the_turn_players_reinforcements():
    skip = ("egypt", "east-africa", "alaska", "brazil", "iceland", "siam", "indonesia")
    others = [t for t in BOARD.territories if t not in skip]
    territories = {t: ["red", 1] for t in BOARD.territories if t not in skip[:2]}
    territories.update({t: ["blue", 1] for t in others[:27]})
    state = allied_game(territories=territories, phase=FORTIFY)
    assert state.territory_count("blue") == 27  # 9 armies, no whole continent
    outcome = apply(state, EndTurn("red"), no_chance())
    started = next(e for e in outcome.events if e.type == "turn_started")
    assert started["player"] == "blue" and started["reinforcements"] == 9
    gained = [e.to_dict() for e in outcome.events if e.type == "allied_reinforced"]
    assert gained == [{"type": "allied_reinforced", "army": ALLY, "armies": 4, "reserve": 4,
                       "turn_of": "blue"}]


def test_ending_the_attack_hands_the_allied_army_to_the_opponent():
    state = allied_game()
    state.variant_data["reserve"] = 4
    outcome = apply(state, EndAttack("red"), no_chance())
    assert state.phase == ALLIED and state.current_player == "blue"
    assert outcome.events[-1].to_dict() == {"type": "phase", "player": "blue",
                                            "phase": ALLIED, "army": ALLY,
                                            "turn_of": "red", "reserve": 4}
    assert selectable_territories(state, "blue") == ["egypt", "east-africa"]
    assert legal_attacks_from(state, "egypt") == []  # the reserve goes down first
    refused(state, Attack("blue", "egypt", "middle-east", 1), "armies_to_place")
    refused(state, EndAttack("blue"), "armies_to_place")
    refused(state, Place("blue", state.territories_of("blue")[0], 1), "not_allied_territory")
    refused(state, Place("red", "egypt", 1), "not_your_turn")
    with pytest.raises(RuleError, match="blue commands the Allied Army now"):
        apply(state, EndTurn("red"), no_chance())
    apply(state, Place("blue", "egypt", 4), no_chance())
    assert state.armies["egypt"] == 7 and state.variant_data["reserve"] == 0


def test_the_allied_army_attacks_only_the_turn_player_and_the_turn_player_defends():
    state = allied_game(territories={"middle-east": ["red", 2], "north-africa": ["blue", 1],
                                     "southern-europe": ["red", 1], "india": ["red", 1]})
    state.variant_data["reserve"] = 3
    apply(state, EndAttack("red"), no_chance())
    apply(state, Place("blue", "egypt", 3), no_chance())
    assert set(legal_attacks_from(state, "egypt")) == {"middle-east", "southern-europe"}
    refused(state, Attack("blue", "egypt", "north-africa", 1), "allied_attacks_only_turn_player")
    refused(state, Attack("blue", "north-africa", "egypt", 1), "not_allied_territory")
    refused(state, Attack("blue", "egypt", "india", 1), "not_adjacent")
    apply(state, Attack("blue", "egypt", "middle-east", 3), no_chance())
    assert state.pending["player"] == "red"
    outcome = apply(state, ChooseDefence("red", 2), dice((6, 6, 1), (1, 1)))
    assert outcome.events[0]["attacker"] == ALLY
    assert state.owner["middle-east"] == ALLY
    assert state.pending["kind"] == "move_in" and state.pending["player"] == "blue"
    outcome = apply(state, MoveIn("blue", 3), no_chance())
    assert outcome.events[-1].to_dict()["player"] == ALLY
    assert state.armies["middle-east"] == 3 and state.armies["egypt"] == 3


def test_allied_conquests_give_the_turn_player_no_card_and_the_turn_goes_on_to_fortify():
    state = allied_game(territories={"middle-east": ["red", 1]})
    top = state.deck[-1]
    apply(state, EndAttack("red"), no_chance())
    apply(state, Blitz("blue", "egypt", "middle-east", 1), dice((6, 6), (1,)))
    assert state.owner["middle-east"] == ALLY
    apply(state, EndAttack("blue"), no_chance())
    assert state.phase == FORTIFY and state.current_player == "red"
    assert not state.conquered_this_turn
    apply(state, EndTurn("red"), no_chance())
    assert state.hands["red"] == [] and state.deck[-1] == top


def test_fortify_waits_for_the_allied_phase():
    state = allied_game(territories={"alaska": ["red", 3], "alberta": ["red", 1]})
    refused(state, Fortify("red", "alaska", "alberta", 1), "allied_phase_first")
    apply(state, EndAttack("red"), no_chance())
    apply(state, EndAttack("blue"), no_chance())
    apply(state, Fortify("red", "alaska", "alberta", 1), no_chance())
    assert state.current_player == "blue" and state.phase == REINFORCE


def test_end_turn_from_the_attack_phase_still_lets_the_allied_army_act_then_ends():
    state = allied_game(territories={"middle-east": ["red", 1]})
    apply(state, EndTurn("red"), no_chance())
    assert state.phase == ALLIED and state.current_player == "blue"
    apply(state, EndTurn("blue"), no_chance())
    assert state.current_player == "blue" and state.phase == REINFORCE


def test_attacking_an_allied_territory_the_opponent_defends_it():
    state = allied_game(territories={"middle-east": ["red", 5]})
    apply(state, Attack("red", "middle-east", "egypt", 3), no_chance())
    assert state.pending["player"] == "blue"


def test_the_allied_phase_is_skipped_when_the_army_could_do_nothing():
    state = allied_game(territories={"egypt": [ALLY, 1], "east-africa": [ALLY, 1]})
    outcome = apply(state, EndAttack("red"), no_chance())
    assert "allied_skipped" in [e.type for e in outcome.events]
    assert state.phase == FORTIFY and state.current_player == "red"


def test_once_destroyed_the_allied_army_gets_nothing_and_the_game_is_plain_two_player():
    state = allied_game(territories={"egypt": ["blue", 1], "east-africa": [ALLY, 1],
                                     "congo": ["red", 4]})
    state.variant_data["reserve"] = 3
    outcome = apply(state, Attack("red", "congo", "east-africa", 3), dice((6, 6, 6), (1,)))
    destroyed = [e.to_dict() for e in outcome.events if e.type == "army_destroyed"]
    assert destroyed == [{"type": "army_destroyed", "army": ALLY, "reserve_lost": 3}]
    apply(state, Fortify("red", "east-africa", "congo", 1), no_chance())  # fortify at once
    assert state.current_player == "blue" and state.variant_data["reserve"] == 0
    assert not [c for c in legal_commands(state, "blue") if isinstance(c, PlaceNeutral)]


def test_the_allied_army_can_eliminate_the_turn_player_and_the_commander_wins():
    territories = {t: ["blue", 1] for t in BOARD.territories}
    territories.update({"egypt": [ALLY, 5], "middle-east": ["red", 1]})
    state = allied_game(territories=territories)
    apply(state, EndAttack("red"), no_chance())
    apply(state, Attack("blue", "egypt", "middle-east", 3), dice((6, 6, 6), (1,)))
    assert state.winner == "blue" and state.eliminated == ["red"]


@pytest.mark.parametrize("initial", ["even", "free"])
def test_bots_play_the_allied_game_to_the_end(initial):
    state, history = bot_game("allied", 2, f"allied-{initial}", HouseRules(allied_initial=initial))
    assert state.winner in ("red", "blue")
    assert events_of(history, "allied_reinforced")
    phases = [e for e in events_of(history, "phase") if e["phase"] == ALLIED]
    assert phases and all(p["player"] != p["turn_of"] for p in phases)


def test_the_allied_phase_comes_only_after_the_reinforcements_are_placed():
    state = allied_game(phase=REINFORCE, reserves={"red": 3})
    refused(state, EndAttack("red"), "armies_to_place")
    refused(state, EndTurn("red"), "armies_to_place")


def allied_phase(egypt_armies: int, **kw):
    """Blue commands the Allied Army (egypt with `egypt_armies`) against red's
    middle-east (2 armies)."""
    state = allied_game(territories={"egypt": [ALLY, egypt_armies],
                                     "middle-east": ["red", 2]}, **kw)
    apply(state, EndAttack("red"), no_chance())
    assert state.phase == ALLIED and state.current_player == "blue"
    return state


@pytest.mark.parametrize(("armies", "most"), [(2, 1), (3, 2), (4, 3), (9, 3)])
def test_the_allied_army_rolls_one_die_up_to_min_of_three_and_armies_less_one(armies, most):
    state = allied_phase(armies)
    refused(state, Attack("blue", "egypt", "middle-east", 0), "bad_dice")
    refused(state, Attack("blue", "egypt", "middle-east", most + 1), "bad_dice")
    offered = sorted(c.dice for c in legal_commands(state, "blue") if isinstance(c, Attack)
                     and c.source == "egypt" and c.target == "middle-east")
    assert offered == list(range(1, most + 1))
    apply(state, Attack("blue", "egypt", "middle-east", most), no_chance())
    assert state.pending["attack_dice"] == most and state.pending["player"] == "red"


def test_an_allied_blitz_needs_a_stop_level_of_at_least_one_army():
    state = allied_phase(4)
    refused(state, Blitz("blue", "egypt", "middle-east", 0), "bad_stop_at")
    refused(state, Blitz("blue", "egypt", "middle-east", -1), "bad_stop_at")
    refused(state, Blitz("blue", "egypt", "middle-east", 4), "too_few_armies")
    apply(state, Blitz("blue", "egypt", "middle-east", 1), dice((6, 6, 6), (1, 1)))
    assert state.owner["middle-east"] == ALLY


def test_with_typed_dice_the_allied_army_attacks_roll_by_roll_never_by_blitz():
    state = allied_phase(4, house_rules=HouseRules(physical_dice=True))
    refused(state, Blitz("blue", "egypt", "middle-east", 1), "blitz_needs_electronic_dice")
    commands = legal_commands(state, "blue")
    assert not [c for c in commands if isinstance(c, Blitz)]
    assert Attack("blue", "egypt", "middle-east", 3) in commands
