"""Variant moments no test held before the mutation run of issue 21.9: who places first once
the Allied Army stands, the two-player deal's piles, and the winner's Secret Mission kept
in the state (and shown to everyone) for the end of the game."""

from __future__ import annotations

import pytest
from variants.playing import bot_game, events_of

from pi_app.dice import SeededSource
from pi_app.redaction import redact
from pi_app.rules import Claim, HouseRules, Place, PlaceNeutral, apply, new_game
from pi_app.rules.board import load_map
from pi_app.rules.state import CLAIM, SETUP_PLACE, GameState
from rules.builders import no_chance, refused

BOARD = load_map()
ALLY, NEUTRAL = "allied", "neutral"


@pytest.mark.parametrize("seed", [2, 3, 5])
@pytest.mark.parametrize("initial", ["even", "free"])
def test_once_the_allied_army_stands_the_first_player_places_first(seed, initial):
    """docs/RULES.md §6: the seats claim alternately from the first player, then place the
    rest alternately: after the 28th claim (the second player's) the first player places."""
    state = new_game("allied", ["red", "blue"], HouseRules(allied_initial=initial),
                     SeededSource(seed)).state
    first = state.first_player
    second = "blue" if first == "red" else "red"
    free = iter(BOARD.territories)
    claimers = []
    while state.phase == CLAIM:
        claimers.append(state.current_player)
        apply(state, Claim(state.current_player, next(free)), no_chance())
    assert claimers == [first, second] * 14
    assert state.phase == SETUP_PLACE
    assert state.current_player == first
    third = 1 if initial == "free" else 0
    assert state.variant_data["placing"] == {"own": 1, "third": third}
    # the Allied Army's first position: the 14 territories nobody claimed
    assert state.territories_of(ALLY) == [t for t in BOARD.territories if t not in
                                          state.territories_of(first) + state.territories_of(
                                              second)]
    refused(state, Place(second, state.territories_of(second)[0], 1), "not_your_turn")
    if third:
        apply(state, PlaceNeutral(first, state.territories_of(ALLY)[0], 1), no_chance())
    apply(state, Place(first, state.territories_of(first)[0], 1), no_chance())
    assert state.current_player == second


@pytest.mark.parametrize("seed", [8, 9])
def test_the_two_player_deal_names_each_pile_as_the_board_holds_it(seed):
    """The 42 territories are dealt into three piles of 14, in turn from the first player:
    the `territories_dealt` event (the log's "Territories dealt") lists each pile, first
    player, second player, neutral, as the board now holds them."""
    outcome = new_game("two-player", ["red", "blue"], HouseRules(), SeededSource(seed))
    state = outcome.state
    first = state.first_player
    second = "blue" if first == "red" else "red"
    dealt = next(e for e in outcome.events if e.type == "territories_dealt")["territories"]
    assert list(dealt) == [first, second, NEUTRAL]
    for holder, pile in dealt.items():
        assert len(pile) == 14
        assert sorted(pile) == sorted(state.territories_of(holder)), holder
    assert sorted(t for pile in dealt.values() for t in pile) == sorted(BOARD.territories)


def _mission_of(history, player):
    """The mission `player` holds last: dealt, or changed during the game."""
    held = [e["mission"] for e in events_of(history, "mission_dealt")
            + events_of(history, "mission_changed") if e["player"] == player]
    return held[-1]


@pytest.mark.parametrize(("players", "deck"), [(3, "us12"), (4, "euro14")])
def test_the_winners_secret_mission_stays_in_the_state_for_the_end_of_the_game(players, deck):
    state, history = bot_game("mission", players, f"mission{players}",
                              HouseRules(mission_deck=deck))
    winner = state.winner
    assert winner is not None
    mission = _mission_of(history, winner)
    assert state.missions[winner] == mission
    assert state.variant_data["revealed_mission"] == {"player": winner, **mission}
    # kept through the journal's snapshot form, and shown to every viewer at the end
    kept = GameState.from_dict(state.to_dict())
    assert kept.variant_data["revealed_mission"] == {"player": winner, **mission}
    for viewer in (None, *state.players):
        view = redact(kept, viewer)
        assert view["missions_revealed"] == {winner: mission}
        assert view["variant_data"]["revealed_mission"] == {"player": winner, **mission}
