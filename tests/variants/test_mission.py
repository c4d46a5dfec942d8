"""Secret Mission RISK (docs/RULES.md §3, docs/MAP_AND_CARDS.md §3): dealing, every mission card,
the fallbacks, and the check after every change of state whoever caused it."""

from __future__ import annotations

import pytest
from rules.builders import dice, no_chance, position

from pi_app.dice import SeededSource
from pi_app.rules import Attack, EndAttack, EndTurn, HouseRules, MoveIn, Place, apply, new_game
from pi_app.rules.board import load_map, load_missions
from pi_app.rules.state import GAME_OVER, REINFORCE, SETUP_PLACE
from pi_app.rules.variants.mission import mission_complete, mission_deck, objective_of

from .playing import COLOURS, bot_game, events_of

BOARD = load_map()
CARDS = {deck: {c["id"]: c for c in d["cards"]}
         for deck, d in load_missions()["decks"].items()}


def mission(card_id: str, deck: str = "us12") -> dict:
    card = CARDS[deck][card_id]
    return {"card": card_id, "text": card["text"], "objective": objective_of(card),
            "fallback": None}


def game(missions: dict[str, str], deck: str = "us12", players=None, **kw):
    """A mission game in red's attack phase, every player holding the given card
    (default for players not named: the hardest card, occupy 18 with 2 armies)."""
    players = players or ["red", "blue", "green"]
    state = position(players, variant="mission",
                     house_rules=HouseRules(mission_deck=deck), **kw)
    state.missions = {p: mission(missions.get(p, "occupy-18-with-2"), deck) for p in players}
    return state


def give(state, player: str, territories) -> None:
    for t in territories:
        state.owner[t] = player


def conquer(state, source: str, target: str, attacker: str = "red"):
    """`attacker` takes `target` (1 army) from `source` (4 armies) in one roll."""
    state.owner[source], state.armies[source] = attacker, 4
    state.armies[target] = 1
    return apply(state, Attack(attacker, source, target, 3), dice((6, 6, 6), (1,)))


# --- dealing -----------------------------------------------------------------------------
def test_destroy_cards_of_colours_not_in_play_are_removed_before_dealing():
    assert {c["id"] for c in mission_deck("us12", ["red", "blue", "green"])} == {
        "conquer-asia-south-america", "conquer-asia-africa", "conquer-north-america-africa",
        "conquer-north-america-australia", "occupy-18-with-2", "occupy-24",
        "destroy-red", "destroy-blue", "destroy-green"}
    assert len(mission_deck("euro14", COLOURS)) == 14
    for seed in range(30):
        state = new_game("mission", ["red", "blue", "green"], HouseRules(),
                         SeededSource(seed)).state
        for m in state.missions.values():
            assert m["card"] not in ("destroy-yellow", "destroy-black", "destroy-pink")


def test_each_player_gets_one_distinct_secret_mission_after_a_deal_setup():
    outcome = new_game("mission", ["red", "blue", "green", "yellow"], HouseRules(),
                       SeededSource(4))
    state = outcome.state
    assert state.phase == SETUP_PLACE  # Secret Mission deals the territories by default
    assert set(state.missions) == set(state.players)
    assert len({m["card"] for m in state.missions.values()}) == 4
    dealt = [e.to_dict() for e in outcome.events if e.type == "mission_dealt"]
    assert {d["player"]: d["mission"] for d in dealt} == state.missions


def test_a_destroy_card_of_your_own_colour_is_dealt_as_occupy_24():
    seen = 0
    for seed in range(200):
        state = new_game("mission", ["red", "blue", "green"], HouseRules(),
                         SeededSource(seed)).state
        for player, m in state.missions.items():
            if m["card"] == f"destroy-{player}":
                assert m["objective"] == {"kind": "occupy", "territories": 24, "min_armies": 1}
                assert m["fallback"] == "own_colour"
                seen += 1
            else:
                assert m["fallback"] is None
    assert seen > 0


# --- each card, exactly when it should -----------------------------------------------------
@pytest.mark.parametrize(("card", "continents"), [
    ("conquer-asia-south-america", ["asia", "south-america"]),
    ("conquer-asia-africa", ["asia", "africa"]),
    ("conquer-north-america-africa", ["north-america", "africa"]),
    ("conquer-north-america-australia", ["north-america", "australia"]),
])
def test_conquer_missions_complete_with_the_last_territory_and_not_before(card, continents):
    state = game({"red": card})
    needed = [t for c in continents for t in sorted(BOARD.members[c])]
    last = needed[-1]
    give(state, "red", needed[:-1])
    state.owner[last] = "blue"
    apply(state, EndAttack("red"), no_chance())  # the check runs: one territory short
    assert state.winner is None
    state.phase = "attack"
    source = next(t for t in BOARD.neighbours[last] if t != last)
    outcome = conquer(state, source, last)
    assert state.winner == "red" and state.phase == GAME_OVER
    types = [e.type for e in outcome.events]
    assert types[-2:] == ["game_won", "mission_revealed"]
    assert outcome.events[-1]["mission"]["card"] == card


