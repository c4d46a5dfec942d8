"""RISK Strike games use the same session, journal, replay and redaction as the board game."""

from __future__ import annotations

import json

from pi_app.computer.strike_bot import StrikeBot
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.redaction import redact
from pi_app.rules.strike import waiting_for
from pi_app.session import GameSession

PLAYERS = ["red", "blue", "green"]


def _play(session: GameSession, commands: int) -> None:
    bot = StrikeBot()
    for _ in range(commands):
        if session.state.winner is not None:
            return
        player = waiting_for(session.state)[0]
        session.submit(bot.choose(session.state, player))


def test_a_strike_game_is_journaled_and_resumes_to_the_same_state(tmp_path):
    journal = Journal(tmp_path / "journal.sqlite")
    session = GameSession.new(journal, "strike", PLAYERS, {"reaction_seconds": 5},
                              dice=FairDice(b"s" * 32))
    _play(session, 60)
    resumed = GameSession.resume(Journal(tmp_path / "journal.sqlite"), session.game_id)
    assert resumed.state.to_dict() == session.state.to_dict()
    assert resumed.state.house_rules.reaction_seconds == 5


def test_a_strike_game_played_to_the_end_has_a_winner_with_two_coins(tmp_path):
    session = GameSession.new(Journal(tmp_path / "j.sqlite"), "strike", ["red", "blue"],
                              None, dice=FairDice(b"w" * 32))
    _play(session, 5000)
    winner = session.state.winner
    assert winner is not None
    coins = [c for c, holder in session.state.coins.items() if holder == winner]
    assert len(coins) >= 2


def test_the_one_redaction_function_hides_strike_hands_from_other_players(tmp_path):
    session = GameSession.new(Journal(tmp_path / "j.sqlite"), "strike", PLAYERS, None,
                              dice=FairDice(b"r" * 32))
    red_view = redact(session.state, "red")
    blue_view = redact(session.state, "blue")
    public = redact(session.state, None)
    assert red_view["my_hand"] == session.state.hands["red"]
    assert "hands" not in blue_view
    blue_text = json.dumps(blue_view)
    red_cards = set(session.state.hands["red"]) - set(session.state.hands["blue"])
    assert red_cards  # a real check: red holds cards blue must not see
    for card in red_cards:
        assert f'"{card}"' not in blue_text  # exact id as a JSON string, not a substring
    assert "my_hand" not in public and "hands" not in public
    assert public["hand_counts"]["red"] == len(session.state.hands["red"])
