"""Setup (docs/RULES.md §7): shuffled decks, the deal, the roll for first player, extra cards."""

from __future__ import annotations

import pytest

from pi_app.dice import RecordingSource, SeededSource
from pi_app.rules.strike import RuleError, new_game
from pi_app.rules.strike.state import DRAW

from .builders import ALL_CARDS, ScriptedDice, all_cards


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_every_card_is_somewhere_after_the_deal(count):
    colours = ["red", "blue", "green", "yellow", "black"][:count]
    state = new_game(colours, None, SeededSource(count)).state
    assert all_cards(state) == ALL_CARDS


def test_each_player_gets_three_continent_cards_face_up_and_three_tactics_plus_one_if_not_first():
    # three players roll 2, 6, 3: blue goes first; red and green draw one extra tactics card
    state = new_game(["red", "blue", "green"], None, ScriptedDice([2], [6], [3])).state
    assert state.current_player == state.first_player == "blue"
    assert {p: len(t) for p, t in state.tables.items()} == {"red": 3, "blue": 3, "green": 3}
    assert {p: len(h) for p, h in state.hands.items()} == {"red": 4, "blue": 3, "green": 4}
    assert state.phase == DRAW and state.turn == 1


def test_the_log_shows_each_players_dealt_continent_cards_which_lie_face_up():
    """RULES §7 setup: each player is dealt 3 continent cards face up (public: the log names
    them, event `continents_drawn`), and 3 tactics cards as a hidden hand; in a 2-player game
    the second player's extra continent card is shown too."""
    outcome = new_game(["red", "blue"], None, ScriptedDice([1], [5]))
    shown: dict[str, list[str]] = {}
    for event in outcome.events:
        if event.type == "continents_drawn":
            shown.setdefault(event["player"], []).extend(event["cards"])
    assert shown == outcome.state.tables and len(shown["red"]) == 4


def test_two_player_game_gives_the_second_player_an_extra_continent_card():
    state = new_game(["red", "blue"], None, ScriptedDice([1], [5])).state
    assert state.first_player == "blue"
    assert len(state.tables["red"]) == 4 and len(state.hands["red"]) == 4
    assert len(state.tables["blue"]) == 3 and len(state.hands["blue"]) == 3


def test_tied_highest_dice_reroll_among_the_tied_players_only():
    # red and green tie on 6 (blue's 6 is not reached: blue rolled 4); then green wins 5-2
    rng = ScriptedDice([6], [4], [6], [2], [5])
    outcome = new_game(["red", "blue", "green"], None, rng)
    assert outcome.state.first_player == "green"
    rolls = [e["rolls"] for e in outcome.events if e.type == "first_player_roll"]
    assert rolls == [{"red": 6, "blue": 4, "green": 6}, {"red": 2, "green": 5}]


def test_decks_are_shuffled_with_fisher_yates_from_the_random_source():
    rng = RecordingSource(SeededSource(3))
    new_game(["red", "blue"], None, rng)
    belows = [d[1] for d in rng.draws if d[0] == "u"]
    # 42 continent cards: below(42) .. below(2); then 40 tactics: below(40) .. below(2)
    assert belows == list(range(42, 1, -1)) + list(range(40, 1, -1))


@pytest.mark.parametrize("players", [["red"], ["red", "blue", "green", "yellow", "black",
                                                "pink"], ["red", "red"], ["red", "purple"],
                                     None, 3])
def test_bad_player_lists_are_refused(players):
    with pytest.raises(RuleError) as err:
        new_game(players, None, SeededSource(0))
    assert err.value.code == "bad_players"


@pytest.mark.parametrize("rules", [{"reaction_seconds": -1}, {"reaction_seconds": "5"},
                                   {"physical_dice": 1}, {"fortify": "adjacent"}])
def test_bad_house_rules_are_refused(rules):
    with pytest.raises(RuleError) as err:
        new_game(["red", "blue"], rules, SeededSource(0))
    assert err.value.code == "bad_house_rules"


def test_house_rules_are_kept_in_the_state_for_the_table_timer():
    state = new_game(["red", "blue"], {"reaction_seconds": 45}, SeededSource(0)).state
    assert state.house_rules.reaction_seconds == 45
    assert state.to_dict()["house_rules"] == {"reaction_seconds": 45, "physical_dice": False}
