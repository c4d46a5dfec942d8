"""Two-player RISK with a neutral army (docs/RULES.md §5): piles, placing turns, neutral defence."""

from __future__ import annotations

import pytest
from rules.builders import dice, no_chance, position, refused

from pi_app.dice import ReplaySource, SeededSource
from pi_app.rules import (
    Attack,
    ChooseDefence,
    EndTurn,
    HouseRules,
    Place,
    PlaceNeutral,
    RuleError,
    apply,
    legal_commands,
    new_game,
    selectable_territories,
)
from pi_app.rules.board import load_cards, load_map
from pi_app.rules.state import REINFORCE, SETUP_PLACE

from .playing import bot_game, event_types

BOARD = load_map()
NEUTRAL = "neutral"


def fresh(placement=(2, 1)):
    outcome = new_game("two-player", ["red", "blue"],
                       HouseRules(two_player_placement=placement), SeededSource(8))
    return outcome.state, outcome.events


def test_three_piles_of_14_with_40_armies_each():
    state, events = fresh()
    for holder in ("red", "blue", NEUTRAL):
        assert state.territory_count(holder) == 14
    assert all(state.armies[t] == 1 for t in BOARD.territories)
    assert state.reserves == {"red": 26, "blue": 26}
    assert state.variant_data["reserve"] == 26
    assert len(state.deck) == 44  # the wilds are back in for play
    dealt = next(e for e in events if e.type == "territories_dealt")
    assert sorted(dealt["territories"]) == ["blue", NEUTRAL, "red"]
    assert state.phase == SETUP_PLACE


def test_a_placing_turn_is_two_own_armies_and_one_neutral_then_the_other_player():
    state, _ = fresh()
    first = state.current_player
    other = "blue" if first == "red" else "red"
    mine = state.territories_of(first)[0]
    neutral = state.territories_of(NEUTRAL)[0]
    refused(state, Place(first, mine, 3), "bad_count")
    refused(state, PlaceNeutral(first, mine, 1), "not_neutral_territory")
    apply(state, PlaceNeutral(first, neutral, 1), no_chance())
    refused(state, PlaceNeutral(first, neutral, 1), "bad_count")  # the neutral one is used
    apply(state, Place(first, mine, 2), no_chance())
    assert state.current_player == other
    assert state.armies[mine] == 3 and state.armies[neutral] == 2
    assert state.variant_data["reserve"] == 25 and state.reserves[first] == 24


def test_own_armies_go_only_on_own_territories_in_the_placing_turn():
    """RULES §5: a player places their own armies on their own territories; one put on the
    opponent's or on a neutral territory is refused and changes nothing."""
    state, _ = fresh()
    first = state.current_player
    other = "blue" if first == "red" else "red"
    before = state.to_dict()
    refused(state, Place(first, state.territories_of(other)[0], 1), "not_your_territory")
    refused(state, Place(first, state.territories_of(NEUTRAL)[0], 1), "not_your_territory")
    assert state.to_dict() == before


def test_own_armies_first_then_the_neutral_one_is_asked_for():
    state, _ = fresh()
    first = state.current_player
    apply(state, Place(first, state.territories_of(first)[0], 2), no_chance())
    assert state.current_player == first
    refused(state, Place(first, state.territories_of(first)[0], 1), "place_neutral_now")
    assert selectable_territories(state, first) == state.territories_of(NEUTRAL)
    assert all(isinstance(c, PlaceNeutral) for c in legal_commands(state, first))


def test_setup_ends_when_both_players_have_placed_all_40():
    state, _ = fresh()
    rng = SeededSource(1)
    while state.phase == SETUP_PLACE:
        player = state.current_player
        cmd = legal_commands(state, player)[0]
        apply(state, cmd, rng)
    assert state.phase == REINFORCE and state.current_player == state.first_player
    for holder in ("red", "blue", NEUTRAL):
        assert sum(state.armies[t] for t in state.territories_of(holder)) == 40


def test_only_the_placing_seat_may_place_and_after_setup_play_is_classic():
    """RULES §5: the two players take turns placing (own armies and a neutral one): the seat
    whose placing turn it is not has no legal placement and is refused one; once both 40
    are down play is Classic: the first player reinforces their own territories and no
    neutral placement is offered any more."""
    state, _ = fresh()
    first = state.current_player
    other = "blue" if first == "red" else "red"
    assert legal_commands(state, other) == []
    refused(state, Place(other, state.territories_of(other)[0], 1), "not_your_turn")
    refused(state, PlaceNeutral(other, state.territories_of(NEUTRAL)[0], 1), "not_your_turn")
    rng = SeededSource(1)
    while state.phase == SETUP_PLACE:
        apply(state, legal_commands(state, state.current_player)[0], rng)
    assert state.phase == REINFORCE and state.current_player == first
    offered = legal_commands(state, first)
    assert offered and all(isinstance(c, Place) and state.owner[c.territory] == first
                           for c in offered)
    assert legal_commands(state, other) == []
    refused(state, PlaceNeutral(first, state.territories_of(NEUTRAL)[0], 1), "wrong_phase")


def test_other_placement_house_rule_leaves_spare_neutral_armies_in_reserve():
    state, _ = fresh(placement=(3, 1))
    rng = SeededSource(1)
    while state.phase == SETUP_PLACE:
        apply(state, legal_commands(state, state.current_player)[0], rng)
    own = [sum(state.armies[t] for t in state.territories_of(p)) for p in ("red", "blue")]
    assert own == [40, 40]
    neutral_on_board = sum(state.armies[t] for t in state.territories_of(NEUTRAL))
    assert neutral_on_board == 14 + 18  # 9 placing turns each, 1 neutral army per turn
    assert state.variant_data["reserve"] == 40 - neutral_on_board


