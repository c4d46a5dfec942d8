"""Complete games: bots play Strike to a victory for 2 to 5 players; the simulate summary."""

from __future__ import annotations

import pytest

from pi_app.computer.strike_games import play_bot_game, simulate_strike
from pi_app.dice import SeededSource
from pi_app.rules.strike import load_strike_deck
from pi_app.rules.strike.state import GAME_OVER

from .builders import ALL_CARDS, all_cards

DECK = load_strike_deck()
COLOURS = ["red", "blue", "green", "yellow", "black"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_bots_play_a_complete_game_to_a_two_coin_victory(players):
    state, commands = play_bot_game(COLOURS[:players], SeededSource(f"complete:{players}"))
    assert state.winner in COLOURS[:players] and state.phase == GAME_OVER
    assert len(state.coins_of(state.winner)) == DECK.coins_to_win
    assert all(len(state.coins_of(p)) < DECK.coins_to_win
               for p in state.players if p != state.winner)
    assert all_cards(state) == ALL_CARDS
    assert commands > state.turn  # every turn took at least a draw and a decision


def test_simulate_summary_counts_games_winners_and_commands():
    summary = simulate_strike(3, 4, 7, SeededSource)
    assert summary["variant"] == "strike" and summary["players"] == 3
    assert summary["games"] == 4 and summary["finished"] == 4
    assert sum(summary["winners"].values()) == 4
    assert set(summary["winners"]) == {"red", "blue", "green"}
    assert summary["commands"] > summary["turns"] > 0
    assert "seconds" not in summary  # the rules measure nothing; the CLI times the run


def test_simulate_is_deterministic_for_a_seed():
    first = simulate_strike(4, 2, "same", SeededSource)
    second = simulate_strike(4, 2, "same", SeededSource)
    assert first == second