def test_euro14_third_continent_of_your_choice():
    state = game({"red": "conquer-europe-australia-plus-one"}, deck="euro14")
    give(state, "red", BOARD.members["europe"] | BOARD.members["australia"])
    give(state, "red", [t for t in BOARD.members["south-america"] if t != "argentina"])
    state.owner["argentina"] = "blue"
    apply(state, EndTurn("red"), no_chance())  # any command: the check runs, no win yet
    assert state.winner is None
    state.current_player, state.phase = "red", "attack"
    conquer(state, "brazil", "argentina")
    assert state.winner == "red"


def test_occupy_18_with_two_armies_completes_when_the_eighteenth_gets_its_second_army():
    state = game({"red": "occupy-18-with-2"}, phase=REINFORCE, reserves={"red": 3},
                 default_armies=2)
    mine = [t for t in BOARD.territories if state.owner[t] == "red"]  # 14 of 42
    extra = [t for t in BOARD.territories if state.owner[t] != "red"][:4]
    give(state, "red", extra)
    state.armies[extra[-1]] = 1
    assert len(mine) + len(extra) == 18
    assert not mission_complete(state, "red", state.missions["red"]["objective"])
    apply(state, Place("red", mine[0], 1), no_chance())
    assert state.winner is None  # 17 territories with 2+
    outcome = apply(state, Place("red", extra[-1], 1), no_chance())
    assert state.winner == "red"
    assert outcome.events[-1].to_dict()["mission"]["card"] == "occupy-18-with-2"


def test_occupy_24_completes_with_the_24th_territory():
    state = game({"red": "occupy-24"})
    others = [t for t in BOARD.territories if state.owner[t] != "red"]
    give(state, "red", others[:9])  # 14 + 9 = 23
    target = next(t for t in others[9:] if any(state.owner[n] == "red"
                                                for n in BOARD.neighbours[t]))
    source = next(n for n in BOARD.neighbours[target] if state.owner[n] == "red")
    assert state.territory_count("red") == 23
    apply(state, EndTurn("red"), no_chance())
    assert state.winner is None
    state.current_player, state.phase = "red", "attack"
    conquer(state, source, target)
    assert state.winner == "red"


def test_destroying_your_target_wins_at_once_before_the_move_in():
    state = game({"red": "destroy-blue"})
    give(state, "red", [t for t in BOARD.territories if state.owner[t] == "blue"][1:])
    last = next(t for t in BOARD.territories if state.owner[t] == "blue")
    source = next(iter(BOARD.neighbours[last]))
    state.owner[source], state.armies[source] = "red", 10
    state.armies[last] = 1
    apply(state, Attack("red", source, last, 3), dice((6, 6, 6), (1,)))
    assert state.winner == "red" and state.pending is None  # no move-in decision first


def test_us12_target_eliminated_by_someone_else_completes_the_holders_mission():
    state = game({"red": "destroy-blue"}, current="green")
    give(state, "green", [t for t in BOARD.territories if state.owner[t] == "blue"][1:])
    last = next(t for t in BOARD.territories if state.owner[t] == "blue")
    source = next(iter(BOARD.neighbours[last]))
    conquer(state, source, last, attacker="green")
    assert "blue" in state.eliminated
    assert state.winner == "red"  # on green's turn, caused by green


def test_euro14_target_eliminated_by_someone_else_becomes_occupy_24():
    state = game({"red": "destroy-blue"}, deck="euro14", current="green")
    give(state, "green", [t for t in BOARD.territories if state.owner[t] == "blue"][1:])
    last = next(t for t in BOARD.territories if state.owner[t] == "blue")
    source = next(iter(BOARD.neighbours[last]))
    outcome = conquer(state, source, last, attacker="green")
    assert state.winner is None
    assert state.missions["red"]["objective"] == {"kind": "occupy", "territories": 24,
                                                  "min_armies": 1}
    assert state.missions["red"]["fallback"] == "destroyed_by_other"
    changed = [e.to_dict() for e in outcome.events if e.type == "mission_changed"]
    assert [c["player"] for c in changed] == ["red"]


def test_euro14_converted_mission_already_held_wins_at_once():
    state = game({"red": "destroy-blue", "green": "conquer-asia-africa"}, deck="euro14",
                 current="green")
    blue = [t for t in BOARD.territories if state.owner[t] == "blue"]
    give(state, "green", blue[1:])
    free = [t for t in BOARD.territories if state.owner[t] == "green"][:11]
    give(state, "red", free)  # red now has 25 territories (the attack may take one)
    last = blue[0]
    source = next(n for n in BOARD.neighbours[last] if n not in free)
    conquer(state, source, last, attacker="green")
    assert state.winner == "red"