def play_position(**kw):
    state = position(["red", "blue"], variant="two-player", **kw)
    state.variant_data["placing"] = None
    return state


def test_attacking_neutral_the_other_player_chooses_its_defence_dice():
    state = play_position(territories={"ukraine": ["red", 5], "ural": [NEUTRAL, 3]})
    outcome = apply(state, Attack("red", "ukraine", "ural", 3), no_chance())
    assert state.pending["kind"] == "defend" and state.pending["player"] == "blue"
    assert outcome.events[0]["defender"] == "blue"
    refused(state, ChooseDefence("red", 1), "not_your_turn")
    outcome = apply(state, ChooseDefence("blue", 1), dice((6, 5, 4), (2,)))
    battle = outcome.events[0].to_dict()
    assert battle["defender"] == NEUTRAL and battle["defence_dice"] == [2]
    assert state.armies["ural"] == 2


def test_neutral_never_takes_a_turn_and_its_end_does_not_end_the_game():
    state = play_position(territories={"ukraine": ["red", 4], "ural": [NEUTRAL, 1]})
    outcome = apply(state, Attack("red", "ukraine", "ural", 3), dice((6, 6, 6), (1,)))
    assert "army_destroyed" in [e.type for e in outcome.events]
    assert state.variant_data["destroyed"] and state.winner is None
    assert NEUTRAL not in state.eliminated
    apply(state, EndTurn("red"), no_chance())
    assert state.current_player == "blue" and state.phase == REINFORCE
    with pytest.raises(RuleError) as err:
        apply(state, EndTurn(NEUTRAL), no_chance())
    assert err.value.code == "unknown_player"


def test_eliminating_the_opponent_wins_with_neutral_still_on_the_board():
    territories = {t: ["red", 1] for t in BOARD.territories}
    territories.update({"ukraine": ["red", 5], "ural": ["blue", 1], "siberia": [NEUTRAL, 4]})
    state = play_position(territories=territories)
    apply(state, Attack("red", "ukraine", "ural", 3), dice((6, 6, 6), (1,)))
    assert state.winner == "red"


def shuffle_picks(length: int) -> list[list]:
    """below() draws for a Fisher–Yates shuffle of `length` items that move most of them."""
    return [["u", i + 1, (5 * i) % (i + 1)] for i in range(length - 1, 0, -1)]


def test_the_shuffled_territory_cards_are_dealt_into_three_piles_from_the_first_player():
    """RULES §5: the 42 territory cards (no wilds) are shuffled and dealt into three piles of
    14, one per player and one for neutral; then the wilds go back and the deck (44) is
    shuffled. two_player.py: the first-player dice come first, the deal goes first player,
    second player, neutral in turn, and the first player places first. The log shows the
    deal and the shuffle."""
    picks, deck_picks = shuffle_picks(42), shuffle_picks(44)
    rng = ReplaySource([["d", [2, 5]], *picks, *deck_picks])
    outcome = new_game("two-player", ["red", "blue"], HouseRules(), rng)
    assert rng.exhausted
    state = outcome.state
    assert state.first_player == state.current_player == "blue"  # blue rolled the 5
    cards = list(BOARD.territories)
    for _u, bound, j in picks:  # contract A (pi_app/DICE.md), written out apart
        cards[bound - 1], cards[j] = cards[j], cards[bound - 1]
    piles = {"blue": cards[0::3], "red": cards[1::3], NEUTRAL: cards[2::3]}
    assert {p: sorted(state.territories_of(p)) for p in piles} == {
        p: sorted(ts) for p, ts in piles.items()}
    dealt = next(e.to_dict() for e in outcome.events if e.type == "territories_dealt")
    assert {p: sorted(ts) for p, ts in dealt["territories"].items()} == {
        p: sorted(ts) for p, ts in piles.items()}
    deck = list(load_cards().all_cards)
    for _u, bound, j in deck_picks:
        deck[bound - 1], deck[j] = deck[j], deck[bound - 1]
    assert state.deck == deck
    assert [e.to_dict() for e in outcome.events if e.type == "deck_shuffled"] == [
        {"type": "deck_shuffled", "cards": 44}]


@pytest.mark.parametrize("variant", ["two-player", "allied"])
@pytest.mark.parametrize("seats", [["red"], ["red", "blue", "green"]])
def test_the_two_player_games_take_exactly_two_seats(variant, seats):
    """RULES §5 and §6: two players (and a third army that is no seat)."""
    with pytest.raises(RuleError) as err:
        new_game(variant, seats, HouseRules(), SeededSource(0))
    assert err.value.code == "bad_players"


def test_two_player_needs_exactly_two_seats():
    with pytest.raises(RuleError) as err:
        new_game("two-player", ["red", "blue", "green"], HouseRules(), SeededSource(0))
    assert err.value.code == "bad_players"


@pytest.mark.parametrize("seed", ["2p-a", "2p-b"])
def test_bots_play_two_player_to_the_end(seed):
    state, history = bot_game("two-player", 2, seed)
    assert state.winner in ("red", "blue")
    loser = "blue" if state.winner == "red" else "red"
    assert state.eliminated == [loser] and state.territory_count(loser) == 0
    assert "placed" in event_types(history)
