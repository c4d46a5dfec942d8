"""What a seat's phone may do with the two territories it taps (`waits.aims`, issue 32):
the table says it from the rules, the page only shows the panel. Each expectation is the
rule book's (docs/RULES.md 2.6 attack, 2.7 fortify, 6 the Allied Army), worked out here
from the map, not read back from the code."""

from __future__ import annotations

from pi_app.dice import SeededSource
from pi_app.rules import HouseRules, load_map, new_game
from pi_app.rules.variants.allied import ALLIED_ARMY
from pi_app.table.awaiting import TableFacts
from pi_app.table.kinds import waits as awaiting
from tests.table.test_awaiting import played

BOARD = load_map()
THREE = ["red", "blue", "green"]


def attacking(house: HouseRules | None = None, phase: str = "attack"):
    """A Classic game in Red's attack: Red holds North America, Blue the rest but
    Greenland (Green's), every territory with 1 army but those a test raises."""
    state = new_game("classic", THREE, house or HouseRules(), SeededSource(5)).state
    for t in state.owner:
        state.owner[t] = "red" if BOARD.continent_of[t] == "north-america" else "blue"
        state.armies[t] = 1
    state.owner["greenland"] = "green"
    state.phase, state.current_player, state.pending = phase, "red", None
    for p in THREE:
        state.reserves[p] = 0
    return state


def aims_of(state, seat="red"):
    return awaiting(state, TableFacts()).view(seat)["aims"]


def test_a_source_attacks_its_enemy_neighbours_with_the_dice_its_armies_allow():
    state = attacking()
    state.armies["alaska"] = 3       # 2 dice: one army stays behind
    state.armies["alberta"] = 6      # 3 dice at most
    aims = aims_of(state)
    # Alaska's neighbours: Kamchatka (Blue's) and two of Red's own
    assert aims["attack"]["alaska"] == {"to": ["kamchatka"], "dice": 2}
    # Alberta borders only Red's territories: nothing to attack from it
    assert "alberta" not in aims["attack"]
    # a territory with one army attacks nothing
    assert "greenland" not in aims["attack"] and "ontario" not in aims["attack"]
    assert aims["blitz"] is True


def test_greenland_is_attacked_from_each_red_neighbour_that_has_armies_to_spare():
    state = attacking()
    for t in ("northwest-territory", "ontario", "quebec"):
        state.armies[t] = 4
    aims = aims_of(state)
    for t in ("northwest-territory", "ontario", "quebec"):
        assert "greenland" in aims["attack"][t]["to"]
        assert aims["attack"][t]["dice"] == 3
    assert aims["attack"]["quebec"]["to"] == ["greenland"]


def test_a_fortify_goes_along_own_territories_and_leaves_one_behind():
    # the connected rule (2.7): Alaska reaches all of Red's North America, not Iceland
    state = attacking(phase="fortify")
    state.armies["alaska"] = 5
    state.owner["iceland"] = "red"
    aims = aims_of(state)
    assert aims["attack"] == {}
    reach = sorted(aims["fortify"]["alaska"]["to"])
    assert reach == sorted(t for t in BOARD.territories
                           if BOARD.continent_of[t] == "north-america"
                           and t not in ("alaska", "greenland"))
    assert "iceland" not in reach
    assert aims["fortify"]["alaska"]["most"] == 4
    assert "ontario" not in aims["fortify"]  # one army: nothing may leave


def test_the_french_adjacent_rule_fortifies_to_neighbours_only():
    state = attacking(HouseRules(fortify="adjacent"), phase="fortify")
    state.armies["alaska"] = 2
    aims = aims_of(state)
    assert sorted(aims["fortify"]["alaska"]["to"]) == ["alberta", "northwest-territory"]
    assert aims["fortify"]["alaska"]["most"] == 1


def test_physical_dice_offer_no_blitz():
    state = attacking(HouseRules(physical_dice=True))
    state.armies["alaska"] = 3
    assert aims_of(state)["blitz"] is False
    assert aims_of(state)["attack"]["alaska"]["to"] == ["kamchatka"]


def test_only_the_seat_at_its_step_aims():
    state = attacking()
    state.armies["alaska"] = 3
    aw = awaiting(state, TableFacts())
    assert aw.view("blue")["aims"] is None and aw.view(None)["aims"] is None
    state.phase = "reinforce"
    state.reserves["red"] = 3
    assert aims_of(state) is None


def test_the_allied_armys_commander_attacks_only_the_player_whose_turn_it_plays():
    """Section 6: B commands the Allied Army and may attack A with it, no one else. The page
    worked the panel out itself from the owners' colours, and so offered B an attack by the
    Allied Army on B's own territories, which the rules refuse."""
    seen = 0
    for state in played("allied", seed=3):
        aw = awaiting(state, TableFacts())
        if aw.step != "allied_attack" or not aw.seats:
            continue
        aims = aw.view(aw.seats[0])["aims"]
        turn_of = state.variant_data["allied_turn"]["turn_of"]
        for source, aim in aims["attack"].items():
            assert state.owner[source] == ALLIED_ARMY
            assert state.armies[source] >= 2
            assert all(state.owner[t] == turn_of for t in aim["to"]), (source, aim)
            assert set(aim["to"]) == {t for t in BOARD.neighbours[source]
                                      if state.owner[t] == turn_of}
        assert aims["fortify"] == {}  # the Allied Army never fortifies
        seen += bool(aims["attack"])
    assert seen, "the bot game never reached an Allied Army's attack"