def test_when_two_missions_complete_together_the_player_whose_turn_it_is_wins():
    state = game({"red": "occupy-24", "green": "destroy-blue"})
    blue = [t for t in BOARD.territories if state.owner[t] == "blue"]
    last = blue[0]
    source = next(n for n in BOARD.neighbours[last] if state.owner[n] == "red")
    give(state, "red", blue[1:10])  # red 23 territories
    give(state, "green", blue[10:])  # blue keeps one
    assert state.territory_count("red") == 23
    conquer(state, source, last)  # red's 24th and blue's end: both missions hold now
    assert state.winner == "red"


def test_the_last_player_standing_wins_even_with_an_unfinished_mission():
    state = game({"red": "occupy-18-with-2", "blue": "occupy-18-with-2",
                  "green": "occupy-18-with-2"})
    give(state, "red", BOARD.territories[1:])
    state.owner[BOARD.territories[0]] = "blue"
    for p in ("green",):
        state.eliminated.append(p)
        state.hands[p] = []
    target = BOARD.territories[0]
    source = BOARD.neighbours[target][0]
    outcome = conquer(state, source, target)
    assert state.winner == "red"
    assert not mission_complete(state, "red", state.missions["red"]["objective"])
    assert outcome.events[-1].type == "mission_revealed"


def test_no_mission_wins_in_a_move_that_leaves_it_incomplete():
    state = game({"red": "occupy-24"})
    give(state, "red", [t for t in BOARD.territories if state.owner[t] == "blue"][:5])
    source = "ukraine"
    state.owner[source], state.armies[source] = "red", 8
    target = next(n for n in BOARD.neighbours[source] if state.owner[n] != "red")
    state.armies[target] = 1
    apply(state, Attack("red", source, target, 2), dice((6, 6), (1,)))
    assert state.pending is not None and state.pending["kind"] == "move_in"
    apply(state, MoveIn("red", state.pending["max"]), no_chance())
    assert state.winner is None


@pytest.mark.parametrize(("players", "deck"), [(3, "us12"), (4, "euro14"), (5, "us12"),
                                               (6, "us12")])
def test_bots_play_secret_mission_to_a_victory_and_the_winning_card_is_revealed(players,
                                                                                 deck):
    state, history = bot_game("mission", players, f"mission{players}",
                              HouseRules(mission_deck=deck))
    assert state.winner is not None
    revealed = events_of(history, "mission_revealed")
    assert revealed == [{"type": "mission_revealed", "player": state.winner,
                         "mission": state.missions[state.winner]}]
    won = mission_complete(state, state.winner, state.missions[state.winner]["objective"])
    assert won or len(state.eliminated) == players - 1


def test_a_mission_completed_during_setup_wins_only_when_the_first_turn_starts():
    # Decision: missions count from the end of setup (first turn start), never during it.
    state = game({"red": "occupy-24"}, phase=SETUP_PLACE, turn=0, current="red",
                 reserves={"red": 1, "blue": 1, "green": 1})
    others = [t for t in BOARD.territories if state.owner[t] != "red"]
    give(state, "red", others[:10])  # 14 + 10 = 24: complete already
    assert mission_complete(state, "red", state.missions["red"]["objective"])
    for player in ("red", "blue", "green"):
        assert state.winner is None and state.turn == 0
        tid = next(t for t in BOARD.territories if state.owner[t] == player)
        outcome = apply(state, Place(player, tid, 1), no_chance())
    # The last placement ended setup: the first turn started and red won before acting.
    types = [e.type for e in outcome.events]
    assert types.index("turn_started") < types.index("game_won")
    assert state.winner == "red" and state.phase == GAME_OVER


def test_a_destroy_mission_does_not_win_while_the_target_holds_one_territory():
    state = game({"red": "destroy-blue"})
    blue = [t for t in BOARD.territories if state.owner[t] == "blue"]
    give(state, "red", blue[2:])  # blue keeps two territories
    target = blue[1]
    source = next(n for n in BOARD.neighbours[target] if n not in blue[:1])
    conquer(state, source, target)  # blue is down to one territory
    assert state.territory_count("blue") == 1 and "blue" not in state.eliminated
    assert state.winner is None and state.phase != GAME_OVER


def test_your_own_colour_destroy_card_wins_at_24_territories_not_23():
    state = game({"red": "occupy-24"})
    state.missions["red"] = {**state.missions["red"], "card": "destroy-red",
                             "fallback": "own_colour"}
    others = [t for t in BOARD.territories if state.owner[t] != "red"]
    give(state, "red", others[:9])  # 14 + 9 = 23
    target = next(t for t in others[9:] if any(state.owner[n] == "red"
                                                for n in BOARD.neighbours[t]))
    source = next(n for n in BOARD.neighbours[target] if state.owner[n] == "red")
    apply(state, EndAttack("red"), no_chance())
    assert state.territory_count("red") == 23 and state.winner is None
    state.phase = "attack"
    conquer(state, source, target)
    assert state.territory_count("red") == 24 and state.winner == "red"
